package audit

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/events/handorder"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/replay"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/tournament"
)

// refAuditor is the Auditor as it was before its bookkeeping was made allocation-free: a map
// lookup per event, maps per hand for the shuffles, reveals and seeds, a fresh result and
// pending per hand, and a fresh table state with maps of stacks and seats. The differential
// tests below hold Auditor to it.
type refAuditor struct {
	report   func(finding.Finding)
	chain    *events.Chain
	open     map[string]*pending
	order    []string
	tables   map[string]*refTableState
	findings int
	// seq and tours are the Auditor's own order of a table's hands (handorder) and of the
	// tournaments' (tournament.Follow at Close): order is not bookkeeping, so the reference
	// follows it too.
	seq   handorder.Sequencer[refHeld]
	tours []tournament.Hand
}

// refHeld is an audited hand waiting to be judged against the hand before it.
type refHeld struct {
	p     *pending
	fs    []finding.Finding
	h     *rules.Hand
	first *events.Event
	evs   []*events.Event
}

// refTableState keeps the players of a table's last hand in maps; the rest of what the hand left
// (dealer, starter, seats, carry, passed-out count) is the Auditor's tableState, its players unused.
type refTableState struct {
	last   tableState
	stacks map[string]events.Chips
	seatOf map[string]events.Seat
}

func newRef(fn func(finding.Finding)) *refAuditor {
	a := &refAuditor{report: fn, chain: events.NewChain(), open: map[string]*pending{}, tables: map[string]*refTableState{}}
	a.seq.Release = func(_ handorder.Link, r refHeld) {
		fs := r.fs
		if r.h != nil {
			fs = append(fs, a.continuity(r.p.table, r.first, r.h)...)
			if th, ok := tournament.HandOf(r.evs); ok {
				a.tours = append(a.tours, th)
			}
		}
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Seq < fs[j].Seq })
		for _, f := range fs {
			a.emit(f)
		}
	}
	return a
}

func (a *refAuditor) emit(f finding.Finding) {
	a.findings++
	a.report(f)
}

func (a *refAuditor) Add(e *events.Event) {
	p := a.open[e.Hand]
	if p == nil && a.chain.Ended(e.Hand) {
		for _, pr := range a.chain.Check(e) {
			a.emit(chainFinding(e, pr))
		}
		return
	}
	if p == nil {
		p = &pending{table: e.Table, hand: e.Hand}
		a.open[e.Hand] = p
		a.order = append(a.order, e.Hand)
	}
	if p.take(e, a.chain.Check(e)) {
		a.finish(p)
	}
}

func (a *refAuditor) Close() {
	for _, h := range a.order {
		if p, ok := a.open[h]; ok {
			a.finish(p)
		}
	}
	a.order = nil
	a.seq.Close()
	_, fs := tournament.Follow(a.tours)
	for _, f := range fs {
		a.emit(f)
	}
}

func (a *refAuditor) finish(p *pending) {
	delete(a.open, p.hand)
	if len(a.order) > 0 && a.order[0] == p.hand {
		a.order = a.order[1:]
	} else {
		for i, h := range a.order {
			if h == p.hand {
				a.order = append(a.order[:i], a.order[i+1:]...)
				break
			}
		}
	}
	a.chain.Forget(p.hand)
	r := refHeld{p: p}
	r.fs = a.auditHand(p, &r)
	l, ok := handorder.Link{}, false
	if r.first != nil {
		l, ok = handorder.LinkOf(r.first)
	}
	if !ok {
		a.seq.Release(l, r)
		return
	}
	a.seq.Add(l, r)
}

