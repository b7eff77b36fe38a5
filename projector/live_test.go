package projector

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

func parseAll(t *testing.T, lines [][]byte) []*events.Event {
	t.Helper()
	evs := make([]*events.Event, len(lines))
	for i, l := range lines {
		e, err := events.Parse(bytes.Clone(l))
		if err != nil {
			t.Fatal(err)
		}
		evs[i] = e
	}
	return evs
}

// Live never shows a card dealt face down that nobody has seen, nor a seed, at any step.
func TestLiveHidesFaceDownCards(t *testing.T) {
	evs := parseAll(t, buildCorpus(t, 1))
	live := NewLive()
	hidden := map[string]map[cards.Card]bool{} // per table: cards dealt and not seen face up
	var seeds []string
	checked := 0
	for _, e := range evs {
		if e.Type == events.HandStartedType {
			hidden[e.Table] = map[cards.Card]bool{}
		}
		switch d := e.Data.(type) {
		case *events.CardDealt:
			if !d.Unknown {
				hidden[e.Table][d.Card] = true
			}
		case *events.CardExposed:
			delete(hidden[e.Table], d.Card)
		case *events.HandShown:
			for _, c := range d.Cards {
				delete(hidden[e.Table], c)
			}
		case *events.OpenersShown:
			for _, c := range d.Cards {
				delete(hidden[e.Table], c)
			}
		case *events.DeckRevealed:
			seeds = append(seeds, d.Seed.String())
		}
		live.Apply(e)
		st, ok := live.Table(e.Table)
		if !ok {
			t.Fatalf("table %s unknown after %s", e.Table, e.Type)
		}
		js, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		for c := range hidden[e.Table] {
			if bytes.Contains(js, []byte(`"`+c.String()+`"`)) {
				t.Fatalf("%s seq %d: Live shows face-down card %s: %s", e.Hand, e.Seq, c, js)
			}
			checked++
		}
		for _, s := range seeds {
			if bytes.Contains(js, []byte(s)) {
				t.Fatalf("Live shows a seed: %s", js)
			}
		}
	}
	if checked < 1000 || len(seeds) == 0 {
		t.Fatalf("checked %d hidden cards and %d seeds: the corpus should exercise more", checked, len(seeds))
	}
}

// Live's stacks, pot and turn follow the log: after each action, the next action of the same
// round is by the seat Live said was to act; at the end the stacks are hand.ended's.
func TestLiveFollowsTheHand(t *testing.T) {
	evs := parseAll(t, buildCorpus(t, 1))
	live := NewLive()
	prevAction := map[string]*events.PlayerActed{} // per hand: the last event, if an action
	toAct := map[string]events.Seat{}
	turns := 0
	for _, e := range evs {
		live.Apply(e)
		st, _ := live.Table(e.Table)
		if d, ok := e.Data.(*events.PlayerActed); ok {
			if p := prevAction[e.Hand]; p != nil && p.Round == d.Round {
				if toAct[e.Hand] != d.Seat {
					t.Errorf("%s seq %d: seat %d acted, Live said seat %d", e.Hand, e.Seq, d.Seat, toAct[e.Hand])
				}
				turns++
			}
			prevAction[e.Hand], toAct[e.Hand] = d, st.ToAct
		} else {
			prevAction[e.Hand] = nil
		}
		if d, ok := e.Data.(*events.HandEnded); ok {
			if st.Stage != rules.StageEnded || st.Pot != d.Carry {
				t.Errorf("%s: stage %s pot %d at the end, want ended, %d", e.Hand, st.Stage, st.Pot, d.Carry)
			}
			for _, s := range d.Stacks {
				for _, ls := range st.Seats {
					if ls.Seat == s.Seat && ls.Stack != s.Stack {
						t.Errorf("%s seat %d: Live stack %d, hand.ended %d", e.Hand, s.Seat, ls.Stack, s.Stack)
					}
				}
			}
		}
	}
	if turns < 100 {
		t.Fatalf("only %d turns checked", turns)
	}
}

// Readers and subscribers run while events are applied (go test -race checks the locking), and
// a subscriber learns of every table that changed.
func TestLiveConcurrentReaders(t *testing.T) {
	evs := parseAll(t, buildCorpus(t, 1))
	live := NewLive()
	sub := live.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	seen := map[string]bool{}
	wg.Add(2)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			for _, ts := range live.Tables() {
				_ = len(ts.Seats)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for {
			ids, err := sub.Next(ctx)
			if err != nil {
				return
			}
			for _, id := range ids {
				seen[id] = true
				live.Table(id)
			}
		}
	}()
	for _, e := range evs {
		live.Apply(e)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		sub.mu.Lock()
		pending := len(sub.pending)
		sub.mu.Unlock()
		if pending == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	wg.Wait()
	if len(seen) != len(vectorFiles) {
		t.Fatalf("subscriber saw %d tables, want %d", len(seen), len(vectorFiles))
	}
}

// TablesIf copies only the tables its reader calls stale, and a table's version moves with each
// event shown of it and with nothing else: a reader that keeps what it built of each table by
// version rebuilds exactly the tables that changed.
func TestLiveTablesIfCopiesOnlyChangedTables(t *testing.T) {
	evs := parseAll(t, buildCorpus(t, 1))
	live := NewLive()
	for _, e := range evs {
		live.Apply(e)
	}
	known := map[string]uint64{}
	all, changed := live.TablesIf(func(id string, v uint64) bool { return true })
	if len(all) < 2 || len(changed) != len(all) {
		t.Fatalf("%d tables, %d copied; want every table copied", len(all), len(changed))
	}
	for i, tv := range all {
		if i > 0 && all[i-1].Table >= tv.Table {
			t.Fatalf("tables out of order: %s before %s", all[i-1].Table, tv.Table)
		}
		if changed[tv.Table].Table != tv.Table {
			t.Fatalf("copy of %s is %+v", tv.Table, changed[tv.Table])
		}
		known[tv.Table] = tv.Version
	}
	stale := func(id string, v uint64) bool { return known[id] != v }
	if _, changed := live.TablesIf(stale); len(changed) != 0 {
		t.Fatalf("nothing applied, yet %d tables changed", len(changed))
	}
	// The next hand of one table starts: that table only.
	var next *events.Event
	for _, e := range evs {
		if e.Type == events.HandStartedType && e.Table == all[0].Table {
			c := *e
			c.Hand = e.Hand + "-again"
			next = &c
			break
		}
	}
	if next == nil {
		t.Fatal("no hand.started in the corpus")
	}
	before := live.Version()
	live.Apply(next)
	if live.Version() == before {
		t.Fatal("Live's version did not move with a new hand")
	}
	_, changed = live.TablesIf(stale)
	if len(changed) != 1 || changed[all[0].Table].Hand != next.Hand {
		t.Fatalf("after a new hand at %s: copied %d tables (%v), want that one with hand %s", all[0].Table, len(changed), changed, next.Hand)
	}
}
