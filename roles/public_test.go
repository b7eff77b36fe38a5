package roles_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/roles"
)

// vectorEvents reads every event of the example vectors, in file order. (What a view hides is
// events.Public's, tested there.)
func vectorEvents(t *testing.T) []*events.Event { return eventfiles.Vectors(t) }

// Public releases the redacted events of a hand in full right after its hand.ended, and holds
// nothing once every hand ended.
func TestPublicReleasesAtHandEnded(t *testing.T) {
	evs := vectorEvents(t)
	p := roles.NewPublic()
	seeds, released := 0, 0
	for _, e := range evs {
		vs := p.Next(e)
		if e.Type == events.DeckRevealedType || e.Type == events.CardBurnedType {
			seeds += b2i(e.Type == events.DeckRevealedType)
			if len(vs) != 0 {
				t.Fatalf("%s shown while the hand runs: %s", e.Type, vs[0].JSON())
			}
			continue
		}
		if len(vs) == 0 || vs[0].Seq != e.Seq || vs[0].Type != e.Type || vs[0].Kind != roles.ViewPublic {
			t.Fatalf("first view of %s is not its own", e.Raw)
		}
		if e.Type != events.HandEndedType && len(vs) != 1 {
			t.Fatalf("%d views for %s before the hand ended", len(vs), e.Type)
		}
		for _, v := range vs[1:] {
			if v.Redacted || v.Hand != e.Hand || v.Kind != roles.ViewFull {
				t.Fatalf("released view %s", v.JSON())
			}
			if v.Type == events.DeckRevealedType {
				if !bytes.Contains(v.JSON(), []byte(`"seed"`)) {
					t.Fatalf("released deck.revealed without its seed: %s", v.JSON())
				}
				released++
			}
		}
	}
	if seeds == 0 || released != seeds {
		t.Fatalf("%d seeds revealed in the log, %d released after hand.ended", seeds, released)
	}
	if p.Open() != 0 {
		t.Fatalf("%d hands still held after every hand ended", p.Open())
	}
}

// The views roles publishes are events.Public's while the hand runs and everything but prev once
// it ended, each with its kind; an event without data (what ParseLenient could not read) gives
// none.
func TestViewsAreTypedEvents(t *testing.T) {
	if _, ok := roles.FullView(&events.Event{Type: events.HandPassedType}); ok {
		t.Error("full view of an event without data")
	}
	if vs := roles.NewPublic().Next(&events.Event{Type: events.HandPassedType}); len(vs) != 0 {
		t.Errorf("views of an event without data: %v", vs)
	}
	for _, e := range vectorEvents(t)[:60] {
		f, ok := roles.FullView(e)
		if !ok || f.Kind != roles.ViewFull || f.HasPrev || bytes.Contains(f.JSON(), []byte(`"prev"`)) {
			t.Fatalf("full view %s of %s", f.JSON(), e.Raw)
		}
		if pe, err := events.Parse(f.JSON()); err != nil || !reflect.DeepEqual(pe.Data, e.Data) {
			t.Fatalf("full view %s: %v, or its data differs from the event's", f.JSON(), err)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
