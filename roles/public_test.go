package roles_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/roles"
)

// vectorEvents reads every event of the example vectors, in file order.
func vectorEvents(t *testing.T) []*events.Event { return eventfiles.Vectors(t) }

// viewCards returns the cards a view's data shows, under any key.
func viewCards(t *testing.T, data json.RawMessage) []cards.Card {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("view data %s: %v", data, err)
	}
	var out []cards.Card
	for _, v := range m {
		var s string
		var list []string
		switch {
		case json.Unmarshal(v, &s) == nil:
			list = []string{s}
		case json.Unmarshal(v, &list) == nil:
		}
		for _, s := range list {
			if c, err := cards.Parse(s); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

var hex64 = regexp.MustCompile(`[0-9a-f]{64}`)

// A spectator following the public views of every vector hand as it is played sees no card that
// was not face up at that moment, no seed and no prev; everything else is the stored data.
func TestPublicViewHidesFaceDownCards(t *testing.T) {
	evs := vectorEvents(t)
	faceUp := map[string]cards.Set{}
	commitments := map[string]bool{}
	redacted := 0
	for _, e := range evs {
		raw := bytes.Clone(e.Raw)
		switch d := e.Data.(type) {
		case *events.CardExposed:
			faceUp[e.Hand] = faceUp[e.Hand].Add(d.Card)
		case *events.OpenersShown:
			faceUp[e.Hand] |= cards.SetOf(d.Cards...)
		case *events.HandShown:
			faceUp[e.Hand] |= cards.SetOf(d.Cards...)
		case *events.DeckShuffled:
			commitments[d.Commitment] = true
		}
		v, ok := roles.PublicView(e)
		if !bytes.Equal(e.Raw, raw) {
			t.Fatal("PublicView changed the event")
		}
		if e.Type == events.CardBurnedType || e.Type == events.DeckRevealedType {
			// Their card or seed cannot be left out of a valid event: shown once the hand ends.
			if ok {
				t.Fatalf("public view of %s: %s", e.Type, v.JSON())
			}
			redacted++
			continue
		}
		if !ok {
			t.Fatalf("no public view of %s", e.Raw)
		}
		line := v.JSON()
		// The view is a valid v1 event (events-v1.md §4), which the strict decoder reads.
		pe, err := v.Event()
		if err != nil {
			t.Fatalf("the view %s is not a valid event: %v", line, err)
		}
		if pe.Seq != e.Seq || pe.Type != e.Type || pe.Hand != e.Hand || pe.HasPrev || v.Kind != roles.ViewPublic {
			t.Fatalf("view %s (kind %q) of %s", line, v.Kind, e.Raw)
		}
		var env map[string]json.RawMessage
		if err := json.Unmarshal(line, &env); err != nil {
			t.Fatalf("view %s: %v", line, err)
		}
		if _, ok := env["prev"]; ok {
			t.Fatalf("view keeps prev: %s", line)
		}
		for _, h := range hex64.FindAllString(string(v.Data), -1) {
			if !commitments[h] {
				t.Fatalf("view shows a 64-hex value that is no commitment (a seed?): %s", line)
			}
		}
		for _, c := range viewCards(t, v.Data) {
			if !faceUp[e.Hand].Has(c) {
				t.Fatalf("view shows %s, which nobody has seen face up: %s", c, line)
			}
		}
		if v.Redacted {
			redacted++
		} else {
			var stored struct{ Data json.RawMessage }
			if err := json.Unmarshal(e.Raw, &stored); err != nil || !bytes.Equal(stored.Data, v.Data) {
				t.Fatalf("unredacted view data %s differs from the stored %s", v.Data, stored.Data)
			}
		}
		if d, ok := e.Data.(*events.CardsDiscarded); ok {
			pd := pe.Data.(*events.CardsDiscarded)
			if len(pd.Cards) != 0 || pd.Declared == nil || (len(d.Cards) > 0 && *pd.Declared != len(d.Cards)) {
				t.Fatalf("discard view %s: want cards [] and declared %d", v.Data, len(d.Cards))
			}
		}
		if d, ok := e.Data.(*events.CardDealt); ok && !pe.Data.(*events.CardDealt).Unknown {
			t.Fatalf("dealt card %s shown: %s", d.Card, line)
		}
	}
	if redacted < 100 {
		t.Fatalf("only %d views redacted: the vectors deal more cards than that", redacted)
	}
}

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
				if !bytes.Contains(v.Data, []byte(`"seed"`)) {
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

func TestPublicViewOfNothing(t *testing.T) {
	if _, ok := roles.PublicView(nil); ok {
		t.Error("view of nil")
	}
	if _, ok := roles.PublicView(&events.Event{Type: events.HandPassedType}); ok {
		t.Error("view of an event without data")
	}
	// An event built in memory (no Raw) is encoded first.
	e := &events.Event{ID: "i", Table: "t", Hand: "h", Seq: 7, At: "2026-11-29T13:05:00Z", Type: events.CardDealtType,
		Data: &events.CardDealt{Seat: 2, Card: cards.MustParse("Ah"), Phase: events.PhaseDeal}}
	v, ok := roles.PublicView(e)
	if !ok || !v.Redacted || string(v.Data) != `{"phase":"deal","seat":2}` || string(v.JSON()) != `{"id":"i","table":"t","hand":"h","seq":7,"at":"2026-11-29T13:05:00Z","type":"card.dealt","data":{"phase":"deal","seat":2}}` {
		t.Fatalf("view = %s, %v", v.JSON(), ok)
	}
}

// Why views drop prev: the next event's prev is the SHA-256 of the line whose card was redacted,
// and trying the cards of the deck against it gives the card away.
func TestPrevGivesTheCardAway(t *testing.T) {
	evs := vectorEvents(t)
	tried := 0
	for i, e := range evs[:len(evs)-1] {
		d, ok := e.Data.(*events.CardDealt)
		next := evs[i+1]
		if !ok || d.Unknown || next.Hand != e.Hand || !next.HasPrev {
			continue
		}
		v, _ := roles.PublicView(e)
		if bytes.Contains(v.JSON(), []byte(`"`+d.Card.String()+`"`)) {
			t.Fatalf("the view shows the card: %s", v.JSON())
		}
		// The attacker knows the line's layout; only the card is missing.
		var found []cards.Card
		for c := range cards.Card(cards.NumCards) {
			guess := bytes.Replace(e.Raw, []byte(`"card":"`+d.Card.String()+`"`), []byte(`"card":"`+c.String()+`"`), 1)
			if events.Hash(guess) == next.Prev {
				found = append(found, c)
			}
		}
		if len(found) != 1 || found[0] != d.Card {
			t.Fatalf("brute force found %v, the card is %s", found, d.Card)
		}
		if tried++; tried == 20 {
			return
		}
	}
	t.Fatalf("only %d dealt cards followed by an event of their hand", tried)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
