package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
)

// export --hand with the hand id alone takes the hand's table from the read models beside the
// log; read models that name another table (those of another log) do not hide the hand, and
// without read models the hand is looked up in the log.
func TestExportHandUsesTheReadModels(t *testing.T) {
	data := t.TempDir()
	file := vector(t, "table-std-draw.jsonl")
	in, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	first, err := events.Parse([]byte(strings.SplitN(string(in), "\n", 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(in)), "\n") {
		if strings.Contains(line, `"hand":"`+first.Hand+`"`) {
			want.WriteString(line + "\n")
		}
	}
	if code, stderr := projRun(t, "record", "--data", data, file); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	export := func(what string) {
		t.Helper()
		code, out, stderr := recRun(t, nil, "export", "--data", data, "--hand", first.Hand)
		if code != exitOK || out != want.String() {
			t.Fatalf("%s: exit %d %s\n%s", what, code, stderr, out)
		}
	}
	export("without read models")

	if code, stderr := projRun(t, "project", "--data", data); code != exitOK {
		t.Fatalf("project: exit %d: %s", code, stderr)
	}
	lf := &logFlags{data: data}
	if got := lf.indexedTable(context.Background(), first.Hand); got != first.Table {
		t.Fatalf("indexed table %q, want %q", got, first.Table)
	}
	export("with read models")

	db, err := sql.Open("sqlite3", filepath.Join(data, "fechado.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE hands SET table_id = 'elsewhere' WHERE hand_id = ?`, first.Hand); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := lf.indexedTable(context.Background(), first.Hand); got != "elsewhere" {
		t.Fatalf("indexed table %q after the change", got)
	}
	export("with read models naming another table")
}