func (a *refAuditor) auditHand(p *pending, r *refHeld) []finding.Finding {
	var out []finding.Finding
	add := func(f finding.Finding) { out = append(out, f) }
	out = append(out, p.faults...)
	if len(p.events) == 0 {
		return out
	}
	evs := p.events
	if !sort.SliceIsSorted(evs, func(i, j int) bool { return evs[i].Seq < evs[j].Seq }) {
		evs = append([]*events.Event(nil), evs...)
		sort.SliceStable(evs, func(i, j int) bool { return evs[i].Seq < evs[j].Seq })
	}
	first := evs[0]
	if first.Type != events.HandStartedType {
		add(mk(p.hand, p.table, first.Seq, finding.LogSchema, 0, "the hand does not begin with hand.started", events.HandStartedType, first.Type))
		return out
	}
	r.first = first
	seeds := map[events.Seq]cards.Seed{}
	shuffles := map[events.Seq]*events.DeckShuffled{}
	for _, e := range evs {
		if d, ok := e.Data.(*events.DeckShuffled); ok {
			shuffles[e.Seq] = d
		}
	}
	revealed := map[events.Seq]bool{}
	for _, e := range evs {
		d, ok := e.Data.(*events.DeckRevealed)
		if !ok {
			continue
		}
		sh, ok := shuffles[d.Shuffle]
		switch {
		case !ok:
			add(mk(p.hand, p.table, e.Seq, finding.LogSchema, 0, fmt.Sprintf("deck.revealed names seq %d, which is not a deck.shuffled", d.Shuffle), nil, d.Shuffle))
		case sh.Commitment != "" && d.Seed.Commitment() != sh.Commitment:
			add(mk(p.hand, p.table, e.Seq, finding.DeckCommitment, 0, fmt.Sprintf("the seed revealed for the shuffle at seq %d does not hash to its commitment", d.Shuffle), sh.Commitment, d.Seed.Commitment()))
		default:
			seeds[d.Shuffle] = d.Seed
		}
		revealed[d.Shuffle] = true
	}
	ended := evs[len(evs)-1].Type == events.HandEndedType
	for _, e := range evs {
		if d, ok := e.Data.(*events.DeckShuffled); ok && d.Method == cards.ShuffleMethod && !revealed[e.Seq] && ended {
			add(mk(p.hand, p.table, e.Seq, finding.DeckUnrevealed, 0, "the seed of this machine shuffle is never revealed: the deal cannot be verified", "deck.revealed", nil))
		}
	}
	h, err := rules.NewHand(first)
	if err != nil {
		add(mk(p.hand, p.table, first.Seq, finding.LogSchema, 0, err.Error(), nil, nil))
		return out
	}
	h.Seeds = seeds
	for _, e := range evs[1:] {
		h.Apply(e)
	}
	for _, v := range h.Violations {
		f := mk(p.hand, p.table, v.Seq, v.Code, v.Seat, v.Message, v.Expected, v.Actual)
		if v.Severity != "" {
			f.Severity = v.Severity
		}
		add(f)
	}
	if !ended {
		last := evs[len(evs)-1]
		add(mk(p.hand, p.table, last.Seq, finding.LogIncomplete, 0, "the hand has no hand.ended: still running, or cut short", nil, nil))
		return out
	}
	r.h, r.evs = h, evs // judged against the hand before it once that one is (seq)
	return out
}

func (a *refAuditor) continuity(table string, first *events.Event, h *rules.Hand) []finding.Finding {
	hs := h.Start
	var out []finding.Finding
	prev := a.tables[table]
	p := h.Preset
	// The seat, carry and dealer checks are the auditor's own functions, given a table state made
	// from the reference's maps: what is compared here is the bookkeeping around them.
	var ts *tableState
	if prev != nil {
		last := prev.last
		ts = &last
		for name, st := range prev.stacks {
			ts.players = append(ts.players, playerEnd{name: name, seat: prev.seatOf[name], stack: st})
		}
	}
	out = seatingAllowed(out, first, table, hs, p, ts)
	out = seatConflicts(out, first, table, hs)
	if prev != nil {
		out = seatsAcross(out, first, table, hs, ts)
		out = carryAcross(out, first, table, hs, ts)
		var seats []events.Seat
		for _, s := range hs.Seats {
			seats = append(seats, s.Seat)
		}
		out = dealerAcross(out, first, table, hs, p, seats, ts)
	}
	st := &refTableState{last: tableState{dealer: hs.Dealer, carry: h.ExpectedCarry(), passedOut: hs.PassedOut, passed: h.Passed,
		misdeal: h.Misdeal}, stacks: map[string]events.Chips{}, seatOf: map[string]events.Seat{}}
	for _, s := range hs.Seats {
		st.last.seats = append(st.last.seats, s.Seat)
	}
	st.last.starter = rules.NextSeat(st.last.seats, hs.Dealer)
	for _, pl := range h.Players {
		st.stacks[pl.Name] = pl.Stack
		st.seatOf[pl.Name] = pl.Seat
	}
	for _, aw := range hs.Away {
		if _, ok := st.stacks[aw.Player]; !ok {
			st.stacks[aw.Player] = aw.Stack
			st.seatOf[aw.Player] = aw.Seat
		}
	}
	if end := h.Ended(); end != nil {
		st.last.carry = end.Carry
		bySeat := map[events.Seat]events.Chips{}
		for _, s := range end.Stacks {
			bySeat[s.Seat] = s.Stack
		}
		for _, pl := range h.Players {
			if v, ok := bySeat[pl.Seat]; ok {
				st.stacks[pl.Name] = v
			}
		}
	}
	a.tables[table] = st
	return out
}

