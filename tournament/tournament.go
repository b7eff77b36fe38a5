// Package tournament owns the tournament model of events-v1.md §7: the tournaments a log's hands
// belong to, with their entries and chips, the tables and the players moved between them, the
// levels, the knock-outs and the finishing places. It follows hands as they end, in the order of
// the log (hand.ended in time order), and reports what only a view across all the tables of a
// tournament can see: the tournament.* codes of findings-v1.md. It keeps one record per
// tournament, per table and per player, never per hand, so its memory does not grow with the
// number of hands played.
package tournament

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// Hand is what the model reads of one ended hand of a tournament.
type Hand struct {
	Table string
	ID    string // the hand's id
	Start *events.HandStarted
	End   *events.HandEnded
	// StartAt and EndAt are the times of hand.started and hand.ended.
	StartAt, EndAt time.Time
	// EndSeq is the seq of hand.ended, where the findings of the hand's end are reported.
	EndSeq events.Seq
}

// HandOf reads a Hand from the events of one hand in seq order. ok is false when the hand does
// not start with hand.started, belongs to no tournament or has not ended.
func HandOf(evs []*events.Event) (h Hand, ok bool) {
	if len(evs) == 0 {
		return h, false
	}
	first, last := evs[0], evs[len(evs)-1]
	hs, ok1 := first.Data.(*events.HandStarted)
	end, ok2 := last.Data.(*events.HandEnded)
	if !ok1 || !ok2 || hs.Tournament == nil || hs.Tournament.ID == "" {
		return h, false
	}
	h = Hand{Table: first.Table, ID: first.Hand, Start: hs, End: end, EndSeq: last.Seq}
	h.StartAt, _ = ParseTime(first.At)
	h.EndAt, _ = ParseTime(last.At)
	return h, true
}

// ParseTime reads an event's RFC 3339 time.
func ParseTime(at string) (time.Time, error) { return time.Parse(time.RFC3339Nano, at) }

// Book holds every tournament seen, by id.
type Book struct {
	byID  map[string]*Tournament
	order []*Tournament
}

// NewBook returns an empty Book.
func NewBook() *Book { return &Book{byID: map[string]*Tournament{}} }

// Tournaments returns the tournaments in the order first seen.
func (b *Book) Tournaments() []*Tournament { return b.order }

// Get returns the tournament id, or nil.
func (b *Book) Get(id string) *Tournament { return b.byID[id] }

// Add follows one ended hand of a tournament and appends its findings to dst. The findings name
// the hand, its table and the seq of the event that shows them: hand.started (seq 1) for what the
// hand's start gets wrong, hand.ended for what its end leaves.
func (b *Book) Add(dst []finding.Finding, h *Hand) []finding.Finding {
	id := h.Start.Tournament.ID
	t := b.byID[id]
	if t == nil {
		t = newTournament(strings.Clone(id))
		b.byID[t.ID] = t
		b.order = append(b.order, t)
	}
	return t.add(dst, h)
}

// Tournament is one tournament as its hands so far leave it.
type Tournament struct {
	ID string
	// Entries and Stack are the entries and the starting stack of each, as last given (0 until
	// a hand gives them).
	Entries int
	Stack   events.Chips
	// Rebuys is the chips added by rebuys and add-ons so far.
	Rebuys events.Chips
	// Level is the highest level dealt so far.
	Level int
	// Hands counts the hands followed.
	Hands int
	// First and Last are the start of its first hand and the end of its last one.
	First, Last time.Time

	players map[string]*Player
	plist   []*Player
	tables  map[string]*Table
	tlist   []*Table
	levels  map[int]events.Stakes
	// vias counts the players with a via still to be judged: while there is none, a hand does
	// not look for them.
	vias int
	// sum is the chips of every player seen and every table's carry, as the last hands leave
	// them; adjust is what the findings already reported (or the checks of single tables account
	// for) have put apart, so that one irregularity is reported once.
	sum, adjust events.Chips
	seen, out   int
}

func newTournament(id string) *Tournament {
	return &Tournament{ID: id, players: map[string]*Player{}, tables: map[string]*Table{}, levels: map[int]events.Stakes{}}
}

