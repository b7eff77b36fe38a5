package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/audittest"
	"github.com/fechado/fechado/sim/simtest"
	"github.com/fechado/fechado/tournament"
	"pgregory.net/rapid"
)

// playTournament plays cfg to its end and returns the log and the hands.
func playTournament(t testing.TB, cfg TournamentConfig) ([]byte, []*Hand) {
	t.Helper()
	ts, err := NewTournament(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	var hands []*Hand
	err = WriteAll(&b, func() (*Hand, error) {
		h, err := ts.Next()
		if h != nil {
			hands = append(hands, h)
		}
		return h, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), hands
}

// auditLog audits a log with one auditor, as `fechado audit` does, and returns its findings and
// the auditor.
func auditLog(t testing.TB, log []byte) ([]finding.Finding, *audit.Auditor) {
	t.Helper()
	return audittest.Findings(t, log, "tournament")
}

// errorsOf returns the findings of severity error.
func errorsOf(fs []finding.Finding) []finding.Finding {
	var out []finding.Finding
	for _, f := range fs {
		if f.Severity == finding.Error {
			out = append(out, f)
		}
	}
	return out
}

// independentPlaces is simtest.IndependentPlaces, failing t on a line it cannot read.
func independentPlaces(t *testing.T, log []byte, entries int) map[string]int {
	t.Helper()
	places, err := simtest.IndependentPlaces(log, entries)
	if err != nil {
		t.Fatal(err)
	}
	return places
}

// A tournament of 60 entries on 8 tables plays to its end under each ante preset and audits with
// no error; the standings the audit gives are those an independent reading of the log gives.
// Under -short br-fechado plays the full size and the other presets 20 entries on 3 tables, the
// same checks over fewer hands; make test-long plays every preset at full size.
func TestTournamentPlaysToTheEnd(t *testing.T) {
	for _, preset := range []string{"br-fechado", "tr-kapali", "std-draw"} {
		t.Run(preset, func(t *testing.T) {
			entries, tableCount := 60, 8
			if testing.Short() && preset != "br-fechado" {
				entries, tableCount = 20, 3
			}
			cfg := TournamentConfig{Rules: preset, Entries: entries, Tables: tableCount, Seed: 11}
			log, hands := playTournament(t, cfg)
			again, _ := playTournament(t, cfg)
			if !bytes.Equal(log, again) {
				t.Fatal("the same seed gave two different logs")
			}
			fs, a := auditLog(t, log)
			if errs := errorsOf(fs); len(errs) > 0 {
				t.Fatalf("%d errors, the first: %s", len(errs), errs[0].JSON())
			}
			tour := a.Tournaments().Get(DefaultTournament)
			if tour == nil || !tour.Finished() {
				t.Fatalf("the tournament did not finish after %d hands", len(hands))
			}
			tables := map[string]bool{}
			for _, h := range hands {
				tables[h.Events[0].Table] = true
			}
			if preset != "tr-kapali" && len(tables) != tableCount {
				t.Errorf("%d tables played, want %d", len(tables), tableCount)
			}
			want := independentPlaces(t, log, entries)
			got := map[string]int{}
			for _, s := range tour.Standings() {
				got[s.Player] = s.Place
			}
			if len(got) != entries || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("standings differ from the independent computation:\n got %v\nwant %v", got, want)
			}
			places := 0
			for _, f := range fs {
				if f.Code == finding.TournamentPlace {
					places++
					if p := f.Actual.(int); p != want[strings.Fields(f.Message)[0]] {
						t.Errorf("%s: place %d, want %d", f.Message, p, want[strings.Fields(f.Message)[0]])
					}
				}
			}
			if places != entries-1 {
				t.Errorf("%d tournament.place findings, want %d", places, entries-1)
			}
		})
	}
}

// Each tournament code injected is the only error the audit of the whole tournament reports, at
// the hand and event the simulator says.
func TestTournamentInjected(t *testing.T) {
	for _, preset := range []string{"br-fechado", "std-draw"} {
		for _, code := range TournamentInjectable() {
			t.Run(preset+"/"+string(code), func(t *testing.T) {
				log, hands := playTournament(t, TournamentConfig{Rules: preset, Entries: 40, Tables: 5, Seed: 5, Inject: []finding.Code{code}})
				want := map[string]events.Seq{}
				for _, h := range hands {
					if h.Injected != "" {
						if h.Injected != code {
							t.Fatalf("hand %s injected with %s", h.Events[0].Hand, h.Injected)
						}
						want[h.Events[0].Hand] = h.Seq
					}
				}
				if len(want) == 0 {
					t.Fatal("nothing injected")
				}
				fs, _ := auditLog(t, log)
				got := map[string]events.Seq{}
				for _, f := range errorsOf(fs) {
					if f.Code != code {
						t.Errorf("another error: %s", f.JSON())
						continue
					}
					if _, dup := got[f.Hand]; dup {
						t.Errorf("two %s in hand %s", code, f.Hand)
					}
					got[f.Hand] = f.Seq
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s reported at %v, injected at %v", code, got, want)
				}
			})
		}
	}
}

// The tables' logs given apart and merged in time order audit exactly as the tournament's one log.
func TestTournamentMerged(t *testing.T) {
	log, _ := playTournament(t, TournamentConfig{Rules: "br-fechado", Entries: 30, Tables: 4, Seed: 2,
		Inject: TournamentInjectable()})
	whole, _ := auditLog(t, log)
	byTable := map[string]*bytes.Buffer{}
	var order []string
	for _, line := range bytes.SplitAfter(log, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var e struct{ Table string }
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatal(err)
		}
		if byTable[e.Table] == nil {
			byTable[e.Table] = &bytes.Buffer{}
			order = append(order, e.Table)
		}
		byTable[e.Table].Write(line)
	}
	sort.Strings(order)
	var rs []*events.Reader
	for _, tb := range order {
		rs = append(rs, events.NewReader(bytes.NewReader(byTable[tb].Bytes()), tb))
	}
	var merged []finding.Finding
	a := audit.New(func(f finding.Finding) { merged = append(merged, f) })
	only := &tournament.Only{ID: DefaultTournament}
	if _, err := audit.AuditMerged(a, rs, only.Keep, nil); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if len(merged) != len(whole) {
		t.Fatalf("%d findings merged, %d in the whole log", len(merged), len(whole))
	}
	for i := range whole {
		if string(whole[i].JSON()) != string(merged[i].JSON()) {
			t.Errorf("finding %d: merged %s, whole %s", i, merged[i].JSON(), whole[i].JSON())
		}
	}
}

