package console_test

import (
	"bytes"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
	"github.com/google/uuid"
)

// tHand is a tournament hand as the page records it: its device, and its own hour, so that the
// hands of the two tables follow one another in time as a tournament's do (tournament.move).
type tHand struct {
	hand
	user, pass string
	at         time.Time
}

func (h *tHand) event(d events.Data) []byte {
	h.seq++
	e := &events.Event{ID: uuid.NewString(), Table: h.table, Hand: h.id, Seq: h.seq,
		At: h.at.Add(time.Duration(h.seq) * time.Second).Format(time.RFC3339), Type: d.EventType(), Data: d}
	return bytes.Replace(events.Encode(e), []byte(`"prev":"",`), nil, 1)
}

// record posts hs and then every step the advice asks for, as the dealer taps them: a physical
// shuffle, no cut, the cards of deal seat by seat, each player standing pat, and the actions of
// act; it returns the stored hand.
func (e *env) record(h *tHand, hs *events.HandStarted, deal map[events.Seat][]cards.Card, act func(player string, o rules.Options) events.Data) []*events.Event {
	t := e.t
	t.Helper()
	names := map[events.Seat]string{}
	for _, s := range hs.Seats {
		names[s.Seat] = s.Player
	}
	path := "/console/api/hands/" + h.id + "/events"
	var a answer
	for d := events.Data(hs); ; {
		a = answer{}
		if code := e.call(h.user, h.pass, "POST", path, h.event(d), &a); code != http.StatusOK {
			t.Fatalf("%s hand %d: %s: %d %s %s", h.table, hs.Number, d.EventType(), code, a.Error, a.Detail)
		}
		ad := a.Advice
		switch ad.Step {
		case rules.StepDone:
			return a.stored(t)
		case rules.StepShuffle:
			three := 3
			d = &events.DeckShuffled{Method: cards.PhysicalMethod, Count: &three}
		case rules.StepCut:
			d = &events.DeckCut{At: 0}
		case rules.StepAnte:
			d = &events.AntePosted{Seat: ad.Seat, Amount: ad.Amount}
		case rules.StepDeal:
			c := deal[ad.Seat][0]
			deal[ad.Seat] = deal[ad.Seat][1:]
			d = &events.CardDealt{Seat: ad.Seat, Card: c, Phase: events.PhaseDeal}
		case rules.StepAction:
			d = act(names[ad.Options.Seat], ad.Options)
		case rules.StepPass, rules.StepDiscard, rules.StepShow, rules.StepOpeners, rules.StepReturn, rules.StepAward, rules.StepEnd:
			d = forcedEvent(ad.Advice)
		default:
			t.Fatalf("%s hand %d: unexpected step %q", h.table, hs.Number, ad.Step)
		}
	}
}

// nextAnswer is the console's start of the hand after one (GET .../next).
type nextAnswer struct {
	Number     int
	Dealer     events.Seat
	Carry      events.Chips
	PassedOut  int `json:"passed_out"`
	Seats      []events.SeatStack
	Tournament struct {
		ID         string
		Level      int
		KnockedOut []string `json:"knocked_out"`
	}
}

func (e *env) next(h *tHand) nextAnswer {
	e.t.Helper()
	var n nextAnswer
	if code := e.call(h.user, h.pass, "GET", "/console/api/hands/"+h.id+"/next", nil, &n); code != http.StatusOK {
		e.t.Fatalf("the next hand at %s: %d", h.table, code)
	}
	return n
}

// quiet checks when it may and folds to a bet.
func quiet(_ string, o rules.Options) events.Data {
	if o.Check {
		return &events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: events.Check}
	}
	return &events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: events.Fold}
}

func cs(t *testing.T, s ...string) []cards.Card {
	t.Helper()
	out := make([]cards.Card, len(s))
	for i, x := range s {
		c, err := cards.Parse(x)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = c
	}
	return out
}

