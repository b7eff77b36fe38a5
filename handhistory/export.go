package handhistory

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// ErrInexpressible: a hand uses a rule, or contains an event, that the export format has no way
// to say. A *Refusal wraps it and names the rule.
var ErrInexpressible = errors.New("the format cannot express the hand")

// Refusal is a hand Export leaves out because the format cannot express one of its rules.
type Refusal struct {
	Format Format
	Hand   string // the hand's id
	Preset string // the hand's preset
	// Rule names what cannot be said: a preset field by its JSON name (deck_low, openers,
	// blinds, pots, structure, …) or an event type (card.exposed, misdeal.declared, …).
	Rule  string
	Value string // the hand's value of the rule ("7", "jacks", "spread", …)
	Why   string // what the format can say instead, in English
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("hand %s (%s): %s cannot express %s = %s: %s", r.Hand, r.Preset, r.Format, r.Rule, r.Value, r.Why)
}

// Is makes a *Refusal match ErrInexpressible.
func (r *Refusal) Is(target error) bool { return target == ErrInexpressible }

// ExportFormats lists the formats Export writes.
var ExportFormats = []Format{PokerStars, PHH}

// Export writes hands (each the events of one hand, seq order) in format f: PokerStars text
// (one hand after another, separated by blank lines) or PHH (one .phh table per hand, or a .phhs
// file of numbered tables when there are several). A hand the format cannot express is left out
// and returned as a *Refusal; the others are written. It returns an error wrapping ErrFormat for
// a format it does not write.
func Export(f Format, hands [][]*events.Event) ([]byte, []*Refusal, error) {
	var out bytes.Buffer
	var refused []*Refusal
	n := 0
	for _, evs := range hands {
		x, err := readHand(f, evs)
		if err != nil {
			var r *Refusal
			if errors.As(err, &r) {
				refused = append(refused, r)
				continue
			}
			return nil, nil, err
		}
		n++
		switch f {
		case PokerStars:
			if n > 1 {
				out.WriteString("\n\n")
			}
			writePokerStars(&out, x)
		case PHH:
			writePHH(&out, x, n, len(hands) > 1)
		default:
			return nil, nil, fmt.Errorf("%w %q (want pokerstars or phh)", ErrFormat, string(f))
		}
	}
	return out.Bytes(), refused, nil
}

// xHand is a stored hand as the writers see it: who sat where, what each did in order, what was
// known of the cards, and how the pots were paid.
type xHand struct {
	id        string
	table     string
	start     *events.HandStarted
	at        time.Time
	preset    rules.Preset
	eval      *rules.Evaluator
	order     []events.Seat // dealt in, clockwise from the seat left of the dealer
	names     map[events.Seat]string
	stack     map[events.Seat]events.Chips // at the start
	deal      map[events.Seat][]cards.Card // five known cards, in the order dealt; absent when any is unknown
	final     map[events.Seat][]cards.Card // the five cards held at the end, when all are known
	shown     map[events.Seat][]cards.Card
	mucked    map[events.Seat]bool
	folded    map[events.Seat]events.Round
	won       map[events.Seat]events.Chips
	acts      []xAct
	awards    []*events.PotAwarded
	rakes     []*events.PotRaked
	ended     *events.HandEnded
	collects  []collect    // the pots as PokerStars lists them, and who collected what from each
	smallBlnd events.Chips // the small blind's size (posted, or half the big blind)
	putIn     events.Chips // chips put in less chips returned
	drew      bool         // the draw took place
}

type xKind uint8

const (
	xAnte xKind = iota + 1
	xBlind
	xBet
	xDraw
	xReturn
	xShow
	xMuck
)

// xAct is one thing a player did, with what the writers need to say it.
type xAct struct {
	kind   xKind
	seat   events.Seat
	blind  events.BlindKind
	round  events.Round
	action events.Action
	amount events.Chips // put in (or returned) by this act
	to     events.Chips // bets and raises: the player's chips in the round after it
	raise  events.Chips // raises: to less the bet faced
	allIn  bool
	// A draw: thrown is the number of cards thrown; discarded and drawn the cards, nil when
	// unknown; kept the cards kept, nil when unknown.
	thrown                 int
	discarded, drawn, kept []cards.Card
	cards                  []cards.Card // a show
}

// refuse returns a *Refusal for x's hand.
func refuse(f Format, start *events.HandStarted, hand, rule, value, why string) *Refusal {
	return &Refusal{Format: f, Hand: hand, Preset: start.Rules.Name, Rule: rule, Value: value, Why: why}
}

