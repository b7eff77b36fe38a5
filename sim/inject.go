package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// An irregularity is injected as a mutation of the finished clean hand's events (Mutate): a pure
// pass keyed by the finding code, which alters, inserts, drops or re-deals events, seats the
// players elsewhere, or cuts the deck at another place (the later events naming the cards each
// player then holds), then renumbers and re-seals the chain. The players and the dealer always
// play clean.
//
// Every injected hand is audited before it is written, against what the table's last hand as
// written left (verify); if the auditor does not report the code, or reports another error as
// well, the hand is played again clean and the code waits for the next hand.
type mutator func(m *mutation, code finding.Code) bool

// NotInjectable lists the codes the simulator cannot inject alone, with the reason.
var NotInjectable = map[finding.Code]string{
	finding.OpenFalseOpenerPaid: "paying a false opener presupposes the false open, which the auditor reports as open.without-openers in the same hand",
}

// mutations are the mutations of clean hands, one for each code the simulator injects.
var mutations = map[finding.Code]mutator{
	// Log integrity.
	finding.LogSchema:      injectSchema,
	finding.LogSequence:    injectEnvelope,
	finding.LogDuplicateID: injectEnvelope,
	finding.LogChain:       injectEnvelope,
	finding.LogIncomplete:  injectEnvelope,
	// Deck, shuffle and cut.
	finding.DeckForeignCard:   injectBurn,
	finding.DeckDuplicateCard: injectBurn,
	finding.DeckCommitment:    injectReveal,
	finding.DeckUnrevealed:    injectReveal,
	finding.DeckCutExposed:    injectExposed,
	finding.DeckShuffles:      injectReveal,
	finding.DealMismatch:      injectMismatch,
	finding.DealOrder:         injectDeal,
	finding.DealCount:         injectDeal,
	// Exposed cards and misdeals.
	finding.CardExposed:       injectExposed,
	finding.CardExposedRemedy: injectExposed,
	finding.MisdealSettlement: injectMisdeal,
	// Opening and betting.
	finding.AnteAmount:         injectForced,
	finding.BlindAmount:        injectForced,
	finding.OpenWithoutOpeners: injectFalseOpen,
	finding.OpenNotShown:       injectOpen,
	finding.OpenBelowMinimum:   injectOpen,
	finding.OpenNotAllowed:     injectBrokeOpen,
	finding.BetOutOfTurn:       injectBetting,
	finding.BetIllegalAction:   injectBetting,
	finding.BetAmount:          injectBetting,
	finding.BetReopen:          injectBetting,
	finding.BetRoundIncomplete: injectBetting,
	finding.BetReturned:        injectReturned,
	// Drawing.
	finding.DrawTooMany:      injectDraw,
	finding.DrawOrder:        injectDraw,
	finding.DrawNotHeld:      injectDraw,
	finding.DrawReplacements: injectDraw,
	finding.DrawDeclared:     injectDeclared,
	finding.DrawProcedure:    injectDraw,
	// Showdown and pots.
	finding.ShowdownCards: injectPots,
	finding.PotWinner:     injectPots,
	finding.PotSplit:      injectPots,
	finding.PotSide:       injectPots,
	finding.PotTotal:      injectPots,
	finding.PotUnawarded:  injectPots,
	finding.StackFinal:    injectPots,
	// Table continuity.
	finding.TableStack:     injectStart,
	finding.TableRebuy:     injectStart,
	finding.TableDealer:    injectDealer,
	finding.TableCarry:     injectStart,
	finding.TablePassedOut: injectStart,
	finding.TableSeating:   injectLeftOut,
}

// Injectable lists the codes the simulator can inject, in the order of findings-v1.md. Some fit
// only some presets (deck.shuffles: br-fechado; blind.amount: online-draw; table.rebuy:
// br-online; draw.declared: tr-kapali; deck.foreign-card: decks without the deuces).
func Injectable() []finding.Code {
	var out []finding.Code
	for _, c := range finding.Catalogue {
		if _, ok := mutations[c.Code]; ok {
			out = append(out, c.Code)
		}
	}
	return out
}

