package sim

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// Defaults of TournamentConfig.
const (
	DefaultTournament    = "sim-tournament"
	DefaultLevelDuration = 10 * time.Minute
)

// TournamentConfig says what tournament to simulate.
type TournamentConfig struct {
	Rules   string // preset name
	ID      string // tournament id; DefaultTournament when empty
	Entries int    // players who enter
	// Tables is the number of tables opened at the start; more are opened when the entries do
	// not fit at tables of the preset's seat count.
	Tables int
	// Stack is every entry's starting stack; 0 = the preset's default (as Config.Stack).
	Stack events.Chips
	// Stakes are level 1's (nil: DefaultStakes); each level multiplies them (LevelStakes).
	Stakes *events.Stakes
	// Level is how long a level lasts in simulated time; 0 = DefaultLevelDuration.
	Level      time.Duration
	Seed       uint64
	ExposeRate float64
	// Inject lists tournament codes to inject wherever they fit (TournamentInjectable).
	Inject []finding.Code
	Start  time.Time
	// Colluders is the number of planted pairs of colluders among the entries; Collusion the
	// kinds they play, given to the pairs in turn (CollusionKinds; empty = all three), as in a
	// room (RoomConfig). The draw seats each pair at the same table.
	Colluders int
	Collusion []string
}

// TournamentInjectable lists the codes a simulated tournament can inject: a moved player
// arriving with other chips (tournament.move), a table playing a level below its last one
// (tournament.level), a player who never entered seated with chips once a table has broken
// (tournament.chips). tournament.place is information, never an irregularity.
func TournamentInjectable() []finding.Code {
	return []finding.Code{finding.TournamentChips, finding.TournamentMove, finding.TournamentLevel}
}

// levelFactors multiply level 1's stakes, level by level; past the list each level is half as
// much again as the one before.
var levelFactors = []int64{1, 2, 3, 4, 6, 8, 10, 15, 20, 30, 40, 60, 80, 100, 150, 200, 300, 400, 600, 800, 1000}

// LevelStakes returns the stakes of level (1, 2, …) given level 1's.
func LevelStakes(base events.Stakes, level int) events.Stakes {
	f := int64(1)
	switch {
	case level <= 0:
	case level <= len(levelFactors):
		f = levelFactors[level-1]
	default:
		f = levelFactors[len(levelFactors)-1]
		for i := len(levelFactors); i < level && f < math.MaxInt64/4; i++ {
			f += f / 2
		}
	}
	return events.Stakes{Ante: base.Ante * events.Chips(f), MinBet: base.MinBet * events.Chips(f), MaxBet: base.MaxBet * events.Chips(f)}
}

// TournamentSim plays a tournament: its tables play in parallel, interleaved in simulated time,
// the levels rise on a schedule, and tables are balanced and broken as players go out, until
// one player holds every chip. The same seed gives the same bytes.
type TournamentSim struct {
	cfg    TournamentConfig
	preset rules.Preset
	base   events.Stakes
	tables []*tourTable
	rng    *rand.Rand
	// played holds the hands played and not yet given, in the order they end: a hand is given
	// once no table can deal a hand that ends before it, so that the log's hands end in time
	// order, as the tables' logs merged in time order would give them.
	played []playedHand
	extra  int // players who never entered, injected (tournament.chips)
	// pendingExtra is set by a table break when tournament.chips is injected: a player who never
	// entered sits down as soon as a table has a seat.
	pendingExtra bool
	// broke is the time of the last table break.
	broke time.Time
	done  bool
	// pairs are the planted colluders (Colluders).
	pairs []Pair
	// Moves counts the players moved between tables; Breaks the tables broken.
	Moves, Breaks int
}

// tourTable is one table of the tournament and what is injected into its next hand.
type tourTable struct {
	id    string
	s     *Sim
	open  bool
	level int // the level of its last hand
	at    int // hands played at that level
	inj   finding.Code
}