// normalize orders the "still has chips but was neither dealt in, away nor listed as gone" findings of one hand start by
// message: refAuditor reports them in the order of a map.
func normalize(fs []finding.Finding) []finding.Finding {
	fs = append([]finding.Finding(nil), fs...)
	seating := func(f finding.Finding) bool {
		return f.Code == finding.TableSeating && strings.HasSuffix(f.Message, "but was neither dealt in, away nor listed as gone")
	}
	for i := 0; i < len(fs); {
		j := i + 1
		for j < len(fs) && seating(fs[i]) && seating(fs[j]) && fs[j].Hand == fs[i].Hand && fs[j].Seq == fs[i].Seq {
			j++
		}
		sort.SliceStable(fs[i:j], func(x, y int) bool { return fs[i+x].Message < fs[i+y].Message })
		i = j
	}
	return fs
}

// auditBoth audits evs with the Auditor (without and with a Hand callback, which keeps every
// result and pending) and with refAuditor, and fails unless all three report the same findings.
func auditBoth(t *testing.T, name string, evs []*events.Event) {
	t.Helper()
	var want []finding.Finding
	ref := newRef(func(f finding.Finding) { want = append(want, f) })
	for _, e := range evs {
		ref.Add(e)
	}
	ref.Close()
	want = normalize(want)
	for _, keep := range []bool{false, true} {
		var got []finding.Finding
		a := New(func(f finding.Finding) { got = append(got, f) })
		hands := 0
		if keep {
			a.Hand = func(h *HandResult) { hands++ }
		}
		for _, e := range evs {
			a.Add(e)
		}
		a.Close()
		if keep && hands != a.Hands {
			t.Errorf("%s: %d hands passed to Hand, %d audited", name, hands, a.Hands)
		}
		if got = normalize(got); !reflect.DeepEqual(got, want) {
			t.Errorf("%s (Hand callback %v): the findings differ from the reference", name, keep)
			for i := range max(len(got), len(want)) {
				var g, w finding.Finding
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					w = want[i]
				}
				if !reflect.DeepEqual(g, w) {
					t.Errorf("  #%d: got  %+v\n        want %+v", i, g, w)
				}
			}
		}
		if a.Findings != ref.findings {
			t.Errorf("%s: Findings = %d, want %d", name, a.Findings, ref.findings)
		}
	}
}

// readEvents decodes the lines of a file that decode.
func readEvents(t *testing.T, path string) []*events.Event {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var evs []*events.Event
	for _, l := range bytes.Split(b, []byte("\n")) {
		if e, err := events.Parse(l); err == nil {
			evs = append(evs, e)
		}
	}
	return evs
}

// The logs of every audit script case (see TestScripts), the example vectors and the test logs
// audit as refAuditor audits them, findings, messages and values alike.
func TestAuditorMatchesReferenceOnScripts(t *testing.T) {
	for _, path := range testLogs(t) {
		auditBoth(t, path, readEvents(t, path))
	}
}