// Can reports whether code can be injected.
func Can(code finding.Code) bool {
	_, ok := mutations[code]
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

// verify audits the hand as the auditor of the whole log does, against what the table's last
// hand as written left (prev; nil before the first hand), and returns the seq at which the
// auditor reports code and what the hand leaves the next one; ok is false when the auditor does
// not report code, or reports another error too. The table codes are judged only against the
// hand before: a table.seating for a player left out is one only if he was in that hand.
func verify(evs []*events.Event, code finding.Code, prev *audit.TableMemory) (events.Seq, *audit.TableMemory, bool) {
	var seq events.Seq
	found, other := false, false
	fs, mem := audit.HandAfter(evs, prev)
	for _, f := range fs {
		switch {
		case f.Code == code && !found:
			found, seq = true, f.Seq
		case f.Severity == finding.Error && f.Code != code:
			other = true
		}
	}
	return seq, mem, found && !other
}

// timeLayout is the layout of events' times (Sim.tick).
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// --- mutations of clean hands ------------------------------------------------------------

// Mutate returns the events of a finished clean hand altered so that the auditor reports code
// on it: a pure pass over the events (hand is not changed; rng draws the choices and the ids of
// any inserted event, salt is the table's id salt), renumbered and re-sealed. ok is false when
// the hand has nothing the mutation needs (the caller then tries another hand).
func Mutate(code finding.Code, hand []*events.Event, rng *rand.Rand, salt uint64) ([]*events.Event, bool) {
	mutate, ok := mutations[code]
	if !ok || len(hand) < 2 {
		return nil, false
	}
	h, ok := replay(hand, len(hand))
	if !ok {
		return nil, false
	}
	m := &mutation{h: h, rng: rng, salt: salt}
	for _, e := range hand {
		c := *e
		m.evs = append(m.evs, &c)
	}
	if !mutate(m, code) {
		return nil, false
	}
	if !m.sealed {
		m.seal()
	}
	return m.evs, true
}

// replay follows the first n events of a hand with the rules engine, the seeds revealed
// anywhere in the hand known from the start (as the auditor knows them).
func replay(evs []*events.Event, n int) (*rules.Hand, bool) {
	h, err := rules.NewHand(evs[0])
	if err != nil {
		return nil, false
	}
	h.Seeds = map[events.Seq]cards.Seed{}
	for _, e := range evs {
		if d, ok := e.Data.(*events.DeckRevealed); ok {
			h.Seeds[d.Shuffle] = d.Seed
		}
	}
	for _, e := range evs[1:n] {
		h.Apply(e)
	}
	return h, true
}

// mutation edits copies of the events of a hand; Mutate then renumbers and re-seals them.
type mutation struct {
	h      *rules.Hand // the clean hand, followed to its end
	evs    []*events.Event
	rng    *rand.Rand
	salt   uint64
	sealed bool // the mutation broke the envelope after sealing: leave it as it is
}

// stubAt returns the stub, top first, before event i of the events as they are now.
func (m *mutation) stubAt(i int) []cards.Card {
	h, ok := replay(m.evs, i)
	if !ok {
		return nil
	}
	return h.Stub()
}

func (m *mutation) insert(i int, d events.Data) *events.Event {
	at := m.evs[max(0, i-1)].At
	t, _ := time.Parse(timeLayout, at)
	e := &events.Event{ID: uuid7(m.rng, t, m.salt), Table: m.evs[0].Table, Hand: m.evs[0].Hand, At: at, Type: d.EventType(), Data: d}
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
	m.sealed = true
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

func isDrawCard(e *events.Event) bool {
	d, ok := e.Data.(*events.CardDealt)
	return ok && d.Phase == events.PhaseDraw
}

// relabel makes the events from index i on name the cards of seat as swap maps them: what
// the seat shows, discards or shows as openers follows the cards it now holds.
func (m *mutation) relabel(i int, seat events.Seat, swap map[cards.Card]cards.Card) {
	sub := func(cs []cards.Card) []cards.Card {
		out := slices.Clone(cs)
		for k, c := range out {
			if n, ok := swap[c]; ok {
				out[k] = n
			}
		}
		return out
	}
	for _, e := range m.evs[i:] {
		switch d := e.Data.(type) {
		case *events.CardsDiscarded:
			if d.Seat == seat {
				c := *d
				c.Cards = sub(d.Cards)
				e.Data = &c
			}
		case *events.HandShown:
			if d.Seat == seat {
				c := *d
				c.Cards = sub(d.Cards)
				e.Data = &c
			}
		case *events.OpenersShown:
			if d.Seat == seat {
				c := *d
				c.Cards = sub(d.Cards)
				e.Data = &c
			}
		}
	}
}

// redeal gives the cards of stream, in order, to the burns and the draw's cards from index i
// on, and makes each seat's later hand.shown name the cards it now holds. It fails at a shuffle
// or an exposed card, or when the stream runs out.
func (m *mutation) redeal(i int, stream []cards.Card) bool {
	k := 0
	next := func() (cards.Card, bool) {
		if k >= len(stream) {
			return 0, false
		}
		k++
		return stream[k-1], true
	}
	swaps := map[events.Seat]map[cards.Card]cards.Card{}
	for j := i; j < len(m.evs); j++ {
		e := m.evs[j]
		switch d := e.Data.(type) {
		case *events.DeckShuffled, *events.CardExposed:
			return false
		case *events.CardBurned:
			c, ok := next()
			if !ok {
				return false
			}
			b := *d
			b.Card = c
			e.Data = &b
		case *events.CardDealt:
			if d.Phase != events.PhaseDraw {
				continue
			}
			c, ok := next()
			if !ok {
				return false
			}
			if swaps[d.Seat] == nil {
				swaps[d.Seat] = map[cards.Card]cards.Card{}
			}
			swaps[d.Seat][d.Card] = c
			b := *d
			b.Card = c
			e.Data = &b
		case *events.HandShown:
			if sw := swaps[d.Seat]; sw != nil {
				b := *d
				b.Cards = slices.Clone(d.Cards)
				for x, c := range b.Cards {
					if n, ok := sw[c]; ok {
						b.Cards[x] = n
					}
				}
				e.Data = &b
			}
		}
	}
	return true
}

// showHeld makes the hand.shown of seat show the cards he holds by then.
func (m *mutation) showHeld(seat events.Seat) bool {
	i := m.find(func(e *events.Event) bool { d, ok := e.Data.(*events.HandShown); return ok && d.Seat == seat })
	if i < 0 {
		return true
	}
	h, ok := replay(m.evs, i)
	if !ok || len(h.Player(seat).Cards) != 5 {
		return false
	}
	m.evs[i].Data = &events.HandShown{Seat: seat, Cards: slices.Clone(h.Player(seat).Cards)}
	return true
}

// drawStream returns the cards of the burns and draw cards from index i on, in order, then the
// stub left at the end of the hand.
func (m *mutation) drawStream(i int) []cards.Card {
	var out []cards.Card
	for _, e := range m.evs[i:] {
		switch d := e.Data.(type) {
		case *events.CardBurned:
			out = append(out, d.Card)
		case *events.CardDealt:
			if d.Phase == events.PhaseDraw {
				out = append(out, d.Card)
			}
		}
	}
	return append(out, m.h.Stub()...)
}

// injectSchema adds an event for a seat not dealt in.
func injectSchema(m *mutation, _ finding.Code) bool {
	var seat events.Seat
	for x := events.MaxSeat; x >= 1; x-- {
		if m.h.Player(x) == nil {
			seat = x
			break
		}
	}
	i := m.find(isType(events.DeckRevealedType))
	if seat == 0 || i < 0 {
		return false
	}
	m.insert(i, &events.HandMucked{Seat: seat})
	return true
}

// injectEnvelope breaks the envelope of the last event (or drops it).
func injectEnvelope(m *mutation, code finding.Code) bool {
	if code == finding.LogIncomplete {
		m.remove(len(m.evs) - 1)
		return true
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
		return true
	}
	events.Seal(last, last.Prev)
	return true
}

// injectBurn burns, right after the deal, a card that is not in the deck or that a player holds.
func injectBurn(m *mutation, code finding.Code) bool {
	i := m.findLast(isDeal)
	if i < 0 {
		return false
	}
	var c cards.Card
	switch code {
	case finding.DeckForeignCard:
		if m.h.Low == cards.Two {
			return false // a 52-card deck has no foreign card
		}
		c = cards.New(m.h.Low-1, cards.Suit(m.rng.IntN(4)))
	default:
		// A card of a player who never folds: it is in his hand when burned.
		var held []cards.Card
		for _, e := range m.evs[:i+1] {
			if d, ok := e.Data.(*events.CardDealt); ok && d.Phase == events.PhaseDeal && !m.h.Player(d.Seat).Folded {
				held = append(held, d.Card)
			}
		}
		if len(held) == 0 {
			return false
		}
		c = held[m.rng.IntN(len(held))]
	}
	m.insert(i+1, &events.CardBurned{Card: c})
	return true
}

// injectReveal breaks the reveal of the first shuffle: a wrong seed, none, or a physical shuffle
// with too few riffles (br-fechado).
func injectReveal(m *mutation, code finding.Code) bool {
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
		if m.h.Preset.MinShuffles < 2 {
			return false
		}
		one := 1
		m.evs[1].Data = &events.DeckShuffled{Method: cards.PhysicalMethod, Count: &one}
		m.remove(i)
	}
	return true
}

// injectExposed shows a card: in the cut without a reshuffle (deck.cut-exposed), the last card
// of the deal (card.exposed), or the first card of the deal with no misdeal (card.exposed-remedy).
func injectExposed(m *mutation, code finding.Code) bool {
	pr := m.h.Preset
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
	return true
}

// injectMismatch swaps two cards of the deal that go to the same player: he holds the same
// hand, but the first comes out of the order the seed and the cut give.
func injectMismatch(m *mutation, _ finding.Code) bool {
	i := m.find(isDeal)
	n := len(m.h.Players)
	if i < 0 || i+n >= len(m.evs) || !isDeal(m.evs[i+n]) {
		return false
	}
	a, b := *m.evs[i].Data.(*events.CardDealt), *m.evs[i+n].Data.(*events.CardDealt)
	a.Card, b.Card = b.Card, a.Card
	m.evs[i].Data, m.evs[i+n].Data = &a, &b
	return true
}

// injectForced posts a second ante of nothing (ante.amount) or a big blind of nothing by the
// small blind before the big blind's (blind.amount).
func injectForced(m *mutation, code finding.Code) bool {
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
	return true
}

func acted(e *events.Event) *events.PlayerActed {
	d, _ := e.Data.(*events.PlayerActed)
	return d
}

// injectBetting alters the betting without moving a chip.
func injectBetting(m *mutation, code finding.Code) bool {
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
			return true
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
		for _, p := range m.h.Players {
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
			return true
		}
		return false
	}
	return true
}

