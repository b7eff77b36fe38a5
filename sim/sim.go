// Package sim owns the simulator: computer players who play hands of closed poker at one table
// under a preset, with machine shuffles, and write every hand as the events of events-v1.md. The
// same seed gives the same bytes. It can also inject irregularities of the finding codes into
// otherwise clean hands, to make corpora for the auditor: the players and the dealer always play
// clean, and the irregularity is a mutation of the finished hand (inject.go).
package sim

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// Defaults of Config.
const (
	DefaultStack       events.Chips = 1000
	DefaultOnlineStack events.Chips = 500 // br-online matches
	DefaultTable                    = "sim-1"
	// DefaultExposeRate is the chance per hand that the dealer exposes a card (in the cut, the
	// deal or the draw) where the preset has a remedy for it.
	DefaultExposeRate = 0.015
)

// ErrConfig is wrapped by every error New returns for a bad configuration.
var ErrConfig = errors.New("bad simulator configuration")

// Config says what to simulate.
type Config struct {
	Rules   string // preset name
	Players int    // players seated at the start
	Hands   int    // hands to play (fewer if one player wins every chip)
	Seed    uint64 // the seed of every random choice: shuffles, ids, times, players
	Table   string // table id; DefaultTable when empty
	// Stack is the starting stack; 0 = the preset's default. Unless EvenStacks is set (and
	// always in br-online, a match), the seats start with 20% to 150% of it.
	Stack      events.Chips
	EvenStacks bool
	// Stakes overrides the preset's default stakes when non-nil; SmallBlind the small blind of
	// online-draw (0 = half of MinBet).
	Stakes     *events.Stakes
	SmallBlind events.Chips
	// ExposeRate is the chance per hand of an exposed card (0 = DefaultExposeRate; negative = never).
	ExposeRate float64
	// Inject lists the finding codes to inject, one per otherwise clean hand, in rotation.
	Inject []finding.Code
	// Start is the simulated time of the first event; zero = 2026-11-29T12:00:00Z.
	Start time.Time
	// Cash plays a cash-game session (events-v1.md §7): between hands players sit out for a few
	// hands and come back (away), leave with their chips (left) and newcomers sit down with a
	// buy-in (joined), besides the rebuys of players who lost every chip. Only where the preset
	// allows it (CashAllowed).
	Cash bool
}

// CashAllowed reports whether a preset can play a cash session: players who come and go with
// their chips and rebuy. br-online is a match to the last chip (presets.md "next hand"); in
// online-draw a player who comes back or sits down waits for the big blind (waitsForBB).
func CashAllowed(preset string) bool {
	p, err := rules.Lookup(preset)
	return err == nil && p.Rebuys && !p.Starter
}

// DefaultStakes returns the stakes the simulator uses for a preset.
func DefaultStakes(preset string) events.Stakes {
	switch preset {
	case "br-fechado":
		return events.Stakes{Ante: 5, MinBet: 10, MaxBet: 100}
	case "br-online":
		return events.Stakes{MinBet: 10}
	case "tr-kapali":
		return events.Stakes{Ante: 5, MinBet: 10}
	case "std-draw":
		return events.Stakes{Ante: 5, MinBet: 10, MaxBet: 20}
	case "online-draw":
		return events.Stakes{MinBet: 10}
	}
	return events.Stakes{Ante: 5, MinBet: 10}
}

// Hand is one simulated hand: its events as written, and the irregularity injected into it.
type Hand struct {
	Events []*events.Event
	// Injected is the code injected into the hand ("" when the hand is clean); Seq is the event
	// at which the auditor must report it.
	Injected finding.Code
	Seq      events.Seq
	// Exposed reports that the dealer exposed a card on purpose (card.exposed warnings expected).
	Exposed bool
	// memory is what the hand leaves the auditor's table checks of the next one (verify).
	memory *audit.TableMemory
}