// Random logs made of the vectors' hands — interleaved, repeated, with events dropped, moved and
// doubled, and tables renamed — audit as refAuditor audits them: the cache of the last hand, the
// reuse of pendings and results and the table states rewritten in place change nothing. Under
// -short fewer random logs are tried (each of the mutations still comes up many times); make
// test-long tries them all.
func TestAuditorMatchesReferenceOnShuffledLogs(t *testing.T) {
	vectors, _ := filepath.Glob(testfiles.Path("vectors", "table-*.jsonl"))
	var base [][]*events.Event // hands, in file order
	for _, path := range vectors {
		base = append(base, replay.Group(readEvents(t, path))...)
	}
	if len(base) < 10 {
		t.Fatalf("only %d hands in the vectors", len(base))
	}
	seeds := uint64(150)
	if testing.Short() {
		seeds = 50
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 11))
		var hands [][]*events.Event
		for range 1 + r.IntN(40) {
			h := append([]*events.Event(nil), base[r.IntN(len(base))]...)
			for range r.IntN(3) {
				i := r.IntN(len(h))
				switch r.IntN(7) {
				case 0:
					h = append(h[:i], h[i+1:]...)
				case 1:
					h = append(h[:i+1], h[i:]...)
				case 2:
					j := r.IntN(len(h))
					h[i], h[j] = h[j], h[i]
				case 3:
					c := *h[i]
					c.Table = "moved"
					h[i] = &c
				case 4:
					// The same player in two seats.
					if d, ok := h[0].Data.(*events.HandStarted); ok && len(d.Seats) > 1 {
						cd := *d
						cd.Seats = append([]events.SeatStack(nil), d.Seats...)
						cd.Seats[r.IntN(len(cd.Seats))].Player = cd.Seats[r.IntN(len(cd.Seats))].Player
						c := *h[0]
						c.Data = &cd
						h[0] = &c
					}
				case 5:
					// A seat twice in hand.ended, with another stack.
					last := len(h) - 1
					if d, ok := h[last].Data.(*events.HandEnded); ok && len(d.Stacks) > 0 {
						cd := *d
						st := d.Stacks[r.IntN(len(d.Stacks))]
						st.Stack += events.Chips(1 + r.IntN(9))
						cd.Stacks = append(append([]events.SeatChips(nil), d.Stacks...), st)
						c := *h[last]
						c.Data = &cd
						h[last] = &c
					}
				case 6:
					// A second deck.shuffled with the same seq and another commitment.
					for j, e := range h {
						if d, ok := e.Data.(*events.DeckShuffled); ok {
							cd := *d
							cd.Commitment = events.Hash([]byte{byte(j)})
							c := *e
							c.Data = &cd
							h = append(h[:j+1], append([]*events.Event{&c}, h[j+1:]...)...)
							break
						}
					}
				}
				if len(h) == 0 {
					break
				}
			}
			hands = append(hands, h)
		}
		// Interleave: each step takes the next event of one of up to k hands open at once.
		k := 1 + r.IntN(3)
		var evs []*events.Event
		var open [][]*events.Event
		for len(hands) > 0 || len(open) > 0 {
			for len(open) < k && len(hands) > 0 {
				open, hands = append(open, hands[0]), hands[1:]
			}
			i := r.IntN(len(open))
			if len(open[i]) > 0 {
				evs = append(evs, open[i][0])
				open[i] = open[i][1:]
			}
			if len(open[i]) == 0 {
				open = append(open[:i], open[i+1:]...)
			}
		}
		auditBoth(t, fmt.Sprintf("seed %d", seed), evs)
	}
}

// Once its windows are full, the Auditor's bookkeeping allocates nothing for the events of a
// hand before its hand.ended: the chain, the open hands and the pending's events reuse what the
// hands before them left (the replay at hand.ended, through the rules, is not counted).
func TestAddAllocatesNothingPerEvent(t *testing.T) {
	path, _ := benchLog(t, t.TempDir(), 12)
	hands := replay.Group(readEvents(t, path))
	a := New(nil)
	a.chain.Window, a.chain.IDWindow = 16, 512
	warm := len(hands) / 2
	for _, h := range hands[:warm] {
		for _, e := range h {
			a.Add(e)
		}
	}
	var before, after runtime.MemStats
	var mallocs uint64
	n := 0
	for _, h := range hands[warm:] {
		runtime.ReadMemStats(&before)
		for _, e := range h[:len(h)-1] {
			a.Add(e)
		}
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		n += len(h) - 1
		a.Add(h[len(h)-1])
	}
	if a.Findings != 0 || a.Hands != len(hands) {
		t.Fatalf("%d findings, %d of %d hands", a.Findings, a.Hands, len(hands))
	}
	if mallocs != 0 {
		t.Errorf("%d allocations for %d events", mallocs, n)
	}
}
