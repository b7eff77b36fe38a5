package projector

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/audittest"
	"github.com/fechado/fechado/sim"
	"github.com/fechado/fechado/sim/simtest"
)

// tournamentSize is the size of the simulated tournaments: issue 19's 60 entries on 8 tables, or
// under -short 12 entries on 2 tables, which still seats, moves players when a table breaks,
// raises the levels and plays to a winner, only with fewer hands (make test-long plays the full
// size).
func tournamentSize() (entries, tables int) {
	if testing.Short() {
		return 12, 2
	}
	return 60, 8
}

// playTournament plays cfg, sized by tournamentSize, to its end and returns its log and lines.
func playTournament(t *testing.T, cfg sim.TournamentConfig) ([]byte, [][]byte) {
	t.Helper()
	cfg.Entries, cfg.Tables = tournamentSize()
	var b bytes.Buffer
	if err := sim.RunTournament(cfg, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), bytes.Split(bytes.TrimSuffix(b.Bytes(), []byte("\n")), []byte("\n"))
}

// brTournament is the br-fechado tournament several tests project, played once per test binary:
// the simulator is deterministic and the tests only read the log.
var brTournament struct {
	once  sync.Once
	log   []byte
	lines [][]byte
}

// simTournament returns the log and lines of a br-fechado tournament of tournamentSize played to
// its end. The caller must not modify them.
func simTournament(t *testing.T) ([]byte, [][]byte) {
	t.Helper()
	brTournament.once.Do(func() {
		brTournament.log, brTournament.lines = playTournament(t, sim.TournamentConfig{Rules: "br-fechado", Seed: 11})
	})
	if brTournament.log == nil {
		t.Fatal("the simulated tournament failed in an earlier test")
	}
	return brTournament.log, brTournament.lines
}

// tournamentFindings returns the tournament.* findings of db, or of an audit of the whole log,
// one line each, sorted.
func tournamentFindings(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		if strings.HasPrefix(string(f.Code), "tournament.") {
			out = append(out, fmt.Sprintf("%s %s %d %s %s", f.Hand, f.Table, f.Seq, f.Code, f.Message))
		}
	}
	sort.Strings(out)
	return out
}

// auditedTournamentFindings audits log as `fechado audit` does and returns its tournament.*
// findings (tournamentFindings).
func auditedTournamentFindings(t *testing.T, log []byte) []string {
	t.Helper()
	audited, _ := audittest.Findings(t, log, "tournament")
	return tournamentFindings(audited)
}