// Player is one player of a tournament.
type Player struct {
	Name string
	// Table is the table he sits at ("" once knocked out); Seat his seat there.
	Table string
	Seat  events.Seat
	// Chips is his stack as his last hand left it (or as he was moved with).
	Chips events.Chips
	// Out is set once he is knocked out; Place is then his finishing place, OutHand and
	// OutTable the hand he went out in and its table, OutAt its end.
	Out      bool
	Place    int
	OutHand  string
	OutTable string
	OutAt    time.Time
	// Hands counts the hands he was dealt in; Rebuys the chips he added.
	Hands  int
	Rebuys events.Chips

	lastTable        string // table of his last hand dealt in
	lastStart        time.Time
	lastEnd          time.Time
	moveFrom, moveTo string // a left.to not yet matched by his arrival
	arrivedFrom      string // a from not yet matched by its table's left.to …
	arrivedAt        string // … and the table he arrived at
	// via is a from that was neither the table of his last hand nor the to of his last left:
	// a table he passed through without being dealt a hand, which must then never deal again (it
	// broke, events-v1.md §7, 2026-12-05); viaAt is when he sat down coming from it.
	via   string
	viaAt time.Time
}

// Table is one table of a tournament.
type Table struct {
	ID    string
	Level int
	// Carry is the chips its last hand left in the pot.
	Carry events.Chips
	// Hands counts its hands; Number and Hand are the number and id of the last one, Start and
	// End its times.
	Hands      int
	Number     int
	Hand       string
	Start, End time.Time
	Stakes     events.Stakes
	// Players are the players of its last hand, dealt in or away, in seat order.
	Players []*Player
	spare   []*Player
}

// Tables returns the tournament's tables in the order first seen.
func (t *Tournament) Tables() []*Table { return t.tlist }

// Players returns the tournament's players in the order first seen.
func (t *Tournament) Players() []*Player { return t.plist }

// InPlay returns how many players are still in: the entries (or the players seen, when more)
// less those knocked out.
func (t *Tournament) InPlay() int { return max(t.Entries, t.seen) - t.out }

// Seen returns how many players have been dealt in or seated so far.
func (t *Tournament) Seen() int { return t.seen }

// Chips returns the chips the tournament's tables hold (players not seen yet counted with the
// starting stack) and the chips its entries and rebuys make.
func (t *Tournament) Chips() (held, made events.Chips) {
	unseen := max(0, t.Entries-t.seen)
	return t.sum + events.Chips(unseen)*t.Stack, events.Chips(t.Entries)*t.Stack + t.Rebuys
}

// Finished reports whether one player holds every chip: the tournament has a winner. Never
// while chips sit in a pot carried to a table's next deal (events-v1.md §7, 2026-12-05).
func (t *Tournament) Finished() bool {
	return t.seen > 0 && t.seen >= t.Entries && t.InPlay() == 1 && t.carried() == 0
}

// carried returns the chips the tables' last hands carried to their next deals.
func (t *Tournament) carried() events.Chips {
	var c events.Chips
	for _, tb := range t.tlist {
		c += tb.Carry
	}
	return c
}

// Standing is one line of the standings.
type Standing struct {
	Player string `json:"player"`
	// Place is the finishing place (1 for the winner of a finished tournament); 0 while he is
	// still in.
	Place int `json:"place"`
	// Rank orders everyone: the players still in by chips, then those out by place.
	Rank  int          `json:"rank"`
	Chips events.Chips `json:"chips"`
	// Table is where he sits, or the table he went out at.
	Table string `json:"table"`
	// Hand is the hand he went out in ("" while in).
	Hand string `json:"hand,omitempty"`
}