// TestTournament records a tournament of six entries at two tables through the console
// (events-v1.md §9): at level 1 Ana moves all in at mesa-1 and knocks Beto out; the console's
// next hand leaves him out and gives the tournament and its level, the level rises to 2 (the
// schedule's stakes), Eva is moved to mesa-2 (left with to at mesa-1, from at mesa-2). The two
// tables' logs audit clean together, tournament codes included, and Beto's knock-out is placed.
func TestTournament(t *testing.T) {
	e := newEnv(t)
	six, hundred := 6, events.Chips(100)
	schedule := []events.Stakes{{Ante: 5, MinBet: 10}, {Ante: 10, MinBet: 20}}
	noLimit := events.Rules{Name: "std-draw", Overrides: []events.Override{{Key: "structure", Value: []byte(`"no"`)}}}
	hour := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	newHand := func(table, user, pass string, minutes int) *tHand {
		return &tHand{hand: hand{table: table, id: uuid.NewString()}, user: user, pass: pass, at: hour.Add(time.Duration(minutes) * time.Minute)}
	}
	seat := func(n events.Seat, p string, stack events.Chips, joined bool) events.SeatStack {
		return events.SeatStack{Seat: n, Player: p, Stack: stack, Joined: joined}
	}

	// Level 1 at mesa-1: Ana (openers) bets everything, Beto calls with less and loses.
	a1 := newHand("mesa-1", "mesa1", "senha1", 0)
	allIn := func(p string, o rules.Options) events.Data {
		switch {
		case p != "Ana" && p != "Beto":
			return quiet(p, o)
		case o.Bet:
			return &events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: events.Bet, Amount: o.MaxBet}
		case o.Call > 0:
			return &events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: events.Call, Amount: o.Call}
		}
		return quiet(p, o)
	}
	hs1 := &events.HandStarted{Rules: noLimit, Number: 1, Dealer: 4, Stakes: schedule[0],
		Seats:      []events.SeatStack{seat(1, "Ana", 100, true), seat(2, "Beto", 100, true), seat(3, "Eva", 100, true), seat(4, "Fabio", 100, true)},
		Tournament: &events.Tournament{ID: "copa", Level: 1, Entries: &six, Stack: &hundred}}
	h1 := e.record(a1, hs1, map[events.Seat][]cards.Card{
		1: cs(t, "Ah", "Ad", "Ac", "Kh", "Kd"), 2: cs(t, "Qh", "Qd", "7c", "5h", "3d"),
		3: cs(t, "2c", "4d", "6h", "8s", "9c"), 4: cs(t, "2d", "4h", "6s", "8c", "Tc")}, allIn)

	// Level 1 at mesa-2: a quiet hand.
	b1 := newHand("mesa-2", "mesa2", "senha2", 1)
	hsB := &events.HandStarted{Rules: noLimit, Number: 1, Dealer: 1, Stakes: schedule[0],
		Seats:      []events.SeatStack{seat(1, "Caio", 100, true), seat(2, "Davi", 100, true)},
		Tournament: &events.Tournament{ID: "copa", Level: 1, Entries: &six, Stack: &hundred}}
	h2 := e.record(b1, hsB, map[events.Seat][]cards.Card{1: cs(t, "2h", "3h", "5c", "7d", "9h"), 2: cs(t, "2s", "3s", "5d", "7h", "9d")}, quiet)

	// The console's next hand at mesa-1: Beto out, the tournament and its level carried.
	next := e.next(a1)
	if next.Tournament.ID != "copa" || next.Tournament.Level != 1 || !slices.Equal(next.Tournament.KnockedOut, []string{"Beto"}) {
		t.Fatalf("the next hand's tournament: %+v, want copa at level 1 with Beto knocked out", next.Tournament)
	}
	stacks := map[string]events.Chips{}
	for _, s := range next.Seats {
		if s.Player == "Beto" {
			t.Fatalf("Beto, knocked out, is dealt in again: %+v", next.Seats)
		}
		stacks[s.Player] = s.Stack
	}
	if stacks["Ana"] != 210 || stacks["Eva"] != 95 || stacks["Fabio"] != 95 {
		t.Fatalf("the stacks after the knock-out: %v", stacks)
	}

	// Level 2 at mesa-1: Beto left with nothing, Eva moved to mesa-2 with her chips.
	a2 := newHand("mesa-1", "mesa1", "senha1", 10)
	prev1 := a1.id
	hs2 := &events.HandStarted{Rules: noLimit, Number: next.Number, Dealer: next.Dealer, Stakes: schedule[1], Previous: &prev1,
		Carry: next.Carry, PassedOut: next.PassedOut,
		Seats:      []events.SeatStack{seat(1, "Ana", 210, false), seat(4, "Fabio", 95, false)},
		Left:       []events.LeftPlayer{{Player: "Beto", Stack: 0}, {Player: "Eva", Stack: 95, To: "mesa-2"}},
		Tournament: &events.Tournament{ID: "copa", Level: 2}}
	h3 := e.record(a2, hs2, map[events.Seat][]cards.Card{1: cs(t, "2h", "3h", "5c", "7d", "9h"), 4: cs(t, "2s", "3s", "5d", "7h", "9d")}, quiet)

	// Level 2 at mesa-2: Eva arrives from mesa-1.
	b2 := newHand("mesa-2", "mesa2", "senha2", 11)
	prevB := b1.id
	nextB := e.next(b1)
	seatsB := append(nextB.Seats, events.SeatStack{Seat: 3, Player: "Eva", Stack: 95, From: "mesa-1"})
	hsB2 := &events.HandStarted{Rules: noLimit, Number: nextB.Number, Dealer: nextB.Dealer, Stakes: schedule[1], Previous: &prevB,
		Carry: nextB.Carry, PassedOut: nextB.PassedOut, Seats: seatsB, Tournament: &events.Tournament{ID: "copa", Level: 2}}
	h4 := e.record(b2, hsB2, map[events.Seat][]cards.Card{
		1: cs(t, "4c", "6c", "8h", "Ts", "Qc"), 2: cs(t, "4s", "6d", "8d", "Th", "Qs"), 3: cs(t, "4h", "6h", "8s", "Td", "Js")}, quiet)

	// The tournament's log, in the order it was stored, audited as one.
	var places []finding.Finding
	au := audit.New(func(f finding.Finding) {
		if f.Code == finding.TournamentPlace {
			places = append(places, f)
			return
		}
		t.Errorf("the audit finds %s (%s) at %s seq %d: %s", f.Code, f.Severity, f.Table, f.Seq, f.Message)
	})
	for _, h := range [][]*events.Event{h1, h2, h3, h4} {
		for _, ev := range h {
			au.Add(ev)
		}
	}
	au.Close()
	if len(places) != 1 || places[0].Table != "mesa-1" {
		t.Fatalf("the knock-outs placed: %+v, want Beto's at mesa-1", places)
	}
	if au.Tournaments() == nil {
		t.Fatal("the auditor followed no tournament")
	}
}
