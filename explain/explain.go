// Package explain turns what the auditor and the log say into sentences a floor manager reads:
// each finding as a sentence that names the players and cards, says what the rule requires and
// what happened instead, and cites the rule (one table maps every finding code, under each preset,
// to its rule in docs/rules.md); the hand's events as a timeline in words; cards as symbols and
// words; hands by their full names ("pair of nines"), in every language of package lang.
package explain

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
	"github.com/fechado/fechado/rules"
)

// Hand is one hand's log with what the sentences need: the players' names by seat, the preset and
// its hand evaluator.
type Hand struct {
	Events []*events.Event
	Start  *events.HandStarted
	// Preset is the preset's name ("br-fechado").
	Preset string
	names  map[events.Seat]string
	eval   *rules.Evaluator
	rules  *rules.Hand
}

// ErrNotStarted: the events given do not begin with hand.started.
var ErrNotStarted = errors.New("explain: the hand does not begin with hand.started")

// NewHand reads one hand's events (in seq order).
func NewHand(evs []*events.Event) (*Hand, error) {
	if len(evs) == 0 {
		return nil, ErrNotStarted
	}
	hs, ok := evs[0].Data.(*events.HandStarted)
	if !ok {
		return nil, ErrNotStarted
	}
	h := &Hand{Events: evs, Start: hs, Preset: hs.Rules.Name, names: map[events.Seat]string{}}
	for _, s := range hs.Seats {
		h.names[s.Seat] = s.Player
	}
	if rh, err := rules.NewHand(evs[0]); err == nil {
		h.rules, h.eval = rh, rh.Eval
	}
	return h, nil
}

// Name returns the player in seat s ("seat 4" in words when the hand has nobody there).
func (h *Hand) Name(l *lang.Lang, s events.Seat) string {
	if n, ok := h.names[s]; ok && n != "" {
		return n
	}
	return l.T("seat.unknown", lang.Args{"seat": int(s)})
}

// PresetName names a preset in words ("Pôquer Fechado (Brasil)"); an unknown preset keeps its code.
func PresetName(l *lang.Lang, preset string) string {
	if l.Has("preset." + preset) {
		return l.T("preset."+preset, nil)
	}
	return preset
}

var suitSymbols = [...]string{"♣", "♦", "♥", "♠"}

// Symbol writes a card as players see it: rank and suit symbol ("8♣", "10♥", "A♠").
func Symbol(c cards.Card) string {
	r := c.Rank().String()
	if r == "T" {
		r = "10"
	}
	return r + suitSymbols[c.Suit()]
}

// Symbols writes cards as symbols separated by spaces.
func Symbols(cs []cards.Card) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = Symbol(c)
	}
	return strings.Join(out, " ")
}

// Words names a card in l ("eight of clubs", "oito de paus").
func Words(l *lang.Lang, c cards.Card) string {
	return l.T("card", lang.Args{"rank": rankWord(l, "rank.", c.Rank()), "suit": l.T("suit."+c.Suit().String(), nil)})
}

// SymbolWords writes a card as its symbol with its name in words: "8♣ (eight of clubs)".
func SymbolWords(l *lang.Lang, c cards.Card) string { return Symbol(c) + " (" + Words(l, c) + ")" }

