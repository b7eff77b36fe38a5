package events

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/events/internal/jsonlex"

	"github.com/fechado/fechado/cards"
)

// The fast paths of the decoder (decoder.fast and the payloads' fastX) read lines as Encode writes
// them. These tests give them every shape Encode writes (each optional field present and absent,
// lists from empty to longer than the fast paths take), and check that they judge those lines, and
// thousands of mutations of them, as encoding/json and the general walk do (sameAsJSON), that they do take
// the lines they were written for, and that what they remember from one line to the next (the
// table, the hand, the minute of the time, the players) does not change what a Reader returns.

const (
	fastHand  = "83a3b53a-28d7-4272-b797-1272fe65ecfd"
	fastOther = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
	fastPrev  = "a31875f3e181e11d7ca81f6a4d4dbbb96be05747298d38935c5a53911fc64f56"
)

// fastEvent returns an event of data with the usual envelope, sealed (Raw is Encode's line).
func fastEvent(seq int, data Data) *Event {
	e := &Event{
		ID:    fmt.Sprintf("01a2272d-2d7e-7369-b3c8-%012x", seq),
		Table: "bench-1", Hand: fastHand, Seq: Seq(seq),
		At:   fmt.Sprintf("2026-11-29T12:00:%02d.%03dZ", seq%60, seq*37%1000),
		Type: data.EventType(), Data: data,
	}
	prev := fastPrev
	if seq == 1 {
		prev = ""
	}
	Seal(e, prev)
	return e
}

func seatPtr(s Seat) *Seat    { return &s }
func intPtr(n int) *int       { return &n }
func chipsPtr(c Chips) *Chips { return &c }
func strPtr(s string) *string { return &s }

// someCards returns n cards of a deck, in order.
func someCards(n int) []cards.Card {
	cs := make([]cards.Card, n)
	for i := range cs {
		cs[i] = cards.Card(i % cards.NumCards)
	}
	return cs
}

func seatStacks(n int) []SeatStack {
	s := make([]SeatStack, n)
	for i := range s {
		s[i] = SeatStack{Seat: Seat(i%int(MaxSeat) + 1), Player: fmt.Sprintf("p%d", i+1), Stack: Chips(100 * i)}
	}
	return s
}

func seatChips(n int) []SeatChips {
	s := make([]SeatChips, n)
	for i := range s {
		s[i] = SeatChips{Seat: Seat(i%int(MaxSeat) + 1), Stack: Chips(995 * i)}
	}
	return s
}