// Sim plays the hands of one table.
type Sim struct {
	cfg    Config
	preset rules.Preset
	stakes events.Stakes
	rng    *rand.Rand // game: shuffles, cuts, players
	idRng  *rand.Rand // ids and times
	injRng *rand.Rand // injections
	src    [2]*rand.ChaCha8
	clock  time.Time

	seats     []*seat
	dealer    events.Seat
	starter   events.Seat // br-online: the last hand's starter
	carry     events.Chips
	passedOut int
	passed    bool
	misdeal   bool
	number    int
	prevHand  string
	lastSeats []events.Seat
	// memory is what the table's last hand as written leaves the auditor's table checks, kept
	// when the table injects (verify judges each injected hand against it).
	memory   *audit.TableMemory
	played   int
	injectAt int
	injected []int // how many hands each code of cfg.Inject was injected into
	done     bool
	ending   Ending // why the table stopped early, once done
	// idSalt is mixed into every id the table draws (hands, events), derived from the table id:
	// two tables played with the same seed share their play but never an id.
	idSalt uint64
	// left lists the players gone since the last hand, for the next hand.started; cashRng draws
	// the comings and goings of a cash session (apart, so that the play is the same without).
	left    []events.LeftPlayer
	cashRng *rand.Rand
	// bb and bbBefore are the seats of the big blinds of the last two hands (blind games), sb
	// the seat that posted the last hand's small blind (0: dead); placedBB and placedSB the blinds
	// of the hand being played, as the simulator placed them. The rotation moves on from them as
	// the log records them (events-v1.md §7, continuity), as the auditor does.
	bb, bbBefore, placedBB events.Seat
	sb, placedSB           events.Seat
	newcomers              int

	// tour is set at the tables of a tournament (tournament.go): every hand carries it, a
	// player who goes out leaves the table (left, for the next hand.started) and nobody rebuys.
	tour *events.Tournament
	// collude is set at the tables of a room with planted colluders (room.go, collude.go).
	collude *collusion
}

type seat struct {
	seat    events.Seat
	name    string
	stack   events.Chips
	style   Style
	broke   int          // hands dealt in with no chips (tr-kapali)
	rebuy   events.Chips // chips bought before the next hand
	rebuys  int
	initial events.Chips
	// joined says he sat down since the table's last hand; away counts the hands he still sits
	// out; gone that he left the table (cash sessions, events-v1.md §7).
	joined bool
	away   int
	gone   bool
	// waitBB says that, in a blind game, he is back from sitting out or new at the table and
	// waits for the big blind to reach his seat before he is dealt in (waitsForBB).
	waitBB bool
	// from is the table a tournament player was moved from since the table's last hand.
	from string
	// share says a tournament player with no chips still has chips in the pot carried to the
	// next deal (a passed-out deal he anted all-in): he is dealt in with stack 0, not knocked out
	// (events-v1.md §7, 2026-12-05).
	share bool
}

// MaxRebuys is how many times a player who lost every chip buys in again, where the preset
// allows rebuys, before he leaves the table.
const MaxRebuys = 2

// unevenStacks are the starting stacks by seat, in percent of Config.Stack.
var unevenStacks = []int{100, 30, 150, 60, 120, 20, 80, 45, 110, 70}

var names = []string{"ana", "bruno", "carla", "deniz", "emre", "fatma", "gil", "hana", "ivo", "joana"}

