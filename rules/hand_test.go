package rules

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// table builds hands for tests: seats 1..n with the given stacks, dealer seat d.
type tb interface {
	Helper()
	Fatal(...any)
	Fatalf(string, ...any)
}

type builder struct {
	t     tb
	h     *Hand
	log   []*events.Event
	seq   events.Seq
	found []Violation
}

func start(t tb, preset string, dealer events.Seat, ante, minBet, maxBet events.Chips, stacks ...events.Chips) *builder {
	t.Helper()
	hs := &events.HandStarted{Rules: events.Rules{Name: preset}, Number: 1, Dealer: dealer,
		Stakes: events.Stakes{Ante: ante, MinBet: minBet, MaxBet: maxBet}}
	for i, s := range stacks {
		hs.Seats = append(hs.Seats, events.SeatStack{Seat: events.Seat(i + 1), Player: fmt.Sprintf("p%d", i+1), Stack: s})
	}
	first := &events.Event{Seq: 1, Type: events.HandStartedType, Data: hs}
	h, err := NewHand(first)
	if err != nil {
		t.Fatal(err)
	}
	return &builder{t: t, h: h, seq: 1, log: []*events.Event{first}}
}

func (b *builder) ev(d events.Data) []Violation {
	b.seq++
	e := &events.Event{Seq: b.seq, Type: d.EventType(), Data: d}
	b.log = append(b.log, e)
	v := b.h.Apply(e)
	b.found = append(b.found, v...)
	return v
}

func (b *builder) antes() *builder {
	b.ev(&events.DeckShuffled{Method: cards.PhysicalMethod, Count: ptr(3)})
	for _, p := range b.h.Players {
		if b.h.Preset.Ante {
			b.ev(&events.AntePosted{Seat: p.Seat, Amount: min(b.h.Start.Stakes.Ante, p.Stack)})
		}
	}
	return b
}

// deal deals the hands given as "Ah Kh Qh Jh Th" per seat, one card at a time from the dealer's left.
func (b *builder) deal(hands ...string) *builder {
	hs := make([][]cards.Card, len(hands))
	for i, s := range hands {
		cs, err := cards.ParseList(s)
		if err != nil {
			b.t.Fatal(err)
		}
		hs[i] = cs
	}
	for r := 0; r < 5; r++ {
		for k := range b.h.Players {
			s := b.h.dealSeat(k)
			b.ev(&events.CardDealt{Seat: s, Card: hs[s-1][r], Phase: events.PhaseDeal})
		}
	}
	return b
}

func (b *builder) act(seat events.Seat, round events.Round, a events.Action, amount events.Chips) []Violation {
	return b.ev(&events.PlayerActed{Seat: seat, Round: round, Action: a, Amount: amount})
}

func ptr[T any](v T) *T { return &v }

func codes(vs []Violation) string {
	var s []string
	for _, v := range vs {
		s = append(s, string(v.Code))
	}
	return strings.Join(s, ",")
}