func at(evs []*events.Event, i int) *events.Event {
	if i < 0 || i >= len(evs) {
		return &events.Event{}
	}
	return evs[i]
}

// injectDeclared declares one card more than the player draws (tr-kapali: never lowered).
func injectDeclared(m *mutation, _ finding.Code) bool {
	if m.h.Preset.Declared != rules.DeclaredRaiseOnly {
		return false
	}
	i := m.find(isType(events.CardsDiscardedType))
	if i < 0 {
		return false
	}
	d := *m.evs[i].Data.(*events.CardsDiscarded)
	n := len(d.Cards) + 1
	d.Declared = &n
	m.evs[i].Data = &d
	return true
}

// injectPots alters the showdown or the awards, and the final stacks to match the events.
func injectPots(m *mutation, code finding.Code) bool {
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
	pots, _ := m.h.ExpectedAwards()
	switch code {
	case finding.ShowdownCards:
		i := m.find(isType(events.HandShownType))
		if i < 0 {
			return false
		}
		d := *m.evs[i].Data.(*events.HandShown)
		d.Cards = slices.Clone(d.Cards)
		stub := m.h.StubSet()
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
						m.withEnd(endI, end)
						return true
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
		adjust(end.Stacks[m.rng.IntN(len(end.Stacks))].Seat, 1)
	}
	m.withEnd(endI, end)
	return true
}

func (m *mutation) withEnd(i int, end events.HandEnded) *mutation {
	m.evs[i].Data = &end
	return m
}

// injectDeal gives the last two cards of the deal to the wrong players (deal.order), or leaves
// out the last card of a player who did not open (deal.count: the draw then deals from that
// card on; if he plays on, he does not discard it, gets one replacement fewer and his short
// hand is mucked); the later events name the cards each player then holds, and the hand is
// settled again.
func injectDeal(m *mutation, code finding.Code) bool {
	i := m.findLast(isDeal)
	if i < 1 || !isDeal(m.evs[i-1]) {
		return false
	}
	b := *m.evs[i].Data.(*events.CardDealt)
	switch code {
	case finding.DealOrder:
		a := *m.evs[i-1].Data.(*events.CardDealt)
		if a.Seat == b.Seat {
			return false
		}
		// Each of the two now holds the other's card.
		m.relabel(i+1, a.Seat, map[cards.Card]cards.Card{a.Card: b.Card})
		m.relabel(i+1, b.Seat, map[cards.Card]cards.Card{b.Card: a.Card})
		a.Seat, b.Seat = b.Seat, a.Seat
		m.evs[i-1].Data, m.evs[i].Data = &a, &b
		return m.resettle()
	case finding.DealCount:
		seat, folded := b.Seat, m.h.Player(b.Seat).Folded
		if seat == m.h.Opener || !folded && m.h.Preset.DrawSource == rules.DrawReshuffle {
			return false // the pre-draw reshuffle would gather the card left in the stub
		}
		d := m.find(isType(events.CardsDiscardedType))
		var stream []cards.Card
		if d >= 0 {
			stream = append([]cards.Card{b.Card}, m.drawStream(d)...) // the card left is the draw's first
		}
		m.remove(i)
		if d < 0 {
			return m.resettle()
		}
		d--
		if !folded {
			// His hand is four cards: he cannot discard the card he never got, gets one
			// replacement fewer for it, and his short hand is mucked at the showdown.
			j := m.find(func(e *events.Event) bool { c, ok := e.Data.(*events.CardsDiscarded); return ok && c.Seat == seat })
			if j >= 0 {
				c := *m.evs[j].Data.(*events.CardsDiscarded)
				if k := slices.Index(c.Cards, b.Card); k >= 0 {
					c.Cards = slices.Delete(slices.Clone(c.Cards), k, k+1)
					if c.Declared != nil {
						n := len(c.Cards)
						c.Declared = &n
					}
					m.evs[j].Data = &c
					r := m.findLast(func(e *events.Event) bool {
						x, ok := e.Data.(*events.CardDealt)
						return ok && x.Phase == events.PhaseDraw && x.Seat == seat
					})
					if r < 0 {
						return false
					}
					m.remove(r)
				}
			}
			if k := m.find(func(e *events.Event) bool { x, ok := e.Data.(*events.HandShown); return ok && x.Seat == seat }); k >= 0 {
				m.evs[k].Type, m.evs[k].Data = events.HandMuckedType, &events.HandMucked{Seat: seat}
			}
		}
		if m.h.Preset.DrawSource == rules.DrawReshuffle {
			return m.resettle()
		}
		return m.redeal(d, stream) && m.resettle()
	}
	return true
}

