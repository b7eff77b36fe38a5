package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
)

// export --hand with the hand id alone reads the hand's copy from the read models beside the log
// once they hold it, and the log before; read models of another log do not hide the hand, nor
// do read models that name another table for it: the log answers.
func TestExportHandUsesTheReadModels(t *testing.T) {
	data := t.TempDir()
	file := vector(t, "table-std-draw.jsonl")
	in, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var hands []string
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(in)), "\n") {
		e, err := events.Parse([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := want[e.Hand]; !ok {
			hands = append(hands, e.Hand)
		}
		want[e.Hand] += line + "\n"
	}
	if len(hands) < 2 {
		t.Fatalf("%d hands in the vector", len(hands))
	}
	first, second := hands[0], hands[1]
	if code, stderr := projRun(t, "record", "--data", data, file); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	export := func(what, hand, want string) {
		t.Helper()
		code, out, stderr := recRun(t, nil, "export", "--data", data, "--hand", hand)
		if code != exitOK || out != want {
			t.Fatalf("%s: exit %d %s\n%s", what, code, stderr, out)
		}
	}
	export("without read models", first, want[first])

	if code, stderr := projRun(t, "project", "--data", data); code != exitOK {
		t.Fatalf("project: exit %d: %s", code, stderr)
	}
	export("with read models", first, want[first])

	db, err := sql.Open("sqlite3", filepath.Join(data, "fechado.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	// The copy is what export reads: made to hold the second hand, it gives the second hand.
	exec(`UPDATE hand_events SET (events, lines) = (SELECT events, lines FROM hand_events WHERE hand_id = ?)
		WHERE hand_id = ?`, second, first)
	export("the copy read", first, want[second])

	// Read models of another log: the log answers, whatever table they name.
	exec(`UPDATE source_log SET log_id = 'FECHADO_HANDS 2001-01-01T00:00:00Z'`)
	export("with read models of another log", first, want[first])
	exec(`UPDATE hands SET table_id = 'elsewhere' WHERE hand_id = ?`, first)
	export("with read models naming another table", first, want[first])
}