// NewTournament checks cfg, draws the seats and opens the tables.
func NewTournament(cfg TournamentConfig) (*TournamentSim, error) {
	p, err := rules.Lookup(cfg.Rules)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if cfg.ID == "" {
		cfg.ID = DefaultTournament
	}
	if !validTable(cfg.ID) {
		return nil, fmt.Errorf("%w: tournament id %q: 1-64 of A-Z a-z 0-9 _ -", ErrConfig, cfg.ID)
	}
	if cfg.Tables <= 0 {
		cfg.Tables = 1
	}
	if cfg.Entries < 2 {
		return nil, fmt.Errorf("%w: a tournament needs at least 2 entries", ErrConfig)
	}
	n := max(cfg.Tables, (cfg.Entries+p.MaxPlayers-1)/p.MaxPlayers)
	if cfg.Entries < n*p.MinPlayers {
		n = cfg.Entries / p.MinPlayers
	}
	if cfg.Level <= 0 {
		cfg.Level = DefaultLevelDuration
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	}
	for _, c := range cfg.Inject {
		if !slices.Contains(TournamentInjectable(), c) {
			return nil, fmt.Errorf("%w: %q cannot be injected into a tournament (see TournamentInjectable)", ErrConfig, c)
		}
	}
	var key [32]byte
	key[0], key[1] = 't', 'o'
	for i := 0; i < 8; i++ {
		key[8+i] = byte(cfg.Seed >> (8 * i))
	}
	if len(cfg.Collusion) == 0 {
		cfg.Collusion = CollusionKinds
	}
	for _, k := range cfg.Collusion {
		if err := validKind(k); err != nil {
			return nil, err
		}
	}
	if cfg.Colluders < 0 || 2*cfg.Colluders > cfg.Entries {
		return nil, fmt.Errorf("%w: %d pairs of colluders among %d entries", ErrConfig, cfg.Colluders, cfg.Entries)
	}
	t := &TournamentSim{cfg: cfg, preset: p, rng: rand.New(rand.NewChaCha8(key))}
	order := t.rng.Perm(cfg.Entries)
	size := func(i int) int {
		k := cfg.Entries / n
		if i < cfg.Entries%n {
			k++
		}
		return k
	}
	var col *collusion
	if cfg.Colluders > 0 {
		t.pairs = t.plant(order, n, size)
		col = newCollusion(t.pairs, cfg.Seed)
	}
	for i := 0; i < n; i++ {
		k := size(i)
		tc := Config{Rules: cfg.Rules, Players: k, Hands: math.MaxInt, Seed: cfg.Seed*1_000_003 + uint64(i),
			Table: fmt.Sprintf("%s-t%02d", cfg.ID, i+1), Stack: cfg.Stack, EvenStacks: true, Stakes: cfg.Stakes,
			ExposeRate: cfg.ExposeRate, Start: cfg.Start}
		if len(tc.Table) > 64 {
			return nil, fmt.Errorf("%w: tournament id %q too long for its table ids", ErrConfig, cfg.ID)
		}
		s, err := New(tc)
		if err != nil {
			return nil, err
		}
		s.collude = col
		t.base = s.stakes
		t.cfg.Stack = s.cfg.Stack
		entries, stack := cfg.Entries, s.cfg.Stack
		s.tour = &events.Tournament{ID: cfg.ID, Level: 1, Entries: &entries, Stack: &stack}
		for j, st := range s.seats {
			st.name = playerName(order[0])
			order = order[1:]
			st.joined = true
			st.style = styles[(j+i)%len(styles)]
		}
		t.tables = append(t.tables, &tourTable{id: tc.Table, s: s, open: true, level: 1})
	}
	return t, nil
}