// New checks cfg and seats the players.
func New(cfg Config) (*Sim, error) {
	p, err := rules.Lookup(cfg.Rules)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if _, ok := p.Low(cfg.Players); !ok {
		return nil, fmt.Errorf("%w: %s seats %d to %d players, not %d", ErrConfig, p.Name, p.MinPlayers, p.MaxPlayers, cfg.Players)
	}
	if cfg.Hands < 0 {
		return nil, fmt.Errorf("%w: a negative number of hands", ErrConfig)
	}
	if cfg.Table == "" {
		cfg.Table = DefaultTable
	}
	if !validTable(cfg.Table) {
		return nil, fmt.Errorf("%w: table id %q: 1-64 of A-Z a-z 0-9 _ -", ErrConfig, cfg.Table)
	}
	if cfg.Stack == 0 {
		cfg.Stack = DefaultStack
		if p.Name == "br-online" {
			cfg.Stack = DefaultOnlineStack
		}
	}
	if cfg.Stack < 0 {
		return nil, fmt.Errorf("%w: a negative stack", ErrConfig)
	}
	st := DefaultStakes(p.Name)
	if cfg.Stakes != nil {
		st = *cfg.Stakes
	}
	if st.MinBet <= 0 || st.Ante < 0 || st.MaxBet < 0 || (st.MaxBet > 0 && st.MaxBet < st.MinBet) {
		return nil, fmt.Errorf("%w: stakes need min_bet > 0 and max_bet 0 or at least min_bet", ErrConfig)
	}
	if p.Structure == rules.FixedLimit && st.MaxBet == 0 {
		return nil, fmt.Errorf("%w: fixed limit needs max_bet, the bet after the draw", ErrConfig)
	}
	if p.Ante && !p.Blinds && st.Ante == 0 {
		return nil, fmt.Errorf("%w: %s needs an ante", ErrConfig, p.Name)
	}
	if cfg.SmallBlind == 0 {
		cfg.SmallBlind = max(1, st.MinBet/2)
	}
	for _, c := range cfg.Inject {
		switch {
		case !Can(c):
			return nil, fmt.Errorf("%w: %q cannot be injected (see Injectable)", ErrConfig, c)
		case !fits(p, st, c):
			return nil, fmt.Errorf("%w: %q cannot happen at a %s table (see InjectableFor)", ErrConfig, c, p.Name)
		}
	}
	if cfg.Cash && !CashAllowed(p.Name) {
		return nil, fmt.Errorf("%w: %s has no cash sessions (see CashAllowed)", ErrConfig, p.Name)
	}
	if cfg.ExposeRate == 0 {
		cfg.ExposeRate = DefaultExposeRate
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	}
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], cfg.Seed)
	s := &Sim{cfg: cfg, preset: p, stakes: st, clock: cfg.Start, idSalt: tableSalt(cfg.Table)}
	s.src[0] = rand.NewChaCha8(key)
	s.rng = rand.New(s.src[0])
	key[8] = 1
	s.src[1] = rand.NewChaCha8(key)
	s.idRng = rand.New(s.src[1])
	key[8] = 2
	s.injRng = rand.New(rand.NewChaCha8(key))
	key[8] = 3
	s.cashRng = rand.New(rand.NewChaCha8(key))
	for i := 0; i < cfg.Players; i++ {
		stack := cfg.Stack
		if !cfg.EvenStacks && !p.Starter {
			// Stacks vary around the configured one, as at a real table, so that short
			// stacks go all in and side pots form.
			stack = max(1, stack*events.Chips(unevenStacks[i%len(unevenStacks)])/100)
		}
		s.seats = append(s.seats, &seat{seat: events.Seat(i + 1), name: names[i], stack: stack, initial: stack, style: styles[(i+int(cfg.Seed%uint64(len(styles))))%len(styles)]})
	}
	s.dealer = events.Seat(1 + s.rng.IntN(cfg.Players))
	return s, nil
}

// tableSalt derives the salt of a table's ids from its id (SHA-256, first 8 bytes).
func tableSalt(table string) uint64 {
	sum := sha256.Sum256([]byte("fechado/sim/ids/" + table))
	return binary.BigEndian.Uint64(sum[:8])
}