// injectMisdeal exposes the first card of the deal (a misdeal where the preset keeps an exposed
// card) and returns every chip put in but one: the hand is cut after that card and settled.
func injectMisdeal(m *mutation, _ finding.Code) bool {
	if m.h.Preset.ExposedDeal != rules.RemedyKeep {
		return false
	}
	i := m.find(isDeal)
	if i < 0 {
		return false
	}
	d := m.evs[i].Data.(*events.CardDealt)
	seat := d.Seat
	m.evs = m.evs[:i+1]
	m.insert(len(m.evs), &events.CardExposed{Card: d.Card, Phase: events.PhaseDeal, Seat: &seat, Cause: events.CauseDealer})
	m.insert(len(m.evs), &events.MisdealDeclared{Reason: fmt.Sprintf("%v exposed in the deal", d.Card)})
	h, ok := replay(m.evs, len(m.evs))
	if !ok {
		return false
	}
	kept := false
	for _, p := range h.Players {
		amount := p.In
		if amount > 0 && !kept {
			amount-- // a chip kept back
			kept = true
		}
		if amount > 0 {
			m.insert(len(m.evs), &events.BetReturned{Seat: p.Seat, Amount: amount})
		}
	}
	if !kept {
		return false
	}
	for _, e := range m.evs {
		if e.Type == events.DeckShuffledType {
			m.insert(len(m.evs), &events.DeckRevealed{Shuffle: e.Seq, Seed: m.h.Seeds[e.Seq]})
		}
	}
	h, _ = replay(m.evs, len(m.evs))
	end := &events.HandEnded{Carry: h.Carry}
	for _, p := range h.Players {
		end.Stacks = append(end.Stacks, events.SeatChips{Seat: p.Seat, Stack: p.Stack})
	}
	m.insert(len(m.evs), end)
	return true
}

// injectOpen leaves out the openers of an opener who is paid (open.not-shown), or makes an
// opening bet one chip below the minimum (open.below-minimum): the other players' first chips
// of the round lowered to match, and the hand settled again.
func injectOpen(m *mutation, code finding.Code) bool {
	switch code {
	case finding.OpenNotShown:
		i := m.find(isType(events.OpenersShownType))
		if i < 0 {
			return false
		}
		seat := m.evs[i].Data.(*events.OpenersShown).Seat
		if m.find(func(e *events.Event) bool {
			d, ok := e.Data.(*events.PotAwarded)
			return ok && d.Seat == seat && d.Amount > 0
		}) < 0 {
			return false
		}
		m.remove(i)
		return true
	}
	i := m.find(func(e *events.Event) bool {
		d := acted(e)
		return d != nil && d.Action == events.Bet && (d.Round == events.RoundFirst || d.Round == events.RoundBlind)
	})
	if i < 0 {
		return false
	}
	h, _ := replay(m.evs, i)
	bet := *acted(m.evs[i])
	o, ok := h.Options()
	if !ok {
		o, ok = (&game{h: h}).firstOptions(bet.Round) // the round's first action
	}
	if !ok || !o.Opening || o.Seat != bet.Seat || o.MinBet <= 1 || bet.Amount >= h.Player(bet.Seat).Stack {
		return false
	}
	delta := bet.Amount - (o.MinBet - 1)
	bet.Amount = o.MinBet - 1
	m.evs[i].Data = &bet
	// Every other player's first chips of the round after the open are as many fewer: the
	// round's level is lower by delta. Then the hand is settled again from what was put in.
	paid := map[events.Seat]bool{bet.Seat: true}
	for j := i + 1; j < len(m.evs); j++ {
		d := acted(m.evs[j])
		if d == nil || d.Round != bet.Round || d.Amount == 0 || paid[d.Seat] {
			continue
		}
		paid[d.Seat] = true
		c := *d
		c.Amount -= delta
		if c.Amount <= 0 {
			return false
		}
		m.evs[j].Data = &c
	}
	return m.resettle()
}

// settleTypes are the events that settle a hand, after its last action and showdown.
var settleTypes = map[events.Type]bool{events.BetReturnedType: true, events.OpenersShownType: true,
	events.PotAwardedType: true, events.DeckRevealedType: true, events.HandEndedType: true}

// resettle drops the settlement at the end of the hand and writes it again as the engine
// reckons it from the events before it.
func (m *mutation) resettle() bool { return m.resettleReturning(true) }