// plant draws the pairs of colluders among the entries, with a generator of its own so that a
// tournament without colluders keeps its bytes, and changes the draw order (entries in seat
// order, table after table, size(i) at table i of n) so that each pair sits at one table: the
// partner takes the place of an honest entry at his colluder's table. Balancing and breaking
// tables may part them later, as in a real tournament.
func (t *TournamentSim) plant(order []int, n int, size func(int) int) []Pair {
	rng := rand.New(rand.NewPCG(t.cfg.Seed, 0x70c0))
	perm := rng.Perm(t.cfg.Entries)
	colluder := map[int]bool{}
	var pairs []Pair
	for k := range t.cfg.Colluders {
		a, b := perm[2*k], perm[2*k+1]
		colluder[a], colluder[b] = true, true
		pairs = append(pairs, Pair{A: playerName(a), B: playerName(b), Kind: t.cfg.Collusion[k%len(t.cfg.Collusion)]})
	}
	table := make([]int, len(order)) // the table of each place of order
	for i, at := 0, 0; i < n; i++ {
		for range size(i) {
			table[at] = i
			at++
		}
	}
	for k := range t.cfg.Colluders {
		a, b := perm[2*k], perm[2*k+1]
		pa, pb := slices.Index(order, a), slices.Index(order, b)
		if table[pa] == table[pb] {
			continue
		}
		for q := range order {
			if table[q] == table[pa] && !colluder[order[q]] {
				order[q], order[pb] = order[pb], order[q]
				break
			}
		}
	}
	return pairs
}

// Pairs returns the planted pairs of colluders (TournamentConfig.Colluders), as sim --truth
// writes them; in a chip dump A passes chips to B.
func (t *TournamentSim) Pairs() []Pair { return slices.Clone(t.pairs) }

// playerName names entry i (0-based): the simulator's names, numbered.
func playerName(i int) string { return fmt.Sprintf("%s-%d", names[i%len(names)], i/len(names)+1) }

// Tables returns the ids of the tables opened, in order.
func (t *TournamentSim) Tables() []string {
	var out []string
	for _, tb := range t.tables {
		out = append(out, tb.id)
	}
	return out
}

// levelAt is the level the clock is in.
func (t *TournamentSim) levelAt(c time.Time) int {
	return 1 + int(c.Sub(t.cfg.Start)/t.cfg.Level)
}

// playedHand is a hand played and the time it ended.
type playedHand struct {
	h   *Hand
	end time.Time
	at  int // the table's index, for equal times
}

// Next returns the next hand of the tournament, in the order the hands end. It returns io.EOF
// once one player holds every chip.
func (t *TournamentSim) Next() (*Hand, error) {
	for {
		next := t.nextTable()
		if len(t.played) > 0 && (next == nil || !next.s.clock.Before(t.played[0].end)) {
			// No table can deal a hand that ends before the first one played.
			h := t.played[0].h
			t.played = slices.Delete(t.played, 0, 1)
			return h, nil
		}
		if next == nil {
			t.done = true
			return nil, io.EOF
		}
		h, err := t.play(next)
		if err != nil {
			return nil, err
		}
		end, _ := time.Parse(time.RFC3339Nano, h.Events[len(h.Events)-1].At)
		ph := playedHand{h, end, slices.Index(t.tables, next)}
		i, _ := slices.BinarySearchFunc(t.played, ph, func(a, b playedHand) int {
			if c := a.end.Compare(b.end); c != 0 {
				return c
			}
			return cmp.Compare(a.at, b.at)
		})
		t.played = slices.Insert(t.played, i, ph)
	}
}

// nextTable returns the open table with players enough whose clock is earliest, or nil.
func (t *TournamentSim) nextTable() *tourTable {
	if t.done {
		return nil
	}
	var tb *tourTable
	for _, x := range t.tables {
		if x.open && len(x.s.seats) >= max(2, t.preset.MinPlayers) && (tb == nil || x.s.clock.Before(tb.s.clock)) {
			tb = x
		}
	}
	return tb
}