// Betting rows, each citing the presets.md row it checks.
func TestBetting(t *testing.T) {
	const F, S = events.RoundFirst, events.RoundSecond
	type act struct {
		seat   events.Seat
		round  events.Round
		action events.Action
		amount events.Chips
	}
	four := []string{"Jh Jd 2c 3c 4c", "Ah Kd 9c 8c 7c", "Qh Qd 5s 6s 9d", "Th 9h 8h 2s 3s"}
	fourStripped := []string{"Jh Jd 7c 8c 9c", "Ah Kd 9d 8d 7d", "Qh Qd Ts 7s 9h", "Th 9s 8h Ks Ac"}
	for _, tc := range []struct {
		rule   string
		preset string
		stakes [3]events.Chips
		hands  []string
		acts   []act
		want   string // codes of the last action
	}{
		{`presets.md "check before an open" br-fechado: yes ("mesa")`, "br-fechado", [3]events.Chips{5, 10, 100}, fourStripped,
			[]act{{2, F, events.Check, 0}}, ""},
		{`presets.md "check before an open" br-online: no`, "br-online", [3]events.Chips{0, 10, 0}, four,
			[]act{{2, events.RoundBlind, events.Check, 0}}, "bet.illegal-action"},
		{`presets.md "round first starts with" first player left of the dealer`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{3, F, events.Check, 0}}, "bet.out-of-turn"},
		{`presets.md "minimum to open" std-draw: pair of jacks`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 10}}, ""},
		{`presets.md "minimum to open" std-draw: ace-king high does not open`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{2, F, events.Bet, 10}}, "open.without-openers"},
		{`presets.md "betting" std-draw: fixed limit, min_bet before the draw`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 15}}, "bet.amount"},
		{`findings "bet.illegal-action": check facing a bet`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 10}, {4, F, events.Check, 0}}, "bet.illegal-action"},
		{`findings "bet.amount": a call not equal to what is owed`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 10}, {4, F, events.Call, 5}}, "bet.amount"},
		{`presets.md "re-opening" br-fechado: an opener who was only called may not re-raise (seed 000)`, "br-fechado", [3]events.Chips{5, 10, 100}, fourStripped,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 10}, {4, F, events.Call, 10}, {1, F, events.Call, 10}, {2, F, events.Call, 10}, {3, F, events.Raise, 10}}, "bet.reopen"},
		{`presets.md "betting" br-fechado: a raise at least the previous increment`, "br-fechado", [3]events.Chips{5, 10, 100}, fourStripped,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 10}, {4, F, events.Raise, 40}, {1, F, events.Raise, 50}}, "bet.amount"},
		{`presets.md "betting" br-fechado: up to max_bet`, "br-fechado", [3]events.Chips{5, 10, 100}, fourStripped,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 120}}, "bet.amount"},
		{`presets.md "minimum to open" tr-kapali: open ≥ the chips in the middle`, "tr-kapali", [3]events.Chips{5, 10, 0}, []string{"Ah Kc 9d 8d 7d", "Kh Kd 7c 8c 9c", "Qh Qd Ts 7s 9h", "Th 9s 8h Ks Ac"},
			[]act{{2, F, events.Bet, 15}}, "open.below-minimum"},
		{`presets.md "minimum to open" tr-kapali: per rua (kings) opens for the chips in the middle`, "tr-kapali", [3]events.Chips{5, 10, 0}, []string{"Ah Kc 9d 8d 7d", "Kh Kd 7c 8c 9c", "Qh Qd Ts 7s 9h", "Th 9s 8h Ks Ac"},
			[]act{{2, F, events.Bet, 20}}, ""},
		{`presets.md "betting" std-draw: at most a bet and four raises while three or more are in`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 10}, {4, F, events.Raise, 20}, {1, F, events.Raise, 30}, {2, F, events.Raise, 40}, {3, F, events.Raise, 40}, {4, F, events.Raise, 30}}, "bet.reopen"},
		{`findings "bet.illegal-action": any action by a folded player`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{2, F, events.Fold, 0}, {3, F, events.Bet, 10}, {4, F, events.Call, 10}, {1, F, events.Call, 10}, {2, F, events.Call, 10}}, "bet.illegal-action"},
		{`findings "bet.amount": more than the stack`, "br-fechado", [3]events.Chips{5, 10, 0}, fourStripped,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 500}}, "bet.amount"},
		{`findings "bet.round-incomplete" is not raised by a complete round`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 10}, {4, F, events.Fold, 0}, {1, F, events.Fold, 0}, {2, F, events.Call, 10}, {3, S, events.Check, 0}}, ""},
		{`findings "bet.round-incomplete": round second begins while seat 2 owes chips`, "std-draw", [3]events.Chips{5, 10, 20}, four,
			[]act{{2, F, events.Check, 0}, {3, F, events.Bet, 10}, {4, F, events.Fold, 0}, {1, F, events.Fold, 0}, {3, S, events.Check, 0}}, "bet.round-incomplete"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			b := start(t, tc.preset, 1, tc.stakes[0], tc.stakes[1], tc.stakes[2], 400, 400, 400, 400)
			if b.h.Preset.BlindRound {
				b.ev(&events.DeckShuffled{Method: cards.PhysicalMethod})
			} else {
				b.antes().deal(tc.hands...)
			}
			var last []Violation
			for i, a := range tc.acts {
				last = b.act(a.seat, a.round, a.action, a.amount)
				if i < len(tc.acts)-1 && len(last) > 0 && !strings.Contains(tc.rule, "round-incomplete") {
					t.Fatalf("action %d (%v) raised %s before the one under test", i, a, codes(last))
				}
			}
			if got := codes(last); got != tc.want {
				t.Errorf("got %q, want %q (%v)", got, tc.want, last)
			}
		})
	}
}

