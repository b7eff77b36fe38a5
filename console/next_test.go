package console_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/google/uuid"
)

// next is the console's answer to GET and POST .../next.
type next struct {
	Rules      events.Rules            `json:"rules"`
	Number     int                     `json:"number"`
	Dealer     events.Seat             `json:"dealer"`
	Seats      []events.SeatStack      `json:"seats"`
	Stakes     map[string]events.Chips `json:"stakes"`
	Carry      events.Chips            `json:"carry"`
	PassedOut  int                     `json:"passed_out"`
	Previous   string                  `json:"previous"`
	Away       []events.AwaySeat       `json:"away"`
	Left       []events.LeftPlayer     `json:"left"`
	SmallBlind events.Chips            `json:"small_blind"`
}

// startFrom records the hand.started the console's next answer gives, as the page does.
func (e *env) startFrom(n next) (*hand, answer) {
	h := &hand{table: "mesa-1", id: uuid.NewString(), minute: n.Number}
	prev := n.Previous
	st := events.Stakes{Ante: n.Stakes["ante"], MinBet: n.Stakes["min_bet"], MaxBet: n.Stakes["max_bet"]}
	hs := &events.HandStarted{Rules: n.Rules, Number: n.Number, Dealer: n.Dealer, Seats: n.Seats, Stakes: st,
		Carry: n.Carry, PassedOut: n.PassedOut, Previous: &prev, Away: n.Away, Left: n.Left}
	var a answer
	if code := e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", h.event(hs), &a); code != http.StatusOK {
		e.t.Fatalf("hand %d: %d %s %s", n.Number, code, a.Error, a.Detail)
	}
	return h, a
}