// fastPayloads are payloads of every type in every shape Encode writes.
func fastPayloads() []Data {
	stakes := Stakes{Ante: 5, MinBet: 10, MaxBet: 20}
	started := func(f func(*HandStarted)) *HandStarted {
		h := &HandStarted{Rules: Rules{Name: "std-draw"}, Number: 7, Dealer: 3, Seats: seatStacks(4), Stakes: stakes}
		f(h)
		return h
	}
	ds := []Data{
		started(func(*HandStarted) {}),
		started(func(h *HandStarted) { h.Seats = seatStacks(1) }),
		started(func(h *HandStarted) { h.Seats = seatStacks(10) }),
		started(func(h *HandStarted) { h.Seats = seatStacks(11) }), // more than the fast path's buffer
		started(func(h *HandStarted) { h.Seats = []SeatStack{} }),
		started(func(h *HandStarted) { h.Seats[1].Rebuy, h.Seats[3].Rebuy = chipsPtr(0), chipsPtr(250) }),
		started(func(h *HandStarted) { h.Seats[2].Player = `an "escaped" name` }),
		started(func(h *HandStarted) { h.Seats[2].Player = "João" }),
		started(func(h *HandStarted) { h.Seats[2].Player = "" }),
		started(func(h *HandStarted) { h.Rules.Name = "" }),
		started(func(h *HandStarted) { h.Rules.Overrides = []Override{{Key: "ante", Value: []byte("10")}} }),
		started(func(h *HandStarted) { h.Tournament = &Tournament{ID: "t-1", Level: 1} }),
		started(func(h *HandStarted) {
			h.Tournament = &Tournament{ID: "t-1", Level: 3, Entries: intPtr(60), Stack: chipsPtr(1500)}
		}),
		started(func(h *HandStarted) { h.Tournament = &Tournament{ID: "t-1"} }), // a v1 bare id
		started(func(h *HandStarted) { h.Tournament = &Tournament{} }),          // a v1 bare id, empty
		started(func(h *HandStarted) { h.Away, h.Left = []AwaySeat{}, []LeftPlayer{} }),
		started(func(h *HandStarted) { h.Previous = strPtr(fastHand) }),
		started(func(h *HandStarted) { h.Previous = strPtr(fastOther) }),
		started(func(h *HandStarted) { h.Tournament, h.Previous = &Tournament{ID: "t-2", Level: 2}, strPtr(fastOther) }),
		started(func(h *HandStarted) { h.Seats[0].Joined, h.Seats[1].From = true, "table-7" }),
		started(func(h *HandStarted) {
			h.Away = []AwaySeat{{Seat: 9, Player: "Zeynep", Stack: 420}}
			h.Left = []LeftPlayer{{Player: "Bruno", Stack: 0}, {Player: "Caio", Stack: 310, To: "t-3"}}
		}),
		started(func(h *HandStarted) { h.Number, h.Carry, h.PassedOut = 123456789012, 35, 2 }),
		started(func(h *HandStarted) { h.Number = 0 }),
		&DeckShuffled{Method: cards.ShuffleMethod, Commitment: fastPrev},
		&DeckShuffled{Method: cards.ShuffleMethod, Commitment: fastPrev, Count: intPtr(52), By: seatPtr(2)},
		&DeckShuffled{Method: cards.PhysicalMethod, Count: intPtr(13), Cards: someCards(13)},
		&DeckShuffled{Method: cards.PhysicalMethod},
		&DeckCut{At: 3, By: seatPtr(2)},
		&DeckCut{At: 0},
		&DeckCut{At: 51, By: seatPtr(10)},
		&AntePosted{Seat: 4, Amount: 5},
		&AntePosted{Seat: 10, Amount: 0},
		&BlindPosted{Seat: 1, Amount: 5, Blind: BlindSmall},
		&CardDealt{Seat: 4, Card: cards.New(6, cards.Clubs), Phase: PhaseDeal},
		&CardDealt{Seat: 10, Card: cards.New(14, cards.Spades), Phase: PhaseDraw},
		&CardDealt{Seat: 2, Unknown: true, Phase: PhaseDeal},
		&CardBurned{Card: cards.New(2, cards.Hearts)},
		&CardExposed{Card: cards.New(13, cards.Diamonds), Phase: PhaseShowdown, Seat: seatPtr(2), Cause: CausePlayer},
		&CardExposed{Card: cards.New(13, cards.Diamonds), Phase: PhaseCut},
		&MisdealDeclared{Reason: "a card face up"},
		&CardsDiscarded{Seat: 3, Cards: someCards(3)},
		&CardsDiscarded{Seat: 3, Cards: someCards(1), Declared: intPtr(1)},
		&CardsDiscarded{Seat: 3, Cards: []cards.Card{}},
		&CardsDiscarded{Seat: 3, Cards: []cards.Card{}, Declared: intPtr(0)},
		&CardsDiscarded{Seat: 3, Cards: someCards(52)},
		&CardsDiscarded{Seat: 3, Cards: someCards(53)}, // more than the fast path's buffer
		&OpenersShown{Seat: 1, Cards: someCards(2)},
		&OpenersShown{Seat: 1, Cards: []cards.Card{}},
		&HandShown{Seat: 10, Cards: someCards(5)},
		&HandMucked{Seat: 1},
		&BetReturned{Seat: 2, Amount: 10},
		&PotRaked{Pot: 0, Amount: 3},
		&PotAwarded{Seat: 2, Amount: 45, Pot: 0},
		&PotAwarded{Seat: 9, Amount: 123456789012345678, Pot: 3},
		&HandPassed{},
		&DeckRevealed{Shuffle: 2, Seed: cards.Seed{0: 0xd0, 31: 0xa7}},
		&DeckRevealed{Shuffle: 0},
		&HandEnded{Stacks: seatChips(2), Carry: 0},
		&HandEnded{Stacks: seatChips(1), Carry: 15},
		&HandEnded{Stacks: seatChips(10)},
		&HandEnded{Stacks: seatChips(11)}, // more than the fast path's buffer
		&HandEnded{Stacks: []SeatChips{}},
	}
	for _, r := range valuesPlayerActedRound {
		for _, a := range valuesPlayerActedAction {
			ds = append(ds, &PlayerActed{Seat: 4, Round: Round(r), Action: Action(a), Amount: 10})
		}
	}
	return ds
}