// Pots: presets.md "pot layers", "tied hands" and the definitions, checked on ExpectedAwards.
func TestPots(t *testing.T) {
	// seat 1 all-in for 110, seats 2–4 115 each (the br-fechado vector, hand 3).
	b := start(t, "br-fechado", 1, 5, 10, 100, 110, 990, 860, 290)
	b.antes().deal("7c 8d 7d Kh Tc", "Qh Qd Ks Js Jd", "8c 8s Jh 9h 7s", "Ah Qc Kd Ad As")
	const F, S = events.RoundFirst, events.RoundSecond
	b.act(2, F, events.Bet, 10)
	b.act(3, F, events.Call, 10)
	b.act(4, F, events.Call, 10)
	b.act(1, F, events.Call, 10)
	for _, s := range []events.Seat{2, 3, 4, 1} {
		b.ev(&events.CardsDiscarded{Seat: s, Cards: []cards.Card{}})
	}
	b.act(2, S, events.Bet, 100)
	b.act(3, S, events.Call, 100)
	b.act(4, S, events.Call, 100)
	b.act(1, S, events.Call, 95)
	for _, p := range b.h.Players {
		b.ev(&events.HandShown{Seat: p.Seat, Cards: p.Cards})
	}
	pots, ok := b.h.ExpectedAwards()
	if !ok || len(pots) != 2 {
		t.Fatalf("pots = %+v, %v", pots, ok)
	}
	if pots[0].Amount != 440 || pots[1].Amount != 15 || len(pots[0].Eligible) != 4 || len(pots[1].Eligible) != 3 {
		t.Errorf("layers %+v", pots)
	}
	if pots[0].Shares[4] != 440 || pots[1].Shares[4] != 15 {
		t.Errorf("aces full… seat 4 wins both: %+v", pots)
	}
	var sum events.Chips
	for _, p := range pots {
		sum += p.Amount
	}
	if sum != b.h.Pot() {
		t.Errorf("pots sum to %d, pot is %d", sum, b.h.Pot())
	}
	if len(b.found) != 0 {
		t.Errorf("legal hand raised %s", codes(b.found))
	}
}

// Pot layers (presets.md "pot layers", docs/rules.md #def-pot-layers; found by TestBlindRotation):
// the largest live contribution is an all-in's, and two folded players matched each other above
// it. The one layer ends at that level and, being the top one, holds their chips above it too:
// nothing is left outside every pot. online-draw: seat 3 is all-in for 3 as the big blind, seat
// 1 came in by posting a big blind of 10 and folds without a bet to face, seat 2 folds to it.
func TestPotsFoldedChipsAboveTheTopAllIn(t *testing.T) {
	hs := &events.HandStarted{Rules: events.Rules{Name: "online-draw"}, Number: 1, Dealer: 1,
		Stakes: events.Stakes{MinBet: 10}, Seats: []events.SeatStack{
			{Seat: 1, Player: "p1", Stack: 150, Joined: true}, {Seat: 2, Player: "p2", Stack: 641}, {Seat: 3, Player: "p3", Stack: 3}}}
	first := &events.Event{Seq: 1, Type: events.HandStartedType, Data: hs}
	h, err := NewHand(first)
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{t: t, h: h, seq: 1, log: []*events.Event{first}}
	b.ev(&events.DeckShuffled{Method: cards.PhysicalMethod, Count: ptr(3)})
	b.ev(&events.BlindPosted{Seat: 2, Amount: 5, Blind: events.BlindSmall})
	b.ev(&events.BlindPosted{Seat: 3, Amount: 3, Blind: events.BlindBig})
	b.ev(&events.BlindPosted{Seat: 1, Amount: 10, Blind: events.BlindBig})
	b.deal("2c 3c 4c 5c 7d", "2d 3d 4d 5d 7h", "2h 3h 4h 5h 7s")
	b.act(1, events.RoundFirst, events.Fold, 0)
	b.act(2, events.RoundFirst, events.Fold, 0)
	b.ev(&events.BetReturned{Seat: 1, Amount: 5})
	pots, ok := b.h.ExpectedAwards()
	if !ok || len(pots) != 1 || pots[0].Amount != 13 || pots[0].Shares[3] != 13 {
		t.Fatalf("pots = %+v (%v), want one pot of 13 (3 from each, and the 2 + 2 above) to seat 3", pots, ok)
	}
	b.ev(&events.PotAwarded{Seat: 3, Amount: 13})
	b.ev(&events.HandEnded{Stacks: []events.SeatChips{{Seat: 1, Stack: 145}, {Seat: 2, Stack: 636}, {Seat: 3, Stack: 13}}})
	if len(b.found) != 0 {
		t.Errorf("legal hand raised %s", codes(b.found))
	}
}

