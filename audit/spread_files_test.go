package audit_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/sim"
)

// byTable cuts log into one file per table, the tables in the order of their first lines, as a
// room exports its tables (a line whose table cannot be read, with those of table "").
func byTable(log []byte) [][]byte {
	var files [][]byte
	at := map[string]int{}
	for l := range bytes.Lines(log) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		table := ""
		if k := bytes.Index(l, []byte(`"table":"`)); k >= 0 {
			v := l[k+len(`"table":"`):]
			if e := bytes.IndexByte(v, '"'); e >= 0 {
				table = string(v[:e])
			}
		}
		i, ok := at[table]
		if !ok {
			i = len(files)
			at[table] = i
			files = append(files, nil)
		}
		files[i] = append(files[i], l...)
	}
	return files
}

// tableFiles returns n tables of hands hands each (simTables), one file each.
func tableFiles(t *testing.T, n, hands int) [][]byte {
	t.Helper()
	var files [][]byte
	for _, hs := range simTables(t, n, hands) {
		var b bytes.Buffer
		for _, h := range hs {
			if err := sim.WriteHand(&b, h); err != nil {
				t.Fatal(err)
			}
		}
		files = append(files, b.Bytes())
	}
	return files
}

// spreadCase checks that files, audited on 2 and 3 workers, are reported as one Auditor reports
// them, and how: by whole files to the end (byFiles), by tables after the spread by files met a
// table, hand or id in two workers' files (shared), or on one Auditor (gaveUp).
func spreadCase(t *testing.T, files [][]byte, byFiles, shared, gaveUp bool) {
	t.Helper()
	if gave := audit.SameSpread(t, files...); gave != gaveUp {
		t.Errorf("given up: %v, want %v", gave, gaveUp)
	}
	for _, r := range audit.SpreadRuns() {
		if r.ByFiles != byFiles || r.FilesShared != shared {
			t.Errorf("%d workers: by files to the end %v, went on by tables %v; want %v, %v", r.Workers, r.ByFiles, r.FilesShared, byFiles, shared)
		}
	}
}

// Several files, each a table of its own (a room exported one file per table, with irregular
// hands of every preset), and a tournament across four tables cut into one file per table, are
// audited by whole files on each worker, with no reader, and reported as one Auditor reports
// them: the same findings, hands, tournament hands and counts, in the same order (docs/cli.md,
// "On every core").
func TestSpreadFilesTableByTable(t *testing.T) {
	var tables [][]byte
	for i, preset := range []string{"br-fechado", "online-draw", "tr-kapali", "std-draw", "std-draw"} {
		hs, err := sim.All(sim.Config{Rules: preset, Players: 5, Hands: 30, Seed: uint64(i + 1), Table: "t" + string(rune('a'+i)), Inject: sim.InjectableFor(preset)})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for _, h := range hs {
			if err := sim.WriteHand(&b, h); err != nil {
				t.Fatal(err)
			}
		}
		tables = append(tables, b.Bytes())
	}
	// The injected irregularities use an id twice in the first table: the deliverer finds it
	// and the spread goes on by tables.
	spreadCase(t, tables, false, true, false)
	spreadCase(t, tableFiles(t, 5, 30), true, false, false)

	var cup bytes.Buffer
	if err := sim.RunTournament(sim.TournamentConfig{Rules: "std-draw", Entries: 30, Tables: 4, Seed: 4, Inject: sim.TournamentInjectable()}, &cup); err != nil {
		t.Fatal(err)
	}
	cut := byTable(cup.Bytes())
	if len(cut) < 4 {
		t.Fatalf("the tournament has %d tables", len(cut))
	}
	spreadCase(t, cut, true, false, false)

	var room bytes.Buffer
	if _, err := sim.Room(sim.RoomConfig{Players: 40, Tables: 6, Hands: 300, Seed: 9, Colluders: 2}, &room); err != nil {
		t.Fatal(err)
	}
	spreadCase(t, byTable(room.Bytes()), true, false, false)
}

