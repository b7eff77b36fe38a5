package tournament

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// p is a seat of a test hand: "seat:player:stack[:end]" with optional from and rebuy.
type p struct {
	seat       events.Seat
	name       string
	stack, end events.Chips
	from       string
	rebuy      events.Chips
}

// hand builds a tournament hand of table tb from minute start to minute end.
type hand struct {
	table      string
	start, end int // minutes after t0
	level      int
	stakes     events.Stakes
	entries    int
	seats      []p
	left       []events.LeftPlayer
	away       []events.AwaySeat
	carry, out events.Chips // carry at the start, left at the end
}

func (h hand) build(n int) *Hand {
	entries, stack := h.entries, events.Chips(100)
	hs := &events.HandStarted{Number: n, Stakes: h.stakes, Carry: h.carry, Left: h.left, Away: h.away,
		Tournament: &events.Tournament{ID: "cup", Level: h.level, Stack: &stack}}
	if hs.Stakes == (events.Stakes{}) {
		hs.Stakes = events.Stakes{Ante: events.Chips(5 * max(1, h.level)), MinBet: events.Chips(10 * max(1, h.level))}
	}
	if entries > 0 {
		hs.Tournament.Entries = &entries
	}
	end := &events.HandEnded{Carry: h.out}
	for _, s := range h.seats {
		ss := events.SeatStack{Seat: s.seat, Player: s.name, Stack: s.stack, From: s.from, Joined: s.from != ""}
		if s.rebuy > 0 {
			r := s.rebuy
			ss.Rebuy = &r
		}
		hs.Seats = append(hs.Seats, ss)
		end.Stacks = append(end.Stacks, events.SeatChips{Seat: s.seat, Stack: s.end})
	}
	return &Hand{Table: h.table, ID: fmt.Sprintf("%s-%d", h.table, n), Start: hs, End: end,
		StartAt: t0.Add(time.Duration(h.start) * time.Minute), EndAt: t0.Add(time.Duration(h.end) * time.Minute), EndSeq: 40}
}

// run follows the hands in order and returns the findings as "hand seq code actual".
func run(hands []hand) ([]string, *Tournament) {
	b := NewBook()
	var out []string
	for i, h := range hands {
		for _, f := range b.Add(nil, h.build(i+1)) {
			out = append(out, fmt.Sprintf("%s %d %s %v", f.Hand, f.Seq, f.Code, f.Actual))
		}
	}
	return out, b.Get("cup")
}

// Four players on two tables of two, 100 chips each.
func opening() []hand {
	return []hand{
		{table: "a", start: 0, end: 2, level: 1, entries: 4, seats: []p{{seat: 1, name: "ana", stack: 100, end: 150}, {seat: 2, name: "bia", stack: 100, end: 50}}},
		{table: "b", start: 0, end: 3, level: 1, entries: 4, seats: []p{{seat: 1, name: "caio", stack: 100, end: 130}, {seat: 2, name: "dani", stack: 100, end: 70}}},
	}
}

