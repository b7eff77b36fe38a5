package main

import (
	"bytes"
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/projector"
)

// projRun runs one command line in-process and returns its exit code and stderr.
func projRun(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	return m.Run(args), errb.String()
}

// projProgress is a line of --progress: events, stream sequence, the log's end, the share done.
var projProgress = regexp.MustCompile(`fechado project: (\d+) events projected, \d+ hands \(\d+ events/s\), stream sequence (\d+) of (\d+) \((\d+)%\), about \S+ left`)

var projSummary = regexp.MustCompile(`fechado project: (\d+) events projected, (\d+) hands, (\d+) quarantined in [0-9.]+ s \(stream sequence (\d+)\)`)

// projCounts returns events, hands, quarantined and the checkpoint of project's summary line.
func projCounts(t *testing.T, stderr string) [4]int {
	t.Helper()
	m := projSummary.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no summary line in %q", stderr)
	}
	var n [4]int
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return n
}

// openReadModels opens the read models at path, closed at the end of the test.
func openReadModels(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := projector.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// projRows counts the rows of the read models' main tables.
func projRows(t *testing.T, path string) string {
	t.Helper()
	db := openReadModels(t, path)
	var b strings.Builder
	for _, table := range []string{"tables", "hands", "hand_players", "actions", "draws", "awards", "pots", "quarantine"} {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		b.WriteString(table + "=" + strconv.Itoa(n) + " ")
	}
	var net sql.NullInt64
	db.QueryRow(`SELECT SUM(net) FROM player_stats`).Scan(&net)
	b.WriteString("net=" + strconv.FormatInt(net.Int64, 10))
	return b.String()
}

// record, then project: the read models hold the log's hands; a second run projects nothing;
// --rebuild projects everything again into the same rows.
func TestProjectCatchesUpAndRebuilds(t *testing.T) {
	data := t.TempDir()
	files := []string{"table-std-draw.jsonl", "table-tr-kapali.jsonl", "table-br-online.jsonl"}
	args := []string{"record", "--data", data}
	for _, f := range files {
		args = append(args, vector(t, f))
	}
	if code, stderr := projRun(t, args...); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	code, stderr := projRun(t, "project", "--data", data, "--batch", "37")
	if code != exitOK {
		t.Fatalf("project: exit %d: %s", code, stderr)
	}
	n := projCounts(t, stderr)
	if n[0] != 358+278+276 || n[1] != 18 || n[2] != 0 || n[3] != n[0] {
		t.Fatalf("project: %v, want 912 events, 18 hands, none quarantined, at sequence 912", n)
	}
	if projProgress.MatchString(stderr) {
		t.Errorf("progress printed to a stderr that is not a terminal, without --progress: %s", stderr)
	}
	dbPath := filepath.Join(data, "fechado.db")
	want := "tables=3 hands=18 hand_players=84 " // seats dealt in, counted in the files
	first := projRows(t, dbPath)
	if !strings.HasPrefix(first, want) {
		t.Fatalf("rows %s, want %s…", first, want)
	}

	code, stderr = projRun(t, "project", "--data", data)
	if n := projCounts(t, stderr); code != exitOK || n[0] != 0 || n[3] != 912 {
		t.Fatalf("second project: exit %d, %v: %s", code, n, stderr)
	}
	code, stderr = projRun(t, "project", "--rebuild", "--data", data)
	if n := projCounts(t, stderr); code != exitOK || n[0] != 912 || n[1] != 18 {
		t.Fatalf("project --rebuild: exit %d, %v: %s", code, n, stderr)
	}
	if again := projRows(t, dbPath); again != first {
		t.Fatalf("rebuilt rows %s, first %s", again, first)
	}
	// --progress: a line after each commit (the interval is shorter than one), out of the 912
	// events the log held at the start.
	code, stderr = projRun(t, "project", "--rebuild", "--data", data, "--batch", "100", "--progress", "1ns")
	lines := projProgress.FindAllStringSubmatch(stderr, -1)
	if code != exitOK || len(lines) != 10 {
		t.Fatalf("project --progress: exit %d, %d progress lines, want 10: %s", code, len(lines), stderr)
	}
	for i, m := range lines {
		done := min(100*(i+1), 912)
		want := []string{strconv.Itoa(done), strconv.Itoa(done), "912", strconv.Itoa(int(math.Round(100 * float64(done) / 912)))}
		if !slices.Equal(m[1:], want) {
			t.Errorf("progress line %d: events, sequence, end and share %q, want %q", i, m[1:], want)
		}
	}
	// --db puts the database elsewhere.
	other := filepath.Join(t.TempDir(), "sub", "read.db")
	if code, stderr := projRun(t, "project", "--data", data, "--db", other); code != exitOK || projCounts(t, stderr)[0] != 912 {
		t.Fatalf("project --db: exit %d: %s", code, stderr)
	}
}

func TestProjectUsageAndStoreErrors(t *testing.T) {
	if code, _ := projRun(t, "project", "--help"); code != exitOK {
		t.Errorf("--help: exit %d", code)
	}
	if code, _ := projRun(t, "project", "--bogus"); code != exitUsage {
		t.Errorf("--bogus: exit %d, want 2", code)
	}
	if code, _ := projRun(t, "project", "extra"); code != exitUsage {
		t.Errorf("an operand: exit %d, want 2", code)
	}
	if code, _ := projRun(t, "project", "--batch", "0"); code != exitUsage {
		t.Errorf("--batch 0: exit %d, want 2", code)
	}
	if code, stderr := projRun(t, "project", "--nats", "nats://127.0.0.1:1", "--db", filepath.Join(t.TempDir(), "x.db")); code != exitStore {
		t.Errorf("unreachable server: exit %d, want 3: %s", code, stderr)
	}
}