// play plays the next hand of tb and rearranges the tables after it.
func (t *TournamentSim) play(tb *tourTable) (*Hand, error) {
	lv := max(t.levelAt(tb.s.clock), tb.level)
	inj := tb.inj
	if lv > tb.level {
		tb.at = 0
	}
	tb.level = lv
	play := lv
	if inj == "" && lv >= 2 && tb.at == 1 && t.injects(finding.TournamentLevel) {
		play, inj = lv-1, finding.TournamentLevel // the table goes back a level for one hand
	}
	tb.at++
	tb.s.stakes = LevelStakes(t.base, play)
	tb.s.cfg.SmallBlind = max(1, tb.s.stakes.MinBet/2)
	tb.s.tour.Level = play
	h, err := tb.s.Next()
	if err != nil {
		return nil, err
	}
	tb.inj = ""
	if inj != "" {
		h.Injected, h.Seq = inj, 1
		if inj == finding.TournamentChips {
			h.Seq = h.Events[len(h.Events)-1].Seq // at the end of the hand, in the tournament's chips
		}
	}
	t.rearrange()
	return h, nil
}

func (t *TournamentSim) injects(c finding.Code) bool { return slices.Contains(t.cfg.Inject, c) }

// remaining returns the players still in and the open tables.
func (t *TournamentSim) remaining() (players int, open []*tourTable) {
	for _, tb := range t.tables {
		if tb.open {
			players += len(tb.s.seats)
			open = append(open, tb)
		}
	}
	return players, open
}

// rearrange breaks and balances tables, the way a tournament director does between hands:
// a table is broken as soon as the others have seats for its players, and a table with two
// players more than the shortest gives it the player who would deal next.
func (t *TournamentSim) rearrange() {
	for range 4 * len(t.tables) {
		rem, open := t.remaining()
		if rem <= 1 {
			t.done = true
			return
		}
		if len(open) > 1 && rem <= (len(open)-1)*t.preset.MaxPlayers {
			// Break the shortest table whose pot is empty (or one too short to play at all).
			var brk *tourTable
			for _, tb := range open {
				ok := tb.s.carry == 0 && !tb.s.misdeal && !slices.ContainsFunc(tb.s.seats, fresh)
				if (ok || len(tb.s.seats) < 2) && (brk == nil || len(tb.s.seats) < len(brk.s.seats)) {
					brk = tb
				}
			}
			if brk != nil {
				t.breakTable(brk)
				continue
			}
		}
		slices.SortStableFunc(open, func(a, b *tourTable) int { return cmp.Compare(len(a.s.seats), len(b.s.seats)) })
		short, long := open[0], open[len(open)-1]
		if t.pendingExtra && len(short.s.seats) < t.preset.MaxPlayers && short.inj == "" {
			t.seatExtra(short)
			continue
		}
		if len(long.s.seats) < len(short.s.seats)+2 || long.s.misdeal {
			return
		}
		i := t.nextToDeal(long)
		if i < 0 {
			return
		}
		t.move(long.s.seats[i], long, short)
	}
}

// fresh reports whether p has not been dealt in at his table yet (he sat down or was moved
// there since its last hand): he is not moved before he has played there, since a move's from
// names the table of his last hand and left lists the players of the table's last hand.
func fresh(p *seat) bool { return p.joined || p.from != "" }

// nextToDeal returns the index of the player of tb who would deal the next hand, or the next
// one after him in the order of the deal who is not fresh; -1 when there is none.
func (t *TournamentSim) nextToDeal(tb *tourTable) int {
	var seats []events.Seat
	for _, p := range tb.s.seats {
		seats = append(seats, p.seat)
	}
	d := tb.s.nextDealer(seats)
	for range seats {
		for i, p := range tb.s.seats {
			if p.seat == d && !fresh(p) && !p.share { // a share in the carry stays at its table
				return i
			}
		}
		d = rules.NextSeat(seats, d)
	}
	return -1
}