func rankWord(l *lang.Lang, prefix string, r cards.Rank) string {
	if r == 1 {
		r = cards.Ace
	}
	return l.T(prefix+itoa(int(r)), nil)
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// HandName names five cards' hand in full under the hand's preset ("pair of nines", "full house,
// threes over tens"), or "" when they are not five cards of the deck.
func (h *Hand) HandName(l *lang.Lang, cs []cards.Card) string {
	if h.eval == nil || len(cs) != 5 {
		return ""
	}
	v, err := h.eval.EvalSlice(cs)
	if err != nil {
		return ""
	}
	return ValueName(l, v)
}

// ValueName names an evaluated hand in full.
func ValueName(l *lang.Lang, v rules.Value) string {
	one := func(key string, r cards.Rank) string {
		return l.T(key, lang.Args{"rank": rankWord(l, "rank.", r), "ranks": rankWord(l, "ranks.", r)})
	}
	two := func(key string) string {
		return l.T(key, lang.Args{"high": rankWord(l, "ranks.", v.Rank(0)), "low": rankWord(l, "ranks.", v.Rank(1))})
	}
	aceLow := v.Rank(4) == 1
	if key, ok := oneRank[v.Category()]; ok {
		return one(key, v.Rank(0))
	}
	switch v.Category() {
	case rules.TwoPair:
		return two("hand.twopair")
	case rules.FullHouse:
		return two("hand.fullhouse")
	case rules.Straight:
		if aceLow {
			return l.T("hand.straight.low", nil)
		}
		return one("hand.straight", v.Rank(0))
	case rules.StraightFlush:
		switch {
		case aceLow:
			return l.T("hand.sf.low", nil)
		case v.Rank(0) == cards.Ace:
			return l.T("hand.royal", nil)
		}
		return one("hand.straightflush", v.Rank(0))
	}
	return ""
}

// oneRank are the categories named by one rank: the high card, the pair, the three or four of a
// kind, the flush's top card.
var oneRank = map[rules.Category]string{rules.HighCard: "hand.high", rules.Pair: "hand.pair", rules.Trips: "hand.trips",
	rules.Flush: "hand.flush", rules.Quads: "hand.quads"}

// List joins names the language's way ("Ana and Bruno", "Ana, Bruno and Carla").
func List(l *lang.Lang, names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	head := names[0]
	for _, n := range names[1 : len(names)-1] {
		head = l.T("list.more", lang.Args{"first": head, "last": n})
	}
	return l.T("list.two", lang.Args{"first": head, "last": names[len(names)-1]})
}

// Explanation is a finding told to a person.
type Explanation struct {
	Finding finding.Finding
	// Sentence says what happened against what the rule requires, with names and cards.
	Sentence string
	// Severity is the finding's severity in words.
	Severity string
	// Rule is the rule the finding enforces; Citation cites it in words, by its name, the preset
	// and the house rulebook with the source it comes from (never by a file).
	Rule     Rule
	Citation string
	// RuleWords states the rule in the reader's language; Quotes are the original words of the
	// preset's seed text it follows, verbatim, and Source names that text.
	RuleWords string
	Quotes    []string
	Source    string
	// Remedy says what the floor does now: what becomes of the pot, of a player's chips, of the
	// hand, by the preset's rules ("" for a finding that is only a note).
	Remedy string
	// Seats and Cards are the seats and cards concerned, to highlight on the table.
	Seats []events.Seat
	Cards []cards.Card
}

// Explain tells finding f of this hand in l.
func (h *Hand) Explain(l *lang.Lang, f finding.Finding) Explanation {
	x := Explanation{Finding: f, Severity: l.T("sev."+string(f.Severity), nil)}
	if f.Seat != 0 {
		x.Seats = append(x.Seats, f.Seat)
	}
	key, args := h.sentence(l, f, &x)
	x.Sentence = l.T(key, args)
	if r, ok := RuleFor(f.Code, h.Preset); ok {
		x.Rule = r
		x.Source = SourceName(l, f.Code, h.Preset)
		x.Citation = l.T("rule.cite", lang.Args{"title": l.T(r.Title, nil), "preset": PresetName(l, h.Preset),
			"source": x.Source})
		x.RuleWords = RuleWords(l, f.Code, h.Preset)
		x.Quotes = Quotes(r.Anchor)
	}
	if f.Severity != finding.Info {
		x.Remedy = Remedy(l, f.Code, h.Preset)
	}
	return x
}

// value is an expected or actual value of a finding in the form JSON gives it back (numbers as
// float64, lists as []any), so findings read from --json output and the auditor's own read alike.
func value(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

func asSeat(v any) (events.Seat, bool) {
	f, ok := v.(float64)
	return events.Seat(f), ok && f > 0
}

func asCard(v any) (cards.Card, bool) {
	s, ok := v.(string)
	if !ok {
		return 0, false
	}
	c, err := cards.Parse(s)
	return c, err == nil
}

func asCards(v any) ([]cards.Card, bool) {
	s, ok := v.(string)
	if !ok {
		return nil, false
	}
	cs, err := cards.ParseList(s)
	return cs, err == nil && len(cs) > 0
}

// state replays the hand to seq (the end when 0), or nil when it cannot.
func (h *Hand) state(seq events.Seq) *replay.State {
	st, err := replay.At(h.Events, seq)
	if err != nil {
		return nil
	}
	return st
}

// sentence picks the message of f and its arguments, and adds the seats and cards concerned to x.
func (h *Hand) sentence(l *lang.Lang, f finding.Finding, x *Explanation) (string, lang.Args) {
	exp, act := value(f.Expected), value(f.Actual)
	key := "f." + string(f.Code)
	a := lang.Args{"seq": int(f.Seq), "detail": f.Message, "code": string(f.Code), "expected": l.Format(exp), "actual": l.Format(act)}
	if exp == nil {
		a["expected"] = "—"
	}
	if act == nil {
		a["actual"] = "—"
	}
	if f.Seat != 0 {
		a["player"] = h.Name(l, f.Seat)
	}
	seatArg := func(name string, v any) bool {
		s, ok := asSeat(v)
		if ok {
			a[name] = h.Name(l, s)
			x.Seats = appendSeat(x.Seats, s)
		}
		return ok
	}
	cardArg := func(name string, v any) bool {
		c, ok := asCard(v)
		if ok {
			a[name] = SymbolWords(l, c)
			x.Cards = append(x.Cards, c)
		}
		return ok
	}
	count := func(v any) int {
		n, _ := v.(float64)
		return int(n)
	}
	switch f.Code {
	case finding.DeckForeignCard, finding.DeckDuplicateCard, finding.CardExposed:
		if !cardArg("card", act) {
			a["card"] = "—"
			if f.Code == finding.CardExposed {
				key += ".plain"
			}
		} else if f.Code == finding.CardExposed && f.Seat == 0 {
			key += ".table"
		}
		if st := h.state(f.Seq); st != nil {
			a["size"] = st.Deck.Size
		}
	case finding.DeckShuffles:
		a["min"], a["n"] = count(exp), count(act)
	case finding.DealMismatch:
		cardArg("expected", exp)
		cardArg("actual", act)
		if f.Seat == 0 {
			key += ".burn"
		}
	case finding.DealOrder, finding.DrawOrder:
		if !seatArg("expected", exp) {
			key += ".plain"
		}
	case finding.BetOutOfTurn:
		// Without an expected seat nobody's turn was taken: the round was already complete
		// (rules.Hand reports no seat then), and the sentence must not name one.
		if !seatArg("expected", exp) {
			key += ".closed"
		}
	case finding.DealCount:
		a["n"] = count(act)
	case finding.CardExposedRemedy:
		switch act {
		case "play went on":
			key += ".misdeal"
		case "replaced":
			key += ".keep"
		case "kept":
			key += ".burn"
		default:
			key += ".later"
		}
	case finding.MisdealSettlement:
		if _, ok := exp.(float64); !ok {
			key += ".paid"
		}
	case finding.AnteAmount:
		switch {
		case exp == nil:
			key += ".late"
		case exp == act:
			key += ".twice" // what a second ante leaves: the right amount, once too often
		}
	case finding.BetAmount:
		if exp == 0.0 {
			key += ".none"
		}
	case finding.OpenWithoutOpeners:
		h.openerArgs(l, f, a, x)
	case finding.BetIllegalAction:
		switch {
		case exp == nil:
			key += ".dead"
		case act == "check" && exp == "bet or fold":
			key += ".nocheck"
		case act == "check", act == "call", act == "bet", act == "raise":
			key += "." + act.(string)
		default:
			key += ".dead"
		}
	case finding.BetRoundIncomplete, finding.DrawProcedure, "tournament.move":
		if f.Seat == 0 {
			key += ".table"
		}
	case finding.DrawTooMany:
		a["n"], a["max"] = count(act), count(exp)
	case finding.DrawNotHeld:
		a["card"], a["held"] = "—", "—"
		cardArg("card", act)
		if held, ok := asCards(exp); ok {
			a["held"] = Symbols(held)
		}
	case finding.DrawReplacements:
		a["discarded"], a["n"] = count(exp), count(act)
	case finding.DrawDeclared:
		a["declared"], a["n"] = count(exp), count(act)
	case finding.ShowdownCards:
		if held, ok := asCards(exp); ok {
			a["expected"] = Symbols(held)
		}
		if shown, ok := asCards(act); ok {
			a["actual"] = Symbols(shown)
			x.Cards = append(x.Cards, shown...)
		}
	case finding.PotWinner:
		key = h.potWinner(l, f, exp, a, x)
	case finding.PotTotal:
		if f.Seat != 0 {
			key += ".paid"
		}
	case finding.TournamentPlace:
		if name, ok := exp.(string); ok && f.Seat == 0 {
			a["player"] = name // gone without being dealt in to the hand: no seat in it
		}
	case finding.TableDealer:
		// What the finding is about, from the fields its message was worded by (audit's
		// dealerFinding): the hand's dealer and the actual seat.
		seatArg("expected", exp)
		if s, ok := asSeat(act); ok && h.rules != nil {
			switch subj := h.rules.Preset.DealerSubjectOf(h.Start.Dealer, s); subj {
			case rules.SubjectButton, rules.SubjectBigBlind:
				key += "." + string(subj)
			}
		}
		seatArg("actual", act)
	case finding.TableSeating:
		// Version 1.1 names the player in one of the values when he has no seat in this hand.
		if f.Seat == 0 || h.names[f.Seat] == "" {
			for _, v := range []any{act, exp} {
				if name, ok := v.(string); ok && name != "to" {
					a["player"] = name
				}
			}
		}
	}
	if !l.Has(key) {
		return "f.unknown", a
	}
	if _, ok := a["player"]; !ok {
		a["player"] = "—"
	}
	return key, a
}

func appendSeat(ss []events.Seat, s events.Seat) []events.Seat {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}

// openerArgs gives an open without openers its cards, the hand they made and the minimum.
func (h *Hand) openerArgs(l *lang.Lang, f finding.Finding, a lang.Args, x *Explanation) {
	a["cards"], a["hand"], a["minimum"] = "—", "—", "—"
	if st := h.state(f.Seq); st != nil {
		for _, s := range st.Seats {
			if s.Seat == f.Seat && len(s.Cards) == 5 {
				a["cards"] = Symbols(s.Cards)
				a["hand"] = h.HandName(l, s.Cards)
				x.Cards = append(x.Cards, s.Cards...)
			}
		}
	}
	if h.rules != nil {
		a["minimum"] = MinOpen(l, h.rules.Preset, h.Start.PassedOut)
	}
}

// MinOpen says in l what opens the pot under preset after passed deals nobody opened ("a pair
// of jacks or better", "two pair or better", "any hand").
func MinOpen(l *lang.Lang, preset rules.Preset, passed int) string {
	pair, two := preset.MinOpen(passed)
	switch {
	case two:
		return l.T("open.min.twopair", nil)
	case pair == 0:
		return l.T("open.min.any", nil)
	}
	return l.T("open.min.pair", lang.Args{"ranks": rankWord(l, "ranks.", pair)})
}

// potWinner says whose hand beat whose: the best eligible hand against the one paid.
func (h *Hand) potWinner(l *lang.Lang, f finding.Finding, exp any, a lang.Args, x *Explanation) string {
	var pot int
	var amount events.Chips
	for _, e := range h.Events {
		if d, ok := e.Data.(*events.PotAwarded); ok && e.Seq == f.Seq {
			pot, amount = d.Pot, d.Amount
		}
	}
	a["amount"], a["n"] = amount, pot
	a["paid"] = h.Name(l, f.Seat)
	var best []string
	var bestSeat events.Seat
	if list, ok := exp.([]any); ok {
		for _, v := range list {
			if s, ok := asSeat(v); ok {
				best = append(best, h.Name(l, s))
				x.Seats = appendSeat(x.Seats, s)
				if bestSeat == 0 {
					bestSeat = s
				}
			}
		}
	}
	a["best"] = List(l, best)
	side := ""
	if pot > 0 {
		side = ".side"
	}
	st := h.state(f.Seq)
	if st == nil || bestSeat == 0 {
		return "f.pot.winner.plain" + side
	}
	held := map[events.Seat][]cards.Card{}
	for _, s := range st.Seats {
		held[s.Seat] = s.Cards
	}
	bh, ph := h.HandName(l, held[bestSeat]), h.HandName(l, held[f.Seat])
	if bh == "" || ph == "" {
		return "f.pot.winner.plain" + side
	}
	a["best_hand"], a["paid_hand"] = bh, ph
	x.Cards = append(x.Cards, held[bestSeat]...)
	x.Cards = append(x.Cards, held[f.Seat]...)
	return "f.pot.winner" + side
}