// Files whose tables, hands or ids are also in another worker's files: a table going on in a
// file whose first line is another table's (so given to that table's worker), a table's hands
// again at another table (the same hands and ids), the same hands with other ids, an id used
// twice in one file. The spread by files finds it, from the file where it is on, delivers
// nothing of that file, and the spread by tables goes on from there: one Auditor's findings
// (log.duplicate-id, log.sequence, a chain that goes on across files) in every case.
func TestSpreadFilesSharedFallBackToTables(t *testing.T) {
	files := tableFiles(t, 4, 20)
	half := func(b []byte) ([]byte, []byte) {
		lines := bytes.SplitAfter(b, []byte("\n"))
		k := len(lines) / 2
		for !bytes.Contains(lines[k], []byte(`"type":"hand.started"`)) {
			k++
		}
		return bytes.Join(lines[:k], nil), bytes.Join(lines[k:], nil)
	}
	a0, a1 := half(files[0])
	// The second half of table 0 after table 3's lines, in table 3's file.
	spanning := [][]byte{a0, files[1], files[2], append(bytes.Clone(files[3]), a1...)}
	if audit.SameSpread(t, spanning...) {
		t.Error("a table spanning files: the spread was given up")
	}
	// The files are handed out as the workers become free: the fourth goes to the worker that
	// audited the first half of table 0 (by files to the end, that worker seeing table 0 whole
	// and in order) or to another (the deliverer finds table 0 in two workers' files, and the
	// spread goes on by tables). Either way one Auditor's findings, never given up.
	for _, r := range audit.SpreadRuns() {
		if r.ByFiles == r.FilesShared {
			t.Errorf("%d workers: by files to the end %v, went on by tables %v: want one of them", r.Workers, r.ByFiles, r.FilesShared)
		}
	}

	rename := func(b []byte, from, to string) []byte { return bytes.ReplaceAll(b, []byte(from), []byte(to)) }
	t0, _ := envelope(files[0])
	// Table 0 again as table "copy", with hands of their own: every id used twice.
	again := append(slices.Clone(files), rename(rename(files[0], `"table":"`+t0+`"`, `"table":"copy"`), `"hand":"01`, `"hand":"91`))
	spreadCase(t, again, false, true, false)
	if !strings.Contains(strings.Join(audit.OneAuditor(t, again), "\n"), "log.duplicate-id") {
		t.Fatal("no id used twice to compare")
	}
	// The same hands with ids of their own, at another table: given up (a hand whose first
	// line named another table), by the worker of table 0 when it takes the copy too, else by
	// the spread by tables the deliverer goes on to.
	hands := rename(rename(files[0], `"table":"`+t0+`"`, `"table":"copy"`), `{"id":"01`, `{"id":"f1`)
	if !audit.SameSpread(t, append(slices.Clone(files), hands)...) {
		t.Error("the same hands at two tables: the spread was not given up")
	}
	for _, r := range audit.SpreadRuns() {
		if r.ByFiles {
			t.Errorf("%d workers: the same hands at two tables went by files to the end", r.Workers)
		}
	}

	// An id used twice in one file: the worker does not check ids, the deliverer does.
	lines := bytes.SplitAfter(files[1], []byte("\n"))
	lines[40] = append(bytes.Clone(lines[20][:len(`{"id":"`)+36]), lines[40][len(`{"id":"`)+36:]...)
	twice := [][]byte{files[0], bytes.Join(lines, nil), files[2]}
	spreadCase(t, twice, false, true, false)
}

// A line that is not a valid event in one file of several (one Auditor places it after the line
// before it in the log, events-v1.md §8, which may be another file's): the spread by files gives
// up there and one Auditor audits the log, delivering what comes after what the files before it
// delivered.
func TestSpreadFilesDamagedLineAuditedAlone(t *testing.T) {
	files := tableFiles(t, 4, 15)
	for _, at := range []struct {
		file, line int
	}{{0, 0}, {2, 30}, {3, 1}} {
		damaged := bytes.Clone(files[at.file])
		lines := bytes.SplitAfter(damaged, []byte("\n"))
		lines[at.line] = []byte("not an event\n")
		cp := append([][]byte(nil), files...)
		cp[at.file] = bytes.Join(lines, nil)
		spreadCase(t, cp, false, false, true)
	}
}