// breakTable moves every player of tb, each to the shortest other table, and closes it.
func (t *TournamentSim) breakTable(tb *tourTable) {
	tb.open = false
	t.Breaks++
	t.broke = tb.s.clock
	if t.injects(finding.TournamentChips) {
		t.pendingExtra = true // seated as soon as a table has a seat for him
	}
	for len(tb.s.seats) > 0 {
		var to *tourTable
		for _, x := range t.tables {
			if x.open && len(x.s.seats) < t.preset.MaxPlayers && (to == nil || len(x.s.seats) < len(to.s.seats)) {
				to = x
			}
		}
		if to == nil {
			return // cannot happen: the break waits until the other tables have the seats
		}
		t.move(tb.s.seats[0], tb, to)
	}
}

// seatExtra seats at tb a player who never entered, with a starting stack: chips that appear
// after a table break (tournament.chips).
func (t *TournamentSim) seatExtra(tb *tourTable) {
	t.pendingExtra = false
	t.extra++
	tb.s.seats = append(tb.s.seats, &seat{seat: worstSeat(tb, t.preset.MaxPlayers), name: fmt.Sprintf("extra-%d", t.extra),
		stack: t.cfg.Stack, initial: t.cfg.Stack, style: styles[t.extra%len(styles)], joined: true})
	slices.SortFunc(tb.s.seats, func(a, b *seat) int { return cmp.Compare(a.seat, b.seat) })
	tb.inj = finding.TournamentChips
	if c := t.broke; tb.s.clock.Before(c) {
		tb.s.clock = c // he sits down after the break
	}
}

// move takes player p from table from to the worst seat at table to: the empty seat that will
// deal last.
func (t *TournamentSim) move(p *seat, from, to *tourTable) {
	from.s.seats = slices.DeleteFunc(from.s.seats, func(x *seat) bool { return x == p })
	if from.open && !fresh(p) {
		// left lists the players of from's last hand: one moved there and on before it dealt him
		// a hand passed through without a trace in its log.
		from.s.left = append(from.s.left, events.LeftPlayer{Player: p.name, Stack: p.stack, To: to.id})
	}
	t.Moves++
	// from names the table he was last moved from (events-v1.md §7, 2026-12-05): from itself,
	// even when it never dealt him a hand (it broke first: a chain through it).
	np := &seat{seat: worstSeat(to, t.preset.MaxPlayers), name: p.name, stack: p.stack, style: p.style, initial: p.initial,
		joined: true, from: from.id}
	if p.joined && p.from == "" {
		np.from = "" // he has played no hand of the tournament yet: he sits down for the first time at to
	}
	if to.inj == "" && t.injects(finding.TournamentMove) {
		np.stack += to.s.stakes.MinBet // he arrives with chips he did not have
		to.inj = finding.TournamentMove
	}
	to.s.seats = append(to.s.seats, np)
	slices.SortFunc(to.s.seats, func(a, b *seat) int { return cmp.Compare(a.seat, b.seat) })
	if to.s.clock.Before(from.s.clock) {
		to.s.clock = from.s.clock // the table waits for him
	}
}

// worstSeat returns the empty seat of tb (1 … seats) that comes last after its dealer.
func worstSeat(tb *tourTable, seats int) events.Seat {
	taken := map[events.Seat]bool{}
	for _, p := range tb.s.seats {
		taken[p.seat] = true
	}
	d := int(tb.s.dealer)
	best, bestDist := events.Seat(0), -1
	for x := 1; x <= seats; x++ {
		if taken[events.Seat(x)] {
			continue
		}
		if dist := ((x-d-1)%seats + seats) % seats; dist > bestDist {
			best, bestDist = events.Seat(x), dist
		}
	}
	return best
}

// RunTournament plays the tournament of cfg and writes its events to w as JSON Lines, hand by
// hand in the order the hands end.
func RunTournament(cfg TournamentConfig, w io.Writer) error {
	t, err := NewTournament(cfg)
	if err != nil {
		return err
	}
	return WriteAll(w, t.Next)
}