func TestTournament(t *testing.T) {
	cases := []struct {
		rule  string
		hands []hand
		want  []string // findings other than tournament.place, unless listed
		place map[string]int
	}{
		{
			rule:  "events-v1.md §7: two hands of one table play on; every chip is where it was",
			hands: append(opening(), hand{table: "a", start: 3, end: 4, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 140}, {seat: 2, name: "bia", stack: 50, end: 60}}}),
		},
		{
			rule: "events-v1.md §7 place: two players going out in one hand are ordered by their stacks at its start; equal stacks share the place",
			hands: append(opening(),
				hand{table: "a", start: 4, end: 5, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 0}, {seat: 2, name: "bia", stack: 50, end: 0}, {seat: 3, name: "dani", stack: 70, end: 270, from: "b"}},
					left: nil},
				hand{table: "b", start: 6, end: 7, level: 1, seats: []p{{seat: 1, name: "caio", stack: 130, end: 130}}, left: []events.LeftPlayer{{Player: "dani", Stack: 70, To: "a"}}},
			),
			place: map[string]int{"ana": 3, "bia": 4},
		},
		{
			rule: "events-v1.md §7 place: equal stacks at the start share the better place",
			hands: []hand{
				{table: "a", start: 0, end: 2, level: 1, entries: 3, seats: []p{{seat: 1, name: "ana", stack: 100, end: 0}, {seat: 2, name: "bia", stack: 100, end: 0}, {seat: 3, name: "caio", stack: 100, end: 300}}},
			},
			place: map[string]int{"ana": 2, "bia": 2},
		},
		{
			rule: "findings-v1.md tournament.move: a moved player's stack differs from his final stack at the table he left",
			hands: append(opening(),
				hand{table: "a", start: 4, end: 5, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}, {seat: 3, name: "dani", stack: 80, end: 80, from: "b"}}}),
			want: []string{"a-3 1 tournament.move 80"},
		},
		{
			rule: "findings-v1.md tournament.move: a from without the matching left.to (the table he came from dealt its next hand without listing him)",
			hands: append(opening(),
				hand{table: "b", start: 4, end: 5, level: 1, seats: []p{{seat: 1, name: "caio", stack: 130, end: 130}}},
				hand{table: "a", start: 6, end: 7, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}, {seat: 3, name: "dani", stack: 70, end: 70, from: "b"}}}),
			want: []string{"a-4 1 tournament.move <nil>"},
		},
		{
			rule: "findings-v1.md tournament.move: a left.to naming another table than the one he sits down at",
			hands: append(opening(),
				hand{table: "a", start: 4, end: 5, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}, {seat: 3, name: "dani", stack: 70, end: 70, from: "b"}}},
				hand{table: "b", start: 6, end: 7, level: 1, seats: []p{{seat: 1, name: "caio", stack: 130, end: 130}}, left: []events.LeftPlayer{{Player: "dani", Stack: 70, To: "c"}}}),
			want: []string{"b-4 1 tournament.move a"},
		},
		{
			rule: "findings-v1.md tournament.move: one player dealt in at two tables in hands that overlap in time",
			hands: append(opening(),
				hand{table: "a", start: 2, end: 4, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}, {seat: 3, name: "dani", stack: 70, end: 70, from: "b"}}}),
			want: []string{"a-3 1 tournament.move b"},
		},
		{
			rule: "findings-v1.md tournament.level: a table whose level goes down",
			hands: append(opening(),
				hand{table: "a", start: 3, end: 4, level: 2, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}}},
				hand{table: "a", start: 5, end: 6, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}}}),
			want: []string{"a-4 1 tournament.level 1"},
		},
		{
			rule: "findings-v1.md tournament.level: two hands of the same level with different stakes",
			hands: append(opening(),
				hand{table: "b", start: 3, end: 4, level: 1, stakes: events.Stakes{Ante: 10, MinBet: 10}, seats: []p{{seat: 1, name: "caio", stack: 130, end: 130}, {seat: 2, name: "dani", stack: 70, end: 70}}}),
			want: []string{"b-3 1 tournament.level {10 10 0}"},
		},
		{
			rule: "events-v1.md §7 rebuy: the tournament's chips grow by exactly the rebuy",
			hands: append(opening(),
				hand{table: "a", start: 3, end: 4, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 150, end: 150, rebuy: 100}}}),
		},
		{
			rule: "findings-v1.md tournament.chips: a player who never entered sits down with chips",
			hands: append(opening(),
				hand{table: "a", start: 3, end: 4, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}, {seat: 3, name: "eve", stack: 100, end: 100}}}),
			want: []string{"a-3 40 tournament.chips 500"},
		},
		{
			rule: "findings-v1.md tournament.chips: a player leaves with chips other than by to; they leave the tournament",
			hands: append(opening(),
				hand{table: "a", start: 3, end: 4, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}}, left: []events.LeftPlayer{{Player: "bia", Stack: 50}}}),
			want: []string{"a-3 40 tournament.chips 350"},
		},
		{
			rule: "findings-v1.md tournament.chips: counted once every entry is seated (the tables not started are not known)",
			hands: []hand{
				{table: "a", start: 0, end: 2, level: 1, entries: 4, seats: []p{{seat: 1, name: "ana", stack: 100, end: 150}, {seat: 2, name: "bia", stack: 100, end: 50}}},
				{table: "a", start: 3, end: 4, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}}},
			},
		},
		{
			rule: "events-v1.md §7 (2026-12-05) carried pot: bia antes her last 50 into a deal nobody opens; she is not out, dealt in to the next deal with stack 0 she wins the carry",
			hands: []hand{
				{table: "a", start: 0, end: 2, level: 1, entries: 2, seats: []p{{seat: 1, name: "ana", stack: 100, end: 50}, {seat: 2, name: "bia", stack: 100, end: 50}}},
				{table: "a", start: 3, end: 4, level: 1, seats: []p{{seat: 1, name: "ana", stack: 50, end: 0}, {seat: 2, name: "bia", stack: 50, end: 0}}, out: 100},
				{table: "a", start: 5, end: 6, level: 1, carry: 100, seats: []p{{seat: 1, name: "ana", stack: 0, end: 0}, {seat: 2, name: "bia", stack: 0, end: 100}}},
				{table: "a", start: 7, end: 8, level: 1, seats: []p{{seat: 1, name: "ana", stack: 0, end: 0}, {seat: 2, name: "bia", stack: 100, end: 100}}},
			},
			place: map[string]int{"ana": 2},
		},
		{
			rule: "events-v1.md §7 (2026-12-05): knocked out at the end of a hand that leaves him no chips and no share in a carried pot; a player with a share the next deal does not deal in goes out then",
			hands: []hand{
				{table: "a", start: 0, end: 2, level: 1, entries: 3, seats: []p{{seat: 1, name: "ana", stack: 100, end: 95}, {seat: 2, name: "bia", stack: 100, end: 0}, {seat: 3, name: "caio", stack: 100, end: 95}}, out: 110},
				{table: "a", start: 3, end: 4, level: 1, carry: 110, seats: []p{{seat: 1, name: "ana", stack: 95, end: 205}, {seat: 3, name: "caio", stack: 95, end: 95}}, left: []events.LeftPlayer{{Player: "bia"}}},
			},
			place: map[string]int{"bia": 3},
		},
		{
			rule: "events-v1.md §7 (2026-12-05): a tournament ends only when one player holds every chip, never with chips in a carried pot (tournament.chips otherwise)",
			hands: []hand{
				{table: "a", start: 0, end: 2, level: 1, entries: 2, seats: []p{{seat: 1, name: "ana", stack: 100, end: 190}, {seat: 2, name: "bia", stack: 100, end: 0}}, out: 10},
				{table: "a", start: 3, end: 4, level: 1, carry: 10, seats: []p{{seat: 1, name: "ana", stack: 190, end: 185}}, left: []events.LeftPlayer{{Player: "bia"}}, out: 15},
			},
			want:  []string{"a-2 40 tournament.chips 15"},
			place: map[string]int{"bia": 2},
		},
		{
			rule: "events-v1.md §7 from (2026-12-05): dani, moved b→a, is moved on a→c before a deals him a hand: from names a, the to of his last left, and the chain is no finding",
			hands: append(opening(),
				hand{table: "b", start: 4, end: 5, level: 1, seats: []p{{seat: 1, name: "caio", stack: 130, end: 130}}, left: []events.LeftPlayer{{Player: "dani", Stack: 70, To: "a"}}},
				hand{table: "c", start: 6, end: 7, level: 1, seats: []p{{seat: 1, name: "dani", stack: 70, end: 70, from: "a"}}}),
		},
		{
			rule: "events-v1.md §7 from (2026-12-05): the chain seen the other way round, dani seated at c (from a) before b's next hand lists him moved to a",
			hands: append(opening(),
				hand{table: "c", start: 4, end: 5, level: 1, seats: []p{{seat: 1, name: "dani", stack: 70, end: 70, from: "a"}}},
				hand{table: "b", start: 6, end: 7, level: 1, seats: []p{{seat: 1, name: "caio", stack: 130, end: 130}}, left: []events.LeftPlayer{{Player: "dani", Stack: 70, To: "a"}}},
				hand{table: "a", start: 8, end: 9, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}}}),
		},
		{
			rule: "findings-v1.md tournament.move (2026-12-05): a from that is neither the to of his last left nor a table that never deals again: c deals again",
			hands: append(opening(),
				hand{table: "c", start: 0, end: 1, level: 1, entries: 5, seats: []p{{seat: 1, name: "eve", stack: 100, end: 100}}},
				hand{table: "b", start: 4, end: 5, level: 1, seats: []p{{seat: 1, name: "caio", stack: 130, end: 130}}, left: []events.LeftPlayer{{Player: "dani", Stack: 70, To: "a"}}},
				hand{table: "a", start: 6, end: 7, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}, {seat: 3, name: "dani", stack: 70, end: 70, from: "c"}}},
				hand{table: "c", start: 8, end: 9, level: 1, seats: []p{{seat: 1, name: "eve", stack: 100, end: 100}}}),
			want: []string{"c-6 1 tournament.move c"},
		},
		{
			rule: "events-v1.md §7 from (2026-12-05): the chain through a table that broke (never deals again) is no finding, nor a from naming the table of his last hand",
			hands: append(opening(),
				hand{table: "a", start: 4, end: 5, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}, {seat: 3, name: "dani", stack: 70, end: 70, from: "b"}}},
				hand{table: "b", start: 6, end: 7, level: 1, seats: []p{{seat: 1, name: "caio", stack: 130, end: 130}}, left: []events.LeftPlayer{{Player: "dani", Stack: 70, To: "a"}}}),
		},
		{
			rule: "findings-v1.md tournament.move (2026-12-05): a from that is neither the to of his last left nor a table that never deals again",
			hands: append(opening(),
				hand{table: "b", start: 4, end: 5, level: 1, seats: []p{{seat: 1, name: "caio", stack: 130, end: 130}}, left: []events.LeftPlayer{{Player: "dani", Stack: 70, To: "a"}}},
				hand{table: "a", start: 6, end: 7, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 150}, {seat: 2, name: "bia", stack: 50, end: 50}, {seat: 3, name: "dani", stack: 70, end: 70, from: "c"}}}),
			want: []string{"a-4 1 tournament.move c"},
		},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			got, tour := run(c.hands)
			var errs []string
			places := map[string]int{}
			for _, g := range got {
				if strings.Contains(g, string(finding.TournamentPlace)) {
					continue
				}
				errs = append(errs, g)
			}
			for _, pl := range tour.Players() {
				if pl.Out {
					places[pl.Name] = pl.Place
				}
			}
			if !slices.Equal(errs, c.want) {
				t.Errorf("findings %q, want %q", errs, c.want)
			}
			if c.place != nil && fmt.Sprint(places) != fmt.Sprint(c.place) {
				t.Errorf("places %v, want %v", places, c.place)
			}
		})
	}
}