// Standings returns every player seen: those still in by chips (more first, then by name), then
// those knocked out by place.
func (t *Tournament) Standings() []Standing {
	var in, out []*Player
	for _, p := range t.plist {
		if p.Out {
			out = append(out, p)
		} else {
			in = append(in, p)
		}
	}
	slices.SortStableFunc(in, func(a, b *Player) int {
		if c := cmp.Compare(b.Chips, a.Chips); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	slices.SortStableFunc(out, func(a, b *Player) int {
		if c := cmp.Compare(a.Place, b.Place); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	var st []Standing
	for i, p := range in {
		s := Standing{Player: p.Name, Rank: i + 1, Chips: p.Chips, Table: p.Table}
		if t.Finished() {
			s.Place = 1
		}
		st = append(st, s)
	}
	for _, p := range out {
		st = append(st, Standing{Player: p.Name, Place: p.Place, Rank: p.Place, Table: p.OutTable, Hand: p.OutHand})
	}
	return st
}

func (t *Tournament) table(id string) *Table {
	tb := t.tables[id]
	if tb == nil {
		tb = &Table{ID: strings.Clone(id)}
		t.tables[tb.ID] = tb
		t.tlist = append(t.tlist, tb)
	}
	return tb
}

// player returns the player called name, and whether he is new to the tournament.
func (t *Tournament) player(name string) (*Player, bool) {
	if p := t.players[name]; p != nil {
		return p, false
	}
	p := &Player{Name: strings.Clone(name)}
	t.players[p.Name] = p
	t.plist = append(t.plist, p)
	t.seen++
	return p, true
}

// setVia records that p sat down at a hand starting at at coming from table via, which must never
// deal again unless a left.to of his last table names it.
func (t *Tournament) setVia(p *Player, via string, at time.Time) {
	if p.via == "" {
		t.vias++
	}
	p.via, p.viaAt = strings.Clone(via), at
}

// clearVia forgets p's via.
func (t *Tournament) clearVia(p *Player) {
	if p.via != "" {
		t.vias--
	}
	p.via, p.viaAt = "", time.Time{}
}

// arrivedAtOr names the table p sits at, or "?".
func (p *Player) arrivedAtOr() string {
	if p.Table != "" {
		return p.Table
	}
	return "?"
}

func (t *Tournament) setChips(p *Player, v events.Chips) {
	t.sum += v - p.Chips
	p.Chips = v
}

// inList reports whether the hand lists name: dealt in, away or gone.
func inList(hs *events.HandStarted, name string) bool {
	for _, s := range hs.Seats {
		if s.Player == name {
			return true
		}
	}
	for _, a := range hs.Away {
		if a.Player == name {
			return true
		}
	}
	for _, l := range hs.Left {
		if l.Player == name {
			return true
		}
	}
	return false
}

// add follows hand h of t.
func (t *Tournament) add(dst []finding.Finding, h *Hand) []finding.Finding {
	hs := h.Start
	tb := t.table(h.Table)
	at := func(seq events.Seq, code finding.Code, seat events.Seat, msg string, expected, actual any) {
		dst = append(dst, finding.Finding{Hand: h.ID, Table: h.Table, Seq: seq, Code: code, Severity: code.Severity(),
			Seat: seat, Message: msg, Expected: expected, Actual: actual})
	}
	start := func(code finding.Code, seat events.Seat, msg string, expected, actual any) {
		at(1, code, seat, msg, expected, actual)
	}
	t.Hands++
	if t.First.IsZero() || h.StartAt.Before(t.First) {
		t.First = h.StartAt
	}
	if h.EndAt.After(t.Last) {
		t.Last = h.EndAt
	}
	tr := hs.Tournament
	if tr.Entries != nil {
		t.Entries = *tr.Entries
	}
	if tr.Stack != nil {
		t.Stack = *tr.Stack
	}

	// Levels: one level, one set of stakes; a table's level never goes down.
	if lv := tr.Level; lv > 0 {
		if st, ok := t.levels[lv]; ok && st != hs.Stakes {
			start(finding.TournamentLevel, 0, fmt.Sprintf("level %d is played here at ante %d, bet %d to %d; it was played at ante %d, bet %d to %d before",
				lv, hs.Stakes.Ante, hs.Stakes.MinBet, hs.Stakes.MaxBet, st.Ante, st.MinBet, st.MaxBet), st, hs.Stakes)
		} else if !ok {
			t.levels[lv] = hs.Stakes
		}
		if tb.Level > lv {
			start(finding.TournamentLevel, 0, fmt.Sprintf("the table plays level %d after level %d: a level never goes down", lv, tb.Level), tb.Level, lv)
		}
		tb.Level = lv
		t.Level = max(t.Level, lv)
	}

	// A table a moved player passed through as one that never deals again deals again.
	if t.vias > 0 {
		for _, p := range t.plist {
			if p.via == h.Table && h.StartAt.After(p.viaAt) {
				start(finding.TournamentMove, 0, fmt.Sprintf("%s sat down at table %s coming from this table as from one that broke, but it deals again: from names the table he was last moved from, the to of his last left", p.Name, p.arrivedAtOr()), nil, p.via)
				t.clearVia(p)
			}
		}
	}

	// The players gone since the table's last hand.
	type bust struct {
		p     *Player
		stack events.Chips
		seat  events.Seat // his seat in this hand; 0 when he is not dealt in to it
	}
	var busts []bust
	for _, l := range hs.Left {
		p := t.players[l.Player]
		if p == nil {
			continue
		}
		if l.To == "" {
			// Knocked out (stack 0), or gone with chips, which leave the tournament with him. A
			// player the last hand left with no chips but a share in its carried pot was still in
			// (events-v1.md §7, 2026-12-05): gone without it, he goes out now.
			t.setChips(p, 0)
			if p.Table == h.Table {
				p.Table = ""
			}
			if !p.Out {
				busts = append(busts, bust{p, 0, 0})
			}
			continue
		}
		if p.lastTable == h.Table && l.Stack != p.Chips {
			start(finding.TournamentMove, 0, fmt.Sprintf("%s leaves for table %s with %d chips; he ended his last hand here with %d", p.Name, l.To, l.Stack, p.Chips), p.Chips, l.Stack)
		}
		switch {
		case p.arrivedFrom == h.Table && p.arrivedAt == l.To:
			p.arrivedFrom, p.arrivedAt = "", "" // he has already sat down there, from here
			if p.via == l.To {
				t.clearVia(p) // … or passed through it, to where he sat down: a chain
			}
		case p.arrivedFrom == h.Table:
			start(finding.TournamentMove, 0, fmt.Sprintf("%s is moved to table %s, but he sat down at table %s", p.Name, l.To, p.arrivedAt), l.To, p.arrivedAt)
			p.arrivedFrom, p.arrivedAt = "", ""
		default:
			p.moveFrom, p.moveTo = tb.ID, strings.Clone(l.To)
		}
	}
	// The players of the table's last hand who are not listed: moved away without left.to?
	for _, p := range tb.Players {
		if !inList(hs, p.Name) && p.arrivedFrom == h.Table {
			start(finding.TournamentMove, 0, fmt.Sprintf("%s sat down at table %s coming from this table, but this hand does not list him as moved there", p.Name, p.arrivedAt), p.arrivedAt, nil)
			p.arrivedFrom, p.arrivedAt = "", ""
		}
	}

	// The players dealt in and away: arrivals, moves, rebuys.
	var startChips events.Chips
	arrive := func(name string, seat events.Seat, stack, rebuy events.Chips, from string, dealt bool) {
		p, isNew := t.player(name)
		if dealt && !isNew && p.lastTable != "" && p.lastTable != h.Table && h.StartAt.Before(p.lastEnd) {
			start(finding.TournamentMove, seat, fmt.Sprintf("%s is dealt in here while his hand at table %s runs until %s", p.Name, p.lastTable, p.lastEnd.Format(time.RFC3339Nano)), nil, p.lastTable)
		}
		want := p.Chips + rebuy
		switch {
		case isNew:
			// Until now his chips were counted as a starting stack of the entries not seen yet:
			// a first stack other than the tournament's shows in its chips.
			if from != "" {
				start(finding.TournamentMove, seat, fmt.Sprintf("%s comes from table %s, where he has played no hand", name, from), nil, from)
			}
		case from != "" && from != p.lastTable:
			// events-v1.md §7 (2026-12-05): moved on before the table he was sent to dealt him a
			// hand, he passed through it: from names the table he was last moved from, the to of
			// his last left (a chain, no finding), or a table that never deals again (it broke).
			if stack != want {
				start(finding.TournamentMove, seat, fmt.Sprintf("%s is moved from table %s with %d chips; he ended his last hand, at table %s, with %d", p.Name, from, stack, p.lastTable, want), want, stack)
			}
			t.adjust += stack - want
			switch {
			case p.moveTo == from:
				// The to of his last left: the chain is complete.
			case from == h.Table:
				start(finding.TournamentMove, seat, fmt.Sprintf("%s comes from table %s, the table he sits down at; his last hand was at table %s", p.Name, from, p.lastTable), p.lastTable, from)
			case t.tables[from] == nil:
				start(finding.TournamentMove, seat, fmt.Sprintf("%s comes from table %s, which has dealt no hand of the tournament; his last hand was at table %s", p.Name, from, p.lastTable), p.lastTable, from)
			case p.moveTo == "" && t.tables[p.lastTable] != nil && t.tables[p.lastTable].Start.After(p.lastEnd):
				start(finding.TournamentMove, seat, fmt.Sprintf("%s comes from table %s, but his last hand was at table %s, whose next hand did not list him as moved", p.Name, from, p.lastTable), p.lastTable, from)
			default:
				if p.moveTo == "" {
					// His last table has not dealt again: its next hand is to list him moved to from.
					p.arrivedFrom, p.arrivedAt = p.lastTable, strings.Clone(from)
				}
				t.setVia(p, from, h.StartAt)
			}
			p.moveFrom, p.moveTo = "", ""
		case from != "":
			if stack != want {
				start(finding.TournamentMove, seat, fmt.Sprintf("%s is moved from table %s with %d chips; he ended his last hand there with %d", p.Name, from, stack, want), want, stack)
			}
			t.adjust += stack - want
			switch {
			case p.moveTo != "":
				if p.moveTo != h.Table || p.moveFrom != from {
					start(finding.TournamentMove, seat, fmt.Sprintf("%s was moved from table %s to table %s, but sits down here coming from table %s", p.Name, p.moveFrom, p.moveTo, from), p.moveTo, h.Table)
				}
				p.moveFrom, p.moveTo = "", ""
			case t.tables[from] != nil && t.tables[from].Start.After(p.lastEnd):
				start(finding.TournamentMove, seat, fmt.Sprintf("%s comes from table %s, whose next hand did not list him as moved here", p.Name, from), h.Table, nil)
			default:
				p.arrivedFrom, p.arrivedAt = t.table(from).ID, tb.ID
			}
		case !dealt && p.moveTo == h.Table:
			// Moved here and seated away, not dealt in yet.
			if stack != p.Chips {
				start(finding.TournamentMove, seat, fmt.Sprintf("%s is moved from table %s with %d chips; he ended his last hand there with %d", p.Name, p.moveFrom, stack, p.Chips), p.Chips, stack)
			}
			t.adjust += stack - p.Chips
			p.moveFrom, p.moveTo = "", ""
		case p.Table != h.Table && (p.Table != "" || p.moveTo != ""):
			was := p.Table
			if p.moveTo != "" {
				was = p.moveFrom
			}
			start(finding.TournamentMove, seat, fmt.Sprintf("%s sits down here without from, coming from table %s", p.Name, was), was, nil)
			t.adjust += stack - want
			p.moveFrom, p.moveTo = "", ""
		default:
			// He stays at this table: the table's own checks (table.stack) answer for his stack.
			t.adjust += stack - want
		}
		t.Rebuys += rebuy
		p.Rebuys += rebuy
		t.setChips(p, stack)
		p.Table, p.Seat = tb.ID, seat
		if dealt {
			startChips += stack
		}
		tb.Players = append(tb.Players, p)
	}
	last := tb.Players
	tb.Players = tb.spare[:0]
	for _, s := range hs.Seats {
		var r events.Chips
		if s.Rebuy != nil {
			r = *s.Rebuy
		}
		arrive(s.Player, s.Seat, s.Stack, r, s.From, true)
	}
	for _, a := range hs.Away {
		arrive(a.Player, a.Seat, a.Stack, 0, "", false)
	}
	clear(last)
	tb.spare = last[:0]
	slices.SortFunc(tb.Players, func(a, b *Player) int { return cmp.Compare(a.Seat, b.Seat) })

	// The carry: the table's own checks (table.carry) answer for it after its first hand.
	if tb.Hands > 0 {
		t.adjust += hs.Carry - tb.Carry
	}
	t.sum += hs.Carry - tb.Carry
	startChips += hs.Carry

	// The hand's end: stacks, carry, knock-outs.
	end := h.End
	var endChips events.Chips
	for _, s := range hs.Seats {
		p := t.players[s.Player]
		v, ok := rules.EndStack(end, s.Seat)
		if !ok {
			v = s.Stack
		}
		endChips += v
		t.setChips(p, v)
		p.Hands++
		p.lastTable, p.lastStart, p.lastEnd = tb.ID, h.StartAt, h.EndAt
		switch {
		case v == 0 && end.Carry > 0:
			// His last chips may sit in the pot carried to the next deal: he is dealt in to it
			// with stack 0 and plays for it, not out (events-v1.md §7, 2026-12-05).
		case v == 0 && !p.Out:
			busts = append(busts, bust{p, s.Stack, s.Seat})
		case v > 0 && p.Out:
			p.Out, p.Place, p.OutHand, p.OutTable = false, 0, "", "" // back in, by a rebuy
			t.out--
		}
	}
	endChips += end.Carry
	t.sum += end.Carry - hs.Carry
	tb.Carry = end.Carry
	// Chips made or lost within the hand are the hand's own findings (pot.total, stack.final).
	t.adjust += endChips - startChips
	tb.Hands++
	tb.Number, tb.Hand, tb.Start, tb.End, tb.Stakes = hs.Number, strings.Clone(h.ID), h.StartAt, h.EndAt, hs.Stakes

	// events-v1.md §7: the place is the number of players still in when he went out; those going
	// out in one hand are ordered by their stacks at its start, equal stacks sharing a place.
	if len(busts) > 0 {
		slices.SortStableFunc(busts, func(a, b bust) int { return cmp.Compare(b.stack, a.stack) })
		in := t.InPlay()
		for i, b := range busts {
			place := in - len(busts) + 1 + i
			if i > 0 && b.stack == busts[i-1].stack {
				place = busts[i-1].p.Place
			}
			p := b.p
			p.Out, p.Place, p.OutHand, p.OutTable, p.OutAt = true, place, tb.Hand, tb.ID, h.EndAt
			p.Table = ""
			var name any // a player not dealt in to this hand has no seat in it: his name says who
			if b.seat == 0 {
				name = p.Name
			}
			at(h.EndSeq, finding.TournamentPlace, b.seat, fmt.Sprintf("%s is knocked out in place %d", p.Name, place), name, place)
		}
		t.out += len(busts)
		// events-v1.md §7: a tournament ends only when one player holds every chip, never with
		// chips in a carried pot. One player left in with a carry somewhere: those chips have
		// nobody to win them.
		if t.seen >= t.Entries && t.InPlay() == 1 {
			for _, x := range t.tlist {
				if x.Carry > 0 {
					at(h.EndSeq, finding.TournamentChips, 0, fmt.Sprintf("one player is left in while table %s carries %d chips to a deal nobody is left to play: a tournament ends only when one player holds every chip", x.ID, x.Carry), 0, x.Carry)
				}
			}
		}
	}

	// Every chip of the tournament: its entries' stacks and the rebuys so far, once every entry
	// has been dealt in somewhere (before that the tables not yet started are not known).
	if t.Entries > 0 && t.Stack > 0 && t.seen >= t.Entries {
		held, made := t.Chips()
		if d := held - made - t.adjust; d != 0 {
			at(h.EndSeq, finding.TournamentChips, 0, fmt.Sprintf("the tournament's tables hold %d chips where they should hold %d (%d entries of %d chips and %d in rebuys): %d chips created or lost between tables",
				held, made+t.adjust, t.Entries, t.Stack, t.Rebuys, d), made+t.adjust, held)
			t.adjust += d
		}
	}
	return dst
}

// Seat is a player still in, seated at a table, with his chips.
type Seat struct {
	Seat   events.Seat  `json:"seat"`
	Player string       `json:"player"`
	Chips  events.Chips `json:"chips"`
}

// Seated returns the players still in seated at table id, in seat order (a player moved and
// not yet through a hand at his new table is at the table he left).
func (t *Tournament) Seated(id string) []Seat {
	seats := []Seat{}
	for _, p := range t.plist {
		if p.Table == id && !p.Out {
			seats = append(seats, Seat{Seat: p.Seat, Player: p.Name, Chips: p.Chips})
		}
	}
	slices.SortFunc(seats, func(a, b Seat) int { return cmp.Compare(a.Seat, b.Seat) })
	return seats
}
