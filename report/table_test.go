package report

import (
	"strings"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
)

func TestDrawing(t *testing.T) {
	st := &replay.State{Dealer: 2, Turn: 3, Pot: 40, Stage: "betting",
		Pots: []replay.Pot{{Index: 0, Amount: 30}, {Index: 1, Amount: 10}},
		Seats: []replay.Seat{
			{Seat: 1, Player: "Ana", Stack: 1200, InFront: 20, Status: replay.StatusActive, Cards: mustCards("Jc Jd 2h 5s Kd")},
			{Seat: 2, Player: "Bruno", Stack: 80, Status: replay.StatusFolded},
			{Seat: 3, Player: "Çağla", Stack: 0, Status: replay.StatusAllIn, Hidden: 5},
		}}
	l, _ := lang.Get("pt-BR")
	svg, err := TableSVG(l, st, Marks{Seats: []events.Seat{1}, Cards: mustCards("Jc"), Acted: 1, Title: "mesa",
		Hands: map[events.Seat]string{1: "par de valetes"}})
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	for _, want := range []string{">Ana<", ">Bruno<", ">Çağla<", "1.200 fichas", ">correu<", ">all-in<",
		"Pote principal: 30", "Pote lateral 1: 10", ">D<", "valete de paus", "acted marked", "card marked", ">20<", `class="back"`, ">par de valetes<"} {
		if !strings.Contains(s, want) {
			t.Errorf("the drawing lacks %q", want)
		}
	}
	if strings.Contains(s, "http") || strings.Contains(s, "<script") {
		t.Error("the drawing refers outside itself")
	}
}

func mustCards(s string) []cards.Card {
	cs, err := cards.ParseList(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// The player who just discarded has his discards drawn on their way to the muck with their
// number; the muck counts every discard and burned card.
func TestDiscardsToTheMuck(t *testing.T) {
	st := &replay.State{Dealer: 1, Stage: "draw", Type: events.CardsDiscardedType, Drawer: 2, Pot: 30,
		Deck: replay.Deck{Burned: mustCards("2c")},
		Seats: []replay.Seat{
			{Seat: 1, Player: "Ana", Stack: 100, Status: replay.StatusActive, Cards: mustCards("Jc Jd"), Discarded: mustCards("2h 5s Kd"), Drawn: 3, Drew: true},
			{Seat: 2, Player: "Bruno", Stack: 80, Status: replay.StatusActive, Hidden: 5},
		}}
	l, _ := lang.Get("en")
	svg, err := TableSVG(l, st, Marks{Acted: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	for _, want := range []string{"3 cards to the muck", "Muck: 4 cards", "king of diamonds", `class="toss"`, "turn"} {
		if !strings.Contains(s, want) {
			t.Errorf("the drawing lacks %q", want)
		}
	}
	// Once the next player acts, the discards lie in the muck: no longer drawn on their way.
	svg, _ = TableSVG(l, st, Marks{Acted: 2})
	if strings.Contains(string(svg), "to the muck") || !strings.Contains(string(svg), "Muck: 4 cards") {
		t.Errorf("discards drawn on their way after another player acted")
	}
}

// BenchmarkSVG measures drawing one table of five players at the showdown, as the hand page
// does once for every event of a hand.
func BenchmarkTableSVG(b *testing.B) {
	st := &replay.State{Dealer: 2, Turn: 3, Pot: 40, Stage: "showdown", Pots: []replay.Pot{{Index: 0, Amount: 30}, {Index: 1, Amount: 10}}}
	for i, hand := range []string{"Jc Jd 2h 5s Kd", "Ac Ad 2c 5c Kc", "3h 4h 5h 6h 7h", "9s 9d 9h Ts Td", "2s 3s 4d 5d 7c"} {
		st.Seats = append(st.Seats, replay.Seat{Seat: events.Seat(i + 1), Player: "player", Stack: 1200, InFront: 20,
			Status: replay.StatusActive, Cards: mustCards(hand), Shown: true})
	}
	l, _ := lang.Get("pt-BR")
	m := Marks{Seats: []events.Seat{1}, Cards: mustCards("Jc"), Acted: 1, Hands: map[events.Seat]string{1: "par de valetes"}}
	for b.Loop() {
		if _, err := TableSVG(l, st, m); err != nil {
			b.Fatal(err)
		}
	}
}