// expressible checks the rules of a hand against what PokerStars text and PHH can say: five-card
// draw high with one draw, a small and a big blind, a 52-card deck, standard ranking, any hand
// may open, side pots at each all-in, equal splits with the odd chip left of the button, in no
// limit, pot limit or fixed limit.
func expressible(f Format, hand string, st *events.HandStarted, h *rules.Hand) error {
	p := h.Preset
	no := func(rule, value, why string) error { return refuse(f, st, hand, rule, value, why) }
	switch {
	case h.Low != cards.Two:
		return no("deck_low", h.Low.String(), "it deals from 52 cards, twos to aces")
	case p.Openers != rules.OpenFree:
		return no("openers", string(p.Openers), "any hand may open the betting")
	case p.BlindRound:
		return no("blind_round", "true", "it has no betting round before the deal")
	case !p.Blinds:
		return no("blinds", "false", "the betting is opened by a small and a big blind")
	case p.Starter:
		return no("starter", "true", "the button moves one seat each hand")
	case p.FlushBeatsFullHouse:
		return no("flush_beats_full_house", "true", "hands rank in the standard order")
	case p.TripsBeatStraight:
		return no("trips_beat_straight", "true", "hands rank in the standard order")
	case p.SuitsBreakTies:
		return no("suits_break_ties", "true", "tied hands split the pot")
	case p.Pots != rules.PotsTableStakes:
		return no("pots", string(p.Pots), "a side pot forms at each all-in")
	case p.Split != rules.SplitEqual:
		return no("split", string(p.Split), "tied hands share a pot equally")
	case p.OddChip != rules.OddLeftOfDealer:
		return no("odd_chip", string(p.OddChip), "the odd chip goes to the first winner left of the button")
	case p.Structure != rules.NoLimit && p.Structure != rules.PotLimit && p.Structure != rules.FixedLimit:
		return no("structure", string(p.Structure), "no limit, pot limit or fixed limit")
	case st.Carry > 0 || st.PassedOut > 0:
		return no("carry", fmt.Sprint(st.Carry), "a hand begins with an empty pot")
	}
	return nil
}