// fastLines returns the lines of fastPayloads, and lines of other envelopes.
func fastLines() [][]byte {
	var lines [][]byte
	for i, d := range fastPayloads() {
		lines = append(lines, fastEvent(i+1, d).Raw)
	}
	ante := fastEvent(4, &AntePosted{Seat: 4, Amount: 5})
	for _, f := range []func(e *Event){
		func(e *Event) { e.At = "2026-11-29T12:00:05Z" },
		func(e *Event) { e.At = "2026-11-29T12:00:05.5+01:00" },
		func(e *Event) { e.At = "2026-11-29T12:00:60.000Z" },
		func(e *Event) { e.At = "2026-11-29T12:00:61.000Z" },
		func(e *Event) { e.At = "2026-11-29T24:00:05.000Z" },
		func(e *Event) { e.At = "2026-13-29T12:00:05.000Z" },
		func(e *Event) { e.At = "2026-11-29T12:00:05.0000" },
		func(e *Event) { e.At = "2026-11-29 12:00:05.000Z" },
		func(e *Event) { e.Table = strings.Repeat("t", 64) },
		func(e *Event) { e.Table = strings.Repeat("t", 65) },
		func(e *Event) { e.Seq = 123456789012345678 },
		func(e *Event) { e.Seq = 0 },
		func(e *Event) { e.Prev = "" },
		func(e *Event) { e.Prev = strings.ToUpper(fastPrev) },
		func(e *Event) { e.Hand = strings.ToUpper(fastHand) },
		func(e *Event) { e.Type = "card.dealt" },
		func(e *Event) { e.Type = "hand.startedx" },
	} {
		e := *ante
		f(&e)
		lines = append(lines, Encode(&e))
	}
	for _, t := range Types {
		lines = append(lines, bytes.Replace(ante.Raw, []byte(`"ante.posted"`), []byte(`"`+t+`"`), 1))
	}
	return lines
}

// Parse reads the lines of every shape Encode writes, and their mutations, as encoding/json and
// the general walk do.
func TestFastPathsSameAsJSON(t *testing.T) {
	n := 0
	for k, line := range fastLines() {
		sameAsJSON(t, line)
		for _, m := range sampled(mutations(line), k) {
			sameAsJSON(t, m)
			n++
		}
		// a comma before the end of each list and object (a fast path that has read its fill of
		// a list must not take the comma after it for the end)
		for i, c := range line {
			if c == ']' || c == '}' {
				sameAsJSON(t, slicesConcat(line[:i], []byte(","), line[i:]))
				n++
			}
		}
	}
	t.Logf("%d mutations", n)
}

