package events_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/sim"
)

// viewCards returns the cards a view's data shows, under any key.
func viewCards(t *testing.T, line []byte) []cards.Card {
	t.Helper()
	var env struct{ Data map[string]json.RawMessage }
	if err := json.Unmarshal(line, &env); err != nil {
		t.Fatalf("view %s: %v", line, err)
	}
	var out []cards.Card
	for _, v := range env.Data {
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
// was not face up at that moment, no seed and no prev (docs/security.md §4); everything else is
// the stored data.
func TestPublicHidesFaceDownCards(t *testing.T) {
	evs := eventfiles.Vectors(t)
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
		v, ok := events.Public(e)
		if !bytes.Equal(e.Raw, raw) {
			t.Fatal("Public changed the event")
		}
		if e.Type == events.CardBurnedType || e.Type == events.DeckRevealedType {
			// Their card or seed cannot be left out of a valid event: shown once the hand ends.
			if ok {
				t.Fatalf("public view of %s: %s", e.Type, v.Raw)
			}
			redacted++
			continue
		}
		if !ok {
			t.Fatalf("no public view of %s", e.Raw)
		}
		// The view is a valid v1 event (events-v1.md §4), which the strict decoder reads back
		// as the view itself.
		pe, err := events.Parse(v.Raw)
		if err != nil {
			t.Fatalf("the view %s is not a valid event: %v", v.Raw, err)
		}
		if pe.Seq != e.Seq || pe.Type != e.Type || pe.Hand != e.Hand || pe.HasPrev || v.HasPrev {
			t.Fatalf("view %s of %s", v.Raw, e.Raw)
		}
		pe.Raw = v.Raw
		if !reflect.DeepEqual(pe, v) {
			t.Fatalf("the view decodes to %+v, not to itself %+v", pe, v)
		}
		if bytes.Contains(v.Raw, []byte(`"prev"`)) {
			t.Fatalf("view keeps prev: %s", v.Raw)
		}
		for _, h := range hex64.FindAllString(string(v.Raw), -1) {
			if !commitments[h] {
				t.Fatalf("view shows a 64-hex value that is no commitment (a seed?): %s", v.Raw)
			}
		}
		for _, c := range viewCards(t, v.Raw) {
			if !faceUp[e.Hand].Has(c) {
				t.Fatalf("view shows %s, which nobody has seen face up: %s", c, v.Raw)
			}
		}
		if events.Redacted(e, v) {
			redacted++
		} else if !reflect.DeepEqual(v.Data, e.Data) {
			t.Fatalf("unredacted view data %+v differs from the stored %+v", v.Data, e.Data)
		}
		if d, ok := e.Data.(*events.CardsDiscarded); ok {
			pd := pe.Data.(*events.CardsDiscarded)
			if len(pd.Cards) != 0 || pd.Declared == nil || (len(d.Cards) > 0 && *pd.Declared != len(d.Cards)) {
				t.Fatalf("discard view %s: want cards [] and declared %d", v.Raw, len(d.Cards))
			}
		}
		if d, ok := e.Data.(*events.CardDealt); ok && !pe.Data.(*events.CardDealt).Unknown {
			t.Fatalf("dealt card %s shown: %s", d.Card, v.Raw)
		}
	}
	if redacted < 100 {
		t.Fatalf("only %d views redacted: the vectors deal more cards than that", redacted)
	}
}

func TestPublicOfNothing(t *testing.T) {
	if _, ok := events.Public(nil); ok {
		t.Error("view of nil")
	}
	if _, ok := events.Public(&events.Event{Type: events.HandPassedType}); ok {
		t.Error("view of an event without data (what ParseLenient could not read)")
	}
	// An event built in memory (no Raw) has a view all the same.
	e := &events.Event{ID: "i", Table: "t", Hand: "h", Seq: 7, At: "2026-11-29T13:05:00Z", Type: events.CardDealtType,
		Data: &events.CardDealt{Seat: 2, Card: cards.MustParse("Ah"), Phase: events.PhaseDeal}}
	v, ok := events.Public(e)
	if !ok || !events.Redacted(e, v) || string(v.Raw) != `{"id":"i","table":"t","hand":"h","seq":7,"at":"2026-11-29T13:05:00Z","type":"card.dealt","data":{"seat":2,"phase":"deal"}}` {
		t.Fatalf("view = %s, %v", v.Raw, ok)
	}
	if d := e.Data.(*events.CardDealt); d.Unknown || d.Card != cards.MustParse("Ah") {
		t.Fatal("Public changed the event's data")
	}
}

// Why views drop prev: the next event's prev is the SHA-256 of the line whose card was redacted,
// and trying the cards of the deck against it gives the card away.
func TestPrevGivesTheCardAway(t *testing.T) {
	evs := eventfiles.Vectors(t)
	tried := 0
	for i, e := range evs[:len(evs)-1] {
		d, ok := e.Data.(*events.CardDealt)
		next := evs[i+1]
		if !ok || d.Unknown || next.Hand != e.Hand || !next.HasPrev {
			continue
		}
		v, _ := events.Public(e)
		if bytes.Contains(v.Raw, []byte(`"`+d.Card.String()+`"`)) {
			t.Fatalf("the view shows the card: %s", v.Raw)
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

// mapView is the redaction as roles.PublicView did it before it was typed: the stored line
// unmarshalled, the hidden member deleted from a map and the rest marshalled again. It stays
// here as the reference TestPublicIsTheMapRedaction holds Public to.
func mapView(t *testing.T, e *events.Event) ([]byte, bool) {
	t.Helper()
	var line struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(e.Raw, &line); err != nil {
		t.Fatal(err)
	}
	data := line.Data
	var drop string
	switch d := e.Data.(type) {
	case *events.CardBurned, *events.DeckRevealed:
		return nil, false
	case *events.CardDealt:
		drop = "card"
	case *events.DeckShuffled:
		drop = "cards"
	case *events.CardsDiscarded:
		n := len(d.Cards)
		if d.Declared != nil && len(d.Cards) == 0 {
			n = *d.Declared
		}
		data, _ = json.Marshal(map[string]any{"seat": d.Seat, "cards": []string{}, "declared": n})
	}
	if drop != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if _, ok := m[drop]; ok {
			delete(m, drop)
			data, _ = json.Marshal(m)
		}
	}
	b, err := json.Marshal(struct {
		ID    string          `json:"id"`
		Table string          `json:"table"`
		Hand  string          `json:"hand"`
		Seq   events.Seq      `json:"seq"`
		At    string          `json:"at"`
		Type  events.Type     `json:"type"`
		Data  json.RawMessage `json:"data"`
	}{e.ID, e.Table, e.Hand, e.Seq, e.At, e.Type, data})
	if err != nil {
		t.Fatal(err)
	}
	return b, true
}

// Public is the map redaction it replaced, typed: for every event of the vectors and of
// simulated hands of every preset it shows the same events, and its view is the map path's bytes
// exactly where nothing was hidden; where something was, the map path wrote the data's members
// in alphabetical order (a map's), Public in the catalogue's, and the map path's view decodes to
// Public's and encodes to its bytes.
func TestPublicIsTheMapRedaction(t *testing.T) {
	evs := eventfiles.Vectors(t)
	for _, preset := range []string{"br-fechado", "br-online", "std-draw", "tr-kapali"} {
		hs, err := sim.All(sim.Config{Rules: preset, Players: 4, Hands: 4, Seed: 9, Table: "t-" + preset})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			evs = append(evs, h.Events...)
		}
	}
	same, reordered := 0, 0
	for _, e := range evs {
		old, oldOK := mapView(t, e)
		v, ok := events.Public(e)
		if ok != oldOK {
			t.Fatalf("%s: Public shows it %v, the map path %v", e.Raw, ok, oldOK)
		}
		if !ok {
			continue
		}
		if bytes.Equal(v.Raw, old) {
			same++
			continue
		}
		if !events.Redacted(e, v) {
			t.Fatalf("nothing hidden, yet the views differ:\n%s\n%s", v.Raw, old)
		}
		pe, err := events.Parse(old)
		if err != nil {
			t.Fatalf("the map path's view %s: %v", old, err)
		}
		if got := events.Unsealed(pe, pe.Data).Raw; !bytes.Equal(got, v.Raw) {
			t.Fatalf("the map path's view encodes to\n%s\nPublic's is\n%s", got, v.Raw)
		}
		reordered++
	}
	if same < 500 || reordered < 500 {
		t.Fatalf("%d views the same bytes, %d reordered: too few events to say", same, reordered)
	}
}

// FuzzPublic checks the redaction on any line the decoder accepts: the view, when there is one,
// is a valid event without prev that decodes to itself, and a dealt card or a discard never
// shows its cards.
func FuzzPublic(f *testing.F) {
	for _, e := range eventfiles.Vectors(f)[:200] {
		f.Add(e.Raw)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := events.Parse(line)
		if err != nil {
			return
		}
		v, ok := events.Public(e)
		if !ok {
			if e.Type != events.CardBurnedType && e.Type != events.DeckRevealedType {
				t.Fatalf("no view of %s", line)
			}
			return
		}
		pe, err := events.Parse(v.Raw)
		if err != nil || pe.HasPrev {
			t.Fatalf("view %s: %v", v.Raw, err)
		}
		pe.Raw = v.Raw
		if !reflect.DeepEqual(pe, v) {
			t.Fatalf("the view %s decodes to another event", v.Raw)
		}
		switch d := pe.Data.(type) {
		case *events.CardDealt:
			if !d.Unknown {
				t.Fatalf("dealt card shown: %s", v.Raw)
			}
		case *events.CardsDiscarded:
			if len(d.Cards) != 0 {
				t.Fatalf("discards shown: %s", v.Raw)
			}
		}
	})
}
