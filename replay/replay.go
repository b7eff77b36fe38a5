// Package replay rebuilds what a hand's log says about the table after any of its events: seats,
// stacks, the chips in front of each player, the pots, the cards held and seen, whose turn it is,
// and the deck order wherever a revealed seed lets anyone re-derive it. It also walks a table (or
// tournament) hand by hand, checking that each hand starts with the stacks the last one left.
//
// Replay never reveals what the log does not hold: the state after event SEQ is built from
// events 1..SEQ alone, so a seed revealed later in the hand shows no stub order before it.
package replay

import (
	"errors"
	"fmt"
	"sort"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// Errors callers branch on.
var (
	// ErrNoEvents: there is nothing to replay.
	ErrNoEvents = errors.New("replay: no events")
	// ErrNotStarted: the hand's first event is not hand.started, so it cannot be followed.
	ErrNotStarted = errors.New("replay: the hand does not begin with hand.started")
	// ErrMixedHands: At was given events of more than one hand.
	ErrMixedHands = errors.New("replay: events of more than one hand")
	// ErrNoSeq: the hand has no event with the seq asked for.
	ErrNoSeq = errors.New("replay: no event with that seq")
	// ErrRules: the hand's rules cannot be followed (unknown preset, bad override, player count).
	ErrRules = errors.New("replay: the hand's rules cannot be followed")
)

// State is a hand as its log leaves it after one event. The JSON field names are stable: the
// replay command prints this object and the web interface reads it.
type State struct {
	Table  string `json:"table"`
	Hand   string `json:"hand"`
	Number int    `json:"number"`
	// Rules is the preset name; Overrides the hand's overrides of it, as written.
	Rules     string            `json:"rules"`
	Overrides map[string]string `json:"overrides,omitempty"`
	Stakes    Stakes            `json:"stakes"`
	// Seq is the event the state follows; Type and At are that event's; Last is the hand's last
	// seq in the log given (Seq == Last when the replay went to the end).
	Seq  events.Seq  `json:"seq"`
	Type events.Type `json:"type"`
	At   string      `json:"at"`
	Last events.Seq  `json:"last"`
	// Stage is rules.Stage's name: setup, deal, betting, draw, showdown, settle, ended.
	Stage string       `json:"stage"`
	Round events.Round `json:"round,omitempty"`
	// Turn is the seat to act in the betting round (0: nobody's); Drawer the next seat to
	// discard during the draw (0: nobody's).
	Turn   events.Seat `json:"turn"`
	Drawer events.Seat `json:"drawer"`
	// CurrentBet is the most chips any player has in front of him this round.
	CurrentBet events.Chips `json:"current_bet"`
	Opener     events.Seat  `json:"opener"`
	Dealer     events.Seat  `json:"dealer"`
	// PassedOut is the hand's passed_out count; Passed, Misdeal and Ended say how it finished.
	PassedOut int    `json:"passed_out"`
	Passed    bool   `json:"passed"`
	Misdeal   bool   `json:"misdeal"`
	Ended     bool   `json:"ended"`
	Seats     []Seat `json:"seats"`
	// Away lists the players seated with chips who are not dealt in (events-v1.md §7: sitting
	// out, waiting for the big blind); Left the players of the table's previous hand who are gone,
	// with the chips they took. Both are empty in a version 1 log.
	Away []Away `json:"away"`
	Left []Left `json:"left"`
	// Pot is every chip in the middle (carry included, rake taken out); Carry the chips the hand
	// started with from passed-out deals; Pots the main pot and side pots as the rules build them.
	Pot    events.Chips `json:"pot"`
	Carry  events.Chips `json:"carry"`
	Pots   []Pot        `json:"pots"`
	Raked  events.Chips `json:"raked"`
	Awards []Award      `json:"awards"`
	// EndCarry is the carry hand.ended leaves for the next deal (only once ended).
	EndCarry events.Chips `json:"end_carry"`
	Deck     Deck         `json:"deck"`
}

// Away is a player seated with chips who is not dealt into the hand: his chips stay untouched.
type Away struct {
	Seat   events.Seat  `json:"seat"`
	Player string       `json:"player"`
	Stack  events.Chips `json:"stack"`
}

// Left is a player of the table's previous hand who is gone: a cash-out of Stack, or in a
// tournament knocked out (Stack 0) or moved to table To with his chips.
type Left struct {
	Player string       `json:"player"`
	Stack  events.Chips `json:"stack"`
	To     string       `json:"to,omitempty"`
}

// AwayOf returns the public view of a hand.started's away list, empty (not nil) when it has
// none: the replayer's, and a live table's in the API.
func AwayOf(as []events.AwaySeat) []Away {
	away := make([]Away, 0, len(as))
	for _, a := range as {
		away = append(away, Away{Seat: a.Seat, Player: a.Player, Stack: a.Stack})
	}
	return away
}

// awayAndLeft returns the away and left lists of hs, empty (not nil) when it has none.
func awayAndLeft(hs *events.HandStarted) ([]Away, []Left) {
	away, left := AwayOf(hs.Away), []Left{}
	for _, l := range hs.Left {
		left = append(left, Left{Player: l.Player, Stack: l.Stack, To: l.To})
	}
	return away, left
}

// Stakes are the hand's ante and betting limits.
type Stakes struct {
	Ante   events.Chips `json:"ante"`
	MinBet events.Chips `json:"min_bet"`
	MaxBet events.Chips `json:"max_bet"`
}

// The statuses of a seat.
const (
	StatusActive = "active" // can still act
	StatusFolded = "folded"
	StatusAllIn  = "all-in"
	StatusMucked = "mucked"
)

// Seat is one player dealt into the hand.
type Seat struct {
	Seat   events.Seat `json:"seat"`
	Player string      `json:"player"`
	// Start is the stack at hand.started (before any ante); Rebuy the chips added since the
	// previous hand (included in Start).
	Start events.Chips `json:"start"`
	Rebuy events.Chips `json:"rebuy"`
	// Stack is the chips behind; InFront the chips put in this betting round; In every chip put
	// in this hand (less any returned); Won the chips awarded to him.
	Stack   events.Chips `json:"stack"`
	InFront events.Chips `json:"in_front"`
	In      events.Chips `json:"in"`
	Won     events.Chips `json:"won"`
	// Cards are the cards he holds as the log records them; Hidden counts held cards the log
	// never showed (imported hand histories).
	Cards  []cards.Card `json:"cards"`
	Hidden int          `json:"hidden"`
	// Seen lists his cards that were seen face up: exposed, shown as openers, or shown at
	// showdown.
	Seen []cards.Card `json:"seen"`
	// Discarded lists the cards he threw in the draw, as far as the log shows them; Drawn is how
	// many he threw (the declared count where the log shows none); Drew is false until he has
	// drawn.
	Discarded []cards.Card `json:"discarded"`
	Drawn     int          `json:"drawn"`
	Drew      bool         `json:"drew"`
	// Status is active, folded, all-in or mucked; Shown says his hand was shown.
	Status string `json:"status"`
	Shown  bool   `json:"shown"`
	// Hand names his five cards' category under the preset when all five are known.
	Hand string `json:"hand,omitempty"`
}

// Pot is a main or side pot: its chips and the seats that may win it.
type Pot struct {
	Index    int           `json:"index"`
	Amount   events.Chips  `json:"amount"`
	Eligible []events.Seat `json:"eligible"`
}

// Award is a pot.awarded of the log.
type Award struct {
	Seq    events.Seq   `json:"seq"`
	Seat   events.Seat  `json:"seat"`
	Amount events.Chips `json:"amount"`
	Pot    int          `json:"pot"`
}

// Deck is what the log says about the deck.
type Deck struct {
	// Low is the lowest rank of the hand's deck; Size its number of cards.
	Low  cards.Rank `json:"low"`
	Size int        `json:"size"`
	// Shuffles lists the shuffles of the hand in order, each with its cut and, once its seed is
	// revealed, the order it produced.
	Shuffles []Shuffle `json:"shuffles"`
	// StubCount is the cards not yet taken; Stub those cards top first, only when the order is
	// known (a machine shuffle whose seed the log has revealed); empty otherwise.
	StubCount int          `json:"stub_count"`
	Stub      []cards.Card `json:"stub"`
	// Burned lists the burned cards in order.
	Burned []cards.Card `json:"burned"`
}

// Shuffle is one deck.shuffled with its cut.
type Shuffle struct {
	Seq        events.Seq `json:"seq"`
	Method     string     `json:"method"`
	Commitment string     `json:"commitment,omitempty"`
	Count      *int       `json:"count,omitempty"`
	// Gathered lists the cards of a reshuffle during the hand (none for the first shuffle).
	Gathered []cards.Card `json:"gathered,omitempty"`
	// Cut is the cut that followed the shuffle (0: nobody cut, or no cut yet).
	Cut int `json:"cut"`
	// Seed is the revealed seed (only when revealed at or before the state's seq); Verified says
	// it hashes to the commitment; Order is the order the seed and the cut give, top first.
	Seed     string       `json:"seed,omitempty"`
	Verified bool         `json:"verified"`
	Order    []cards.Card `json:"order,omitempty"`
}

// At returns the state of the hand after its event seq (0: after the last event given). evs are
// the events of one hand; they are taken in seq order whatever order they come in. Only events
// 1..seq are used, so nothing the log reveals later leaks into the state.
func At(evs []*events.Event, seq events.Seq) (*State, error) {
	if len(evs) == 0 {
		return nil, ErrNoEvents
	}
	evs = sorted(evs)
	for _, e := range evs[1:] {
		if e.Hand != evs[0].Hand {
			return nil, fmt.Errorf("%w: %s and %s", ErrMixedHands, evs[0].Hand, e.Hand)
		}
	}
	last := evs[len(evs)-1].Seq
	if seq == 0 {
		seq = last
	}
	n := -1
	for i, e := range evs {
		if e.Seq == seq {
			n = i
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("%w: seq %d (the hand has seq %d to %d)", ErrNoSeq, seq, evs[0].Seq, last)
	}
	evs = evs[:n+1]
	first := evs[0]
	hs, ok := first.Data.(*events.HandStarted)
	if !ok {
		return nil, fmt.Errorf("%w (it begins with %s)", ErrNotStarted, first.Type)
	}
	h, err := rules.NewHand(first)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRules, err)
	}
	// Seeds revealed so far, and only those that open the shuffle they name.
	shuffles := map[events.Seq]*events.DeckShuffled{}
	seeds := map[events.Seq]cards.Seed{}
	for _, e := range evs {
		switch d := e.Data.(type) {
		case *events.DeckShuffled:
			shuffles[e.Seq] = d
		case *events.DeckRevealed:
			if sh, ok := shuffles[d.Shuffle]; ok && (sh.Commitment == "" || d.Seed.Opens(sh.Commitment)) {
				seeds[d.Shuffle] = d.Seed
			}
		}
	}
	h.Seeds = seeds
	st := &State{Table: first.Table, Hand: first.Hand, Number: hs.Number, Rules: hs.Rules.Name,
		Stakes: Stakes{hs.Stakes.Ante, hs.Stakes.MinBet, hs.Stakes.MaxBet}, Last: last,
		Dealer: hs.Dealer, PassedOut: hs.PassedOut, Carry: hs.Carry, Awards: []Award{}}
	for _, o := range hs.Rules.Overrides {
		if st.Overrides == nil {
			st.Overrides = map[string]string{}
		}
		st.Overrides[o.Key] = string(o.Value)
	}
	seen := map[events.Seat][]cards.Card{}
	discarded := map[events.Seat][]cards.Card{}
	deck := Deck{Low: h.Low, Size: h.Deck().Len(), Shuffles: []Shuffle{}, Burned: []cards.Card{}}
	see := func(s events.Seat, cs ...cards.Card) {
		for _, c := range cs {
			if !contains(seen[s], c) {
				seen[s] = append(seen[s], c)
			}
		}
	}
	for _, e := range evs[1:] {
		h.Apply(e)
		switch d := e.Data.(type) {
		case *events.DeckShuffled:
			deck.Shuffles = append(deck.Shuffles, Shuffle{Seq: e.Seq, Method: d.Method, Commitment: d.Commitment,
				Count: d.Count, Gathered: d.Cards})
		case *events.DeckCut:
			if k := len(deck.Shuffles); k > 0 {
				deck.Shuffles[k-1].Cut = d.At
			}
		case *events.CardBurned:
			deck.Burned = append(deck.Burned, d.Card)
		case *events.CardExposed:
			if d.Seat != nil {
				see(*d.Seat, d.Card)
			} else if p := holder(h, d.Card); p != 0 {
				see(p, d.Card)
			}
		case *events.OpenersShown:
			see(d.Seat, d.Cards...)
		case *events.HandShown:
			see(d.Seat, d.Cards...)
		case *events.CardsDiscarded:
			discarded[d.Seat] = append(discarded[d.Seat], d.Cards...)
		case *events.PotAwarded:
			st.Awards = append(st.Awards, Award{Seq: e.Seq, Seat: d.Seat, Amount: d.Amount, Pot: d.Pot})
		case *events.HandEnded:
			st.EndCarry = d.Carry
		}
	}
	for i := range deck.Shuffles {
		sh := &deck.Shuffles[i]
		seed, ok := seeds[sh.Seq]
		if !ok {
			continue
		}
		sh.Seed = seed.String()
		sh.Verified = sh.Commitment != "" && seed.Opens(sh.Commitment)
		if sh.Method != cards.ShuffleMethod {
			continue
		}
		in := cards.Deck(h.Low)
		if sh.Gathered != nil {
			in = cards.SetOf(sh.Gathered...).Cards()
		}
		sh.Order = cards.Shuffle(seed, in)
		if sh.Cut > 0 {
			if cut, err := cards.Cut(sh.Order, sh.Cut); err == nil {
				sh.Order = cut
			}
		}
	}
	deck.StubCount = h.StubSet().Len()
	deck.Stub = append([]cards.Card{}, h.Stub()...)
	st.Deck = deck
	last1 := evs[len(evs)-1]
	st.Seq, st.Type, st.At = last1.Seq, last1.Type, last1.At
	st.Stage = h.Stage.String()
	if h.Stage >= rules.StageBetting {
		st.Round = h.Round
	}
	st.Turn = h.Turn()
	if h.Stage == rules.StageDraw || (h.Stage == rules.StageBetting && h.RoundDone && h.Round == events.RoundFirst &&
		h.InHand() >= 2 && !h.Passed && !h.Misdeal) {
		st.Drawer = h.NextToDraw() // the draw is under way, or comes next
	}
	if h.Stage == rules.StageBetting && !h.RoundDone {
		st.CurrentBet = h.CurrentBet
	}
	st.Opener = h.Opener
	st.Passed, st.Misdeal, st.Ended = h.Passed, h.Misdeal, h.Ended() != nil
	st.Pot = h.Pot()
	st.Raked = h.Raked
	st.Pots = []Pot{}
	if h.Stage >= rules.StageDeal && !h.Misdeal {
		for _, p := range h.Pots() {
			st.Pots = append(st.Pots, Pot{Index: p.Index, Amount: p.Amount, Eligible: nonNil(p.Eligible)})
		}
	}
	st.Away, st.Left = awayAndLeft(hs)
	for _, p := range h.Players {
		s := Seat{Seat: p.Seat, Player: p.Name, Start: p.Start, Stack: p.Stack, In: p.In, Won: p.Won,
			Cards: append([]cards.Card{}, p.Cards...), Hidden: p.Hidden, Seen: nonNilCards(seen[p.Seat]),
			Discarded: nonNilCards(discarded[p.Seat]), Drawn: max(p.Discards, 0), Drew: p.Discards >= 0, Shown: p.Shown,
			Status: StatusActive}
		for _, ss := range hs.Seats {
			if ss.Seat == p.Seat && ss.Rebuy != nil {
				s.Rebuy = *ss.Rebuy
			}
		}
		if h.Stage == rules.StageBetting {
			s.InFront = p.RoundIn // gathered into the pot when the round gives way to the draw or showdown
		}
		switch {
		case p.Mucked:
			s.Status = StatusMucked
		case p.Folded:
			s.Status = StatusFolded
		case p.AllIn:
			s.Status = StatusAllIn
		}
		if len(p.Cards) == 5 && p.Hidden == 0 {
			if v, err := h.Eval.EvalSlice(p.Cards); err == nil {
				s.Hand = v.Category().String()
			}
		}
		st.Seats = append(st.Seats, s)
	}
	return st, nil
}

// holder returns the seat holding c, or 0.
func holder(h *rules.Hand, c cards.Card) events.Seat {
	for _, p := range h.Players {
		if contains(p.Cards, c) {
			return p.Seat
		}
	}
	return 0
}

func contains(cs []cards.Card, c cards.Card) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func nonNil(s []events.Seat) []events.Seat {
	if s == nil {
		return []events.Seat{}
	}
	return s
}

func nonNilCards(cs []cards.Card) []cards.Card {
	if cs == nil {
		return []cards.Card{}
	}
	return cs
}

// sorted returns evs in seq order (evs itself when already sorted).
func sorted(evs []*events.Event) []*events.Event {
	if sort.SliceIsSorted(evs, func(i, j int) bool { return evs[i].Seq < evs[j].Seq }) {
		return evs
	}
	out := append([]*events.Event(nil), evs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}