// The fast paths take the lines Encode writes: decoder.fast every line that Parse accepts and that
// has no escape, and each payload's fast path its payloads (except the shapes it leaves to the
// general walk), with the same result.
func TestFastPathsTakeEncodedLines(t *testing.T) {
	fastData := map[Type]func(d *decoder, sc *jsonlex.Scan) (Data, bool){
		HandStartedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &HandStarted{}
			return v, d.fastHandStarted(sc, v)
		},
		DeckShuffledType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &DeckShuffled{}
			return v, d.fastDeckShuffled(sc, v)
		},
		DeckCutType:    func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &DeckCut{}; return v, d.fastDeckCut(sc, v) },
		AntePostedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &AntePosted{}; return v, d.fastAntePosted(sc, v) },
		BlindPostedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &BlindPosted{}
			return v, d.fastBlindPosted(sc, v)
		},
		CardDealtType:  func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &CardDealt{}; return v, d.fastCardDealt(sc, v) },
		CardBurnedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &CardBurned{}; return v, d.fastCardBurned(sc, v) },
		CardExposedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &CardExposed{}
			return v, d.fastCardExposed(sc, v)
		},
		MisdealDeclaredType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &MisdealDeclared{}
			return v, d.fastMisdealDeclared(sc, v)
		},
		PlayerActedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &PlayerActed{}
			return v, d.fastPlayerActed(sc, v)
		},
		CardsDiscardedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &CardsDiscarded{}
			return v, d.fastCardsDiscarded(sc, v)
		},
		OpenersShownType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &OpenersShown{}
			return v, d.fastOpenersShown(sc, v)
		},
		HandShownType:  func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &HandShown{}; return v, d.fastHandShown(sc, v) },
		HandMuckedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &HandMucked{}; return v, d.fastHandMucked(sc, v) },
		BetReturnedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &BetReturned{}
			return v, d.fastBetReturned(sc, v)
		},
		PotRakedType:   func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &PotRaked{}; return v, d.fastPotRaked(sc, v) },
		PotAwardedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &PotAwarded{}; return v, d.fastPotAwarded(sc, v) },
		HandPassedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &HandPassed{}; return v, d.fastHandPassed(sc, v) },
		DeckRevealedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) {
			v := &DeckRevealed{}
			return v, d.fastDeckRevealed(sc, v)
		},
		HandEndedType: func(d *decoder, sc *jsonlex.Scan) (Data, bool) { v := &HandEnded{}; return v, d.fastHandEnded(sc, v) },
	}
	// The shapes left to the general walk: escapes and other than ASCII, overrides, a v1 bare
	// tournament id, and lists that are empty or longer than a fast path's buffer.
	odd := func(p string) bool { return strings.ContainsFunc(p, func(r rune) bool { return r == '"' || r > 0x7f }) }
	badCards := func(cs []cards.Card) bool { return cs != nil && (len(cs) == 0 || len(cs) > cards.NumCards) }
	badList := func(n int, isNil bool) bool { return !isNil && (n == 0 || n > int(MaxSeat)) }
	general := func(e *Event) bool {
		switch v := e.Data.(type) {
		case *HandStarted:
			t := v.Tournament
			return t != nil && t.Level == 0 && t.Entries == nil && t.Stack == nil ||
				v.Rules.Overrides != nil || len(v.Seats) == 0 || len(v.Seats) > int(MaxSeat) ||
				badList(len(v.Away), v.Away == nil) || badList(len(v.Left), v.Left == nil) ||
				slices.ContainsFunc(v.Seats, func(s SeatStack) bool { return odd(s.Player) })
		case *DeckShuffled:
			return badCards(v.Cards)
		case *CardsDiscarded:
			return badCards(v.Cards)
		case *OpenersShown:
			return badCards(v.Cards)
		case *HandShown:
			return badCards(v.Cards)
		case *MisdealDeclared:
			return odd(v.Reason)
		case *HandEnded:
			return len(v.Stacks) == 0 || len(v.Stacks) > int(MaxSeat)
		}
		return false
	}
	took := map[Type]int{}
	for _, line := range fastLines() {
		want, err := Parse(line)
		if err != nil || bytes.IndexByte(line, '\\') >= 0 {
			continue
		}
		d := decoder{pool: true}
		l := jsonlex.Lexer{B: line}
		if e := (&Event{}); !d.fast(&l, e) {
			t.Errorf("decoder.fast refuses %s", line)
		} else if !reflect.DeepEqual(e.Data, want.Data) || e.ID != want.ID || e.At != want.At || e.Prev != want.Prev {
			t.Errorf("decoder.fast reads %s as %+v %+v", line, *e, e.Data)
		}
		f := fastData[want.Type]
		if f == nil {
			continue
		}
		sc := jsonlex.Scan{B: line, I: bytes.Index(line, []byte(`"data":`)) + len(`"data":`), OK: true}
		got, ok := f(&decoder{pool: true}, &sc)
		if ok != !general(want) {
			t.Errorf("the fast path of %s takes %s: %v, want %v", want.Type, line, ok, !ok)
			continue
		}
		if !ok {
			continue
		}
		took[want.Type]++
		if !reflect.DeepEqual(got, want.Data) || string(line[sc.I:]) != "}" {
			t.Errorf("the fast path of %s reads %s as %+v, up to %q", want.Type, line, got, line[sc.I:])
		}
	}
	for ty := range fastData {
		if took[ty] == 0 {
			t.Errorf("no line taken by the fast path of %s", ty)
		}
	}
}

