package rules

import (
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// Violation is a rule of the hand's preset that an event broke. The auditor turns it into a
// finding of the hand.
type Violation struct {
	Code     finding.Code
	Seq      events.Seq
	Seat     events.Seat
	Message  string
	Expected any
	Actual   any
	// Severity overrides the code's catalogue severity when set (card.exposed is an error in
	// br-online: findings-v1.md).
	Severity finding.Severity
}

// Player is one seat dealt into a hand, as the events so far leave it.
type Player struct {
	Seat  events.Seat
	Name  string
	Start events.Chips // stack at hand.started, before any ante
	Stack events.Chips // chips behind: not yet put in
	// In is the chips put in this hand (antes, blinds, bets) less chips returned.
	In events.Chips
	// RoundIn is the chips put in during the current betting round (blinds count in round first).
	RoundIn  events.Chips
	Ante     events.Chips
	Antes    int // ante.posted events of this seat
	Returned events.Chips
	Won      events.Chips
	Folded   bool
	AllIn    bool
	Mucked   bool
	Shown    bool
	// Cards is what the player holds, as far as the log says (unknown cards are counted in Hidden).
	Cards  []cards.Card
	Hidden int
	// Value is the evaluated five cards when all are known.
	Value Value
	// Dealt counts the cards of the deal; Discards the cards thrown in the draw (-1 before he drew).
	Dealt    int
	Discards int
	// Pending is the replacements still owed to him in the draw.
	Pending int
	// Acted: he has acted in this round; Seen is the re-open count when he last acted.
	Acted bool
	// cardBuf is Cards' first backing array: a hand of five needs no allocation. It sits in the
	// padding after Acted (a player is allocated for every seat of every hand audited).
	cardBuf [5]cards.Card
	Seen    int

	// Dead is the dead blinds among In: chips in the pot that match nobody's bet (Excess).
	Dead events.Chips

	// ShownCards is what he showed at the showdown (his last hand.shown), in the order shown;
	// nil when he showed nothing. Cards is what he holds: they differ in a showdown.cards fault.
	ShownCards []cards.Card
	shownBuf   [5]cards.Card
	// Tally is what he did in the betting, as the log records it.
	Tally Tally
}

// Tally counts a player's actions in a hand, each as the log records it, legal or not: the
// read models' statistics (docs/architecture.md) are these, as the rules read the hand.
type Tally struct {
	Bets, Raises, Calls, Checks int
	// VPIP: he bet, called or raised before the draw (the blind round or round first);
	// RaisedFirst: he raised there; AggressiveSecond: he bet or raised in round second.
	VPIP, RaisedFirst, AggressiveSecond bool
	// OpenChance: he acted before the draw while nobody had opened and no bet stood (no
	// blind): he could have opened. Whether he did is Hand.Opener.
	OpenChance bool
}

// PutIn returns the chips he put in the hand (antes, blinds, bets), those returned to him
// included.
func (p *Player) PutIn() events.Chips { return p.In + p.Returned }

// Held reports how many cards the player holds, known or not.
func (p *Player) Held() int { return len(p.Cards) + p.Hidden }

// Live reports whether the player can still win chips: not folded and not mucked.
func (p *Player) Live() bool { return !p.Folded && !p.Mucked }

// add gives p the card c, in Cards.
func (p *Player) add(c cards.Card) {
	if p.Cards == nil {
		p.Cards = p.cardBuf[:0]
	}
	p.Cards = append(p.Cards, c)
}

func (p *Player) has(c cards.Card) int {
	for i, x := range p.Cards {
		if x == c {
			return i
		}
	}
	return -1
}

// Stage is where a hand stands.
type Stage int

// The stages of a hand.
const (
	StageSetup    Stage = iota // shuffles, cut, antes or blinds
	StageDeal                  // the five-card deal
	StageBetting               // a betting round
	StageDraw                  // the draw
	StageShowdown              // hands shown
	StageSettle                // returns and awards
	StageEnded                 // hand.ended
)

// stageNames are the stages' names, the one vocabulary of a hand's stage in fechado (the replay
// state, the live tables, the API).
var stageNames = [...]string{StageSetup: "setup", StageDeal: "deal", StageBetting: "betting", StageDraw: "draw",
	StageShowdown: "showdown", StageSettle: "settle", StageEnded: "ended"}

// String returns the stage's name: setup, deal, betting, draw, showdown, settle or ended.
func (s Stage) String() string {
	if s < 0 || int(s) >= len(stageNames) {
		return "stage(" + strconv.Itoa(int(s)) + ")"
	}
	return stageNames[s]
}

// MarshalText writes the stage as its name.
func (s Stage) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

type where uint8

const (
	inStub where = iota
	inHand
	inDiscards
	inBurned
	inMuck // folded hands (br-fechado reshuffles them before the draw)
)

// Hand is the state machine of one hand under its preset. Feed it the hand's events in order with
// Apply; it reports each rule an event breaks and carries on with the state the log records.
// Use it through the pointer NewHand returns: a copy would share the arrays its slices (Players,
// the players' Cards, OpenerCards, Awards) are kept in.
type Hand struct {
	Preset Preset
	Low    cards.Rank
	Eval   *Evaluator
	Start  *events.HandStarted
	// Seeds holds the seeds the log reveals, by the seq of the deck.shuffled they open; set it
	// before Apply (the auditor scans the hand first) to check every dealt card as it comes.
	Seeds map[events.Seq]cards.Seed

	Players []*Player               // in seat order
	ps      []Player                // the players, in seat order
	ptrs    [events.MaxSeat]*Player // Players' backing array

	Stage Stage
	Round events.Round
	// RoundDone is set when no player owes an action in the current round.
	RoundDone bool
	// CurrentBet is the largest RoundIn of the round; LastIncrement the size of the last full
	// bet or raise; Raises the raises after the bet; Reopen counts full bets and raises.
	CurrentBet    events.Chips
	LastIncrement events.Chips
	Raises        int
	Reopen        int
	// Opener is the seat that opened (0 = nobody yet); OpenerQualified whether he held openers;
	// OpenerCards his five cards when he opened; OpenersShown whether he proved them.
	Opener          events.Seat
	OpenerQualified bool
	OpenerCards     []cards.Card
	OpenersShown    bool
	OpenerValue     Value
	LastAggressor   events.Seat // last bet or raise of the hand
	LastRaiserFirst events.Seat // last raiser of round first
	// BigBlind is the seat of the hand's first big blind (0 = none posted): in blind games the
	// table's rotation follows it (events-v1.md §7, rules.NextBlinds).
	BigBlind events.Seat
	// SmallBlind is the seat of the hand's first small blind (0 = none posted, a dead small
	// blind): the TDA dead button goes there next hand (rules.Rotation). PostedBB is the seat of
	// its big blind as posted: the one in its place when one is, else the first, wherever it was;
	// the rotation moves on from it (events-v1.md §7, continuity as recorded).
	SmallBlind events.Seat
	PostedBB   events.Seat
	turn       events.Seat // whose turn it is (0 = nobody's)
	Carry      events.Chips
	Passed     bool
	Misdeal    bool
	Raked      events.Chips
	Awards     []Award
	ended      *events.HandEnded

	// cards
	deck  cards.Set
	stub  cards.Set
	order []cards.Card // the stub top first, when the shuffle is known (in orderBuf)
	// The deal goes one card at a time clockwise from the dealer's left, five rounds: card i
	// of the deal is Players[(dealFirst+i)%len(Players)]'s (dealSeat).
	dealFirst   int
	dealIdx     int
	dealt       int       // the known cards of the deal
	dealtEarly  cards.Set // the first two of them
	dealtLate   cards.Set // the others
	exposedDeal int
	misdealDue  events.Seq
	lastBurn    events.Seq
	drawN       int // the seats in drawOrder
	drawer      events.Seat

	blindOther map[events.BlindKind]bool // a blind of another kind than small, big, dead (made when first needed)
	rake       map[int]events.Chips      // by pot (made when first needed)
	// expected holds the pots and shares of ExpectedAwards, and what each winner was paid,
	// worked out at the first award.
	expected []xpot
	awardBuf [1]Award // Awards' first backing array
	seq      events.Seq
	reported map[finding.Code]bool // made at the first violation

	// The small fields come last, where they pack without padding (the hand's size counts: a
	// hand is allocated for every hand audited).
	owedLater     [events.MaxSeat + 1]int32 // by seat
	bySeat        [events.MaxSeat + 1]uint8 // by seat, 1 + the player's place in ps; 0 for none
	loc           [cards.NumCards]where
	owner         [cards.NumCards]uint8      // the seat holding the card (1..MaxSeat), when inHand
	orderBuf      [cards.NumCards]cards.Card // order's first backing array
	drawOrder     [events.MaxSeat]uint8      // DrawOrder once the draw began (drawN seats)
	delayed       [events.MaxSeat + 1]bool   // by seat; std-draw: five-card drawers waiting for their fifth card
	openerBuf     [5]cards.Card              // OpenerCards' backing array
	blindSeen     [3]bool                    // small, big, dead
	lastBurned    cards.Card
	known         bool
	cutExposed    bool
	reshuffled    bool // a reshuffle happened since the draw began (br-fechado)
	awardsStarted bool
	expectedOK    bool
	potReported   bool

	// Violations lists what Apply found, in order.
	Violations []Violation
}

// NewHand starts the state machine from a hand.started event. Violations of the start itself
// (unknown preset, a bad override, a player count the preset does not allow) come back as an
// error when the hand cannot be followed at all, or in Violations when it can.
func NewHand(e *events.Event) (*Hand, error) {
	return Renew(nil, e)
}

// Renew is NewHand on the memory of old, a hand its caller is done with (nil: fresh memory). A
// long audit restarts one Hand for every hand instead of allocating a new one and its players:
// old and every slice and value read from it (Players, Violations, Awards…) must no longer be
// used after the call, whatever it returns, as they are overwritten.
func Renew(old *Hand, e *events.Event) (*Hand, error) {
	hs, ok := e.Data.(*events.HandStarted)
	if !ok {
		return nil, fmt.Errorf("a hand must begin with hand.started, not %s", e.Type)
	}
	p, err := ForHand(hs.Rules)
	if err != nil {
		return nil, err
	}
	h := old
	if h == nil {
		h = new(Hand)
	} else {
		// Keep the backing arrays that grow beyond the hand's own buffers, emptied (so that they
		// hold no message or value of the last hand), and zero the rest.
		ps, vs, xs := h.ps[:0], h.Violations[:0], h.expected[:0]
		clear(vs[:cap(vs)])
		*h = Hand{}
		h.ps, h.Violations, h.expected = ps, vs, xs
	}
	// Field by field: a composite literal of this large struct is built on the stack and copied.
	h.Preset, h.Start, h.seq, h.Carry = p, hs, e.Seq, hs.Carry
	// Seats 0..63 are checked with a bit set; a map is made only for a seat outside them.
	var seen uint64
	var seenOther map[events.Seat]bool
	isSeen := func(s events.Seat) bool {
		if s >= 0 && s < 64 {
			return seen&(1<<s) != 0
		}
		return seenOther[s]
	}
	n := 0 // the players dealt in: the seats listed in 1..MaxSeat
	for _, s := range hs.Seats {
		if isSeen(s.Seat) {
			return nil, fmt.Errorf("seat %d is listed twice", s.Seat)
		}
		if s.Seat >= 0 && s.Seat < 64 {
			seen |= 1 << s.Seat
		} else {
			if seenOther == nil {
				seenOther = map[events.Seat]bool{}
			}
			seenOther[s.Seat] = true
		}
		if s.Seat >= 1 && s.Seat <= events.MaxSeat {
			n++
		}
	}
	if !isSeen(hs.Dealer) && !p.Starter && !p.Blinds {
		// The dealer must be a seat dealt in, except in br-online where he names the seat
		// before the starter (dealt in as well in practice), and in blind games, where the
		// button may be dead: on a seat where nobody is dealt in (events-v1.md §7).
		h.violate(finding.LogSchema, e.Seq, hs.Dealer, fmt.Sprintf("dealer seat %d is not dealt in", hs.Dealer), nil, nil)
	}
	low, ok := p.Low(len(hs.Seats))
	if !ok {
		return nil, fmt.Errorf("%s does not allow %d players (%d–%d)", p.Name, len(hs.Seats), p.MinPlayers, p.MaxPlayers)
	}
	h.Low = low
	h.Eval = EvaluatorFor(p.Ranking(low))
	h.deck = cards.DeckSet(low)
	h.stub = h.deck
	// The players in seat order, in one array; Players has no spare capacity, so that a
	// caller's append cannot write into the hand.
	ps := h.ps
	if cap(ps) >= n {
		ps = ps[:n]
	} else {
		ps = make([]Player, n)
	}
	h.ps = ps
	if n > 0 {
		h.Players = h.ptrs[:0:n]
	}
	for s := events.Seat(1); s <= events.MaxSeat; s++ {
		if seen&(1<<s) == 0 {
			continue
		}
		for _, ss := range hs.Seats { // the seats are distinct: one of them is s
			if ss.Seat == s {
				pl := &ps[len(h.Players)]
				*pl = Player{Seat: s, Name: ss.Player, Start: ss.Stack, Stack: ss.Stack, Discards: -1, AllIn: ss.Stack == 0}
				h.Players = append(h.Players, pl)
				h.bySeat[s] = uint8(len(h.Players))
			}
		}
	}
	// The deal starts at the dealer's left.
	h.dealFirst = h.index(h.leftOf(hs.Dealer, func(*Player) bool { return true }))
	return h, nil
}

// dealSeat returns the seat card i of the deal (from 0) goes to; i must be below
// 5*len(h.Players).
func (h *Hand) dealSeat(i int) events.Seat {
	return h.Players[(h.dealFirst+i)%len(h.Players)].Seat
}

// evaluators holds the evaluators of the rankings met so far, by lowest rank and the ranking's
// flags (rankingFlags): an array, not a map, as a hand looks its ranking up at start. Each is
// built on its first use and read without a lock from then on. Built all at once on the first
// hand (every preset and deck, 6 to 8 ms), they kept the first hand's auditor that long, and a
// spread audit's other worker waiting for them, where a room needs one or two (BENCHMARKS.md,
// twentieth session).
var evaluators [cards.Ace + 1][8]atomic.Pointer[Evaluator]

// rankingFlags packs the booleans of a ranking into 0..7.
func rankingFlags(r Ranking) int {
	f := 0
	if r.FlushBeatsFullHouse {
		f |= 1
	}
	if r.TripsBeatStraight {
		f |= 2
	}
	if r.SuitsBreakTies {
		f |= 4
	}
	return f
}

// EvaluatorFor returns the shared evaluator of a ranking, built on its first use (NewEvaluator,
// whose lock makes the callers that meet it first at once share one) and read without a lock
// from then on. Safe for concurrent use.
func EvaluatorFor(r Ranking) *Evaluator {
	if r.Low > cards.Ace {
		return NewEvaluator(r) // not a deck: NewEvaluator panics
	}
	slot := &evaluators[r.Low][rankingFlags(r)]
	if e := slot.Load(); e != nil {
		return e
	}
	e := NewEvaluator(r)
	slot.Store(e)
	return e
}

// Player returns the player in seat s, or nil.
func (h *Hand) Player(s events.Seat) *Player {
	if s < 1 || s > events.MaxSeat {
		return nil
	}
	if i := h.bySeat[s]; i > 0 {
		return &h.ps[i-1]
	}
	return nil
}

func (h *Hand) index(s events.Seat) int {
	for i, p := range h.Players {
		if p.Seat == s {
			return i
		}
	}
	return 0
}

// leftOf returns the first player strictly clockwise after seat s that satisfies ok (0 if none).
func (h *Hand) leftOf(s events.Seat, ok func(*Player) bool) events.Seat {
	n := len(h.Players)
	start := 0
	for i, p := range h.Players {
		if p.Seat > s {
			start = i
			break
		}
		if i == n-1 {
			start = 0
		}
	}
	for i := 0; i < n; i++ {
		p := h.Players[(start+i)%n]
		if ok(p) {
			return p.Seat
		}
	}
	return 0
}

// atOrLeftOf is leftOf but may return s itself.
func (h *Hand) atOrLeftOf(s events.Seat, ok func(*Player) bool) events.Seat {
	if p := h.Player(s); p != nil && ok(p) {
		return s
	}
	return h.leftOf(s, ok)
}

func (h *Hand) violate(code finding.Code, seq events.Seq, seat events.Seat, msg string, expected, actual any) {
	h.Violations = append(h.Violations, Violation{Code: code, Seq: seq, Seat: seat, Message: msg, Expected: expected, Actual: actual})
	if h.reported == nil {
		h.reported = map[finding.Code]bool{}
	}
	h.reported[code] = true
}

// once reports code only the first time in the hand: the codes whose later events follow from the
// first break (no cascades).
func (h *Hand) once(code finding.Code, seq events.Seq, seat events.Seat, msg string, expected, actual any) {
	if h.reported[code] {
		return
	}
	h.violate(code, seq, seat, msg, expected, actual)
}

// Reported reports whether the hand already has a violation of code.
func (h *Hand) Reported(code finding.Code) bool { return h.reported[code] }

// Showdown reports whether the hand went to a showdown: neither passed out nor a misdeal, and
// two players or more did not fold (one who mucked at the showdown was at it).
func (h *Hand) Showdown() bool { return !h.Passed && !h.Misdeal && h.InHand() >= 2 }

// Pot returns every chip in the middle: the carry and what the players have put in.
func (h *Hand) Pot() events.Chips {
	t := h.Carry
	for _, p := range h.Players {
		t += p.In
	}
	return t - h.Raked
}

// Turn returns the seat whose turn it is to act in the current betting round (0 = nobody's).
func (h *Hand) Turn() events.Seat {
	if h.Stage != StageBetting || h.RoundDone {
		return 0
	}
	return h.turn
}

// canAct reports whether p still takes part in betting.
func canAct(p *Player) bool { return !p.Folded && !p.AllIn && !p.Mucked }

// Passes reports whether the deal passes out now, at the end of round first: presets.md "nobody
// opens", where the preset passes deals (PassedOutAllowed) and nobody opened — unless fewer
// than two players can bet (the others all-in on their antes or dealt in with stack 0, their
// last chips in the carry). Such a deal could not be opened, and passing it would carry the
// all-in players' chips on without a hand to win them, deal after deal; it is drawn and shown
// down for the pots as they stand (our reading: docs/rules.md "nobody opens").
func (h *Hand) Passes() bool {
	if h.Opener != 0 || h.CurrentBet != 0 || !h.Preset.PassedOutAllowed {
		return false
	}
	bettors := 0
	for _, p := range h.Players {
		if canAct(p) {
			bettors++
		}
	}
	return bettors >= 2
}

// needsToAct reports whether p owes an action in the current round.
func (h *Hand) needsToAct(p *Player) bool {
	return canAct(p) && (!p.Acted || p.RoundIn < h.CurrentBet)
}

// InHand counts the players not folded.
func (h *Hand) InHand() int {
	n := 0
	for _, p := range h.Players {
		if !p.Folded {
			n++
		}
	}
	return n
}

func (h *Hand) roundComplete() bool {
	if h.InHand() < 2 {
		return true
	}
	active := 0
	for _, p := range h.Players {
		if canAct(p) {
			active++
		}
	}
	for _, p := range h.Players {
		if h.needsToAct(p) {
			// A lone player who can still act, facing nothing, has nobody to bet against.
			if active == 1 && p.RoundIn >= h.CurrentBet {
				continue
			}
			return false
		}
	}
	return true
}

// Apply feeds the next event of the hand to the state machine and returns the violations it
// found in that event (also appended to Violations).
func (h *Hand) Apply(e *events.Event) []Violation {
	before := len(h.Violations)
	h.seq = e.Seq
	if h.Stage == StageEnded {
		return nil
	}
	switch d := e.Data.(type) {
	case *events.HandStarted:
		h.violate(finding.LogSchema, e.Seq, 0, "a second hand.started in the same hand", nil, nil)
	case *events.DeckShuffled:
		h.onShuffle(e.Seq, d)
	case *events.DeckCut:
		h.onCut(e.Seq, d)
	case *events.AntePosted:
		h.onAnte(e.Seq, d)
	case *events.BlindPosted:
		h.onBlind(e.Seq, d)
	case *events.CardDealt:
		h.onDealt(e.Seq, d)
	case *events.CardBurned:
		h.onBurned(e.Seq, d)
	case *events.CardExposed:
		h.onExposed(e.Seq, d)
	case *events.MisdealDeclared:
		h.Misdeal = true
		h.Stage = StageSettle
		h.misdealDue = 0
	case *events.PlayerActed:
		h.onAction(e.Seq, d)
	case *events.CardsDiscarded:
		h.onDiscard(e.Seq, d)
	case *events.OpenersShown:
		h.onOpenersShown(e.Seq, d)
	case *events.HandShown:
		h.onShown(e.Seq, d)
	case *events.HandMucked:
		if p := h.seatOf(e.Seq, d.Seat); p != nil {
			h.closeBetting(e.Seq)
			p.Mucked = true
		}
	case *events.BetReturned:
		h.onReturned(e.Seq, d)
	case *events.PotRaked:
		h.closeBetting(e.Seq)
		if !h.Preset.Rake {
			h.once(finding.PotTotal, e.Seq, 0, fmt.Sprintf("%s takes no rake, yet %d chips were raked", h.Preset.Name, d.Amount), 0, d.Amount)
		}
		h.Raked += d.Amount
		if h.rake == nil {
			h.rake = map[int]events.Chips{}
		}
		h.rake[d.Pot] += d.Amount
	case *events.PotAwarded:
		h.onAwarded(e.Seq, d)
	case *events.HandPassed:
		h.onPassed(e.Seq)
	case *events.DeckRevealed:
		// Checked by the auditor against the commitment before the hand is replayed.
	case *events.HandEnded:
		h.onEnded(e.Seq, d)
	}
	return h.Violations[before:]
}

func (h *Hand) seatOf(seq events.Seq, s events.Seat) *Player {
	p := h.Player(s)
	if p == nil {
		h.violate(finding.LogSchema, seq, s, fmt.Sprintf("seat %d is not dealt in this hand", s), nil, nil)
	}
	return p
}

// put moves chips from a player's stack into the pot.
func (h *Hand) put(p *Player, amount events.Chips) {
	p.Stack -= amount
	p.In += amount
	p.RoundIn += amount
	if p.Stack <= 0 {
		p.AllIn = true
	}
}

// Ended returns the hand.ended of the hand, or nil before it.
func (h *Hand) Ended() *events.HandEnded { return h.ended }