// readHand reads the events of one hand for the writers.
func readHand(f Format, evs []*events.Event) (*xHand, error) {
	if len(evs) == 0 {
		return nil, errf(ErrMalformed, "a hand without events")
	}
	st, ok := evs[0].Data.(*events.HandStarted)
	if !ok {
		return nil, errf(ErrMalformed, "hand %s does not begin with hand.started", evs[0].Hand)
	}
	id := evs[0].Hand
	h, err := rules.NewHand(evs[0])
	if err != nil {
		return nil, errf(ErrUnsupported, "hand %s: %v", id, err)
	}
	if err := expressible(f, id, st, h); err != nil {
		return nil, err
	}
	at, err := time.Parse(time.RFC3339Nano, evs[0].At)
	if err != nil {
		return nil, errf(ErrMalformed, "hand %s: time %q: %v", id, evs[0].At, err)
	}
	x := &xHand{id: id, table: evs[0].Table, start: st, at: at, preset: h.Preset, eval: h.Eval,
		names: map[events.Seat]string{}, stack: map[events.Seat]events.Chips{},
		deal: map[events.Seat][]cards.Card{}, final: map[events.Seat][]cards.Card{}, shown: map[events.Seat][]cards.Card{},
		mucked: map[events.Seat]bool{}, folded: map[events.Seat]events.Round{}, won: map[events.Seat]events.Chips{}}
	var seats []events.Seat
	left := map[events.Seat]events.Chips{}
	for _, s := range st.Seats {
		x.names[s.Seat], x.stack[s.Seat], left[s.Seat] = s.Player, s.Stack, s.Stack
		seats = append(seats, s.Seat)
	}
	slices.Sort(seats)
	for _, s := range seats {
		if s > st.Dealer {
			x.order = append(x.order, s)
		}
	}
	for _, s := range seats {
		if s <= st.Dealer {
			x.order = append(x.order, s)
		}
	}

	hold := map[events.Seat][]cards.Card{} // cards held, while every one is known
	unknownHold := map[events.Seat]bool{}  // some card held is not known
	dealUnknown := map[events.Seat]bool{}
	drawUnknown := map[events.Seat]bool{}
	inRound := map[events.Seat]events.Chips{}
	var round events.Round
	var top events.Chips              // the bet to match in the round
	lastDraw := map[events.Seat]int{} // index in x.acts of the seat's discard
	for _, e := range evs[1:] {
		h.Apply(e)
		switch d := e.Data.(type) {
		case *events.DeckShuffled, *events.DeckCut, *events.DeckRevealed:
		case *events.AntePosted:
			x.acts = append(x.acts, xAct{kind: xAnte, seat: d.Seat, amount: d.Amount, allIn: d.Amount == left[d.Seat]})
			left[d.Seat] -= d.Amount
			x.putIn += d.Amount
		case *events.BlindPosted:
			x.acts = append(x.acts, xAct{kind: xBlind, seat: d.Seat, blind: d.Blind, amount: d.Amount, allIn: d.Amount == left[d.Seat]})
			left[d.Seat] -= d.Amount
			x.putIn += d.Amount
			if d.Blind == events.BlindSmall {
				x.smallBlnd = d.Amount
			}
		case *events.CardDealt:
			s := d.Seat
			switch d.Phase {
			case events.PhaseDeal:
				if d.Unknown {
					dealUnknown[s], unknownHold[s] = true, true
					continue
				}
				x.deal[s] = append(x.deal[s], d.Card)
				hold[s] = append(hold[s], d.Card)
			case events.PhaseDraw:
				i, ok := lastDraw[s]
				if !ok {
					return nil, errf(ErrMalformed, "hand %s: a card drawn by seat %d before he discarded", id, s)
				}
				if d.Unknown {
					drawUnknown[s], unknownHold[s] = true, true
					x.acts[i].drawn = nil
					continue
				}
				if !drawUnknown[s] {
					x.acts[i].drawn = append(x.acts[i].drawn, d.Card)
				}
				hold[s] = append(hold[s], d.Card)
			}
		case *events.CardsDiscarded:
			x.drew = true
			s := d.Seat
			a := xAct{kind: xDraw, seat: s, thrown: len(d.Cards), drawn: []cards.Card{}}
			if d.Declared != nil && int(*d.Declared) > len(d.Cards) {
				a.thrown = int(*d.Declared)
				unknownHold[s] = true
			} else {
				a.discarded = slices.Clone(d.Cards)
				if !unknownHold[s] && len(hold[s]) == 5 {
					a.kept = minus(hold[s], d.Cards)
					hold[s] = slices.Clone(a.kept)
				} else {
					unknownHold[s] = true
				}
			}
			x.acts = append(x.acts, a)
			lastDraw[s] = len(x.acts) - 1
		case *events.PlayerActed:
			if d.Round != round {
				round, top = d.Round, 0
				clear(inRound)
				if d.Round == events.RoundFirst {
					// The blinds stand in the first round.
					for _, a := range x.acts {
						if a.kind == xBlind && a.blind != events.BlindDead {
							inRound[a.seat] += a.amount
							top = max(top, inRound[a.seat])
						}
					}
				}
			}
			a := xAct{kind: xBet, seat: d.Seat, round: d.Round, action: d.Action, amount: d.Amount,
				allIn: d.Amount > 0 && d.Amount == left[d.Seat]}
			inRound[d.Seat] += d.Amount
			a.to = inRound[d.Seat]
			if d.Action == events.Raise {
				a.raise = a.to - top
			}
			top = max(top, inRound[d.Seat])
			left[d.Seat] -= d.Amount
			x.putIn += d.Amount
			if d.Action == events.Fold {
				x.folded[d.Seat] = d.Round
			}
			x.acts = append(x.acts, a)
		case *events.BetReturned:
			x.acts = append(x.acts, xAct{kind: xReturn, seat: d.Seat, amount: d.Amount})
			left[d.Seat] += d.Amount
			x.putIn -= d.Amount
		case *events.HandShown:
			x.shown[d.Seat] = slices.Clone(d.Cards)
			x.acts = append(x.acts, xAct{kind: xShow, seat: d.Seat, cards: slices.Clone(d.Cards)})
		case *events.HandMucked:
			x.mucked[d.Seat] = true
			x.acts = append(x.acts, xAct{kind: xMuck, seat: d.Seat})
		case *events.PotRaked:
			x.rakes = append(x.rakes, d)
		case *events.PotAwarded:
			x.awards = append(x.awards, d)
			x.won[d.Seat] += d.Amount
		case *events.HandEnded:
			x.ended = d
		default:
			return nil, refuse(f, st, id, string(e.Type), "present", "it has no way to record it")
		}
	}
	if x.ended == nil {
		return nil, errf(ErrMalformed, "hand %s has no hand.ended: it is not finished", id)
	}
	for _, a := range x.acts {
		if a.kind == xBlind && a.blind == events.BlindDead && !slices.ContainsFunc(x.acts, func(b xAct) bool {
			return b.kind == xBlind && b.blind == events.BlindBig && b.seat == a.seat
		}) {
			return nil, refuse(f, st, id, "blind.posted", "dead", "a dead blind is posted only with a big blind (posts small & big blinds)")
		}
	}
	for s, cs := range hold {
		if len(cs) == 5 && !unknownHold[s] {
			x.final[s] = cs
		}
	}
	for s, cs := range x.deal {
		if len(cs) != 5 || dealUnknown[s] {
			delete(x.deal, s)
		}
	}
	if x.collects, err = collects(f, x, evs, h); err != nil {
		return nil, err
	}
	if f == PHH {
		if err := phhPlaces(x); err != nil {
			return nil, err
		}
	}
	if x.smallBlnd == 0 {
		x.smallBlnd = max(1, st.Stakes.MinBet/2)
	}
	return x, nil
}

