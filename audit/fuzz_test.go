package audit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/testfiles"
)

// Bounds on the work of one fuzz input, so that no input can hang the fuzzer.
const (
	fuzzMaxEvents = 256     // events built from the bytes
	fuzzMaxBytes  = 1 << 16 // bytes read as raw lines
)

// FuzzAudit feeds the auditor two things built from each input:
//
//  1. a sequence of events whose types and field values are picked by the bytes (up to three
//     hands interleaved, seq and prev mostly right and sometimes wrong, seeds that sometimes
//     match their commitment), each sealed, decoded again with events.Parse and given to
//     Auditor.Add (or Auditor.Invalid when the decoder refuses it, as AuditReader does);
//  2. the input itself as JSON Lines through AuditReader.
//
// Either way the auditor must not panic or hang, must report only catalogued codes with their
// catalogue severity, and must count what it reported. The seed corpus is the first hand of each
// example vector (whole files would make each run, and minimization, slow).
func FuzzAudit(f *testing.F) {
	files, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	logs, _ := filepath.Glob(filepath.Join("testdata", "logs", "*.jsonl"))
	for _, p := range append(files, logs...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		// The first hand alone: whole files make each run and each minimization slow.
		if i := bytes.Index(b, []byte(`"type":"hand.ended"`)); i > 0 {
			if j := bytes.IndexByte(b[i:], '\n'); j > 0 {
				f.Add(b[:i+j+1])
			}
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add(bytes.Repeat([]byte{0x00, 0x05, 0x09, 0x13, 0x12}, 40))
	// Lines over the depth limit (docs/events.md, Input limits), inside a hand: the raw lines
	// are cut at fuzzMaxBytes, so these stay under it.
	if len(files) > 0 {
		if b, err := os.ReadFile(files[0]); err == nil {
			ls := bytes.SplitN(b, []byte("\n"), 4)
			if len(ls) == 4 {
				f.Add(bytes.Join([][]byte{ls[0], withDeepData(ls[1], events.MaxDepth), withDeepData(ls[2], 30_000), ls[3]}, []byte("\n")))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(a *Auditor, got *int) {
			a.Close()
			if a.Findings != *got {
				t.Fatalf("Auditor.Findings = %d, but %d findings were reported", a.Findings, *got)
			}
		}
		report := func(got *int) func(finding.Finding) {
			return func(fd finding.Finding) {
				*got++
				if !fd.Code.Known() {
					t.Fatalf("finding with an uncatalogued code %q: %s", fd.Code, fd.JSON())
				}
				if fd.Severity != fd.Code.Severity() && !(fd.Code == finding.CardExposed && fd.Severity == finding.Error) {
					t.Fatalf("finding %s has severity %s, the catalogue says %s", fd.Code, fd.Severity, fd.Code.Severity())
				}
			}
		}

		var n1 int
		a := New(report(&n1))
		newFuzzLog(data).feed(a)
		check(a, &n1)

		if len(data) > fuzzMaxBytes {
			data = data[:fuzzMaxBytes]
		}
		var n2 int
		b := New(report(&n2))
		if _, err := AuditReader(b, events.NewReader(bytes.NewReader(data), "fuzz.jsonl")); err != nil {
			var ee *events.Error
			if !errors.As(err, &ee) {
				t.Fatalf("AuditReader on bytes in memory: %v", err)
			}
		}
		check(b, &n2)
		sameWithRecycling(t, data)
	})
}

// sameWithRecycling fails t unless AuditReader reports the same findings of log whether it gives
// each audited hand's events back to the Reader (no Hand callback) or not (a Hand callback, which
// may keep them).
func sameWithRecycling(t *testing.T, log []byte) {
	t.Helper()
	run := func(keep bool) []string {
		var out []string
		a := New(func(f finding.Finding) { out = append(out, string(f.JSON())) })
		if keep {
			a.Hand = func(*HandResult) {}
		}
		AuditReader(a, events.NewReader(bytes.NewReader(log), "log.jsonl"))
		a.Close()
		return out
	}
	recycled, kept := run(false), run(true)
	if !slices.Equal(recycled, kept) {
		t.Fatalf("findings with the events given back to the Reader:\n%s\nwith the events kept:\n%s",
			strings.Join(recycled, "\n"), strings.Join(kept, "\n"))
	}
}

// The events of each audited hand go back to the Reader, which hands them out again as the
// events of later hands (events.Reader.Recycle): that changes nothing the audit reports, on every
// vector and test log.
func TestRecyclingChangesNoFinding(t *testing.T) {
	files, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	logs, _ := filepath.Glob(filepath.Join("testdata", "logs", "*.jsonl"))
	if len(files) == 0 || len(logs) == 0 {
		t.Fatal("no vector or test log")
	}
	for _, p := range append(files, logs...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(p), func(t *testing.T) { sameWithRecycling(t, b) })
	}
}

// fuzzLog turns fuzz bytes into events. Every choice reads the next byte; past the end the
// bytes are zeros, so every input builds a finite log.
type fuzzLog struct {
	b     []byte
	i     int
	ids   int
	hands [3]*fuzzHand
	seeds [4]cards.Seed
}

type fuzzHand struct {
	id, table string
	seq       events.Seq
	last      string // hash of the last line sealed
	seats     int
}

func newFuzzLog(b []byte) *fuzzLog {
	l := &fuzzLog{b: b}
	for i := range l.hands {
		l.hands[i] = &fuzzHand{id: fmt.Sprintf("0190a000-0000-7000-8000-%012d", i+1), table: "t" + string(rune('a'+i%2)), seats: 4}
	}
	for i := range l.seeds {
		for j := range l.seeds[i] {
			l.seeds[i][j] = byte(i*32 + j)
		}
	}
	return l
}

func (l *fuzzLog) more() bool { return l.i < len(l.b) }

func (l *fuzzLog) byte() byte {
	if l.i >= len(l.b) {
		return 0
	}
	c := l.b[l.i]
	l.i++
	return c
}

// n returns a number in [0, m).
func (l *fuzzLog) n(m int) int { return int(l.byte()) % m }

func (l *fuzzLog) seat() events.Seat { return events.Seat(1 + l.n(10)) }

func (l *fuzzLog) seatp() *events.Seat {
	if l.n(2) == 0 {
		return nil
	}
	s := l.seat()
	return &s
}

func (l *fuzzLog) chips() events.Chips { return events.Chips(l.n(256)) }

func (l *fuzzLog) card() cards.Card { return cards.Card(l.n(cards.NumCards)) }

func (l *fuzzLog) cards(max int) []cards.Card {
	cs := make([]cards.Card, l.n(max+1))
	for i := range cs {
		cs[i] = l.card()
	}
	return cs
}

func (l *fuzzLog) intp(m int) *int {
	if l.n(2) == 0 {
		return nil
	}
	v := l.n(m)
	return &v
}

// feed builds the events and gives them to a.
func (l *fuzzLog) feed(a *Auditor) {
	for k := 0; k < fuzzMaxEvents && l.more(); k++ {
		h := l.hands[l.n(len(l.hands))]
		op := l.byte()
		typ := events.Types[l.n(len(events.Types))]
		if h.seq == 0 && op&7 != 0 {
			typ = events.HandStartedType
		}
		seq := h.seq + 1
		if op&0x60 == 0x60 {
			seq += events.Seq(l.n(3)) - 1 // a gap, a repeat or (rarely) right
		}
		prev := h.last
		if op&0x90 == 0x90 {
			prev = events.Hash([]byte{l.byte()}) // a broken link
		}
		l.ids++
		id := l.ids
		if op&0x88 == 0x88 && id > 1 {
			id-- // an id used twice
		}
		e := &events.Event{
			ID: fmt.Sprintf("0190a000-0000-7000-9000-%012d", id), Table: h.table, Hand: h.id, Seq: seq,
			At: fmt.Sprintf("2026-11-29T13:%02d:%02dZ", k/60%60, k%60), Type: typ, Data: l.data(typ, h),
		}
		events.Seal(e, prev)
		h.seq, h.last = seq, events.Hash(e.Raw)
		if typ == events.HandEndedType && op&1 == 0 {
			// A new hand under the same slot, so the table's continuity is exercised too.
			l.ids++
			h.id, h.seq, h.last = fmt.Sprintf("0190a000-0000-7000-a000-%012d", l.ids), 0, ""
		}
		p, err := events.Parse(e.Raw)
		if err != nil {
			a.Invalid(err, e.Hand, e.Table, e.Seq)
			continue
		}
		a.Add(p)
	}
}

var fuzzPresets = []string{"br-fechado", "br-online", "tr-kapali", "std-draw", "online-draw", "no-such-preset"}

// data builds the payload of one event of type t.
func (l *fuzzLog) data(t events.Type, h *fuzzHand) events.Data {
	switch t {
	case events.HandStartedType:
		h.seats = 2 + l.n(7)
		d := &events.HandStarted{
			Rules:  events.Rules{Name: fuzzPresets[l.n(len(fuzzPresets))]},
			Number: l.n(5), Dealer: l.seat(),
			Stakes: events.Stakes{Ante: events.Chips(l.n(10)), MinBet: events.Chips(l.n(20)), MaxBet: events.Chips(l.n(200))},
			Carry:  events.Chips(l.n(50)), PassedOut: l.n(3),
		}
		if l.n(4) == 0 {
			d.Rules.Overrides = []events.Override{{Key: "deck_low", Value: []byte(`"7"`)}}
		}
		skip := l.n(3) // 0: seats 1..n; else a gap before some seats
		for i := 0; i < h.seats; i++ {
			s := events.Seat(i + 1)
			if skip > 0 && i >= skip {
				s++
			}
			d.Seats = append(d.Seats, events.SeatStack{Seat: s, Player: fmt.Sprintf("p%d", i), Stack: events.Chips(l.n(64)) * 10})
		}
		return d
	case events.DeckShuffledType:
		d := &events.DeckShuffled{Method: cards.PhysicalMethod, Count: l.intp(5), By: l.seatp()}
		if l.n(3) != 0 {
			d.Method, d.Count = cards.ShuffleMethod, nil
			d.Commitment = l.seeds[l.n(len(l.seeds))].Commitment()
		}
		if l.n(4) == 0 {
			set := cards.SetOf(l.cards(12)...)
			d.Cards = set.Cards()
		}
		return d
	case events.DeckCutType:
		return &events.DeckCut{At: l.n(53), By: l.seatp()}
	case events.AntePostedType:
		return &events.AntePosted{Seat: l.seat(), Amount: events.Chips(l.n(12))}
	case events.BlindPostedType:
		return &events.BlindPosted{Seat: l.seat(), Amount: l.chips(), Blind: []events.BlindKind{events.BlindSmall, events.BlindBig, events.BlindDead}[l.n(3)]}
	case events.CardDealtType:
		return &events.CardDealt{Seat: l.seat(), Card: l.card(), Unknown: l.n(8) == 0, Phase: []events.Phase{events.PhaseDeal, events.PhaseDraw}[l.n(2)]}
	case events.CardBurnedType:
		return &events.CardBurned{Card: l.card()}
	case events.CardExposedType:
		d := &events.CardExposed{Card: l.card(), Phase: []events.Phase{events.PhaseCut, events.PhaseDeal, events.PhaseDraw, events.PhaseShowdown}[l.n(4)], Seat: l.seatp()}
		d.Cause = []events.Cause{"", events.CauseDealer, events.CausePlayer}[l.n(3)]
		return d
	case events.MisdealDeclaredType:
		return &events.MisdealDeclared{Reason: "fuzz"}
	case events.PlayerActedType:
		act := []events.Action{events.Check, events.Bet, events.Call, events.Raise, events.Fold}[l.n(5)]
		amt := l.chips()
		if act == events.Check || act == events.Fold {
			amt = 0
		}
		return &events.PlayerActed{Seat: l.seat(), Round: []events.Round{events.RoundBlind, events.RoundFirst, events.RoundSecond}[l.n(3)], Action: act, Amount: amt}
	case events.CardsDiscardedType:
		return &events.CardsDiscarded{Seat: l.seat(), Cards: l.cards(5), Declared: l.intp(6)}
	case events.OpenersShownType:
		return &events.OpenersShown{Seat: l.seat(), Cards: l.cards(5)}
	case events.HandShownType:
		return &events.HandShown{Seat: l.seat(), Cards: l.cards(5)}
	case events.HandMuckedType:
		return &events.HandMucked{Seat: l.seat()}
	case events.BetReturnedType:
		return &events.BetReturned{Seat: l.seat(), Amount: l.chips()}
	case events.PotRakedType:
		return &events.PotRaked{Pot: l.n(3), Amount: events.Chips(l.n(10))}
	case events.PotAwardedType:
		return &events.PotAwarded{Seat: l.seat(), Amount: l.chips(), Pot: l.n(3)}
	case events.HandPassedType:
		return &events.HandPassed{}
	case events.DeckRevealedType:
		return &events.DeckRevealed{Shuffle: events.Seq(l.n(int(h.seq) + 2)), Seed: l.seeds[l.n(len(l.seeds))]}
	case events.HandEndedType:
		d := &events.HandEnded{Carry: events.Chips(l.n(50))}
		for i := 0; i < h.seats; i++ {
			d.Stacks = append(d.Stacks, events.SeatChips{Seat: events.Seat(i + 1), Stack: events.Chips(l.n(64)) * 10})
		}
		return d
	}
	return &events.HandPassed{}
}