// A player who goes out and rebuys is back in; the standings put the players still in first.
func TestRebuyAfterBust(t *testing.T) {
	hands := append(opening(),
		hand{table: "a", start: 3, end: 4, level: 1, seats: []p{{seat: 1, name: "ana", stack: 150, end: 200}, {seat: 2, name: "bia", stack: 50, end: 0}}},
		hand{table: "a", start: 5, end: 6, level: 1, seats: []p{{seat: 1, name: "ana", stack: 200, end: 180}, {seat: 2, name: "bia", stack: 100, end: 120, rebuy: 100}}},
	)
	got, tour := run(hands)
	if len(got) != 1 || !strings.Contains(got[0], "a-3 40 tournament.place 4") {
		t.Fatalf("findings %q, want bia's place 4 alone", got)
	}
	st := tour.Standings()
	if len(st) != 4 || st[0].Player != "ana" || st[0].Place != 0 || st[1].Player != "caio" {
		t.Errorf("standings %+v", st)
	}
	for _, s := range st {
		if s.Place != 0 {
			t.Errorf("%s has place %d while still in", s.Player, s.Place)
		}
	}
	if held, made := tour.Chips(); held != made || made != 500 {
		t.Errorf("chips held %d, made %d, want 500", held, made)
	}
}

// The winner: one player holds every chip, first; the others by place.
func TestFinished(t *testing.T) {
	hands := []hand{
		{table: "a", start: 0, end: 2, level: 1, entries: 3, seats: []p{{seat: 1, name: "ana", stack: 100, end: 0}, {seat: 2, name: "bia", stack: 100, end: 150}, {seat: 3, name: "caio", stack: 100, end: 150}}},
		{table: "a", start: 3, end: 4, level: 1, seats: []p{{seat: 2, name: "bia", stack: 150, end: 300}, {seat: 3, name: "caio", stack: 150, end: 0}}, left: []events.LeftPlayer{{Player: "ana"}}},
	}
	_, tour := run(hands)
	if !tour.Finished() {
		t.Fatal("not finished")
	}
	var got []string
	for _, s := range tour.Standings() {
		got = append(got, fmt.Sprintf("%d %s", s.Place, s.Player))
	}
	if want := []string{"1 bia", "2 caio", "3 ana"}; !slices.Equal(got, want) {
		t.Errorf("standings %q, want %q", got, want)
	}
}