// lastStacks returns the stacks and the carry the last hand of a tournament log ends with.
func lastStacks(t testing.TB, hands []*Hand) (stacks []events.Chips, carry events.Chips) {
	t.Helper()
	if len(hands) == 0 {
		t.Fatal("no hand played")
	}
	evs := hands[len(hands)-1].Events
	end, ok := evs[len(evs)-1].Data.(*events.HandEnded)
	if !ok {
		t.Fatal("the last hand does not end with hand.ended")
	}
	for _, s := range end.Stacks {
		stacks = append(stacks, s.Stack)
	}
	return stacks, end.Carry
}

// `fechado sim --rules br-fechado --tournament --entries 60 --tables 8 --seed 7` (issue 39): its
// last two players come to a deal the short one antes all-in and nobody opens, his last chips
// carried to the next deal. events-v1.md §7 (2026-12-05): he is not out; dealt in to the next deal
// with stack 0, all-in, he plays for the carry, and the tournament ends only when one player
// holds every chip. So it ends with one player on 60,000 (60 entries of 1,000), nothing carried,
// and the audit calls it over with that winner.
func TestTournamentEndsWithEveryChipInOneStack(t *testing.T) {
	cfg := TournamentConfig{Rules: "br-fechado", Entries: 60, Tables: 8, Seed: 7}
	log, hands := playTournament(t, cfg)
	stacks, carry := lastStacks(t, hands)
	held := 0
	for _, s := range stacks {
		if s > 0 {
			held++
			if s != 60_000 {
				t.Errorf("the winner ends with %d chips, want 60000", s)
			}
		}
	}
	if held != 1 || carry != 0 {
		t.Fatalf("the last hand ends with stacks %v and a carry of %d; want one stack of 60000 and no carry", stacks, carry)
	}
	carried := 0
	for _, h := range hands {
		hs := h.Events[0].Data.(*events.HandStarted)
		for _, s := range hs.Seats {
			if s.Stack == 0 && hs.Carry > 0 {
				carried++ // dealt in with stack 0 and a share in the carry: the case of the issue
			}
		}
	}
	if carried == 0 {
		t.Error("no player was dealt in with stack 0 to a carried pot: the seed no longer shows the case")
	}
	fs, a := auditLog(t, log)
	if errs := errorsOf(fs); len(errs) > 0 {
		t.Fatalf("%d errors, the first: %s", len(errs), errs[0].JSON())
	}
	tour := a.Tournaments().Get(DefaultTournament)
	if tour == nil || !tour.Finished() {
		t.Fatal("the audit does not call the tournament over")
	}
	if st := tour.Standings(); st[0].Place != 1 || st[0].Chips != 60_000 {
		t.Errorf("the audit's winner: %+v, want place 1 on 60000", st[0])
	}
	if held, made := tour.Chips(); held != made || made != 60_000 {
		t.Errorf("the tables hold %d chips of %d", held, made)
	}
}