func validTable(t string) bool {
	if len(t) == 0 || len(t) > 64 {
		return false
	}
	for _, c := range []byte(t) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Next plays the next hand. It returns io.EOF when the hands are played or one player holds
// every chip.
func (s *Sim) Next() (*Hand, error) {
	if s.done || s.played >= s.cfg.Hands {
		return nil, io.EOF
	}
	s.bigBlindReaches()
	dealt := s.dealtIn()
	if len(dealt) < max(2, s.preset.MinPlayers) {
		s.done = true
		s.ending = s.endReason()
		return nil, io.EOF
	}
	snap := s.snapshot()
	var out *Hand
	// The codes take turns: the first that fits the hand (and stays the hand's only error) is
	// injected; when none does, the hand is played clean.
	for _, i := range s.turns() {
		h, err := s.hand(dealt, s.cfg.Inject[i])
		if err != nil {
			return nil, err
		}
		if h.Injected != "" {
			out = h
			s.injectAt = i + 1
			s.injected[i]++
			break
		}
		s.restore(snap)
	}
	if out == nil {
		var err error
		if out, err = s.hand(dealt, ""); err != nil {
			return nil, err
		}
	}
	if len(s.cfg.Inject) > 0 {
		// What the auditor's table checks of the next hand judge it against (verify).
		if out.memory == nil {
			_, out.memory = audit.HandAfter(out.Events, s.memory)
		}
		s.memory, out.memory = out.memory, nil
	}
	s.played++
	s.after(out.Events, snap)
	return out, nil
}

// turns returns the order in which the codes to inject are tried on the next hand: the codes
// injected the fewest times first, then in rotation from the one after the last injected. A
// code that few hands fit (a tie for pot.split, a showdown for pot.winner) is tried first on
// every hand until one fits it, rather than only when the codes before it in the rotation
// fitted none.
func (s *Sim) turns() []int {
	n := len(s.cfg.Inject)
	if len(s.injected) != n {
		s.injected = make([]int, n)
	}
	out := make([]int, n)
	for k := range out {
		out[k] = (s.injectAt + k) % n
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(s.injected[a], s.injected[b]) })
	return out
}

// hand plays one hand clean, then, when code is not "", mutates it so that the auditor reports
// code on it (Mutate); the hand is not injected when the mutation does not fit it.
func (s *Sim) hand(dealt []*seat, code finding.Code) (*Hand, error) {
	g, err := s.play(dealt)
	if err != nil {
		return nil, err
	}
	out := &Hand{Events: g.evs, Exposed: g.exposed}
	if code == "" {
		return out, nil
	}
	if (g.exposed || g.misdealt) && code != finding.TableDealer || !s.tableFits(code) {
		// The mutations follow clean hands; table.dealer's moves seats only, and fits a hand
		// with an exposed card or a misdeal too (a misdeal dealt by the wrong seat).
		return &Hand{}, nil
	}
	evs, ok := Mutate(code, g.evs, s.injRng, s.idSalt)
	if !ok {
		return &Hand{}, nil
	}
	out.Events = evs
	seq, mem, ok := verify(out.Events, code, s.memory)
	if !ok {
		return &Hand{}, nil
	}
	out.Injected, out.Seq, out.memory = code, seq, mem
	return out, nil
}

// Run plays every hand of cfg and writes the events to w as JSON Lines.
func Run(cfg Config, w io.Writer) error {
	return each(cfg, func(h *Hand) error { return WriteHand(w, h) })
}

// All plays every hand of cfg and returns them.
func All(cfg Config) ([]*Hand, error) {
	var out []*Hand
	err := each(cfg, func(h *Hand) error {
		out = append(out, h)
		return nil
	})
	return out, err
}

// each plays every hand of cfg, passing each to fn, until fn fails.
func each(cfg Config, fn func(*Hand) error) error {
	s, err := New(cfg)
	if err != nil {
		return err
	}
	return forEach(s.Next, fn)
}

// WriteAll writes every hand next gives (until io.EOF) to w as JSON Lines.
func WriteAll(w io.Writer, next func() (*Hand, error)) error {
	return forEach(next, func(h *Hand) error { return WriteHand(w, h) })
}

// forEach passes every hand next gives (until io.EOF) to fn, until either fails.
func forEach(next func() (*Hand, error), fn func(*Hand) error) error {
	for {
		h, err := next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(h); err != nil {
			return err
		}
	}
}

// WriteHand writes the events of h as JSON Lines.
func WriteHand(w io.Writer, h *Hand) error {
	var b []byte
	for _, e := range h.Events {
		b = append(b, e.Raw...)
		b = append(b, '\n')
	}
	_, err := w.Write(b)
	return err
}

