package rules

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// presets.md "next hand", checked against the dealers of the example vectors.
func TestNextDealer(t *testing.T) {
	br, _ := Lookup("br-fechado")
	online, _ := Lookup("br-online")
	four := []events.Seat{1, 2, 3, 4}
	for _, tc := range []struct {
		rule            string
		p               Preset
		seats           []events.Seat
		dealer, starter events.Seat
		misdeal         bool
		want            events.Seat
	}{
		{`br-fechado: the deal passes to the left (vector hand 1 → 2)`, br, four, 3, 4, false, 4},
		{`br-fechado: wraps round the table`, br, four, 4, 1, false, 1},
		{`br-fechado: a busted dealer's left (vector hand 3 → 4: seat 1 out)`, br, []events.Seat{2, 3, 4}, 1, 2, false, 2},
		{`misdeal: the same dealer deals again`, br, four, 2, 3, true, 2},
		{`br-online: the starter passes left; dealer = the seat before him (vector hand 1 → 2)`, online, four, 3, 4, false, 4},
		{`br-online: the next starter skips a player who is out`, online, []events.Seat{1, 3, 4}, 4, 1, false, 1},
	} {
		if got := tc.p.NextDealer(tc.seats, tc.dealer, tc.starter, tc.misdeal); got != tc.want {
			t.Errorf("%s: got %d, want %d", tc.rule, got, tc.want)
		}
	}
	if NextSeat(nil, 3) != 0 || PrevSeat(nil, 3) != 0 {
		t.Error("an empty table has no seats")
	}
}

// events-v1.md §7 blind games, the TDA rules NextBlinds implements: "dead button" (the big blind
// moves one dealt-in seat left every hand; the small blind comes from the last big blind's seat;
// the button goes to the seat of the big blind before that, dead when empty), "button in
// heads-up" (the button posts the small blind), and "new players and the big blind" (a newcomer
// is dealt in when the big blind reaches him or he posts one).
func TestNextBlinds(t *testing.T) {
	s := func(xs ...events.Seat) []events.Seat { return xs }
	for _, tc := range []struct {
		rule               string
		seats              []events.Seat
		lastBB, bbBefore   events.Seat
		lastDealtIn        int
		wantBB, wantButton events.Seat
		wantOK             bool
	}{
		{`TDA dead button: nobody comes or goes, everything moves one seat (button 2 → 3, big blind 4 → 1)`,
			s(1, 2, 3, 4), 4, 3, 4, 1, 3, true},
		{`TDA dead button: the last small blind (seat 3) left, the button stays dead on his empty seat`,
			s(1, 2, 4), 4, 3, 4, 1, 3, true},
		{`TDA dead button: the last big blind (seat 4) left, no small blind; the big blind is seat 1 and the button seat 3`,
			s(1, 2, 3), 4, 3, 4, 1, 3, true},
		{`TDA dead button: the big blind skips a player who sits out (seat 1 away), never moving back`,
			s(2, 3, 4), 4, 3, 4, 2, 3, true},
		{`TDA new players and the big blind: a newcomer in seat 5 who posts is dealt in and takes the big blind`,
			s(1, 2, 3, 4, 5), 4, 3, 4, 5, 3, true},
		{`TDA button in heads-up: the button is the small blind, the other player's the big blind`,
			s(2, 4), 2, 4, 2, 4, 2, true},
		{`TDA button in heads-up: going heads-up, the big blind still moves on, so nobody takes it twice`,
			s(1, 3), 4, 3, 3, 1, 3, true},
		{`TDA button in heads-up: back to three players, only the big blind's move is fixed`,
			s(1, 2, 3), 1, 2, 2, 2, 0, false},
		{`the first hand of a table: nothing to rotate from`,
			s(1, 2, 3), 0, 0, 0, 0, 0, false},
		{`the second hand: the big blind moves, the button is not fixed yet`,
			s(1, 2, 3), 2, 0, 3, 3, 0, false},
	} {
		bb, button, ok := NextBlinds(tc.seats, tc.lastBB, tc.bbBefore, tc.lastDealtIn)
		if bb != tc.wantBB || button != tc.wantButton || ok != tc.wantOK {
			t.Errorf("%s: big blind %d, button %d, %v; want %d, %d, %v", tc.rule, bb, button, ok, tc.wantBB, tc.wantButton, tc.wantOK)
		}
	}
}