// describe names five cards for a summary line ("pair of jacks"), or "" when they are not five.
func (x *xHand) describe(cs []cards.Card) string {
	v, err := x.eval.EvalSlice(cs)
	if err != nil {
		return ""
	}
	return x.eval.Describe(v)
}

// phhPlaces checks what PHH says by position alone: the button is a player dealt in (the last in
// position order), the small blind is posted by the first player left of it and the big blind by
// the second (heads-up, the button posts the small blind), and the house rakes the main pot only
// (a reader takes a shortfall of finishing_stacks as rake from it).
func phhPlaces(x *xHand) error {
	st := x.start
	no := func(rule, value, why string) error { return refuse(PHH, st, x.id, rule, value, why) }
	n := len(x.order)
	if x.order[n-1] != st.Dealer {
		return no("dealer", strconv.Itoa(int(st.Dealer)), "the button is a player dealt in, the last in position order")
	}
	wantSB, wantBB := x.order[0], x.order[1]
	if n == 2 {
		wantSB, wantBB = x.order[1], x.order[0]
	}
	var sb, bb events.Seat
	for _, a := range x.acts {
		switch {
		case a.kind == xBlind && a.blind == events.BlindSmall:
			sb = a.seat
		case a.kind == xBlind && a.blind == events.BlindBig:
			bb = a.seat
		case a.kind == xBlind:
			return no("blind.posted", string(a.blind), "only a small and a big blind, by position")
		}
	}
	if sb != wantSB || bb != wantBB {
		return no("blinds", fmt.Sprintf("small %d, big %d", sb, bb), "the small and the big blind are posted by the two players left of the button")
	}
	for _, r := range x.rakes {
		if r.Pot != 0 {
			return no("pot.raked", strconv.Itoa(r.Pot), "the house rakes the main pot only")
		}
	}
	return nil
}

// collect is chips a player collected from one pot, as PokerStars lists pots: pot 0 the main
// pot, 1… the side pots, -1 the only pot.
type collect struct {
	seat   events.Seat
	pot    int
	amount events.Chips
}

// collects lists the awards by the pots PokerStars makes. The log's pots are rules' layers, in
// which a player who mucked no longer makes a layer of his own; PokerStars makes a side pot at
// every all-in, mucked or not. Each pot of the log is therefore one PokerStars pot or several
// consecutive ones: a pot paid to one player is listed pot by pot (its rake taken from the first,
// as PokerStars prints the main pot net of rake), a pot shared by several players must be one
// PokerStars pot.
func collects(f Format, x *xHand, evs []*events.Event, h *rules.Hand) ([]collect, error) {
	ours := h.Pots()
	unmucked, err := replay(evs, func(e *events.Event) bool {
		switch e.Data.(type) {
		case *events.HandMucked, *events.PotAwarded, *events.PotRaked, *events.HandEnded:
			return true
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	stars := unmucked.Pots()
	olo, ohi := potSpans(ours)
	slo, shi := potSpans(stars)
	label := func(j int) int {
		if len(stars) == 1 {
			return -1
		}
		return j
	}
	raked := map[int]events.Chips{}
	for _, r := range x.rakes {
		raked[r.Pot] += r.Amount
	}
	var out []collect
	for k := range ours {
		var in []int
		for j := range stars {
			if olo[k] <= slo[j] && shi[j] <= ohi[k] {
				in = append(in, j)
			}
		}
		var winners []*events.PotAwarded
		for _, a := range x.awards {
			if a.Pot == k {
				winners = append(winners, a)
			}
		}
		switch {
		case len(winners) == 0:
		case len(in) == 1:
			for _, a := range winners {
				out = append(out, collect{seat: a.Seat, pot: label(in[0]), amount: a.Amount})
			}
		case len(winners) == 1 && len(in) > 1:
			rest := raked[k]
			for _, j := range in {
				amt := stars[j].Amount
				take := min(rest, amt)
				rest -= take
				if amt-take > 0 {
					out = append(out, collect{seat: winners[0].Seat, pot: label(j), amount: amt - take})
				}
			}
		default:
			return nil, refuse(f, x.start, x.id, "pot.awarded", strconv.Itoa(k),
				"a pot shared by several players is one of its pots, not several side pots merged by a muck")
		}
	}
	return out, nil
}