// dealtIn returns the seats dealt into the next hand, in seat order.
func (s *Sim) dealtIn() []*seat {
	var out []*seat
	withChips := 0
	for _, p := range s.seats {
		if (p.stack+p.rebuy > 0 || p.share) && p.away == 0 && !p.gone && !p.waitBB {
			withChips++
		}
	}
	if withChips < 2 {
		return nil
	}
	for _, p := range s.seats {
		switch {
		case p.away > 0 || p.gone || p.waitBB:
		case p.stack+p.rebuy > 0 || p.share:
			out = append(out, p)
		case s.preset.BrokeDealtIn && p.broke < 2 && len(out) < s.preset.MaxPlayers && s.number > 0:
			out = append(out, p)
		}
	}
	if _, ok := s.preset.Low(len(out)); !ok {
		// Too many for the preset (cannot happen while players only leave); keep those with chips.
		out = out[:0]
		for _, p := range s.seats {
			if p.stack+p.rebuy > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

type snapshot struct {
	rebuy     [][2]events.Chips
	src       [2][]byte
	clock     time.Time
	number    int
	stacks    []events.Chips
	broke     []int
	dealer    events.Seat
	starter   events.Seat
	carry     events.Chips
	passedOut int
	passed    bool
	misdeal   bool
	prevHand  string
	lastSeats []events.Seat
}

func (s *Sim) snapshot() snapshot {
	sn := snapshot{dealer: s.dealer, starter: s.starter, carry: s.carry, passedOut: s.passedOut, passed: s.passed,
		misdeal: s.misdeal, prevHand: s.prevHand, lastSeats: s.lastSeats, clock: s.clock, number: s.number}
	for i, src := range s.src {
		sn.src[i], _ = src.MarshalBinary()
	}
	for _, p := range s.seats {
		sn.stacks = append(sn.stacks, p.stack)
		sn.broke = append(sn.broke, p.broke)
		sn.rebuy = append(sn.rebuy, [2]events.Chips{p.rebuy, events.Chips(p.rebuys)})
	}
	return sn
}

func (s *Sim) restore(sn snapshot) {
	s.restoreTable(sn)
	s.clock, s.number = sn.clock, sn.number
	for i, src := range s.src {
		_ = src.UnmarshalBinary(sn.src[i])
	}
}

// restoreTable sets the table back to sn, leaving the generators and the clock as they are.
func (s *Sim) restoreTable(sn snapshot) {
	for i, p := range s.seats {
		p.stack, p.broke = sn.stacks[i], sn.broke[i]
		p.rebuy, p.rebuys = sn.rebuy[i][0], int(sn.rebuy[i][1])
	}
	s.dealer, s.starter, s.carry, s.passedOut = sn.dealer, sn.starter, sn.carry, sn.passedOut
	s.passed, s.misdeal, s.prevHand, s.lastSeats = sn.passed, sn.misdeal, sn.prevHand, sn.lastSeats
}

// after sets the table from the hand as written (injected irregularities included), the way the
// auditor follows a table from hand to hand.
func (s *Sim) after(evs []*events.Event, sn snapshot) {
	last := evs[len(evs)-1]
	end, ok := last.Data.(*events.HandEnded)
	if !ok {
		// A hand cut short (log.incomplete): the table goes on as if it had not been dealt.
		s.restoreTable(sn)
		return
	}
	hs := evs[0].Data.(*events.HandStarted)
	replayed := s.misdeal // this hand replayed a misdeal: the rotation did not move
	s.passed, s.misdeal = false, false
	for _, e := range evs {
		switch e.Type {
		case events.HandPassedType:
			s.passed = true
		case events.MisdealDeclaredType:
			s.misdeal = true
		}
	}
	var seats []events.Seat
	for _, ss := range hs.Seats {
		seats = append(seats, ss.Seat)
	}
	// The hand as written may seat a player elsewhere than the table does (table.dealer's
	// mutation seats everyone one seat on): the table follows the players by name, as the
	// auditor does, and the blinds to the seats they were posted from.
	moved := map[events.Seat]events.Seat{}
	for _, ss := range hs.Seats {
		if p := s.seatOf(ss.Player); p != nil && p.seat != ss.Seat {
			moved[p.seat] = ss.Seat
		}
	}
	follow := func(seat events.Seat) events.Seat {
		if to, ok := moved[seat]; ok {
			return to
		}
		return seat
	}
	if s.preset.Blinds && s.placedBB != 0 {
		if !replayed {
			s.bbBefore = s.bb
		}
		// The small blind where this hand posted it, a replay of a misdeal too (rules.Rotation.
		// After): a replay written from another dealer posts it elsewhere than the misdeal.
		s.sb = follow(s.placedSB)
		s.bb = follow(s.placedBB)
	}
	s.dealer = hs.Dealer
	s.starter = rules.NextSeat(seats, hs.Dealer)
	s.lastSeats = seats
	s.passedOut = hs.PassedOut
	s.carry = end.Carry
	s.prevHand = last.Hand
	s.left = nil
	for _, p := range s.seats {
		p.joined, p.from = false, ""
	}
	for _, st := range end.Stacks {
		for _, p := range s.seats {
			if p.name == playerAt(hs, st.Seat) {
				p.rebuy = 0
				if p.stack == 0 && st.Stack == 0 {
					p.broke++
				}
				p.stack = st.Stack
				if st.Stack > 0 {
					p.broke = 0
				}
			}
		}
	}
	if s.tour != nil {
		// A tournament: a player with no chips is knocked out and leaves the table, unless his
		// last chips are in the pot this deal carries (events-v1.md §7, 2026-12-05): then he is
		// dealt in to the next deal with stack 0, all-in, and plays for the carry.
		kept := s.seats[:0]
		for _, p := range s.seats {
			p.share = p.stack == 0 && end.Carry > 0 && slices.Contains(seats, p.seat)
			if p.stack > 0 || p.share {
				kept = append(kept, p)
			} else {
				s.left = append(s.left, events.LeftPlayer{Player: p.name})
			}
		}
		clear(s.seats[len(kept):])
		s.seats = kept
		return
	}
	// A player who lost every chip buys in again (where the preset allows it), while the
	// table still has two players with chips; else he leaves (tr-kapali: after sitting two
	// hands with none).
	rich := 0
	for _, p := range s.seats {
		if p.stack > 0 {
			rich++
		}
	}
	for _, p := range s.seats {
		waits := s.preset.BrokeDealtIn && p.broke < 2
		if p.stack == 0 && !waits && s.preset.Rebuys && p.rebuys < MaxRebuys && rich >= 2 && s.rng.IntN(10) < 7 {
			p.rebuy = p.initial
			p.rebuys++
		}
		if p.stack == 0 && p.rebuy == 0 && s.preset.Blinds {
			// In a blind game he buys in now or not at all: coming back later he might sit
			// between the button and the blinds, where the TDA makes a newcomer wait.
			p.rebuys = MaxRebuys
		}
	}
	if s.cfg.Cash {
		s.comingsAndGoings()
	}
}

// seatOf returns the player of the table called name, or nil.
func (s *Sim) seatOf(name string) *seat {
	for _, p := range s.seats {
		if p.name == name {
			return p
		}
	}
	return nil
}

// playerAt returns the name of the player hs deals in at seat, or "".
func playerAt(hs *events.HandStarted, seat events.Seat) string {
	for _, ss := range hs.Seats {
		if ss.Seat == seat {
			return ss.Player
		}
	}
	return ""
}

// tableFits reports whether the table can show code in its next hand and in no other: a cash
// player left out of a hand (table.seating) may leave before his next one, listed as gone from
// a hand he was not in, a second finding, of the next hand.
func (s *Sim) tableFits(code finding.Code) bool {
	return code != finding.TableSeating || !s.cfg.Cash
}

// nextDealer is presets.md "next hand": the deal (or br-online's starter) passes left; after a
// misdeal the same dealer deals again.
func (s *Sim) nextDealer(seats []events.Seat) events.Seat {
	if s.lastSeats == nil {
		return s.dealer
	}
	return s.preset.NextDealer(seats, s.dealer, s.starter, s.misdeal)
}

// blinds places the button and the blinds of a blind game by the TDA dead-button rule
// (events-v1.md §7, rules.Rotation.PlaceAway), given the seats dealt in and the dealer the last
// hand leaves by the deal passing left. With no big blind to move on from, the blinds are left of
// the dealer given. The players away at the next hand (awayList) still sit at the table: one of
// them on the last small blind's seat keeps the dead button there (events.md, Reading R6).
func (s *Sim) blinds(seats []events.Seat, dealer events.Seat) (button, sb, bb events.Seat) {
	if s.misdeal && s.bb != 0 {
		// The misdeal's blinds play again.
		return s.dealer, s.sbAgain(seats), s.bb
	}
	var away []events.Seat
	for _, a := range s.awayList() {
		away = append(away, a.Seat)
	}
	b := rules.Rotation{LastBB: s.bb, BBBefore: s.bbBefore, LastSB: s.sb, LastDealtIn: len(s.lastSeats)}.PlaceAway(seats, rules.SeatSetOf(away), dealer)
	return b.Button, b.Small, b.Big
}

// sbAgain is the small blind of the hand replayed after a misdeal: the seat before the big blind;
// heads-up the button, unless the button is dead on the seat of a player away (blinds).
func (s *Sim) sbAgain(seats []events.Seat) events.Seat {
	if len(seats) == 2 && slices.Contains(seats, s.dealer) {
		return s.dealer
	}
	return rules.PrevSeat(seats, s.bb)
}

// tick advances the simulated clock and returns the time of the next event.
func (s *Sim) tick() string {
	s.clock = s.clock.Add(time.Duration(300+s.idRng.IntN(3700)) * time.Millisecond)
	return s.clock.Format("2006-01-02T15:04:05.000Z07:00")
}

// newID returns a UUID in the version 7 layout: the simulated time in milliseconds, then random
// bits from the seeded generator, mixed with the table's salt.
func (s *Sim) newID() string { return uuid7(s.idRng, s.clock, s.idSalt) }

// uuid7 draws a version 7 UUID at time t from r; salt (the table's) is mixed into its random
// bits, so that the same seed at two tables gives two sets of ids.
func uuid7(r *rand.Rand, t time.Time, salt uint64) string {
	var b [16]byte
	ms := uint64(t.UnixMilli())
	b[0], b[1], b[2], b[3], b[4], b[5] = byte(ms>>40), byte(ms>>32), byte(ms>>24), byte(ms>>16), byte(ms>>8), byte(ms)
	binary.BigEndian.PutUint64(b[8:], r.Uint64()^salt)
	x := r.Uint32()
	b[6], b[7] = byte(x>>8), byte(x)
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (s *Sim) newSeed() cards.Seed {
	var sd cards.Seed
	for i := 0; i < len(sd); i += 8 {
		binary.LittleEndian.PutUint64(sd[i:], s.rng.Uint64())
	}
	return sd
}

// Won reports whether the table stopped before its hands were played (Ending says why).
func (s *Sim) Won() bool { return s.done }

// Ending says why a table stopped before Config.Hands were played.
type Ending struct {
	Played int // hands played
	// Reason: EndOneLeft or EndTooFew; "" while the table has not stopped early.
	Reason string
	// Player holds every chip (EndOneLeft); WithChips counts the players who still have chips
	// and may be dealt in, Needed the fewest the preset deals in (EndTooFew).
	Player            string
	WithChips, Needed int
}

// The reasons a table stops early.
const (
	EndOneLeft = "one-left" // one player holds every chip; the others left or are out
	EndTooFew  = "too-few"  // fewer players with chips than the preset deals in
)

// Ending returns why the table stopped before its hands were played; its Reason is "" when it
// did not (yet).
func (s *Sim) Ending() Ending {
	e := s.ending
	e.Played = s.played
	return e
}

// endReason tells, once no hand can be dealt, why.
func (s *Sim) endReason() Ending {
	var with []*seat
	for _, p := range s.seats {
		if p.stack+p.rebuy > 0 && p.away == 0 && !p.gone && !p.waitBB {
			with = append(with, p)
		}
	}
	if len(with) == 1 {
		return Ending{Reason: EndOneLeft, Player: with[0].name, WithChips: 1, Needed: max(2, s.preset.MinPlayers)}
	}
	return Ending{Reason: EndTooFew, WithChips: len(with), Needed: max(2, s.preset.MinPlayers)}
}