// events.md Reading R6, a player who sits out keeps the dead button: two players dealt in are not
// heads-up while the last small blind sits out on the seat the rule gives the button and the last
// big blind, dealt in, is the first player after it (the Boss session of handhistory's fixtures,
// hands 2692988440 and 2692989117).
func TestNextBlindsAway(t *testing.T) {
	s := func(xs ...events.Seat) []events.Seat { return xs }
	for _, tc := range []struct {
		rule               string
		seats              []events.Seat
		away               []events.Seat
		lastBB, lastSB     events.Seat
		lastDealtIn        int
		wantBB, wantButton events.Seat
		wantOK             bool
	}{
		{`TDA dead button: the last small blind (seat 2) sits out; the button stays on his seat, the big blind moves 3 → 5`,
			s(3, 5), s(2), 3, 2, 3, 5, 2, true},
		{`TDA button in heads-up: he has left; the big blind moves 5 → 3 and the button posts the small blind`,
			s(3, 5), nil, 5, 3, 2, 3, 5, true},
		{`TDA button in heads-up: someone away elsewhere (seat 6) does not keep the button, seat 2 is empty`,
			s(3, 5), s(6), 3, 2, 3, 5, 3, true},
		{`TDA button in heads-up: already heads-up with him away, only the big blind is fixed`,
			s(3, 5), s(2), 5, 3, 2, 3, 5, true},
		{`TDA button in heads-up: the last small blind (3) and big blind (4) both sit out; heads-up, the big blind moves 4 → 5`,
			s(2, 5), s(1, 3, 4, 6), 4, 3, 4, 5, 2, true},
	} {
		var away SeatSet
		if tc.away != nil {
			away = SeatSetOf(tc.away)
		}
		bb, button, ok := NextBlindsAway(tc.seats, away, tc.lastBB, tc.lastSB, tc.lastDealtIn)
		if bb != tc.wantBB || button != tc.wantButton || ok != tc.wantOK {
			t.Errorf("%s: big blind %d, button %d, %v; want %d, %d, %v", tc.rule, bb, button, ok, tc.wantBB, tc.wantButton, tc.wantOK)
		}
	}
	// Rotation.PlaceAway puts the blinds on the two players dealt in, left of the dead button.
	r := Rotation{LastBB: 3, LastSB: 2, BBBefore: 5, LastDealtIn: 3}
	if got, want := r.PlaceAway(s(3, 5), SeatSetOf(s(2)), 5), (Blinds{Button: 2, Small: 3, Big: 5}); !blindsEqual(got, want) {
		t.Errorf("placed %+v, want %+v", got, want)
	}
	if got, want := r.Place(s(3, 5), 5), (Blinds{Button: 3, Small: 3, Big: 5}); !blindsEqual(got, want) {
		t.Errorf("nobody away: placed %+v, want %+v (heads-up)", got, want)
	}
}

func blindsEqual(a, b Blinds) bool {
	return a.Button == b.Button && a.Small == b.Small && a.Big == b.Big && slices.Equal(a.Extra, b.Extra)
}

// Property (TDA dead button): with the same players dealt in hand after hand, the big blind visits
// every seat once per orbit, and the button is always the seat two big blinds back.
func TestNextBlindsOrbit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(3, 8).Draw(t, "players")
		all := rapid.Permutation([]events.Seat{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}).Draw(t, "seats")[:n]
		slices.Sort(all)
		bb2, bb1 := all[0], all[1]
		seen := map[events.Seat]int{}
		for range n {
			bb, button, ok := NextBlinds(all, bb1, bb2, n)
			if !ok || button != bb2 || bb == button {
				t.Fatalf("big blind %d, button %d, %v after big blinds %d, %d", bb, button, ok, bb2, bb1)
			}
			seen[bb]++
			bb2, bb1 = bb1, bb
		}
		if len(seen) != n {
			t.Fatalf("in one orbit of %d hands the big blind sat at %v", n, seen)
		}
	})
}

// events-v1.md §7 with the TDA dead button, within one hand of a blind game: when the small
// blind's seat is empty nobody posts it, and the big blind is the first player left of the
// button; the first round then starts left of him.
func TestDeadSmallBlind(t *testing.T) {
	const F = events.RoundFirst
	for _, tc := range []struct {
		rule    string
		blinds  []events.BlindPosted
		starter events.Seat // who may act first in round first
		want    string      // codes
	}{
		{`TDA dead button: no small blind, the big blind left of the button`,
			[]events.BlindPosted{{Seat: 1, Amount: 10, Blind: events.BlindBig}}, 2, ""},
		{`presets.md online-draw: the usual small and big blind`,
			[]events.BlindPosted{{Seat: 1, Amount: 5, Blind: events.BlindSmall}, {Seat: 2, Amount: 10, Blind: events.BlindBig}}, 3, ""},
		{`the big blind left of the button once a small blind was posted there is out of place`,
			[]events.BlindPosted{{Seat: 2, Amount: 5, Blind: events.BlindSmall}, {Seat: 1, Amount: 10, Blind: events.BlindBig}}, 0, "blind.amount,blind.amount"}, // the small blind's seat, then the big blind's
	} {
		t.Run(tc.rule, func(t *testing.T) {
			b := start(t, "online-draw", 3, 0, 10, 0, 500, 500, 500)
			b.ev(&events.DeckShuffled{Method: cards.PhysicalMethod})
			for _, bl := range tc.blinds {
				b.ev(&bl)
			}
			if got := codes(b.found); got != tc.want {
				t.Fatalf("codes %q, want %q", got, tc.want)
			}
			if tc.starter == 0 {
				return
			}
			b.deal("2c 3c 4c 5c 7d", "2d 3d 4d 5d 7h", "2h 3h 4h 5h 7s")
			if v := b.act(tc.starter, F, events.Call, 10); len(v) != 0 {
				t.Errorf("seat %d may act first: %s", tc.starter, codes(v))
			}
		})
	}
}