// resettleReturning is resettle; with returning false the uncalled excess stays in the pot.
func (m *mutation) resettleReturning(returning bool) bool {
	i := len(m.evs)
	for i > 0 && settleTypes[m.evs[i-1].Type] {
		i--
	}
	var reveals []*events.Event
	for _, e := range m.evs[i:] {
		if e.Type == events.DeckRevealedType {
			reveals = append(reveals, e)
		}
	}
	h, ok := replay(m.evs, i)
	if !ok {
		return false
	}
	m.evs = m.evs[:i]
	m.settle(h, reveals, returning)
	return true
}

// settle ends the hand h follows as the dealer does (game.settle): the excess returned, the
// openers shown, the pots paid, the seeds revealed (reveals), the stacks.
func (m *mutation) settle(h *rules.Hand, reveals []*events.Event, returning bool) {
	add := func(d events.Data) { h.Apply(m.insert(len(m.evs), d)) }
	if s, x := h.Excess(); returning && x > 0 && h.InHand() > 0 {
		add(&events.BetReturned{Seat: s, Amount: x})
	}
	pots, _ := h.ExpectedAwards()
	if p := h.Player(h.Opener); p != nil && p.Live() && h.Preset.MustShowOpeners && h.Preset.Openers != rules.OpenFree && len(h.OpenerCards) == 5 {
		add(&events.OpenersShown{Seat: p.Seat, Cards: openers(h, h.OpenerCards)})
	}
	for _, pot := range pots {
		for _, w := range pot.Winners {
			if a := pot.Shares[w]; a > 0 {
				add(&events.PotAwarded{Seat: w, Amount: a, Pot: pot.Index})
			}
		}
	}
	for _, r := range reveals {
		m.evs = append(m.evs, r)
		h.Apply(r)
	}
	end := &events.HandEnded{Carry: h.ExpectedCarry()}
	for _, p := range h.Players {
		end.Stacks = append(end.Stacks, events.SeatChips{Seat: p.Seat, Stack: p.Stack})
	}
	m.insert(len(m.evs), end)
}

// injectReturned leaves the uncalled excess in the pot: the hand is settled again without
// returning it, the pots paid as the engine reckons them with it.
func injectReturned(m *mutation, _ finding.Code) bool {
	i := m.find(isType(events.BetReturnedType))
	if i < 0 {
		return false
	}
	m.remove(i)
	return m.resettleReturning(false)
}

// injectDraw alters the draw, the cards then dealt in the order the stub gives them and the
// hands shown following them: too many cards discarded by the last drawer (draw.too-many); the
// first two drawers swapped (draw.order); a card discarded that the player does not hold
// (draw.not-held); one replacement short for the last drawer, whose short hand is then mucked
// (draw.replacements); the pre-draw reshuffle or a burn left out (draw.procedure).
func injectDraw(m *mutation, code finding.Code) bool {
	pr := m.h.Preset
	first := m.find(isType(events.CardsDiscardedType))
	last := m.findLast(isType(events.CardsDiscardedType))
	if first < 0 {
		return false
	}
	discards := func(i int) events.CardsDiscarded { return *m.evs[i].Data.(*events.CardsDiscarded) }
	switch code {
	case finding.DrawTooMany:
		// The drawer who discarded the most: the fewest cards to add.
		for i, e := range m.evs {
			if d, ok := e.Data.(*events.CardsDiscarded); ok && len(d.Cards) > len(discards(last).Cards) {
				last = i
			}
		}
		d := discards(last)
		if pr.MaxDraw >= 5 || len(d.Cards) > pr.MaxDraw {
			return false
		}
		h, _ := replay(m.evs, last)
		var kept []cards.Card
		for _, c := range h.Player(d.Seat).Cards {
			if !slices.Contains(d.Cards, c) {
				kept = append(kept, c)
			}
		}
		extra := pr.MaxDraw + 1 - len(d.Cards)
		if extra > len(kept) {
			return false
		}
		stream := m.drawStream(last)
		d.Cards = append(slices.Clone(d.Cards), kept[:extra]...)
		if d.Declared != nil {
			n := len(d.Cards)
			d.Declared = &n
		}
		m.evs[last].Data = &d
		j := last + 1
		for j < len(m.evs) && (isDrawCard(m.evs[j]) || m.evs[j].Type == events.CardBurnedType) {
			j++
		}
		for range extra {
			m.insert(j, &events.CardDealt{Seat: d.Seat, Phase: events.PhaseDraw})
		}
		return m.redeal(last, stream) && m.showHeld(d.Seat) && m.resettle()
	case finding.DrawOrder:
		a, b := discards(first), m.find(func(e *events.Event) bool {
			d, ok := e.Data.(*events.CardsDiscarded)
			return ok && e != m.evs[first] && d.Seat != 0
		})
		if b < 0 || len(a.Cards) >= 5 || len(discards(b).Cards) >= 5 {
			return false
		}
		end := b + 1
		for end < len(m.evs) && (isDrawCard(m.evs[end]) || m.evs[end].Type == events.CardBurnedType) {
			end++
		}
		stream := m.drawStream(first)
		blockA, blockB := slices.Clone(m.evs[first:b]), slices.Clone(m.evs[b:end])
		m.evs = slices.Concat(m.evs[:first], blockB, blockA, m.evs[end:])
		return m.redeal(first, stream) && m.resettle()
	case finding.DrawNotHeld:
		stub := m.h.Stub()
		for i, e := range m.evs {
			d, ok := e.Data.(*events.CardsDiscarded)
			if !ok || len(d.Cards) < 1 || len(d.Cards) >= pr.MaxDraw || len(stub) == 0 {
				continue
			}
			c := *d
			c.Cards = append(slices.Clone(d.Cards), stub[len(stub)-1])
			m.evs[i].Data = &c
			return true
		}
		return false
	case finding.DrawReplacements:
		d := discards(last)
		if len(d.Cards) < 2 || len(d.Cards) >= 5 {
			return false
		}
		j := m.findLast(func(e *events.Event) bool {
			c, ok := e.Data.(*events.CardDealt)
			return ok && c.Phase == events.PhaseDraw && c.Seat == d.Seat
		})
		if j < last {
			return false
		}
		stream := m.drawStream(last)
		m.remove(j)
		if k := m.find(func(e *events.Event) bool {
			s, ok := e.Data.(*events.HandShown)
			return ok && s.Seat == d.Seat
		}); k >= 0 {
			m.evs[k].Type, m.evs[k].Data = events.HandMuckedType, &events.HandMucked{Seat: d.Seat}
		}
		return m.redeal(last, stream) && m.resettle()
	case finding.DrawProcedure:
		if pr.DrawSource == rules.DrawReshuffle {
			i := m.find(func(e *events.Event) bool {
				d, ok := e.Data.(*events.DeckShuffled)
				return ok && d.Cards != nil
			})
			if i < 0 || i > first {
				return false
			}
			stream := m.stubAt(i)
			seq := m.evs[i].Seq
			if r := m.find(func(e *events.Event) bool {
				d, ok := e.Data.(*events.DeckRevealed)
				return ok && d.Shuffle == seq
			}); r >= 0 {
				m.remove(r)
			}
			if m.evs[i+1].Type == events.DeckCutType {
				m.remove(i + 1)
			}
			m.remove(i)
			return m.redeal(i, stream) && m.resettle()
		}
		i := m.find(func(e *events.Event) bool { return e.Type == events.CardBurnedType && e.Seq > m.evs[first].Seq })
		if i < 0 || at(m.evs, i+1).Type == events.CardExposedType {
			return false
		}
		stream := m.drawStream(i)
		m.remove(i)
		return m.redeal(i, stream) && m.resettle()
	}
	return false
}