// lookupType finds every type of the catalogue, and nothing else: not a type cut short or run
// on, nor one with any byte changed.
func TestLookupType(t *testing.T) {
	for i, ty := range Types {
		if got, gi := lookupType([]byte(ty)); got != ty || gi != i {
			t.Errorf("lookupType(%s) = %s, %d", ty, got, gi)
		}
		for _, s := range []string{string(ty[:len(ty)-1]), string(ty) + "x", string(ty) + `"`, "x" + string(ty[1:]), strings.ToUpper(string(ty)), ""} {
			if _, gi := lookupType([]byte(s)); gi >= 0 {
				t.Errorf("lookupType(%q) finds %s", s, Types[gi])
			}
		}
		for j := range len(ty) {
			for c := range 256 {
				b := []byte(ty)
				if b[j] = byte(c); string(b) == string(ty) {
					continue
				}
				if got, gi := lookupType(b); gi >= 0 && (got != Type(b) || Types[gi] != got) {
					t.Errorf("lookupType(%q) = %s, %d", b, got, gi)
				}
			}
		}
	}
}

// A Reader reads sequences of lines in which what the decoder remembers from the line before
// changes or holds, as Parse of each line on its own does.
func TestReaderFastStateSameAsLines(t *testing.T) {
	ante := fastEvent(4, &AntePosted{Seat: 4, Amount: 5})
	with := func(f func(e *Event)) string {
		e := *ante
		f(&e)
		return string(Encode(&e))
	}
	hand := func(players ...string) string {
		seats := seatStacks(len(players))
		for i, p := range players {
			seats[i].Player = p
		}
		return string(fastEvent(1, &HandStarted{Rules: Rules{Name: "std-draw"}, Number: 1, Dealer: 1, Seats: seats, Previous: strPtr(fastHand)}).Raw)
	}
	lines := []string{
		string(ante.Raw),
		with(func(e *Event) { e.At = "2026-11-29T12:00:61.000Z" }), // the same minute, bad seconds
		with(func(e *Event) { e.At = "2026-11-29T12:00:60.000Z" }),
		with(func(e *Event) { e.At = "2026-11-29T12:00:6x.000Z" }),
		with(func(e *Event) { e.At = "2026-11-29T12:00:59.5Z" }),
		with(func(e *Event) { e.At = "2026-11-29T12:00:59.000+" }),
		with(func(e *Event) { e.At = "2026-11-29T12:01:00.000Z" }),
		with(func(e *Event) { e.At = "2026-11-29T12:00:0\x80.000Z" }),
		with(func(e *Event) { e.At = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00:01.918Z" }),
		with(func(e *Event) { e.Table = "bench-2" }),
		with(func(e *Event) { e.Table = "bench-2!" }),
		with(func(e *Event) { e.Table = "bench-" }),
		with(func(e *Event) { e.Hand = fastOther }),
		with(func(e *Event) { e.Hand = fastOther[:35] + "g" }),
		hand("ana", "bruno", "carla"),
		hand("ana", "carla", "bruno"),
		hand("ana", "bruno", "carla", "deniz"),
		hand("an", "bruno", "carl", "deniz"),
		with(func(e *Event) { e.Hand = fastHand }),
		hand("ana", "bruno", "carla", "deniz"),
	}
	var b []byte
	for i := range 3 { // from every line on, so that each starts a Reader once
		for _, l := range lines[i:] {
			b = append(append(b, l...), '\n')
		}
		sameReadAsLines(t, b)
	}
	for _, l := range fastLines() {
		b = append(append(b, l...), '\n')
	}
	sameReadAsLines(t, b)
}

// Every shape Encode writes that the contract accepts decodes to the payload it was written from
// and re-encodes byte for byte; a v1.1 tournament's level 0 (a v1 log's bare id) is written back
// as the bare id.
func TestEncodedShapesRoundTrip(t *testing.T) {
	valid := 0
	for i, d := range fastPayloads() {
		line := fastEvent(i+1, d).Raw
		e, err := Parse(line)
		if err != nil {
			continue // a shape the contract refuses (an empty player, hand number 0, …)
		}
		valid++
		if !reflect.DeepEqual(e.Data, d) {
			t.Errorf("%s reads back as %+v, want %+v", line, e.Data, d)
		}
		if got := Encode(e); !bytes.Equal(got, line) {
			t.Errorf("re-encoding differs:\n got %s\nwant %s", got, line)
		}
	}
	if valid < 60 {
		t.Errorf("only %d valid shapes", valid)
	}
	if line := string(fastEvent(2, &HandStarted{Rules: Rules{Name: "std-draw"}, Number: 1, Dealer: 1, Seats: seatStacks(2), Tournament: &Tournament{ID: "cup"}}).Raw); !strings.Contains(line, `"tournament":"cup"`) {
		t.Errorf("a v1 tournament id is not written back as a bare string: %s", line)
	}
}

// The generated word readers of the fast paths (wordX, one an enumerated field) read what a
// string read by Scan.Str and looked up among the field's values gives — every value, and every
// text one byte away from one (changed, cut short, run on, in capitals, escaped) — and leave the
// Scan where Str would.
func TestWordsSameAsStr(t *testing.T) {
	readers := []struct {
		values []string
		read   func(*jsonlex.Scan) string
	}{
		{valuesDeckShuffledMethod, wordDeckShuffledMethod},
		{valuesBlindPostedBlind, wordBlindPostedBlind},
		{valuesCardDealtPhase, wordCardDealtPhase},
		{valuesCardExposedPhase, wordCardExposedPhase},
		{valuesCardExposedCause, wordCardExposedCause},
		{valuesPlayerActedRound, wordPlayerActedRound},
		{valuesPlayerActedAction, wordPlayerActedAction},
	}
	// want is the old reading: Str, then the value it equals.
	want := func(b []byte, values []string) (string, int, bool) {
		sc := jsonlex.Scan{B: b, OK: true}
		if w := sc.Str(); sc.OK {
			for _, v := range values {
				if string(w) == v {
					return v, sc.I, true
				}
			}
		}
		return "", 0, false
	}
	n := 0
	for _, r := range readers {
		var texts []string
		for _, v := range slices.Concat(r.values, valuesPlayerActedAction, valuesCardExposedPhase) {
			q := `"` + v + `"`
			texts = append(texts, q, q[:len(q)-1], q+"x", `"`+v+`x"`, `"`+v[:len(v)-1]+`"`, `"x`+v+`"`,
				strings.ToUpper(q), `"\u00`+fmt.Sprintf("%x", v[0])+v[1:]+`"`, v, `"`+v+` "`)
			for i := 1; i < len(q)-1; i++ {
				texts = append(texts, q[:i]+"#"+q[i+1:], q[:i]+`\`+q[i:])
			}
		}
		for _, text := range texts {
			for _, tail := range []string{"", "}", `,"amount":5}`} {
				b := []byte(text + tail)
				v, i, ok := want(b, r.values)
				sc := jsonlex.Scan{B: b, OK: true}
				got := r.read(&sc)
				if sc.OK != ok || ok && (got != v || sc.I != i) {
					t.Errorf("%q among %q: read %q up to %d (ok %v), want %q up to %d (ok %v)", b, r.values, got, sc.I, sc.OK, v, i, ok)
				}
				n++
			}
		}
		// A Scan that has failed before stays failed.
		sc := jsonlex.Scan{B: []byte(`"` + r.values[0] + `"}`)}
		if r.read(&sc); sc.OK {
			t.Errorf("a failed Scan reads %q as a value of %q", sc.B, r.values)
		}
	}
	t.Logf("%d texts", n)
}
