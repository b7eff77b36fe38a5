package handhistory

import (
	"slices"
	"strconv"

	"github.com/google/uuid"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// draft is a hand as a format reader understood it, before it becomes events: who sat where with
// what, what each did in order, and what is known of the cards. Both readers fill one; build
// checks it and writes the events.
type draft struct {
	line       int    // the hand's first line
	endLine    int    // the line to blame for problems with the settlement (the summary)
	source     string // the room's hand number, or the hand's index
	hand       uuid.UUID
	table      string
	number     int
	previous   *string
	at         string
	structure  string // "fixed", "pot" or "no"
	stakes     events.Stakes
	tournament *events.Tournament
	// moving says the room moves its button (rules.button "moving", events-v1.md §7): the
	// online rooms' cash games.
	moving  bool
	button  events.Seat
	players []player // dealt in, ascending seat
	// away lists the players seated with chips who are not dealt in, ascending seat; left those
	// of the table's previous hand who are gone (events-v1.md §7).
	away []events.AwaySeat
	left []events.LeftPlayer
	// dealt holds the known five-card deals, in the order the seat received them.
	dealt map[events.Seat][]cards.Card
	// final holds final hands known from outside the steps (the PokerStars summary).
	final map[events.Seat][]cards.Card
	steps []*step
	// dropped lists the checks left out because the round was already complete (see build).
	dropped []Dropped
	// settle says who got which pot and what the house took, in the pot numbering of
	// events-v1 (pot layers of presets.md), once the steps have been played.
	settle func(g *game, sd *showdown) ([]award, []rake, error)
}

// showdown is the hand as rules sees it once the steps have been played: the one implementation
// of pot layers, splits and odd chips (presets.md "pot layers") is rules', and the readers take
// the pots from it rather than working them out again.
type showdown struct {
	hand   *rules.Hand     // the events so far, replayed through the preset's rules
	pots   []rules.Pot     // hand.Pots(): the layers the awards are recorded against
	events []*events.Event // the events so far, for a reader that replays them another way
}

// replay plays evs, the events of a hand up to its settlement, through the preset's rules,
// leaving out those skip reports (skip may be nil). What the rules find wrong in them is the
// auditor's business, not the importer's: only a hand rules cannot follow at all is an error.
func replay(evs []*events.Event, skip func(*events.Event) bool) (*rules.Hand, error) {
	h, err := rules.NewHand(evs[0])
	if err != nil {
		return nil, errf(ErrUnsupported, "the hand cannot be followed under %s: %v", Preset, err)
	}
	for _, e := range evs[1:] {
		if skip == nil || !skip(e) {
			h.Apply(e)
		}
	}
	return h, nil
}

type player struct {
	seat  events.Seat
	name  string
	stack events.Chips
	rebuy *events.Chips
	// joined: he sat down at the table since its previous hand (events-v1.md §7).
	joined bool
}

type stepKind uint8

const (
	stepAnte stepKind = iota + 1
	stepBlind
	stepAct
	stepDraw
	stepReturn
	stepShow
	stepMuck
)

// step is one thing that happened at the table, in order.
type step struct {
	kind   stepKind
	line   int
	seat   events.Seat
	amount events.Chips // ante, blind, chips put in by an action, chips returned
	blind  events.BlindKind
	round  events.Round
	action events.Action
	// A draw: count cards thrown; discarded and drawn are nil when the room did not show them.
	count     int
	discarded []cards.Card
	drawn     []cards.Card
	kept      []cards.Card // the cards the room says he kept ("Dealt to X [kept] [new]"), or nil
	after     []cards.Card // his five cards after the draw as the room listed them, or nil
	shown     []cards.Card // a show: five cards
}

// award is chips of a pot paid to a seat.
type award struct {
	seat   events.Seat
	pot    int
	amount events.Chips
}

// rake is the house's share of a pot.
type rake struct {
	pot    int
	amount events.Chips
}

// seatState is a seat while the steps are played.
type seatState struct {
	p        *player
	stack    events.Chips
	in       events.Chips // chips put in, less chips returned
	dead     events.Chips // of which dead blinds: in the pot, matched by nobody
	won      events.Chips
	folded   bool
	mucked   bool
	hold     []cards.Card // the five cards held, when every one is known
	lastDraw *step
}

// game is the table while build plays the steps.
type game struct {
	d     *draft
	seats map[events.Seat]*seatState
	order []events.Seat // clockwise from the seat left of the button
	// used holds the known cards that left a live hand: discarded, or in a folded hand. One of
	// them given again in the draw means the source reshuffled them (see apply).
	used cards.Set
}

func (g *game) live(s *seatState) bool { return !s.folded && !s.mucked }

// unmatched returns the chips put in above the largest contribution of a live player: chips
// nobody still in the hand matched and that were not returned.
func (g *game) unmatched() events.Chips {
	var top, above events.Chips
	for _, st := range g.seats {
		if g.live(st) {
			top = max(top, st.in-st.dead)
		}
	}
	for _, st := range g.seats {
		above += max(st.in-st.dead-top, 0)
	}
	return above
}

// comings fills in what happened at the table since its previous hand, given the players of that
// hand (dealt in or away) with their stacks at its end (events-v1.md §7): who sat down (joined),
// and who is gone (left), taking exactly those chips. A player back from sitting out, or still
// away, is neither.
func (d *draft) comings(present map[string]events.Chips) {
	here := map[string]bool{}
	for i := range d.players {
		p := &d.players[i]
		here[p.name] = true
		if _, ok := present[p.name]; !ok {
			p.joined, p.rebuy = true, nil // his stack is his buy-in
		}
	}
	for _, a := range d.away {
		here[a.Player] = true
	}
	var gone []string
	for name := range present {
		if !here[name] {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	for _, name := range gone {
		d.left = append(d.left, events.LeftPlayer{Player: name, Stack: present[name]})
	}
}

// clockwise returns the dealt-in seats clockwise from the seat left of button.
func clockwise(ps []player, button events.Seat) []events.Seat {
	var after, before []events.Seat
	for _, p := range ps {
		if p.seat > button {
			after = append(after, p.seat)
		} else {
			before = append(before, p.seat)
		}
	}
	return append(after, before...)
}

// build checks the draft and returns its events, sealed.
func (d *draft) build() ([]*events.Event, error) {
	if len(d.players) < 2 {
		return nil, atLine(d.line, errf(ErrUnsupported, "%d player(s) dealt in: a hand needs at least 2", len(d.players)))
	}
	if len(d.players)*5 > cards.NumCards {
		return nil, atLine(d.line, errf(ErrUnsupported, "%d players dealt in: too many for one deck", len(d.players)))
	}
	// dealer is the button's seat even when nobody there is dealt in (a dead button): in blind
	// games the button follows the TDA dead-button rule, or the room's moving button where the
	// hand declares it (events-v1.md §7).
	g := &game{d: d, seats: map[events.Seat]*seatState{}, order: clockwise(d.players, d.button)}
	for i := range d.players {
		p := &d.players[i]
		if p.seat < 1 || p.seat > events.MaxSeat {
			return nil, atLine(d.line, errf(ErrUnsupported, "seat %d: seats are 1 to %d", p.seat, events.MaxSeat))
		}
		if p.stack <= 0 {
			return nil, atLine(d.line, errf(ErrInconsistent, "seat %d (%s) is dealt in with %d chips", p.seat, p.name, p.stack))
		}
		if g.seats[p.seat] != nil {
			return nil, atLine(d.line, errf(ErrMalformed, "seat %d is listed twice", p.seat))
		}
		g.seats[p.seat] = &seatState{p: p, stack: p.stack}
	}
	d.steps = deferReturns(d.steps)
	for _, s := range d.steps {
		if g.seats[s.seat] == nil {
			return nil, atLine(s.line, errf(ErrInconsistent, "seat %d acts but was not dealt in", s.seat))
		}
		if s.kind == stepDraw {
			g.seats[s.seat].lastDraw = s
		}
	}

	var out []*events.Event
	// live follows the events as they are written, so that a check the room recorded after the
	// betting round was already complete (pokerkit asks the last player with chips to act when
	// everyone else is all-in) is left out: it changes no chips and no turn, and the auditor
	// would refuse it as bet.out-of-turn, which the source did not do. d.dropped says so.
	var live *rules.Hand
	var at *step // the step being written, for the line of a dropped check
	emit := func(data events.Data) {
		if a, ok := data.(*events.PlayerActed); ok && live != nil && noOpCheck(live, a) {
			line := d.line
			if at != nil {
				line = at.line
			}
			d.dropped = append(d.dropped, Dropped{Line: line, Seat: a.Seat, Round: a.Round})
			return
		}
		e := &events.Event{Table: d.table, Hand: d.hand.String(), Seq: events.Seq(len(out) + 1),
			At: d.at, Type: data.EventType(), Data: data}
		out = append(out, e)
		switch {
		case len(out) == 1:
			live, _ = rules.NewHand(e) // nil when rules cannot follow it: replay reports that
		case live != nil:
			live.Apply(e)
		}
	}
	rules := events.Rules{Name: Preset, Overrides: []events.Override{{Key: "structure", Value: []byte(strconv.Quote(d.structure))}}}
	if d.moving {
		rules.Overrides = append(rules.Overrides, events.Override{Key: "button", Value: []byte(`"moving"`)})
	}
	started := &events.HandStarted{
		Rules:      rules,
		Number:     d.number,
		Dealer:     d.button,
		Stakes:     d.stakes,
		Tournament: d.tournament,
		Previous:   d.previous,
	}
	for _, p := range d.players {
		started.Seats = append(started.Seats, events.SeatStack{Seat: p.seat, Player: p.name, Stack: p.stack, Rebuy: p.rebuy, Joined: p.joined})
	}
	started.Away, started.Left = d.away, d.left
	emit(started)
	emit(&events.DeckShuffled{Method: cards.PhysicalMethod})
	emit(&events.DeckCut{At: 0})

	held := map[cards.Card]events.Seat{} // known cards in known hands
	take := func(line int, s events.Seat, cs []cards.Card) error {
		for _, c := range cs {
			if o, ok := held[c]; ok && o != s {
				return atLine(line, errf(ErrInconsistent, "card %s is in the hands of seats %d and %d at once", c, o, s))
			}
			held[c] = s
		}
		return nil
	}

	// Forced bets come before the deal.
	i := 0
	for ; i < len(d.steps) && (d.steps[i].kind == stepAnte || d.steps[i].kind == stepBlind); i++ {
		at = d.steps[i]
		if err := g.apply(d.steps[i], emit, take, held); err != nil {
			return nil, err
		}
	}
	at = nil

	// The deal: one card at a time, clockwise from the seat left of the button.
	deal := map[events.Seat][]cards.Card{}
	for _, s := range g.order {
		cs := d.dealt[s]
		if cs == nil {
			cs = g.inferDeal(s)
		}
		if cs == nil {
			continue
		}
		if len(cs) != 5 || hasDuplicate(cs) {
			return nil, atLine(d.line, errf(ErrInconsistent, "seat %d is dealt %s: want five different cards", s, cards.Join(cs, " ")))
		}
		if err := take(d.line, s, cs); err != nil {
			return nil, err
		}
		deal[s] = cs
		g.seats[s].hold = slices.Clone(cs)
	}
	for k := range 5 {
		for _, s := range g.order {
			cd := &events.CardDealt{Seat: s, Phase: events.PhaseDeal, Unknown: true}
			if cs := deal[s]; cs != nil {
				cd.Card, cd.Unknown = cs[k], false
			}
			emit(cd)
		}
	}

	for ; i < len(d.steps); i++ {
		at = d.steps[i]
		if err := g.apply(d.steps[i], emit, take, held); err != nil {
			return nil, err
		}
	}
	for s := range d.final {
		if g.seats[s] == nil {
			return nil, atLine(d.endLine, errf(ErrInconsistent, "cards shown for seat %d, which was not dealt in", s))
		}
	}
	for _, p := range d.players {
		s, st, f := p.seat, g.seats[p.seat], d.final[p.seat]
		if f != nil && st.hold != nil && !sameCards(st.hold, f) {
			return nil, atLine(d.endLine, errf(ErrInconsistent, "seat %d ends with %s but the summary shows %s",
				s, cards.Join(st.hold, " "), cards.Join(f, " ")))
		}
	}

	// The settlement.
	h, err := replay(out, nil)
	if err != nil {
		return nil, atLine(d.endLine, err)
	}
	sd := &showdown{hand: h, pots: h.Pots(), events: out}
	awards, rakes, err := d.settle(g, sd)
	if err != nil {
		return nil, atLine(d.endLine, err)
	}
	pots := sd.pots
	if above := g.unmatched(); above > 0 {
		return nil, atLine(d.endLine, errf(ErrInconsistent, "%d chips were put in above what any live player matched and not returned", above))
	}
	paid := make([]events.Chips, len(pots))
	raked := make([]events.Chips, len(pots))
	for _, r := range rakes {
		if r.pot < 0 || r.pot >= len(pots) || r.amount < 0 {
			return nil, atLine(d.endLine, errf(ErrInconsistent, "rake of %d from pot %d, but the hand has %d pot(s)", r.amount, r.pot, len(pots)))
		}
		raked[r.pot] += r.amount
	}
	for _, a := range awards {
		if a.pot < 0 || a.pot >= len(pots) {
			return nil, atLine(d.endLine, errf(ErrInconsistent, "seat %d is paid from pot %d, but the hand has %d pot(s)", a.seat, a.pot, len(pots)))
		}
		if !slices.Contains(pots[a.pot].Eligible, a.seat) {
			return nil, atLine(d.endLine, errf(ErrInconsistent, "seat %d is paid from pot %d, which it cannot win", a.seat, a.pot))
		}
		if a.amount <= 0 {
			return nil, atLine(d.endLine, errf(ErrInconsistent, "seat %d is paid %d", a.seat, a.amount))
		}
		paid[a.pot] += a.amount
	}
	for k, p := range pots {
		if paid[k]+raked[k] != p.Amount {
			return nil, atLine(d.endLine, errf(ErrInconsistent, "pot %d holds %d chips, but %d are paid out and %d raked",
				k, p.Amount, paid[k], raked[k]))
		}
	}
	for k := range pots {
		if raked[k] > 0 {
			emit(&events.PotRaked{Pot: k, Amount: raked[k]})
		}
	}
	for k := range pots {
		for _, a := range awards {
			if a.pot == k {
				emit(&events.PotAwarded{Seat: a.seat, Amount: a.amount, Pot: k})
				st := g.seats[a.seat]
				st.stack += a.amount
				st.won += a.amount
			}
		}
	}
	ended := &events.HandEnded{}
	for _, p := range d.players {
		ended.Stacks = append(ended.Stacks, events.SeatChips{Seat: p.seat, Stack: g.seats[p.seat].stack})
	}
	emit(ended)

	prev := ""
	for _, e := range out {
		e.ID = uuid.NewSHA1(d.hand, []byte(strconv.Itoa(int(e.Seq)))).String()
		events.Seal(e, prev)
		prev = events.Hash(e.Raw)
	}
	return out, nil
}

// noOpCheck reports whether a is a check that comes when the betting round it belongs to is
// already complete under the preset's rules (rules.Hand): nobody owes an action in the round
// under way, or, for the first action of a later round, fewer than two players can still bet.
func noOpCheck(h *rules.Hand, a *events.PlayerActed) bool {
	if a.Action != events.Check || a.Amount != 0 {
		return false
	}
	if h.Stage == rules.StageBetting && h.Round == a.Round {
		return h.RoundDone
	}
	if a.Round == events.RoundFirst || a.Round == events.RoundBlind {
		return false // the blinds' round is entered with its bets standing: not judged here
	}
	if h.InHand() < 2 {
		return true
	}
	active := 0
	for _, p := range h.Players {
		if !p.Folded && !p.AllIn && !p.Mucked {
			active++
		}
	}
	return active < 2
}

// deferReturns moves a bet returned before the draw (everyone else all-in or folded before it)
// to just after the draw, so that bet.returned always comes once the betting is over, as readers
// of the log expect. No bet can come between: once a bet goes uncalled at the end of a round,
// only its owner has chips left to bet.
func deferReturns(steps []*step) []*step {
	last := -1
	for i, s := range steps {
		if s.kind == stepDraw {
			last = i
		}
	}
	var moved []*step
	out := make([]*step, 0, len(steps))
	for i, s := range steps {
		if s.kind == stepReturn && i < last && !slices.ContainsFunc(steps[i:last], func(x *step) bool { return x.kind == stepAct }) {
			moved = append(moved, s)
			continue
		}
		out = append(out, s)
		if i == last {
			out = append(out, moved...)
		}
	}
	return out
}

// inferDeal returns a seat's deal when its final hand is known and it drew no card (it stood
// pat, or never reached the draw); nil otherwise. For a seat that threw all five cards it fills
// in the replacements instead.
func (g *game) inferDeal(s events.Seat) []cards.Card {
	ld := g.seats[s].lastDraw
	f := g.finalOf(s)
	if ld != nil && ld.count == 0 && ld.after != nil {
		f = ld.after
	}
	if f == nil {
		return nil
	}
	if ld != nil && ld.count > 0 {
		if ld.count == 5 && ld.drawn == nil && ld.after == nil {
			ld.drawn = slices.Clone(f) // he threw his whole hand: what he shows is what he drew
		}
		return nil
	}
	return slices.Clone(f)
}

// apply plays one step and emits its events.
func (g *game) apply(s *step, emit func(events.Data), take func(int, events.Seat, []cards.Card) error, held map[cards.Card]events.Seat) error {
	st := g.seats[s.seat]
	bad := func(format string, a ...any) error {
		return atLine(s.line, errf(ErrInconsistent, "seat %d (%s): "+format, append([]any{s.seat, st.p.name}, a...)...))
	}
	put := func() error {
		if s.amount <= 0 {
			return bad("puts in %d chips", s.amount)
		}
		if s.amount > st.stack {
			return bad("puts in %d chips but has %d left", s.amount, st.stack)
		}
		st.stack -= s.amount
		st.in += s.amount
		return nil
	}
	if st.folded && s.kind != stepReturn {
		return bad("acts after folding")
	}
	switch s.kind {
	case stepAnte:
		if err := put(); err != nil {
			return err
		}
		emit(&events.AntePosted{Seat: s.seat, Amount: s.amount})
	case stepBlind:
		if err := put(); err != nil {
			return err
		}
		if s.blind == events.BlindDead {
			st.dead += s.amount
		}
		emit(&events.BlindPosted{Seat: s.seat, Amount: s.amount, Blind: s.blind})
	case stepAct:
		switch s.action {
		case events.Check, events.Fold:
			if s.amount != 0 {
				return bad("%s with %d chips", s.action, s.amount)
			}
			if s.action == events.Fold {
				st.folded = true
				release(held, s.seat)
				for _, c := range st.hold {
					g.used = g.used.Add(c)
				}
			}
		default:
			if err := put(); err != nil {
				return err
			}
		}
		emit(&events.PlayerActed{Seat: s.seat, Round: s.round, Action: s.action, Amount: s.amount})
	case stepDraw:
		if s.count < 0 || s.count > 5 {
			return bad("draws %d cards", s.count)
		}
		if s.count == 0 && s.discarded == nil {
			s.discarded = []cards.Card{}
		}
		hold := st.hold
		if s.kept != nil {
			if len(s.kept) != 5-s.count || hasDuplicate(s.kept) {
				return bad("keeps %s having thrown %d cards", cards.Join(s.kept, " "), s.count)
			}
			if hold != nil {
				if !subset(s.kept, hold) {
					return bad("keeps %s but holds %s", cards.Join(s.kept, " "), cards.Join(hold, " "))
				}
				thrown := minus(hold, s.kept)
				if s.discarded != nil && !sameCards(thrown, s.discarded) {
					return bad("discards %s but keeps %s of %s", cards.Join(s.discarded, " "), cards.Join(s.kept, " "), cards.Join(hold, " "))
				}
				s.discarded = thrown
			}
		}
		if s.discarded == nil && s.kept == nil && hold != nil && s.after != nil && s.count > 0 {
			// His hand before and after the draw tell what he threw (OnGame's "New hand for").
			if thrown := minus(hold, s.after); len(thrown) == s.count {
				s.discarded = thrown
			}
		}
		if s.discarded != nil {
			if len(s.discarded) != s.count || hasDuplicate(s.discarded) {
				return bad("discards %s, announced as %d cards", cards.Join(s.discarded, " "), s.count)
			}
			if hold != nil && !subset(s.discarded, hold) {
				return bad("discards %s but holds %s", cards.Join(s.discarded, " "), cards.Join(hold, " "))
			}
		}
		kept := s.kept
		if kept == nil && hold != nil && s.discarded != nil {
			kept = minus(hold, s.discarded)
		}
		if s.drawn == nil && s.after != nil {
			switch {
			case s.count == 0:
				if hold != nil && !sameCards(s.after, hold) {
					return bad("stands pat on %s but holds %s", cards.Join(s.after, " "), cards.Join(hold, " "))
				}
			case kept != nil && subset(kept, s.after):
				s.drawn = minus(s.after, kept)
			case s.count == 5:
				s.drawn = slices.Clone(s.after)
			}
		}
		if s.drawn == nil && kept != nil && st.lastDraw == s {
			// His final hand, if shown, tells what he drew.
			if f := g.finalOf(s.seat); f != nil && subset(kept, f) {
				s.drawn = minus(f, kept)
			}
		}
		if s.count == 0 {
			s.drawn = []cards.Card{}
		}
		if s.drawn != nil && (len(s.drawn) != s.count || hasDuplicate(s.drawn)) {
			return bad("is given %s for %d cards thrown", cards.Join(s.drawn, " "), s.count)
		}
		for _, c := range s.discarded {
			g.used = g.used.Add(c)
		}
		for _, c := range s.drawn {
			// A card already thrown or folded, or held by a player who draws later, can only come
			// from a reshuffle of used cards when the stub ran out; the source does not say which
			// cards it gathered (pokerkit gathers the burn, the folded hands and every discard, the
			// later players' too, before it deals), so the hand cannot be written as it was played
			// (docs/cli.md, import) and is left out rather than dealing a card twice.
			if o, ok := held[c]; g.used.Has(c) || ok && o != s.seat {
				return atLine(s.line, errf(ErrUnsupported, "seat %d (%s) is given %s in the draw, a card already used in this hand: the source reshuffled used cards when the stub ran out, which fechado cannot place", s.seat, st.p.name, c))
			}
		}
		release(held, s.seat)
		st.hold = nil
		switch {
		case kept != nil && s.drawn != nil:
			st.hold = append(slices.Clone(kept), s.drawn...)
			if err := take(s.line, s.seat, st.hold); err != nil {
				return err
			}
		case s.drawn != nil:
			if err := take(s.line, s.seat, s.drawn); err != nil {
				return err
			}
		}
		cd := &events.CardsDiscarded{Seat: s.seat, Cards: []cards.Card{}}
		switch {
		case s.discarded != nil:
			cd.Cards = s.discarded
		case s.count > 0:
			n := s.count
			cd.Declared = &n // unknown cards: see the package comment
		}
		emit(cd)
		for k := range s.count {
			dd := &events.CardDealt{Seat: s.seat, Phase: events.PhaseDraw, Unknown: true}
			if s.drawn != nil {
				dd.Card, dd.Unknown = s.drawn[k], false
			}
			emit(dd)
		}
	case stepReturn:
		if s.amount <= 0 || s.amount > st.in {
			return bad("gets %d chips back, having put in %d", s.amount, st.in)
		}
		st.in -= s.amount
		st.stack += s.amount
		emit(&events.BetReturned{Seat: s.seat, Amount: s.amount})
	case stepShow:
		if len(s.shown) != 5 || hasDuplicate(s.shown) {
			return bad("shows %s: want five different cards", cards.Join(s.shown, " "))
		}
		if st.hold != nil {
			if !sameCards(st.hold, s.shown) {
				return bad("shows %s but holds %s", cards.Join(s.shown, " "), cards.Join(st.hold, " "))
			}
		} else {
			if err := take(s.line, s.seat, s.shown); err != nil {
				return err
			}
			st.hold = slices.Clone(s.shown)
		}
		emit(&events.HandShown{Seat: s.seat, Cards: s.shown})
	case stepMuck:
		st.mucked = true
		emit(&events.HandMucked{Seat: s.seat})
	}
	return nil
}

// finalOf returns a seat's final hand when the history shows it.
func (g *game) finalOf(s events.Seat) []cards.Card {
	if f := g.d.final[s]; f != nil {
		return f
	}
	for _, st := range g.d.steps {
		if st.kind == stepShow && st.seat == s {
			return st.shown
		}
	}
	return nil
}

// release forgets the known cards of seat s (folded, or thrown into the muck).
func release(held map[cards.Card]events.Seat, s events.Seat) {
	for c, o := range held {
		if o == s {
			delete(held, c)
		}
	}
}

func hasDuplicate(cs []cards.Card) bool {
	var set cards.Set
	for _, c := range cs {
		if !c.Valid() || set.Has(c) {
			return true
		}
		set = set.Add(c)
	}
	return false
}

func subset(a, b []cards.Card) bool {
	bs := cards.SetOf(b...)
	for _, c := range a {
		if !bs.Has(c) {
			return false
		}
	}
	return true
}

func sameCards(a, b []cards.Card) bool {
	return len(a) == len(b) && cards.SetOf(a...) == cards.SetOf(b...)
}

// minus returns the cards of a not in b, in a's order.
func minus(a, b []cards.Card) []cards.Card {
	bs := cards.SetOf(b...)
	out := []cards.Card{}
	for _, c := range a {
		if !bs.Has(c) {
			out = append(out, c)
		}
	}
	return out
}