// injectFalseOpen makes the clean hand's opener open without openers (open.without-openers):
// the deck of the hand's first shuffle is cut at another place (recut), one where the five
// cards he is dealt do not qualify, and every card of the hand follows that cut. Everything the
// players do stays as they did it: the false opener bets, is answered, draws and shows down as
// before, with the cards he now holds; the hand is then settled again as the engine reckons it
// (a false opener's hand is dead: the pot goes to the best other hand, or is carried). Only
// hands where he and another player show down fit: a false open is read as it is played out.
func injectFalseOpen(m *mutation, _ finding.Code) bool {
	h := m.h
	o := h.Opener
	if o == 0 || !h.OpenerQualified || h.Preset.Openers == rules.OpenFree {
		return false
	}
	shown := map[events.Seat]bool{}
	for _, e := range m.evs {
		if d, ok := e.Data.(*events.HandShown); ok {
			shown[d.Seat] = true
		}
	}
	if !shown[o] || len(shown) < 2 {
		return false
	}
	deck, at, ok := m.firstDeck()
	if !ok {
		return false
	}
	// His five cards at the open are the five of the deal: their places in the cut deck.
	var places []int
	for _, e := range m.evs {
		if d, ok := e.Data.(*events.CardDealt); ok && d.Phase == events.PhaseDeal && d.Seat == o {
			places = append(places, slices.Index(cut(deck, at), d.Card))
		}
	}
	if len(places) != 5 || slices.Contains(places, -1) {
		return false
	}
	var cands []int
	for k := 1; k < len(deck); k++ {
		if k == at {
			continue
		}
		c := cut(deck, k)
		var five [5]cards.Card
		for x, i := range places {
			five[x] = c[i]
		}
		if !h.Qualifies(h.Eval.Eval(five)) {
			cands = append(cands, k)
		}
	}
	if len(cands) == 0 {
		return false
	}
	return m.recut(cands[m.rng.IntN(len(cands))]) && m.resettle()
}

// cut returns deck cut at k (cards.Cut on a copy; k is in range).
func cut(deck []cards.Card, k int) []cards.Card {
	out, _ := cards.Cut(deck, k)
	return out
}

// firstDeck returns the order of the hand's first shuffle, a machine shuffle of the whole deck
// whose seed the hand reveals, and where its cut was made. ok is false when the hand has no such
// shuffle, cut right after it, or has an exposed card (recut does not follow one).
func (m *mutation) firstDeck() (deck []cards.Card, at int, ok bool) {
	i := m.find(isType(events.DeckShuffledType))
	if i < 0 || i+1 >= len(m.evs) || m.find(isType(events.CardExposedType)) >= 0 {
		return nil, 0, false
	}
	d := m.evs[i].Data.(*events.DeckShuffled)
	seed, known := m.h.Seeds[m.evs[i].Seq]
	c, isCut := m.evs[i+1].Data.(*events.DeckCut)
	if d.Method != cards.ShuffleMethod || d.Cards != nil || !known || !isCut || c.At < 1 {
		return nil, 0, false
	}
	deck = cards.Shuffle(seed, cards.Deck(m.h.Low))
	if c.At >= len(deck) {
		return nil, 0, false
	}
	return deck, c.At, true
}

// recut cuts the deck of the hand's first shuffle at at instead, and makes every card of the
// hand follow it. Every card the dealer gives, burns or gathers comes off the top of the stub, so
// the card at each place of the deck is relabelled as the card the new cut puts at that place,
// wherever it goes (a hand, a discard, a burn, a hand shown); a later reshuffle gathers the
// relabelled cards and shuffles them with its own seed, its places relabelled the same way (a
// cut after it keeps its place: it moves both orders alike). Nobody's actions change.
func (m *mutation) recut(at int) bool {
	deck, was, ok := m.firstDeck()
	if !ok {
		return false
	}
	i := m.find(isType(events.DeckShuffledType)) + 1
	relabel := map[cards.Card]cards.Card{}
	follow := func(old, now []cards.Card) {
		for k, c := range old {
			relabel[c] = now[k]
		}
	}
	follow(cut(deck, was), cut(deck, at))
	one := func(c cards.Card) cards.Card { return relabel[c] }
	all := func(cs []cards.Card) []cards.Card {
		out := make([]cards.Card, len(cs))
		for k, c := range cs {
			out[k] = relabel[c]
		}
		return out
	}
	c := *m.evs[i].Data.(*events.DeckCut)
	c.At = at
	m.evs[i].Data = &c
	for _, e := range m.evs[i+1:] {
		switch d := e.Data.(type) {
		case *events.DeckShuffled:
			seed, known := m.h.Seeds[e.Seq]
			if d.Method != cards.ShuffleMethod || d.Cards == nil || !known {
				return false
			}
			x := *d
			x.Cards = cards.SetOf(all(d.Cards)...).Cards()
			follow(cards.Shuffle(seed, d.Cards), cards.Shuffle(seed, x.Cards))
			e.Data = &x
		case *events.CardDealt:
			x := *d
			x.Card = one(d.Card)
			e.Data = &x
		case *events.CardBurned:
			x := *d
			x.Card = one(d.Card)
			e.Data = &x
		case *events.CardExposed:
			return false
		case *events.CardsDiscarded:
			x := *d
			x.Cards = all(d.Cards)
			e.Data = &x
		case *events.HandShown:
			x := *d
			x.Cards = all(d.Cards)
			e.Data = &x
		case *events.OpenersShown:
			x := *d
			x.Cards = all(d.Cards)
			e.Data = &x
		}
	}
	return true
}