// Property: driving a hand with random legal actions (as Options offers them) raises nothing,
// conserves chips, and builds pots that sum to the chips put in; an action outside Options is
// refused.
func TestLegalActionsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		preset := rapid.SampledFrom([]string{"br-fechado", "br-online", "tr-kapali", "std-draw", "online-draw"}).Draw(t, "preset")
		p, _ := Lookup(preset)
		n := rapid.IntRange(p.MinPlayers, min(p.MaxPlayers, 6)).Draw(t, "players")
		stacks := make([]events.Chips, n)
		for i := range stacks {
			stacks[i] = events.Chips(rapid.IntRange(20, 400).Draw(t, fmt.Sprintf("stack%d", i)))
		}
		maxBet := events.Chips(100)
		if preset == "br-online" || preset == "tr-kapali" || preset == "online-draw" {
			maxBet = 0
		}
		if preset == "std-draw" {
			maxBet = 20
		}
		b := start(t, preset, events.Seat(rapid.IntRange(1, n).Draw(t, "dealer")), 5, 10, maxBet, stacks...)
		b.ev(&events.DeckShuffled{Method: cards.PhysicalMethod, Count: ptr(3)})
		if p.Ante {
			for _, pl := range b.h.Players {
				b.ev(&events.AntePosted{Seat: pl.Seat, Amount: min(5, pl.Stack)})
			}
		}
		if p.Blinds {
			sb, bb := b.h.blindSeats()
			b.ev(&events.BlindPosted{Seat: sb, Amount: min(5, b.h.Player(sb).Stack), Blind: events.BlindSmall})
			b.ev(&events.BlindPosted{Seat: bb, Amount: min(10, b.h.Player(bb).Stack), Blind: events.BlindBig})
		}
		total := events.Chips(0)
		for _, s := range stacks {
			total += s
		}
		round := events.RoundFirst
		if p.BlindRound {
			round = events.RoundBlind
		} else {
			deck := cards.Deck(b.h.Low)
			for r := 0; r < 5; r++ {
				for k := range b.h.Players {
					s := b.h.dealSeat(k)
					b.ev(&events.CardDealt{Seat: s, Card: deck[r*len(b.h.Players)+int(s)-1], Phase: events.PhaseDeal})
				}
			}
		}
		b.h.enterRound(b.seq, round)
		for step := 0; step < 40; step++ {
			o, ok := b.h.Options()
			if !ok {
				break
			}
			var choices []events.PlayerActed
			add := func(a events.Action, amt events.Chips) {
				choices = append(choices, events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: a, Amount: amt})
			}
			add(events.Fold, 0)
			if o.Check {
				add(events.Check, 0)
			}
			if o.Call > 0 {
				add(events.Call, o.Call)
			}
			if o.Bet && !o.Opening {
				add(events.Bet, events.Chips(rapid.Int64Range(int64(o.MinBet), int64(o.MaxBet)).Draw(t, "bet")))
			}
			if o.Raise {
				add(events.Raise, events.Chips(rapid.Int64Range(int64(o.MinRaise), int64(o.MaxRaise)).Draw(t, "raise")))
			}
			c := rapid.SampledFrom(choices).Draw(t, "action")
			if c.Action == events.Fold && b.h.InHand() == 2 && rapid.Bool().Draw(t, "avoid-fold") && len(choices) > 1 {
				c = choices[1]
			}
			if vs := b.act(c.Seat, c.Round, c.Action, c.Amount); len(vs) > 0 {
				t.Fatalf("legal %+v raised %s: %v", c, codes(vs), vs)
			}
			var stacksNow events.Chips
			for _, pl := range b.h.Players {
				stacksNow += pl.Stack
			}
			if stacksNow+b.h.Pot() != total {
				t.Fatalf("chips not conserved: stacks %d + pot %d != %d", stacksNow, b.h.Pot(), total)
			}
			var layers events.Chips
			for _, pot := range b.h.Pots() {
				layers += pot.Amount
			}
			if layers != b.h.Pot() {
				t.Fatalf("pot layers sum to %d, pot is %d", layers, b.h.Pot())
			}
		}
		// An action outside the options is refused. Each probe runs on the hand's log replayed
		// afresh, so one probe does not change the next.
		if o, ok := b.h.Options(); ok {
			p := b.h.Player(o.Seat)
			probe := func(a events.Action, amt events.Chips, want finding.Code) {
				fresh, err := NewHand(b.log[0])
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range b.log[1:] {
					fresh.Apply(e)
				}
				fresh.enterRound(b.seq, round)
				fresh.Violations = nil
				vs := fresh.Apply(&events.Event{Seq: b.seq + 1, Type: events.PlayerActedType,
					Data: &events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: a, Amount: amt}})
				if len(vs) == 0 || vs[0].Code != want {
					t.Fatalf("%s %d (options %+v) gave %v, want %s", a, amt, o, vs, want)
				}
			}
			switch {
			case o.Call > 0 && o.Call < p.Stack:
				probe(events.Call, o.Call+1, finding.BetAmount)
				probe(events.Check, 0, finding.BetIllegalAction)
			case !o.Check && o.Call == 0:
				probe(events.Check, 0, finding.BetIllegalAction) // br-online: bet or fold
			}
			if o.Raise && o.MinRaise > o.Call+1 && o.MinRaise < p.Stack {
				probe(events.Raise, o.MinRaise-1, finding.BetAmount)
			}
			probe(events.Call, p.Stack+1, finding.BetAmount)
		}
	})
}

