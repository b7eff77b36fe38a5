package audit_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/sim"
)

// interleave writes the hands of several tables to one log with their lines interleaved: a line
// of each table's current hand in turn, as tables dealing at once append them.
func interleave(tables [][]*sim.Hand) []byte {
	var buf bytes.Buffer
	var open [][]byte
	next := make([]int, len(tables))
	for more := true; more; {
		more = false
		for i := range tables {
			if len(open) <= i {
				open = append(open, nil)
			}
			if len(open[i]) == 0 && next[i] < len(tables[i]) {
				var hb bytes.Buffer
				if err := sim.WriteHand(&hb, tables[i][next[i]]); err != nil {
					panic(err)
				}
				open[i] = hb.Bytes()
				next[i]++
			}
			if len(open[i]) == 0 {
				continue
			}
			more = true
			k := bytes.IndexByte(open[i], '\n') + 1
			buf.Write(open[i][:k])
			open[i] = open[i][k:]
		}
	}
	return buf.Bytes()
}

// A room of tables dealing at once, a tournament across tables, and tables with an irregularity
// in every hand, their lines interleaved and some of them damaged (an unknown type, a line cut
// short, a byte that is not UTF-8, a line that is not JSON, blank lines), and the same events
// again at other tables (every id used twice), are audited on several workers as one Auditor
// audits them.
func TestSpreadTablesAtOnce(t *testing.T) {
	var room bytes.Buffer
	if _, err := sim.Room(sim.RoomConfig{Players: 40, Tables: 6, Hands: 400, Seed: 9, Colluders: 2}, &room); err != nil {
		t.Fatal(err)
	}
	var cup bytes.Buffer
	if err := sim.RunTournament(sim.TournamentConfig{Rules: "std-draw", Entries: 30, Tables: 4, Seed: 4, Inject: sim.TournamentInjectable()}, &cup); err != nil {
		t.Fatal(err)
	}
	var tables [][]*sim.Hand
	for i, preset := range []string{"br-fechado", "online-draw", "tr-kapali", "std-draw"} {
		hs, err := sim.All(sim.Config{Rules: preset, Players: 5, Hands: 40, Seed: uint64(i + 1), Table: "t" + preset, Inject: sim.InjectableFor(preset)})
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, hs)
	}
	mixed := interleave(tables)
	lines := bytes.Split(mixed, []byte("\n"))
	for i := 50; i+7 < len(lines); i += 97 {
		switch (i / 97) % 5 {
		case 0:
			lines[i] = bytes.Replace(lines[i], []byte(`"type":"`), []byte(`"type":"x`), 1)
		case 1:
			lines[i] = bytes.TrimRight(lines[i][:len(lines[i])/2], "}")
		case 2:
			lines[i] = bytes.Replace(lines[i], []byte(`"at":"`), []byte("\"at\":\"\xff"), 1)
		case 3:
			lines[i] = []byte("not an event")
		case 4:
			lines[i] = append(lines[i], '\n', ' ')
		}
	}
	damaged := bytes.Join(lines, []byte("\n"))
	audit.SameSpread(t, room.Bytes())
	audit.SameSpread(t, cup.Bytes())
	audit.SameSpread(t, mixed)
	audit.SameSpread(t, damaged)
	audit.SameSpread(t, room.Bytes(), cup.Bytes(), damaged, mixed[:len(mixed)/2])
	audit.SameSpreadEvents(t, room.Bytes(), cup.Bytes(), damaged)
	if !strings.Contains(strings.Join(audit.OneAuditor(t, [][]byte{cup.Bytes()}), "\n"), "tournament.") {
		t.Fatal("the tournament has no tournament.* finding to compare")
	}
	// The same events again at other tables and hands: every id used twice, at tables that
	// different workers audit.
	again := bytes.ReplaceAll(bytes.ReplaceAll(mixed, []byte(`"table":"t`), []byte(`"table":"u`)), []byte(`"hand":"01`), []byte(`"hand":"91`))
	audit.SameSpread(t, mixed, again)
	audit.SameSpreadEvents(t, mixed, again)
	if !strings.Contains(strings.Join(audit.OneAuditor(t, [][]byte{mixed, again}), "\n"), "log.duplicate-id") {
		t.Fatal("no id used twice to compare")
	}
}