// A player with a share in a carried pot whom the next deal lists in left without dealing him in
// goes out at that hand, which has no seat of his: the tournament.place finding names him in
// expected, with seat 0 (events-v1.md §7, 2026-12-05; docs/findings.md tournament.place).
func TestPlaceOfAPlayerNotDealtIn(t *testing.T) {
	b := NewBook()
	var fs []finding.Finding
	for i, h := range []hand{
		{table: "a", start: 0, end: 2, level: 1, entries: 3, seats: []p{{seat: 1, name: "ana", stack: 100, end: 95}, {seat: 2, name: "bia", stack: 100, end: 0}, {seat: 3, name: "caio", stack: 100, end: 95}}, out: 110},
		{table: "a", start: 3, end: 4, level: 1, carry: 110, seats: []p{{seat: 1, name: "ana", stack: 95, end: 205}, {seat: 3, name: "caio", stack: 95, end: 95}}, left: []events.LeftPlayer{{Player: "bia"}}},
	} {
		fs = b.Add(fs, h.build(i+1))
	}
	if len(fs) != 1 || fs[0].Code != finding.TournamentPlace || fs[0].Hand != "a-2" || fs[0].Seat != 0 || fs[0].Expected != "bia" || fs[0].Actual != 3 {
		t.Errorf("findings %+v; want bia's place 3 at a-2, seat 0, expected \"bia\"", fs)
	}
}
