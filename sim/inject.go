package sim

import (
	"slices"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// An irregularity is injected in one of three ways, whichever leaves it the only error of the
// hand:
//   - pre: the table starts the hand wrongly (table.* codes): the hand is then played out
//     consistently from that start;
//   - behave: a player or the dealer does the wrong thing during the hand, and the hand goes on
//     from what the log records (so later events stay consistent with it);
//   - post: the events of a clean hand are altered afterwards, then renumbered and re-sealed.
//
// Every injected hand is audited on its own before it is written; if the auditor does not report
// the code, or reports another error as well, the hand is played again clean and the code waits
// for the next hand.
type injector struct {
	pre    func(s *Sim, dealt []*seat) (preplay, bool)
	behave bool
	post   func(s *Sim, g *game, code finding.Code) bool
}

// preplay is how the table starts a hand wrongly.
type preplay struct {
	dealer    events.Seat
	carry     events.Chips
	passedOut int
	stack     map[events.Seat]events.Chips
	rebuy     map[events.Seat]events.Chips
	exclude   events.Seat
}

// NotInjectable lists the codes the simulator cannot inject alone, with the reason.
var NotInjectable = map[finding.Code]string{
	finding.OpenFalseOpenerPaid: "paying a false opener presupposes the false open, which the auditor reports as open.without-openers in the same hand",
}

var injectors = map[finding.Code]injector{
	// Log integrity.
	finding.LogSchema:      {post: injectSchema},
	finding.LogSequence:    {post: injectEnvelope},
	finding.LogDuplicateID: {post: injectEnvelope},
	finding.LogChain:       {post: injectEnvelope},
	finding.LogIncomplete:  {post: injectEnvelope},
	// Deck, shuffle and cut.
	finding.DeckForeignCard:   {post: injectBurn},
	finding.DeckDuplicateCard: {post: injectBurn},
	finding.DeckCommitment:    {post: injectReveal},
	finding.DeckUnrevealed:    {post: injectReveal},
	finding.DeckCutExposed:    {post: injectExposed},
	finding.DeckShuffles:      {post: injectReveal},
	finding.DealMismatch:      {post: injectMismatch},
	finding.DealOrder:         {behave: true},
	finding.DealCount:         {behave: true},
	// Exposed cards and misdeals.
	finding.CardExposed:       {post: injectExposed},
	finding.CardExposedRemedy: {post: injectExposed},
	finding.MisdealSettlement: {behave: true},
	// Opening and betting.
	finding.AnteAmount:         {post: injectForced},
	finding.BlindAmount:        {post: injectForced},
	finding.OpenWithoutOpeners: {behave: true},
	finding.OpenNotShown:       {behave: true},
	finding.OpenBelowMinimum:   {behave: true},
	finding.OpenNotAllowed:     {behave: true},
	finding.BetOutOfTurn:       {post: injectBetting},
	finding.BetIllegalAction:   {post: injectBetting},
	finding.BetAmount:          {post: injectBetting},
	finding.BetReopen:          {post: injectBetting},
	finding.BetRoundIncomplete: {post: injectBetting},
	finding.BetReturned:        {behave: true},
	// Drawing.
	finding.DrawTooMany:      {behave: true},
	finding.DrawOrder:        {behave: true},
	finding.DrawNotHeld:      {behave: true},
	finding.DrawReplacements: {behave: true},
	finding.DrawDeclared:     {post: injectDeclared},
	finding.DrawProcedure:    {behave: true},
	// Showdown and pots.
	finding.ShowdownCards: {post: injectPots},
	finding.PotWinner:     {post: injectPots},
	finding.PotSplit:      {post: injectPots},
	finding.PotSide:       {post: injectPots},
	finding.PotTotal:      {post: injectPots},
	finding.PotUnawarded:  {post: injectPots},
	finding.StackFinal:    {post: injectPots},
	// Table continuity.
	finding.TableStack:     {pre: preTable(finding.TableStack)},
	finding.TableRebuy:     {pre: preTable(finding.TableRebuy)},
	finding.TableDealer:    {pre: preTable(finding.TableDealer)},
	finding.TableCarry:     {pre: preTable(finding.TableCarry)},
	finding.TablePassedOut: {pre: preTable(finding.TablePassedOut)},
	finding.TableSeating:   {pre: preTable(finding.TableSeating)},
}

// Injectable lists the codes the simulator can inject, in the order of findings-v1.md. Some fit
// only some presets (deck.shuffles: br-fechado; blind.amount: online-draw; table.rebuy:
// br-online; draw.declared: tr-kapali; deck.foreign-card: decks without the deuces).
func Injectable() []finding.Code {
	var out []finding.Code
	for _, c := range finding.Catalogue {
		if _, ok := injectors[c.Code]; ok {
			out = append(out, c.Code)
		}
	}
	return out
}

// Can reports whether code can be injected.
func Can(code finding.Code) bool {
	_, ok := injectors[code]
	return ok
}

// InjectableFor lists the codes the simulator can inject at a table of the preset.
func InjectableFor(preset string) []finding.Code {
	p, err := rules.Lookup(preset)
	if err != nil {
		return nil
	}
	var out []finding.Code
	for _, c := range Injectable() {
		if fits(p, DefaultStakes(preset), c) {
			out = append(out, c)
		}
	}
	return out
}

// fits reports whether the preset, at these stakes, has the rule that code breaks.
func fits(p rules.Preset, st events.Stakes, code finding.Code) bool {
	switch code {
	case finding.DeckShuffles:
		return p.MinShuffles >= 2
	case finding.BlindAmount:
		return p.Blinds
	case finding.TableRebuy:
		return !p.Rebuys
	case finding.DrawDeclared:
		return p.Declared == rules.DeclaredRaiseOnly
	case finding.DeckForeignCard:
		for n := p.MinPlayers; n <= p.MaxPlayers; n++ {
			if low, ok := p.Low(n); ok && low > cards.Two {
				return true
			}
		}
		return false
	case finding.DeckCutExposed:
		return p.ExposedCut == rules.RemedyReshuffle
	case finding.CardExposedRemedy, finding.MisdealSettlement:
		return p.ExposedDeal == rules.RemedyKeep
	case finding.AnteAmount:
		return p.Ante && st.Ante > 0
	case finding.OpenWithoutOpeners, finding.OpenNotShown:
		return p.Openers != rules.OpenFree && p.MustShowOpeners
	case finding.OpenNotAllowed:
		return p.BrokeCannotOpen && p.BrokeDealtIn
	case finding.OpenBelowMinimum:
		return p.Openers != rules.OpenFree || p.BlindRound
	case finding.DrawTooMany:
		return p.MaxDraw < 5
	case finding.DrawProcedure:
		return p.DrawSource == rules.DrawReshuffle || p.BurnBeforeFourth || p.DelayedFifth
	case finding.BetOutOfTurn, finding.BetRoundIncomplete:
		return p.CheckBeforeOpen
	case finding.TablePassedOut:
		return true
	}
	return Can(code)
}

// verify audits the hand alone and returns the seq at which the auditor reports code; ok is
// false when it does not, or when it reports another error too.
func verify(evs []*events.Event, code finding.Code) (events.Seq, bool) {
	var seq events.Seq
	found, other := false, false
	a := audit.New(func(f finding.Finding) {
		switch {
		case f.Code == code && !found:
			found, seq = true, f.Seq
		case f.Severity == finding.Error && f.Code != code:
			other = true
		}
	})
	a.Alone = true
	for _, e := range evs {
		a.Add(e)
	}
	a.Close()
	if code.Severity() == "" || isTable(code) {
		// Table codes show at hand.started, most only against the previous hand: the hand
		// alone must have no other error.
		return 1, !other && (!found || seq == 1)
	}
	return seq, found && !other
}

func isTable(c finding.Code) bool {
	switch c {
	case finding.TableStack, finding.TableRebuy, finding.TableDealer, finding.TableCarry, finding.TablePassedOut, finding.TableSeating:
		return true
	}
	return false
}

// preTable starts the hand wrongly for a table.* code.
func preTable(code finding.Code) func(s *Sim, dealt []*seat) (preplay, bool) {
	return func(s *Sim, dealt []*seat) (preplay, bool) {
		pre := preplay{stack: map[events.Seat]events.Chips{}, rebuy: map[events.Seat]events.Chips{}}
		if s.lastSeats == nil {
			return pre, false // the first hand has no previous hand to differ from
		}
		var rich []*seat
		for _, p := range dealt {
			if p.stack > 0 && slices.Contains(s.lastSeats, p.seat) {
				rich = append(rich, p) // with chips, and in the previous hand
			}
		}
		if len(rich) == 0 {
			return pre, false
		}
		pick := rich[s.injRng.IntN(len(rich))]
		switch code {
		case finding.TableStack:
			pre.stack[pick.seat] = 1 + events.Chips(s.injRng.IntN(5))
		case finding.TableRebuy:
			if s.preset.Rebuys {
				return pre, false
			}
			pre.rebuy[pick.seat] = 100
		case finding.TableDealer:
			var seats []events.Seat
			for _, p := range dealt {
				seats = append(seats, p.seat)
			}
			right := s.nextDealer(seats)
			if s.preset.Blinds {
				// The button of a blind game follows the big blind (rules.NextBlinds), even
				// onto a seat nobody is dealt in at: the seat after it moves the big blind.
				right, _, _ = s.blinds(seats, right)
			}
			pre.dealer = rules.NextSeat(seats, right)
			if s.preset.Starter {
				// br-online: the dealer names the seat before the starter; any other seat
				// dealt in moves the starter wrongly.
				pre.dealer = rules.NextSeat(seats, right)
			}
		case finding.TableCarry:
			pre.carry = 5 + events.Chips(s.injRng.IntN(10))
		case finding.TablePassedOut:
			pre.passedOut = 1
		case finding.TableSeating:
			if _, ok := s.preset.Low(len(dealt) - 1); !ok || len(rich) < 3 {
				return pre, false
			}
			pre.exclude = pick.seat
		}
		return pre, true
	}
}

// --- post-processing -------------------------------------------------------------------

// mutation edits the events of a hand, then renumbers and re-seals them.
type mutation struct {
	s   *Sim
	evs []*events.Event
}

func (m *mutation) insert(i int, d events.Data) *events.Event {
	at := m.evs[max(0, i-1)].At
	e := &events.Event{ID: uuid7(m.s.injRng, m.s.clock, m.s.idSalt), Table: m.evs[0].Table, Hand: m.evs[0].Hand, At: at, Type: d.EventType(), Data: d}
	m.evs = slices.Insert(m.evs, i, e)
	return e
}

func (m *mutation) remove(i int) { m.evs = slices.Delete(m.evs, i, i+1) }

// seal renumbers the events from 1, points each deck.revealed at its shuffle's new seq and
// re-seals the chain.
func (m *mutation) seal() []*events.Event {
	renum := map[events.Seq]events.Seq{}
	for i, e := range m.evs {
		if e.Seq != 0 {
			renum[e.Seq] = events.Seq(i + 1)
		}
	}
	prev := ""
	for i, e := range m.evs {
		e.Seq = events.Seq(i + 1)
		if d, ok := e.Data.(*events.DeckRevealed); ok {
			if n, ok := renum[d.Shuffle]; ok {
				c := *d
				c.Shuffle = n
				e.Data = &c
			}
		}
		events.Seal(e, prev)
		prev = events.Hash(e.Raw)
	}
	return m.evs
}

func (m *mutation) find(fn func(e *events.Event) bool) int {
	for i, e := range m.evs {
		if fn(e) {
			return i
		}
	}
	return -1
}

func (m *mutation) findLast(fn func(e *events.Event) bool) int {
	for i := len(m.evs) - 1; i >= 0; i-- {
		if fn(m.evs[i]) {
			return i
		}
	}
	return -1
}

func isType(t events.Type) func(*events.Event) bool {
	return func(e *events.Event) bool { return e.Type == t }
}

func isDeal(e *events.Event) bool {
	d, ok := e.Data.(*events.CardDealt)
	return ok && d.Phase == events.PhaseDeal
}

func (g *game) mutation() *mutation { return &mutation{s: g.s, evs: g.evs} }

func (g *game) done(m *mutation) bool {
	g.evs = m.seal()
	return true
}

// injectSchema adds an event for a seat not dealt in.
func injectSchema(s *Sim, g *game, _ finding.Code) bool {
	m := g.mutation()
	var seat events.Seat
	for x := events.MaxSeat; x >= 1; x-- {
		if g.h.Player(x) == nil {
			seat = x
			break
		}
	}
	i := m.find(isType(events.DeckRevealedType))
	if seat == 0 || i < 0 {
		return false
	}
	m.insert(i, &events.HandMucked{Seat: seat})
	return g.done(m)
}

// injectEnvelope breaks the envelope of the last event (or drops it).
func injectEnvelope(s *Sim, g *game, code finding.Code) bool {
	m := g.mutation()
	if code == finding.LogIncomplete {
		m.remove(len(m.evs) - 1)
		return g.done(m)
	}
	evs := m.seal()
	last := evs[len(evs)-1]
	switch code {
	case finding.LogSequence:
		last.Seq++
	case finding.LogDuplicateID:
		last.ID = evs[len(evs)-2].ID
	case finding.LogChain:
		events.Seal(last, events.Hash([]byte("not the previous line")))
		g.evs = evs
		return true
	}
	events.Seal(last, last.Prev)
	g.evs = evs
	return true
}

// injectBurn burns, right after the deal, a card that is not in the deck or that a player holds.
func injectBurn(s *Sim, g *game, code finding.Code) bool {
	m := g.mutation()
	i := m.findLast(isDeal)
	if i < 0 {
		return false
	}
	var c cards.Card
	switch code {
	case finding.DeckForeignCard:
		if g.h.Low == cards.Two {
			return false // a 52-card deck has no foreign card
		}
		c = cards.New(g.h.Low-1, cards.Suit(s.injRng.IntN(4)))
	default:
		// A card of a player who never folds: it is in his hand when burned.
		var held []cards.Card
		for _, e := range m.evs[:i+1] {
			if d, ok := e.Data.(*events.CardDealt); ok && d.Phase == events.PhaseDeal && !g.h.Player(d.Seat).Folded {
				held = append(held, d.Card)
			}
		}
		if len(held) == 0 {
			return false
		}
		c = held[s.injRng.IntN(len(held))]
	}
	m.insert(i+1, &events.CardBurned{Card: c})
	return g.done(m)
}

// injectReveal breaks the reveal of the first shuffle: a wrong seed, none, or a physical shuffle
// with too few riffles (br-fechado).
func injectReveal(s *Sim, g *game, code finding.Code) bool {
	m := g.mutation()
	i := m.find(func(e *events.Event) bool {
		d, ok := e.Data.(*events.DeckRevealed)
		return ok && d.Shuffle == 2
	})
	if i < 0 {
		return false
	}
	switch code {
	case finding.DeckCommitment:
		d := *m.evs[i].Data.(*events.DeckRevealed)
		d.Seed[0] ^= 0xff
		m.evs[i].Data = &d
	case finding.DeckUnrevealed:
		m.remove(i)
	case finding.DeckShuffles:
		if g.h.Preset.MinShuffles < 2 {
			return false
		}
		one := 1
		m.evs[1].Data = &events.DeckShuffled{Method: cards.PhysicalMethod, Count: &one}
		m.remove(i)
	}
	return g.done(m)
}

// injectExposed shows a card: in the cut without a reshuffle (deck.cut-exposed), the last card
// of the deal (card.exposed), or the first card of the deal with no misdeal (card.exposed-remedy).
func injectExposed(s *Sim, g *game, code finding.Code) bool {
	m := g.mutation()
	pr := g.h.Preset
	switch code {
	case finding.DeckCutExposed:
		i := m.find(isType(events.DeckCutType))
		if i < 0 || pr.ExposedCut != rules.RemedyReshuffle {
			return false
		}
		j := m.find(isDeal)
		c := m.evs[j].Data.(*events.CardDealt).Card
		m.insert(i+1, &events.CardExposed{Card: c, Phase: events.PhaseCut, Cause: events.CauseDealer})
	case finding.CardExposed:
		i := m.findLast(isDeal)
		d := m.evs[i].Data.(*events.CardDealt)
		seat := d.Seat
		m.insert(i+1, &events.CardExposed{Card: d.Card, Phase: events.PhaseDeal, Seat: &seat, Cause: events.CauseDealer})
	case finding.CardExposedRemedy:
		if pr.ExposedDeal != rules.RemedyKeep {
			return false
		}
		i := m.find(isDeal)
		d := m.evs[i].Data.(*events.CardDealt)
		seat := d.Seat
		m.insert(i+1, &events.CardExposed{Card: d.Card, Phase: events.PhaseDeal, Seat: &seat, Cause: events.CauseDealer})
	}
	return g.done(m)
}

// injectMismatch swaps two cards of the deal that go to the same player: he holds the same
// hand, but the first comes out of the order the seed and the cut give.
func injectMismatch(s *Sim, g *game, _ finding.Code) bool {
	m := g.mutation()
	i := m.find(isDeal)
	n := len(g.h.Players)
	if i < 0 || i+n >= len(m.evs) || !isDeal(m.evs[i+n]) {
		return false
	}
	a, b := *m.evs[i].Data.(*events.CardDealt), *m.evs[i+n].Data.(*events.CardDealt)
	a.Card, b.Card = b.Card, a.Card
	m.evs[i].Data, m.evs[i+n].Data = &a, &b
	return g.done(m)
}

// injectForced posts a second ante of nothing (ante.amount) or a big blind of nothing by the
// small blind before the big blind's (blind.amount).
func injectForced(s *Sim, g *game, code finding.Code) bool {
	m := g.mutation()
	switch code {
	case finding.AnteAmount:
		i := m.find(isType(events.AntePostedType))
		if i < 0 {
			return false
		}
		seat := m.evs[i].Data.(*events.AntePosted).Seat
		m.insert(i+1, &events.AntePosted{Seat: seat, Amount: 0})
	case finding.BlindAmount:
		// The first big blind (of nothing) posted by the small blind's seat.
		i := m.find(isType(events.BlindPostedType))
		if i < 0 {
			return false
		}
		sb := m.evs[i].Data.(*events.BlindPosted).Seat
		m.insert(i+1, &events.BlindPosted{Seat: sb, Amount: 0, Blind: events.BlindBig})
	}
	return g.done(m)
}

func acted(e *events.Event) *events.PlayerActed {
	d, _ := e.Data.(*events.PlayerActed)
	return d
}

// injectBetting alters the betting without moving a chip.
func injectBetting(s *Sim, g *game, code finding.Code) bool {
	m := g.mutation()
	switch code {
	case finding.BetOutOfTurn:
		// The last two checks of a round, by different players, in the wrong order.
		for i := len(m.evs) - 2; i >= 0; i-- {
			a, b := acted(m.evs[i]), acted(m.evs[i+1])
			if a == nil || b == nil || a.Round != b.Round || a.Action != events.Check || b.Action != events.Check || a.Seat == b.Seat {
				continue
			}
			if n := acted(at(m.evs, i+2)); n != nil && n.Round == a.Round {
				continue // not the end of the round
			}
			m.evs[i], m.evs[i+1] = m.evs[i+1], m.evs[i]
			return g.done(m)
		}
		return false
	case finding.BetIllegalAction:
		// A folded player folds again.
		i := m.find(func(e *events.Event) bool { d := acted(e); return d != nil && d.Action == events.Fold })
		if i < 0 {
			return false
		}
		d := *acted(m.evs[i])
		m.insert(i+1, &d)
	case finding.BetAmount:
		// A fold that puts in a chip.
		i := m.find(func(e *events.Event) bool { d := acted(e); return d != nil && d.Action == events.Fold })
		if i < 0 {
			return false
		}
		d := *acted(m.evs[i])
		d.Amount = 1
		m.evs[i].Data = &d
	case finding.BetReopen:
		// A bet of nothing after round first is complete, by a player still in with chips.
		i := m.findLast(func(e *events.Event) bool { d := acted(e); return d != nil && d.Round == events.RoundFirst })
		if i < 0 {
			return false
		}
		var seat events.Seat
		for _, p := range g.h.Players {
			if !p.Folded && !p.AllIn && !p.Mucked {
				seat = p.Seat
				break
			}
		}
		if seat == 0 {
			return false
		}
		m.insert(i+1, &events.PlayerActed{Seat: seat, Round: events.RoundFirst, Action: events.Raise, Amount: 0})
	case finding.BetRoundIncomplete:
		// The last check of a round left out.
		i := m.findLast(func(e *events.Event) bool { return acted(e) != nil })
		for ; i >= 1; i-- {
			a, prev := acted(m.evs[i]), acted(m.evs[i-1])
			if a == nil || a.Action != events.Check || prev == nil || prev.Round != a.Round {
				continue
			}
			if n := acted(at(m.evs, i+1)); n != nil && n.Round == a.Round {
				continue
			}
			m.remove(i)
			return g.done(m)
		}
		return false
	}
	return g.done(m)
}

func at(evs []*events.Event, i int) *events.Event {
	if i < 0 || i >= len(evs) {
		return &events.Event{}
	}
	return evs[i]
}

// injectDeclared declares one card more than the player draws (tr-kapali: never lowered).
func injectDeclared(s *Sim, g *game, _ finding.Code) bool {
	if g.h.Preset.Declared != rules.DeclaredRaiseOnly {
		return false
	}
	m := g.mutation()
	i := m.find(isType(events.CardsDiscardedType))
	if i < 0 {
		return false
	}
	d := *m.evs[i].Data.(*events.CardsDiscarded)
	n := len(d.Cards) + 1
	d.Declared = &n
	m.evs[i].Data = &d
	return g.done(m)
}

// injectPots alters the showdown or the awards, and the final stacks to match the events.
func injectPots(s *Sim, g *game, code finding.Code) bool {
	m := g.mutation()
	endI := len(m.evs) - 1
	end := *m.evs[endI].Data.(*events.HandEnded)
	end.Stacks = slices.Clone(end.Stacks)
	adjust := func(seat events.Seat, by events.Chips) {
		for i := range end.Stacks {
			if end.Stacks[i].Seat == seat {
				end.Stacks[i].Stack += by
			}
		}
	}
	awards := func() []int {
		var out []int
		for i, e := range m.evs {
			if e.Type == events.PotAwardedType {
				out = append(out, i)
			}
		}
		return out
	}()
	award := func(i int) events.PotAwarded { return *m.evs[i].Data.(*events.PotAwarded) }
	pots, _ := g.h.ExpectedAwards()
	switch code {
	case finding.ShowdownCards:
		i := m.find(isType(events.HandShownType))
		if i < 0 {
			return false
		}
		d := *m.evs[i].Data.(*events.HandShown)
		d.Cards = slices.Clone(d.Cards)
		stub := g.h.StubSet()
		if stub.Len() == 0 {
			return false
		}
		d.Cards[0] = stub.Cards()[0]
		m.evs[i].Data = &d
	case finding.PotWinner:
		// Pot 0, when it has one winner and another eligible player who showed, goes to him.
		if len(pots) != 1 || len(pots[0].Winners) != 1 || len(awards) != 1 {
			return false
		}
		var other events.Seat
		for _, s := range pots[0].Eligible {
			if s != pots[0].Winners[0] {
				other = s
			}
		}
		if other == 0 {
			return false
		}
		a := award(awards[0])
		adjust(a.Seat, -a.Amount)
		adjust(other, a.Amount)
		a.Seat = other
		m.evs[awards[0]].Data = &a
	case finding.PotSplit:
		// A chip moved between two tied winners.
		for _, i := range awards {
			a := award(i)
			for _, pot := range pots {
				if pot.Index != a.Pot || len(pot.Winners) < 2 {
					continue
				}
				for _, j := range awards {
					b := award(j)
					if j != i && b.Pot == a.Pot && b.Amount > 1 {
						a.Amount++
						b.Amount--
						adjust(a.Seat, 1)
						adjust(b.Seat, -1)
						m.evs[i].Data, m.evs[j].Data = &a, &b
						return g.done(m.withEnd(endI, end))
					}
				}
			}
		}
		return false
	case finding.PotSide:
		// An award from a pot the hand does not have.
		if len(awards) == 0 {
			return false
		}
		a := award(awards[len(awards)-1])
		a.Pot = len(pots)
		m.evs[awards[len(awards)-1]].Data = &a
	case finding.PotTotal:
		if len(pots) != 1 || len(pots[0].Winners) != 1 || len(awards) != 1 {
			return false
		}
		a := award(awards[0])
		a.Amount++
		adjust(a.Seat, 1)
		m.evs[awards[0]].Data = &a
	case finding.PotUnawarded:
		if len(awards) != 1 {
			return false
		}
		a := award(awards[0])
		adjust(a.Seat, -a.Amount)
		m.remove(awards[0])
		endI--
	case finding.StackFinal:
		adjust(end.Stacks[s.injRng.IntN(len(end.Stacks))].Seat, 1)
	}
	return g.done(m.withEnd(endI, end))
}

func (m *mutation) withEnd(i int, end events.HandEnded) *mutation {
	m.evs[i].Data = &end
	return m
}