// injectBrokeOpen puts an open the preset forbids before the first action of round first
// (open.not-allowed): by a player who started with no chips and holds openers, for nothing. An
// all-in open for nothing moves no chip and needs no answer: the hand goes on as it was played
// (a hand passed out after it is refused by the auditor's check).
func injectBrokeOpen(m *mutation, _ finding.Code) bool {
	i := m.find(func(e *events.Event) bool { d := acted(e); return d != nil && d.Round == events.RoundFirst })
	if i < 0 {
		return false
	}
	h, _ := replay(m.evs, i)
	for _, p := range h.Players {
		if p.Start == 0 && !p.Folded && len(p.Cards) == 5 && h.Qualifies(h.Eval.Eval([5]cards.Card(p.Cards))) {
			m.insert(i, &events.PlayerActed{Seat: p.Seat, Round: events.RoundFirst, Action: events.Bet})
			return true
		}
	}
	return false
}

// injectStart starts the hand differently from where the previous hand left the table, and
// carries the difference to the end of the hand: more chips for a player who was in the
// previous hand and is not all-in (table.stack), a rebuy where the preset has none
// (table.rebuy), a larger carry, paid to the one winner of pot 0 or carried on
// (table.carry), one more passed-out deal (table.passed-out).
func injectStart(m *mutation, code finding.Code) bool {
	hs := *m.evs[0].Data.(*events.HandStarted)
	if hs.Previous == nil {
		return false // the first hand has no previous hand to differ from
	}
	hs.Seats = slices.Clone(hs.Seats)
	endI := len(m.evs) - 1
	end, ok := m.evs[endI].Data.(*events.HandEnded)
	if !ok {
		return false
	}
	e := *end
	e.Stacks = slices.Clone(end.Stacks)
	give := func(seat events.Seat, by events.Chips) {
		for i := range e.Stacks {
			if e.Stacks[i].Seat == seat {
				e.Stacks[i].Stack += by
			}
		}
	}
	switch code {
	case finding.TableStack, finding.TableRebuy:
		var rich []int
		for i, ss := range hs.Seats {
			if p := m.h.Player(ss.Seat); ss.Stack > 0 && !ss.Joined && ss.From == "" && p != nil && !p.AllIn {
				rich = append(rich, i)
			}
		}
		if len(rich) == 0 || code == finding.TableRebuy && m.h.Preset.Rebuys {
			return false
		}
		ss := &hs.Seats[rich[m.rng.IntN(len(rich))]]
		by := 1 + events.Chips(m.rng.IntN(5))
		if code == finding.TableRebuy {
			by = 100
			r := by
			ss.Rebuy = &r
		}
		ss.Stack += by
		give(ss.Seat, by)
	case finding.TableCarry:
		by := 5 + events.Chips(m.rng.IntN(10))
		hs.Carry += by
		var awards []int
		for i, ev := range m.evs {
			if a, ok := ev.Data.(*events.PotAwarded); ok && a.Pot == 0 {
				awards = append(awards, i)
			}
		}
		switch {
		case m.h.Passed:
			e.Carry += by
		case len(awards) == 1:
			a := *m.evs[awards[0]].Data.(*events.PotAwarded)
			a.Amount += by
			m.evs[awards[0]].Data = &a
			give(a.Seat, by)
		default:
			return false
		}
	case finding.TablePassedOut:
		hs.PassedOut++
	}
	m.evs[0].Data = &hs
	m.evs[endI].Data = &e
	return true
}

// injectDealer deals the hand from the seat after the one the table's rotation names
// (table.dealer): every player dealt in is written one seat on, among the seats dealt in, in
// every event of the hand (as the audit scripts' "seats" edit does). The deal, the blinds and
// every turn keep their places around the new dealer, so the hand is played as it was from
// there; the players keep their names and chips, which the auditor follows from hand to hand.
// The dealer must be one of the seats dealt in (not a dead button on a seat away).
func injectDealer(m *mutation, _ finding.Code) bool {
	hs := *m.evs[0].Data.(*events.HandStarted)
	if hs.Previous == nil || len(hs.Seats) < 2 {
		return false // the first hand has no previous hand to differ from
	}
	var seats []events.Seat
	for _, ss := range hs.Seats {
		seats = append(seats, ss.Seat)
	}
	if !slices.Contains(seats, hs.Dealer) {
		return false
	}
	on := map[events.Seat]events.Seat{}
	for i, seat := range seats {
		on[seat] = seats[(i+1)%len(seats)]
	}
	m.reseat(on)
	return true
}