// Drawing and exposed cards, each row citing the presets.md row it checks. The hands are dealt
// from a physical shuffle, round first is checked around, then the rows' events follow.
func TestDrawAndExposed(t *testing.T) {
	discard := func(s events.Seat, cs string) events.Data {
		l, _ := cards.ParseList(cs)
		if l == nil {
			l = []cards.Card{}
		}
		return &events.CardsDiscarded{Seat: s, Cards: l}
	}
	dealt := func(s events.Seat, c string) events.Data {
		return &events.CardDealt{Seat: s, Card: cards.MustParse(c), Phase: events.PhaseDraw}
	}
	burn := func(c string) events.Data { return &events.CardBurned{Card: cards.MustParse(c)} }
	exposed := func(c string, ph events.Phase) events.Data {
		return &events.CardExposed{Card: cards.MustParse(c), Phase: ph, Cause: events.CauseDealer}
	}
	// Two players, seat 1 deals, so seat 2 draws first.
	for _, tc := range []struct {
		rule   string
		preset string
		hands  [2]string
		steps  []events.Data
		want   string
	}{
		{`presets.md "most cards drawn" tr-kapali: 4, the fourth after a burned card`, "tr-kapali",
			[2]string{"Kh Kd 7c 8c 9c", "Ah Ad 7d 8d 9d"},
			[]events.Data{discard(2, "Ad 7d 8d 9d"), dealt(2, "Ts"), dealt(2, "Js"), dealt(2, "Qs"), burn("As"), dealt(2, "Tc")}, ""},
		{`presets.md "most cards drawn" tr-kapali: a fourth card without the burn`, "tr-kapali",
			[2]string{"Kh Kd 7c 8c 9c", "Ah Ad 7d 8d 9d"},
			[]events.Data{discard(2, "Ad 7d 8d 9d"), dealt(2, "Ts"), dealt(2, "Js"), dealt(2, "Qs"), dealt(2, "Tc")}, "draw.procedure"},
		{`presets.md "most cards drawn" tr-kapali: 5 is too many`, "tr-kapali",
			[2]string{"Kh Kd 7c 8c 9c", "Ah Ad 7d 8d 9d"},
			[]events.Data{discard(2, "Ah Ad 7d 8d 9d")}, "draw.too-many"},
		{`presets.md "draw order": from the first active player left of the dealer`, "std-draw",
			[2]string{"Jh Jd 2c 3c 4c", "Ah Kd 9c 8c 7c"},
			[]events.Data{discard(1, "2c")}, "draw.order"},
		{`findings "draw.not-held": a discarded card the player did not hold`, "std-draw",
			[2]string{"Jh Jd 2c 3c 4c", "Ah Kd 9c 8c 7c"},
			[]events.Data{discard(2, "2s")}, "draw.not-held"},
		{`findings "draw.replacements": the next player draws before seat 2 got his card`, "std-draw",
			[2]string{"Jh Jd 2c 3c 4c", "Ah Kd 9c 8c 7c"},
			[]events.Data{discard(2, "7c 8c"), dealt(2, "2s"), discard(1, "")}, "draw.replacements"},
		{`presets.md "card exposed in the draw" tr-kapali: burned, and the player gets the next card`, "tr-kapali",
			[2]string{"Kh Kd 7c 8c 9c", "Ah Ad 7d 8d 9d"},
			[]events.Data{discard(2, "7d"), burn("Ts"), exposed("Ts", events.PhaseDraw), dealt(2, "Js")}, "card.exposed"},
		{`presets.md "card exposed in the draw" tr-kapali: kept when it must be burned`, "tr-kapali",
			[2]string{"Kh Kd 7c 8c 9c", "Ah Ad 7d 8d 9d"},
			[]events.Data{discard(2, "7d"), dealt(2, "Ts"), exposed("Ts", events.PhaseDraw)}, "card.exposed,card.exposed-remedy"},
		{`presets.md "card exposed in the draw" std-draw: replaced after every other player has drawn`, "std-draw",
			[2]string{"Jh Jd 2c 3c 4c", "Ah Kd 9c 8c 7c"},
			[]events.Data{discard(2, "7c"), burn("Ts"), exposed("Ts", events.PhaseDraw), dealt(2, "Js")}, "card.exposed,card.exposed-remedy"},
		{`presets.md "declared draw count" tr-kapali: may be raised, never lowered`, "tr-kapali",
			[2]string{"Kh Kd 7c 8c 9c", "Ah Ad 7d 8d 9d"},
			[]events.Data{&events.CardsDiscarded{Seat: 2, Cards: []cards.Card{cards.MustParse("7d")}, Declared: ptr(2)}}, "draw.declared"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			stakes := [3]events.Chips{5, 10, 0}
			if tc.preset == "std-draw" {
				stakes = [3]events.Chips{5, 10, 20}
			}
			b := start(t, tc.preset, 1, stakes[0], stakes[1], stakes[2], 400, 400)
			b.antes().deal(tc.hands[0], tc.hands[1])
			size := stakes[1]
			if tc.preset == "tr-kapali" {
				size = 10 // the chips in the middle
			}
			b.act(2, events.RoundFirst, events.Check, 0)
			b.act(1, events.RoundFirst, events.Bet, size)
			b.act(2, events.RoundFirst, events.Call, size)
			if len(b.found) > 0 {
				t.Fatalf("setup raised %s", codes(b.found))
			}
			var got []Violation
			for _, d := range tc.steps {
				got = append(got, b.ev(d)...)
			}
			if codes(got) != tc.want {
				t.Errorf("got %q, want %q (%v)", codes(got), tc.want, got)
			}
		})
	}
}