// storedTournamentFindings returns the tournament.* findings db holds (tournamentFindings).
func storedTournamentFindings(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var stored []finding.Finding
	rows, err := db.QueryContext(context.Background(), `SELECT hand_id, table_id, seq, code, message FROM findings`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var f finding.Finding
		if err := rows.Scan(&f.Hand, &f.Table, &f.Seq, &f.Code, &f.Message); err != nil {
			t.Fatal(err)
		}
		stored = append(stored, f)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return tournamentFindings(stored)
}

// A simulated tournament (tournamentSize), projected: the standings stored are the places an
// independent reading of the JSON Lines gives (events-v1.md §7), the tournament.* findings stored
// are those `fechado audit` gives over the whole log, every knock-out has its hand, and a
// projector restarted half-way (restoring the tournament from its memory), or resumed after a
// failed batch, stores the same rows.
func TestTournamentProjectedFromAFile(t *testing.T) {
	ctx := context.Background()
	entries, _ := tournamentSize()
	log, lines := simTournament(t)
	full := writeLines(t, t.TempDir(), lines)
	db := openDB(t)
	project(t, db, full, 97)

	want, err := simtest.IndependentPlaces(log, entries)
	if err != nil {
		t.Fatal(err)
	}
	got := storedPlaces(t, db)
	if len(got) != entries || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stored standings differ from the independent computation:\n got %v\nwant %v", got, want)
	}

	var knockouts, unmatched int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*), SUM(h.hand_id IS NULL OR p.place <> k.place)
		FROM tournament_knockouts k LEFT JOIN hands h ON h.hand_id = k.hand_id
		LEFT JOIN tournament_players p ON p.tournament_id = k.tournament_id AND p.player = k.player`).Scan(&knockouts, &unmatched); err != nil {
		t.Fatal(err)
	}
	if knockouts != entries-1 || unmatched != 0 {
		t.Errorf("%d knock-outs (%d without their hand or place), want %d", knockouts, unmatched, entries-1)
	}
	var ended sql.NullString
	var inPlay int
	if err := db.QueryRowContext(ctx, `SELECT ended_at, in_play FROM tournaments WHERE tournament_id = ?`, sim.DefaultTournament).Scan(&ended, &inPlay); err != nil {
		t.Fatal(err)
	}
	if !ended.Valid || inPlay != 1 {
		t.Errorf("the tournament is stored as not ended (ended_at %v, %d in play)", ended, inPlay)
	}

	gotF, wantF := storedTournamentFindings(t, db), auditedTournamentFindings(t, log)
	if len(wantF) < entries-1 || fmt.Sprint(gotF) != fmt.Sprint(wantF) {
		t.Errorf("stored %d tournament findings, the audit gives %d:\n got %v\nwant %v", len(gotF), len(wantF), gotF, wantF)
	}

	// Restarted half-way, with a new projector that restores the tournament from its memory.
	again := openDB(t)
	project(t, again, writeLines(t, t.TempDir(), lines[:len(lines)/2]), 53)
	project(t, again, full, 53)
	if a, b := dump(t, db), dump(t, again); a != b {
		t.Fatalf("a projector restarted half-way stores other rows: %s", firstDiff(a, b))
	}

	// A projector whose transaction fails in the middle of a batch (the tournament model has
	// followed hands whose rows are rolled back) resumes with the rows of an uninterrupted one.
	failed := openDB(t)
	p := failAfter(t, failed, &FileSource{Path: full}, len(lines)/3, 29)
	p.Source = &FileSource{Path: full}
	if _, err := p.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if a, b := dump(t, db), dump(t, failed); a != b {
		t.Fatalf("a projector resumed after a failed batch stores other rows: %s", firstDiff(a, b))
	}
}

// Each tournament irregularity the simulator injects (findings-v1.md tournament.*) is stored by
// the projector where the audit of the whole log reports it, and makes its hand's audit status
// an error. The tournaments are of tournamentSize.
func TestTournamentInjectedStoredFromAFile(t *testing.T) {
	for _, code := range sim.TournamentInjectable() {
		t.Run(string(code), func(t *testing.T) {
			log, lines := playTournament(t, sim.TournamentConfig{Rules: "br-fechado", Seed: 5, Inject: []finding.Code{code}})
			db := openDB(t)
			project(t, db, writeLines(t, t.TempDir(), lines), 61)
			got, want := storedTournamentFindings(t, db), auditedTournamentFindings(t, log)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("stored %d tournament findings, the audit gives %d:\n got %v\nwant %v", len(got), len(want), got, want)
			}
			var n, errorHands int
			if err := db.QueryRowContext(context.Background(), `SELECT COUNT(*), SUM(h.audit_status = 'error') FROM findings f
				JOIN hands h ON h.hand_id = f.hand_id WHERE f.code = ?`, string(code)).Scan(&n, &errorHands); err != nil {
				t.Fatal(err)
			}
			if n == 0 || errorHands != n {
				t.Errorf("%d %s findings stored, %d of them in hands whose audit status is error", n, code, errorHands)
			}
		})
	}
}

// Issue 19's done-when for the other two presets it names (br-fechado is
// TestTournamentProjectedFromAFile's): a 60-entry tournament on 8 tables (tournamentSize; smaller
// under -short) plays to the end, the projector stores no error for it, and its standings in
// SQLite equal the independent computation of places from the JSON Lines.
func TestTournamentStandingsOtherPresetsFromAFile(t *testing.T) {
	entries, _ := tournamentSize()
	for _, preset := range []string{"tr-kapali", "std-draw"} {
		t.Run(preset, func(t *testing.T) {
			log, lines := playTournament(t, sim.TournamentConfig{Rules: preset, Seed: 11})
			db := openDB(t)
			project(t, db, writeLines(t, t.TempDir(), lines), 97)
			want, err := simtest.IndependentPlaces(log, entries)
			if err != nil {
				t.Fatal(err)
			}
			got := storedPlaces(t, db)
			if len(got) != entries || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("stored standings differ from the independent computation:\n got %v\nwant %v", got, want)
			}
			var errs int
			if err := db.QueryRow(`SELECT COUNT(*) FROM findings WHERE severity = 'error'`).Scan(&errs); err != nil {
				t.Fatal(err)
			}
			if errs != 0 {
				t.Errorf("%d error findings stored for a clean tournament", errs)
			}
		})
	}
}

// storedPlaces returns the places the projector stored for the simulator's tournament, by player.
func storedPlaces(t *testing.T, db *sql.DB) map[string]int {
	t.Helper()
	rows, err := db.Query(`SELECT player, place FROM tournament_players WHERE tournament_id = ?`, sim.DefaultTournament)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]int{}
	for rows.Next() {
		var p string
		var place int
		if err := rows.Scan(&p, &place); err != nil {
			t.Fatal(err)
		}
		got[p] = place
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}