// reseat writes the seats of every event of the hand as to maps them (a seat not in to keeps its
// number); the seats of hand.started and hand.ended stay in seat order.
func (m *mutation) reseat(to map[events.Seat]events.Seat) {
	mv := func(s events.Seat) events.Seat {
		if n, ok := to[s]; ok {
			return n
		}
		return s
	}
	mvp := func(s *events.Seat) *events.Seat {
		if s == nil {
			return nil
		}
		n := mv(*s)
		return &n
	}
	for _, e := range m.evs {
		switch d := e.Data.(type) {
		case *events.HandStarted:
			x := *d
			x.Dealer = mv(d.Dealer)
			x.Seats = slices.Clone(d.Seats)
			for i := range x.Seats {
				x.Seats[i].Seat = mv(x.Seats[i].Seat)
			}
			slices.SortFunc(x.Seats, func(a, b events.SeatStack) int { return int(a.Seat) - int(b.Seat) })
			e.Data = &x
		case *events.DeckShuffled:
			x := *d
			x.By = mvp(d.By)
			e.Data = &x
		case *events.DeckCut:
			x := *d
			x.By = mvp(d.By)
			e.Data = &x
		case *events.AntePosted:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.BlindPosted:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.CardDealt:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.CardExposed:
			x := *d
			x.Seat = mvp(d.Seat)
			e.Data = &x
		case *events.PlayerActed:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.CardsDiscarded:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.OpenersShown:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.HandShown:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.HandMucked:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.BetReturned:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.PotAwarded:
			x := *d
			x.Seat = mv(d.Seat)
			e.Data = &x
		case *events.HandEnded:
			x := *d
			x.Stacks = slices.Clone(d.Stacks)
			for i := range x.Stacks {
				x.Stacks[i].Seat = mv(x.Stacks[i].Seat)
			}
			slices.SortFunc(x.Stacks, func(a, b events.SeatChips) int { return int(a.Seat) - int(b.Seat) })
			e.Data = &x
		}
	}
}

// injectLeftOut leaves out of the hand a player with chips who was at the table's last hand
// (table.seating): one who put no chip in but his ante, and never did more than check or fold.
// His seat, ante, cards and actions go; the cards of the deal, the burns and the draw are dealt
// again from the same shuffle and cut to the players left (a deck of the size their number
// calls for), each card taken off the stub given to whoever took the card in its place before,
// and every later event names the cards each player then holds; the hand is then settled again
// as the engine reckons it. Hands with an exposed card or a second shuffle do not fit (the stub
// would run out elsewhere), nor does one whose dealer, starter or blinds would be the one left
// out (the rotation would then move elsewhere too).
func injectLeftOut(m *mutation, _ finding.Code) bool {
	hs := *m.evs[0].Data.(*events.HandStarted)
	if hs.Previous == nil {
		return false
	}
	low, ok := m.h.Preset.Low(len(hs.Seats) - 1)
	if !ok || len(hs.Seats)-1 < 2 {
		return false
	}
	shuffles := 0
	for _, e := range m.evs {
		switch e.Data.(type) {
		case *events.DeckShuffled:
			shuffles++
		case *events.CardExposed:
			return false
		}
	}
	_, at, ok := m.firstDeck()
	if !ok || shuffles != 1 {
		return false
	}
	var seats []events.Seat
	for _, ss := range hs.Seats {
		seats = append(seats, ss.Seat)
	}
	keep := map[events.Seat]bool{hs.Dealer: true, rules.NextSeat(seats, hs.Dealer): true}
	for _, e := range m.evs {
		switch d := e.Data.(type) {
		case *events.BlindPosted:
			keep[d.Seat] = true
		case *events.PlayerActed:
			if d.Amount > 0 || d.Action != events.Check && d.Action != events.Fold {
				keep[d.Seat] = true
			}
		case *events.CardsDiscarded:
			keep[d.Seat] = true
		case *events.HandShown:
			keep[d.Seat] = true
		case *events.HandMucked:
			keep[d.Seat] = true
		case *events.OpenersShown:
			keep[d.Seat] = true
		case *events.BetReturned:
			keep[d.Seat] = true
		case *events.PotAwarded:
			keep[d.Seat] = true
		}
	}
	var cands []events.SeatStack
	for _, ss := range hs.Seats {
		if ss.Stack > 0 && ss.Rebuy == nil && !ss.Joined && ss.From == "" && !keep[ss.Seat] {
			cands = append(cands, ss)
		}
	}
	if len(cands) == 0 {
		return false
	}
	out := cands[m.rng.IntN(len(cands))].Seat
	seed := m.h.Seeds[m.evs[m.find(isType(events.DeckShuffledType))].Seq] // known: firstDeck
	deck := cards.Deck(low)
	if at >= len(deck) {
		return false
	}
	newDeck := cut(cards.Shuffle(seed, deck), at)
	// Every card taken off the stub, in order, but the ones dealt to him: the k-th is now the
	// k-th card of the new cut deck.
	relabel := map[cards.Card]cards.Card{}
	k := 0
	take := func(c cards.Card) (cards.Card, bool) {
		if k >= len(newDeck) {
			return 0, false
		}
		relabel[c] = newDeck[k]
		k++
		return relabel[c], true
	}
	all := func(cs []cards.Card) []cards.Card {
		out := make([]cards.Card, len(cs))
		for i, c := range cs {
			out[i] = relabel[c]
		}
		return out
	}
	var kept []*events.Event
	for _, e := range m.evs {
		switch d := e.Data.(type) {
		case *events.HandStarted:
			x := *d
			x.Seats = slices.DeleteFunc(slices.Clone(d.Seats), func(ss events.SeatStack) bool { return ss.Seat == out })
			e.Data = &x
		case *events.AntePosted:
			if d.Seat == out {
				continue
			}
		case *events.PlayerActed:
			if d.Seat == out {
				continue
			}
		case *events.CardDealt:
			if d.Seat == out {
				continue
			}
			c, ok := take(d.Card)
			if !ok {
				return false
			}
			x := *d
			x.Card = c
			e.Data = &x
		case *events.CardBurned:
			c, ok := take(d.Card)
			if !ok {
				return false
			}
			x := *d
			x.Card = c
			e.Data = &x
		case *events.CardsDiscarded:
			x := *d
			x.Cards = all(d.Cards)
			e.Data = &x
		case *events.HandShown:
			x := *d
			x.Cards = all(d.Cards)
			e.Data = &x
		case *events.OpenersShown:
			x := *d
			x.Cards = all(d.Cards)
			e.Data = &x
		}
		kept = append(kept, e)
	}
	m.evs = kept
	return m.resettle()
}