// TestNextBlindGame records an online-draw session through the API, each hand started from the
// console's next answer for the players the form lists (events-v1.md §9.3, the TDA dead button):
// after the first hand the player of the big blind leaves, so the next hand has a dead small
// blind, and a newcomer sits down; the hand after that places the button on the empty seat. The
// session, audited as one table, has no finding of the blinds, the button or the seats; the
// newcomer either waits for the big blind (away) or comes in by posting one.
func TestNextBlindGame(t *testing.T) {
	e := newEnv(t)
	h := &hand{table: "mesa-1", id: uuid.NewString()}
	var a answer
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", h.event(&events.HandStarted{Rules: events.Rules{Name: "online-draw"},
		Number: 1, Dealer: 1, Stakes: events.Stakes{MinBet: 10},
		Seats: []events.SeatStack{{Seat: 1, Player: "Ana", Stack: 100}, {Seat: 2, Player: "Beto", Stack: 100}, {Seat: 3, Player: "Caio", Stack: 100}, {Seat: 4, Player: "Dani", Stack: 100}}}), &a)
	if a.Advice.Step != "shuffle" {
		t.Fatalf("the first hand asks for %s", a.Advice.Step)
	}
	a = e.play(h, a)
	ids := []string{h.id}
	var blinds [][]events.BlindPosted
	collect := func(a answer) {
		var bs []events.BlindPosted
		for _, ev := range a.stored(t) {
			if b, ok := ev.Data.(*events.BlindPosted); ok {
				bs = append(bs, *b)
			}
		}
		blinds = append(blinds, bs)
	}
	collect(a)
	if got := blinds[0]; len(got) != 2 || got[0].Seat != 2 || got[0].Blind != events.BlindSmall || got[0].Amount != 5 || got[1].Seat != 3 || got[1].Amount != 10 {
		t.Fatalf("hand 1 posts %+v, want the small blind of 5 from seat 2 and the big blind of 10 from seat 3", got)
	}
	// Hand 2: Eva sits down in seat 6, between the big blind and the button: she comes in by
	// posting a big blind.
	var n next
	e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id+"/next", nil, &n)
	if n.Dealer != 2 || len(n.Seats) != 4 || n.SmallBlind != 5 {
		t.Fatalf("after hand 1 the form is %+v, want the button on seat 2, four players and the small blind of 5", n)
	}
	form := func(n next, without string, with ...map[string]any) []byte {
		var out []map[string]any
		for _, s := range n.Seats {
			if s.Player != without {
				out = append(out, map[string]any{"seat": s.Seat, "player": s.Player, "stack": s.Stack})
			}
		}
		for _, s := range n.Away {
			out = append(out, map[string]any{"seat": s.Seat, "player": s.Player, "stack": s.Stack})
		}
		b, _ := json.Marshal(map[string]any{"seats": append(out, with...)})
		return b
	}
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/next", form(n, "", map[string]any{"seat": 6, "player": "Eva", "stack": 100}), &n)
	if i := slices.IndexFunc(n.Seats, func(s events.SeatStack) bool { return s.Player == "Eva" }); i < 0 || !n.Seats[i].Joined {
		t.Fatalf("hand 2 deals in %+v (away %+v), want Eva dealt in as joined", n.Seats, n.Away)
	}
	h, a = e.startFrom(n)
	a = e.play(h, a)
	ids = append(ids, h.id)
	collect(a)
	if got := blinds[1]; len(got) != 3 || got[0].Seat != 3 || got[1].Seat != 4 || got[1].Blind != events.BlindBig || got[2].Seat != 6 || got[2].Blind != events.BlindBig {
		t.Errorf("hand 2 posts %+v, want the small blind from seat 3, the big blind from seat 4 and Eva's from seat 6", got)
	}
	// Hand 3: Dani, the last big blind, leaves: the small blind is dead, the big blind moves on
	// to seat 6 and the button to seat 3, where the big blind was two hands back.
	e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id+"/next", nil, &n)
	b := form(n, "Dani")
	n = next{}
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/next", b, &n)
	if n.Dealer != 3 || len(n.Left) != 1 || n.Left[0].Player != "Dani" {
		t.Errorf("hand 3 puts the button on seat %d with %+v gone, want seat 3 and Dani", n.Dealer, n.Left)
	}
	h, a = e.startFrom(n)
	a = e.play(h, a)
	ids = append(ids, h.id)
	collect(a)
	if got := blinds[2]; len(got) != 1 || got[0].Seat != 6 || got[0].Blind != events.BlindBig {
		t.Errorf("hand 3 posts %+v, want only the big blind, from seat 6 (a dead small blind)", got)
	}
	// Hand 4: the button moves on to the empty seat 4, Dani's: a dead button.
	e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id+"/next", nil, &n)
	b = form(n, "")
	n = next{} // fields the answer leaves out must not stay from the last one
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/next", b, &n)
	if n.Dealer != 4 {
		t.Errorf("hand 4 puts the button on seat %d, want the empty seat 4 (a dead button)", n.Dealer)
	}
	h, a = e.startFrom(n)
	e.play(h, a)
	ids = append(ids, h.id)

	var evs []*events.Event
	for _, id := range ids {
		var st answer
		e.call("mesa1", "senha1", "GET", "/console/api/hands/"+id, nil, &st)
		evs = append(evs, st.stored(t)...)
	}
	auditTable(t, evs)
}

// TestNextAnteGame: after a br-fechado hand a player leaves; the console's next hand lists him as
// gone with his chips and passes the deal to the next seat dealt in, past his (presets.md "next
// hand", events-v1.md §9.3), and the two hands audit clean as one table.
func TestNextAnteGame(t *testing.T) {
	e := newEnv(t)
	h, first := start("mesa-1")
	var a answer
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", first, &a)
	a = e.play(h, a)
	evs := a.stored(t)
	var n next
	e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id+"/next", nil, &n)
	var form []map[string]any
	for _, s := range n.Seats {
		if s.Player != "Beto" { // seat 2, who would deal next
			form = append(form, map[string]any{"seat": s.Seat, "player": s.Player, "stack": s.Stack})
		}
	}
	body, _ := json.Marshal(map[string]any{"seats": form})
	n = next{}
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/next", body, &n)
	if n.Dealer != 3 || len(n.Left) != 1 || n.Left[0].Player != "Beto" || len(n.Seats) != 2 {
		t.Fatalf("without Beto the next hand is %+v, want Beto gone and the deal passed to seat 3", n)
	}
	h, a = e.startFrom(n)
	evs = append(evs, e.play(h, a).stored(t)...)
	auditTable(t, evs)
}

