package sim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// auditRun simulates cfg and audits the log; it returns the hands and the findings.
func auditRun(t testing.TB, cfg Config) ([]*Hand, []finding.Finding) {
	t.Helper()
	hands, err := All(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, h := range hands {
		if err := WriteHand(&buf, h); err != nil {
			t.Fatal(err)
		}
	}
	fs, _ := auditLog(t, buf.Bytes())
	return hands, fs
}

// clean fails the test on every finding but the card.exposed warnings of the dealer's
// deliberate exposures.
func clean(t *testing.T, hands []*Hand, fs []finding.Finding) {
	t.Helper()
	exposed := map[string]bool{}
	for _, h := range hands {
		exposed[h.Events[0].Hand] = h.Exposed
	}
	bad := 0
	for _, f := range fs {
		if f.Code == finding.CardExposed && exposed[f.Hand] {
			continue
		}
		if bad++; bad <= 10 {
			t.Errorf("%s", f.JSON())
		}
	}
}

// TestClean plays 60 hands at every preset and player count: the auditor finds nothing but the
// card.exposed warnings of the exposures the dealer makes on purpose.
func TestClean(t *testing.T) {
	for _, name := range rules.Names() {
		p, _ := rules.Lookup(name)
		for n := p.MinPlayers; n <= p.MaxPlayers; n++ {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				t.Parallel()
				hands, fs := auditRun(t, Config{Rules: name, Players: n, Hands: 60, Seed: uint64(n)*7 + 1, ExposeRate: 0.1})
				clean(t, hands, fs)
				if len(hands) < 5 {
					t.Errorf("only %d hands played", len(hands))
				}
			})
		}
	}
}

// TestLong plays at least 10,000 hands per preset (without -short: make test-long): tables of every player
// count in turn, each until 1,000 hands or one player holds every chip.
func TestLong(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 10,000 hands per preset run without it (make test-long)")
	}
	for _, name := range rules.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, _ := rules.Lookup(name)
			total := 0
			for table := 0; total < 10000; table++ {
				n := p.MinPlayers + table%(p.MaxPlayers-p.MinPlayers+1)
				hands, fs := auditRun(t, Config{Rules: name, Players: n, Hands: 1000, Seed: uint64(5000 + table)})
				clean(t, hands, fs)
				total += len(hands)
			}
			t.Logf("%s: %d hands", name, total)
		})
	}
}

func simBytes(t testing.TB, cfg Config) []byte {
	var b bytes.Buffer
	if err := Run(cfg, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDeterministic(t *testing.T) {
	for _, name := range rules.Names() {
		cfg := Config{Rules: name, Players: 4, Hands: 20, Seed: 42, Inject: InjectableFor(name)[:5]}
		a, b := simBytes(t, cfg), simBytes(t, cfg)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the same seed gave different bytes", name)
		}
		cfg.Seed = 43
		c := simBytes(t, cfg)
		if bytes.Equal(a, c) {
			t.Errorf("%s: seeds 42 and 43 gave the same bytes", name)
		}
		// Different seeds deal different cards, not only different ids.
		first := func(b []byte) string {
			for _, l := range strings.Split(string(b), "\n") {
				if strings.Contains(l, `"phase":"deal"`) {
					e, err := events.Parse([]byte(l))
					if err != nil {
						t.Fatal(err)
					}
					return e.Data.(*events.CardDealt).Card.String()
				}
			}
			return ""
		}
		deals := map[string]bool{}
		cfg.Hands, cfg.Inject = 1, nil
		for seed := uint64(1); seed <= 8; seed++ {
			cfg.Seed = seed
			deals[first(simBytes(t, cfg))] = true
		}
		if len(deals) < 3 {
			t.Errorf("%s: 8 seeds dealt only %d different first cards", name, len(deals))
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Rules: "nope", Players: 4, Hands: 1},
		{Rules: "br-online", Players: 5, Hands: 1},
		{Rules: "std-draw", Players: 1, Hands: 1},
		{Rules: "std-draw", Players: 4, Hands: 1, Table: "bad table"},
		{Rules: "std-draw", Players: 4, Hands: 1, Inject: []finding.Code{finding.BlindAmount}},
		{Rules: "std-draw", Players: 4, Hands: 1, Inject: []finding.Code{finding.OpenFalseOpenerPaid}},
		{Rules: "std-draw", Players: 4, Hands: 1, Inject: []finding.Code{finding.OpenNotAllowed}},
		{Rules: "std-draw", Players: 4, Hands: 1, Stakes: &events.Stakes{Ante: 5}},
	} {
		if _, err := New(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: got %v, want ErrConfig", cfg, err)
		}
	}
}

// TestStopsWhenWon plays a heads-up match to its end: one player holds every chip.
func TestStopsWhenWon(t *testing.T) {
	s, err := New(Config{Rules: "br-online", Players: 2, Hands: 100000, Seed: 7, Stack: 100})
	if err != nil {
		t.Fatal(err)
	}
	var last *Hand
	if err := forEach(s.Next, func(h *Hand) error { last = h; return nil }); err != nil {
		t.Fatal(err)
	}
	if !s.Won() || last == nil {
		t.Fatal("the match did not end")
	}
	end := last.Events[len(last.Events)-1].Data.(*events.HandEnded)
	with := 0
	for _, st := range end.Stacks {
		if st.Stack > 0 {
			with++
			if st.Stack != 200 {
				t.Errorf("the winner holds %d chips, not 200", st.Stack)
			}
		}
	}
	if with != 1 {
		t.Errorf("%d players hold chips at the end", with)
	}
}

// BenchmarkSimulate measures hands played per second (with the events encoded and sealed, no
// audit).
func BenchmarkSimulate(b *testing.B) {
	for _, name := range rules.Names() {
		b.Run(name, func(b *testing.B) {
			hands := 0
			var s *Sim
			for b.Loop() {
				if s == nil {
					s, _ = New(Config{Rules: name, Players: 4, Hands: 1 << 30, Seed: uint64(hands)})
				}
				if _, err := s.Next(); err == io.EOF {
					s = nil
					continue
				}
				hands++
			}
			b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
		})
	}
}