// Every simulated tournament, whatever its preset, size and seed, ends with one stack holding
// every chip and nothing carried (events-v1.md §7, 2026-12-05: "a tournament ends only when one
// player holds every chip, never with chips in a carried pot").
func TestTournamentEndsWithOneStackProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		preset := rapid.SampledFrom([]string{"br-fechado", "tr-kapali", "std-draw"}).Draw(rt, "preset")
		entries := rapid.IntRange(2, 14).Draw(rt, "entries")
		tables := rapid.IntRange(1, 3).Draw(rt, "tables")
		seed := rapid.Uint64().Draw(rt, "seed")
		cfg := TournamentConfig{Rules: preset, Entries: entries, Tables: tables, Seed: seed, Stack: 200}
		_, hands := playTournament(t, cfg)
		stacks, carry := lastStacks(t, hands)
		var total, top events.Chips
		for _, s := range stacks {
			total += s
			top = max(top, s)
		}
		if want := events.Chips(entries) * 200; carry != 0 || top != want || total != want {
			rt.Fatalf("ends with stacks %v and a carry of %d; want one stack of %d", stacks, carry, want)
		}
	})
}

// A tournament plants its colluders as a room does (TournamentConfig.Colluders): the pairs, of
// the kinds in turn, are entries, the draw seats each pair at one table, and the same seed plants
// the same pairs; a bad number of pairs or an unknown kind is refused.
func TestTournamentPlantsColludersAtOneTable(t *testing.T) {
	cfg := TournamentConfig{Rules: "std-draw", Entries: 40, Tables: 5, Seed: 9, Colluders: 3}
	ts, err := NewTournament(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pairs := ts.Pairs()
	if len(pairs) != 3 {
		t.Fatalf("%d pairs planted, want 3", len(pairs))
	}
	tableOf := map[string]string{}
	for _, tb := range ts.tables {
		for _, s := range tb.s.seats {
			tableOf[s.name] = tb.id
		}
	}
	seen := map[string]bool{}
	for i, p := range pairs {
		if p.Kind != CollusionKinds[i] {
			t.Errorf("pair %d is %s, want %s (the kinds in turn)", i+1, p.Kind, CollusionKinds[i])
		}
		if tableOf[p.A] == "" || tableOf[p.A] != tableOf[p.B] {
			t.Errorf("pair %s-%s drawn to tables %q and %q", p.A, p.B, tableOf[p.A], tableOf[p.B])
		}
		if seen[p.A] || seen[p.B] || p.A == p.B {
			t.Errorf("pair %s-%s shares a player with another", p.A, p.B)
		}
		seen[p.A], seen[p.B] = true, true
	}
	if len(tableOf) != 40 {
		t.Errorf("%d entries seated, want 40", len(tableOf))
	}
	again, err := NewTournament(cfg)
	if err != nil || fmt.Sprint(again.Pairs()) != fmt.Sprint(pairs) {
		t.Errorf("the same seed planted %v, then %v (%v)", pairs, again.Pairs(), err)
	}
	for _, bad := range []TournamentConfig{
		{Rules: "std-draw", Entries: 40, Colluders: 21},
		{Rules: "std-draw", Entries: 40, Colluders: 1, Collusion: []string{"whisper"}},
	} {
		if _, err := NewTournament(bad); err == nil {
			t.Errorf("%d pairs of %v among %d entries accepted", bad.Colluders, bad.Collusion, bad.Entries)
		}
	}
}