// auditTable audits the events of a table's hands as one log: nothing but information is found.
func auditTable(t *testing.T, evs []*events.Event) {
	t.Helper()
	au := audit.New(func(f finding.Finding) {
		if f.Severity != finding.Info {
			t.Errorf("the audit of the table's hands finds %s", f.JSON())
		}
	})
	for _, ev := range evs {
		au.Add(ev)
	}
	au.Close()
}

// TestNextMovingButton: a table whose hands declare rules.button "moving" (events-v1.md §7,
// 2026-12-05) keeps it in the console's next hand, and its button and blinds move as online rooms
// move them: after Caio, the big blind of hand 1 (button 1, blinds 2 and 3), leaves, the button
// moves one seat to 2 and the next two seats dealt in, 4 and 1, post the blinds (the dead button
// would leave seat 3's small blind dead and post only the big blind, from seat 4). The two hands
// audit clean as one table.
func TestNextMovingButton(t *testing.T) {
	e := newEnv(t)
	h := &hand{table: "mesa-1", id: uuid.NewString()}
	var a answer
	moving := events.Rules{Name: "online-draw", Overrides: []events.Override{{Key: "button", Value: []byte(`"moving"`)}}}
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", h.event(&events.HandStarted{Rules: moving,
		Number: 1, Dealer: 1, Stakes: events.Stakes{MinBet: 10},
		Seats: []events.SeatStack{{Seat: 1, Player: "Ana", Stack: 100}, {Seat: 2, Player: "Beto", Stack: 100}, {Seat: 3, Player: "Caio", Stack: 100}, {Seat: 4, Player: "Dani", Stack: 100}}}), &a)
	a = e.play(h, a)
	ids := []string{h.id}
	var n next
	e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id+"/next", nil, &n)
	var seats []map[string]any
	for _, s := range n.Seats {
		if s.Player != "Caio" {
			seats = append(seats, map[string]any{"seat": s.Seat, "player": s.Player, "stack": s.Stack})
		}
	}
	b, _ := json.Marshal(map[string]any{"seats": seats})
	n = next{}
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/next", b, &n)
	var raw struct{ Rules map[string]string } // the rules as the page reads them: a JSON object
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/next", b, &raw)
	if raw.Rules["button"] != "moving" || n.Dealer != 2 {
		t.Fatalf("hand 2: rules %v, button on seat %d; want button moving, seat 2", raw.Rules, n.Dealer)
	}
	n.Rules = moving // as the page writes them back
	h, a = e.startFrom(n)
	a = e.play(h, a)
	ids = append(ids, h.id)
	var posted []events.BlindPosted
	for _, ev := range a.stored(t) {
		if bp, ok := ev.Data.(*events.BlindPosted); ok {
			posted = append(posted, *bp)
		}
	}
	if len(posted) != 2 || posted[0].Seat != 4 || posted[0].Blind != events.BlindSmall || posted[1].Seat != 1 || posted[1].Blind != events.BlindBig {
		t.Errorf("hand 2 posts %+v; want the small blind from seat 4 and the big blind from seat 1", posted)
	}
	var evs []*events.Event
	for _, id := range ids {
		var st answer
		e.call("mesa1", "senha1", "GET", "/console/api/hands/"+id, nil, &st)
		evs = append(evs, st.stored(t)...)
	}
	auditTable(t, evs)
}
