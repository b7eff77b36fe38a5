package tournament

import (
	"fmt"
	"time"

	"github.com/fechado/fechado/events"
)

// Memory is everything a Tournament holds, as plain data (JSON): a projector stores it with the
// rows of the hands it follows and, after a restart, restores the tournament from it instead of
// following every stored hand again, so that starting up does not grow with the tournament's
// history. Restore(t.Memory()) followed by the same hands finds what t would have found.
type Memory struct {
	// Tournament holds the exported fields (its id, entries, stack, rebuys, level, hands and
	// times); the rest follows.
	Tournament
	// Players are the players in the order first seen; Tables the tables likewise, each naming
	// the players of its last hand.
	Players []PlayerMemory
	Tables  []TableMemory
	// Levels are the stakes of each level dealt, by level.
	Levels map[int]events.Stakes
	// Sum, Adjust, Seen and Out are the tournament's chip count, the part of it already
	// reported, the players seen and the players out.
	Sum, Adjust events.Chips
	Seen, Out   int
}

// PlayerMemory is a Player with what he still has to match: his last hand and a move under way.
type PlayerMemory struct {
	Player
	LastTable   string
	LastStart   time.Time
	LastEnd     time.Time
	MoveFrom    string
	MoveTo      string
	ArrivedFrom string
	ArrivedAt   string
	// Via and ViaAt: a table he passed through that must never deal again, and when he left it.
	Via   string    `json:",omitempty"`
	ViaAt time.Time `json:",omitzero"`
}

// TableMemory is a Table with its players by name (the names stand for Table.Players in JSON).
type TableMemory struct {
	Table
	Players []string
}

// Memory returns what t holds, sharing nothing with it.
func (t *Tournament) Memory() Memory {
	m := Memory{Tournament: Tournament{ID: t.ID, Entries: t.Entries, Stack: t.Stack, Rebuys: t.Rebuys, Level: t.Level,
		Hands: t.Hands, First: t.First, Last: t.Last}, Levels: make(map[int]events.Stakes, len(t.levels)),
		Sum: t.sum, Adjust: t.adjust, Seen: t.seen, Out: t.out}
	for _, p := range t.plist {
		m.Players = append(m.Players, PlayerMemory{Player: *p, LastTable: p.lastTable, LastStart: p.lastStart,
			LastEnd: p.lastEnd, MoveFrom: p.moveFrom, MoveTo: p.moveTo, ArrivedFrom: p.arrivedFrom, ArrivedAt: p.arrivedAt,
			Via: p.via, ViaAt: p.viaAt})
	}
	for _, tb := range t.tlist {
		tm := TableMemory{Table: *tb, Players: make([]string, 0, len(tb.Players))}
		tm.Table.Players, tm.Table.spare = nil, nil
		for _, p := range tb.Players {
			tm.Players = append(tm.Players, p.Name)
		}
		m.Tables = append(m.Tables, tm)
	}
	for lv, st := range t.levels {
		m.Levels[lv] = st
	}
	return m
}

// Restore adds the tournament m describes to b, in place of any of the same id, and returns it.
// It fails when a table names a player the tournament does not list.
func (b *Book) Restore(m Memory) (*Tournament, error) {
	t := newTournament(m.ID)
	t.Entries, t.Stack, t.Rebuys, t.Level, t.Hands, t.First, t.Last = m.Entries, m.Stack, m.Rebuys, m.Level, m.Hands, m.First, m.Last
	t.sum, t.adjust, t.seen, t.out = m.Sum, m.Adjust, m.Seen, m.Out
	for lv, st := range m.Levels {
		t.levels[lv] = st
	}
	for _, pm := range m.Players {
		p := pm.Player
		p.lastTable, p.lastStart, p.lastEnd = pm.LastTable, pm.LastStart, pm.LastEnd
		p.moveFrom, p.moveTo, p.arrivedFrom, p.arrivedAt = pm.MoveFrom, pm.MoveTo, pm.ArrivedFrom, pm.ArrivedAt
		p.via, p.viaAt = pm.Via, pm.ViaAt
		if p.via != "" {
			t.vias++
		}
		t.players[p.Name] = &p
		t.plist = append(t.plist, &p)
	}
	for _, tm := range m.Tables {
		tb := new(Table)
		*tb = tm.Table
		tb.Players, tb.spare = nil, nil
		for _, name := range tm.Players {
			p := t.players[name]
			if p == nil {
				return nil, fmt.Errorf("tournament %s: table %s names %s, who is not one of its players", m.ID, tm.ID, name)
			}
			tb.Players = append(tb.Players, p)
		}
		t.tables[tb.ID] = tb
		t.tlist = append(t.tlist, tb)
	}
	if old := b.byID[t.ID]; old != nil {
		for i := range b.order {
			if b.order[i] == old {
				b.order[i] = t
			}
		}
	} else {
		b.order = append(b.order, t)
	}
	b.byID[t.ID] = t
	return t, nil
}
