package projector

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/handhistory"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/sim"
)

// readModelLog is one log the read models are projected from.
type readModelLog struct {
	name  string
	lines [][]byte
}

// readModelLogs returns the logs of TestProjectedRowsFromAFileAreTheAuditorsHand: the vectors;
// for every preset a simulated table (and a cash session where the preset has one) and a table
// with every fault the simulator injects into that preset, one per hand; and the imported hand
// histories, whose cards the log does not always show.
func readModelLogs(t *testing.T) []readModelLog {
	t.Helper()
	var out []readModelLog
	vectors, err := filepath.Glob(filepath.Join(testfiles.Path("vectors"), "*.jsonl"))
	if err != nil || len(vectors) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	for _, f := range vectors {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, readModelLog{"vectors/" + filepath.Base(f), bytes.Split(bytes.TrimSpace(b), []byte("\n"))})
	}
	simLog := func(name string, cfg sim.Config) {
		hs, err := sim.All(cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		l := readModelLog{name: name}
		for _, h := range hs {
			for _, e := range h.Events {
				l.lines = append(l.lines, e.Raw)
			}
		}
		out = append(out, l)
	}
	hands := 40
	if testing.Short() {
		hands = 20
	}
	for i, preset := range rules.Names() {
		p, err := rules.Lookup(preset)
		if err != nil {
			t.Fatal(err)
		}
		players := min(p.MaxPlayers, 4)
		simLog("sim/"+preset, sim.Config{Rules: preset, Players: players, Hands: hands, Seed: uint64(100 + i), Table: "t-" + preset})
		if sim.CashAllowed(preset) {
			simLog("sim/cash/"+preset, sim.Config{Rules: preset, Players: min(p.MaxPlayers, 6), Hands: hands, Seed: uint64(200 + i), Table: "c-" + preset, Cash: true})
		}
		codes := sim.InjectableFor(preset)
		if len(codes) == 0 {
			t.Fatalf("%s: nothing to inject", preset)
		}
		simLog("injected/"+preset, sim.Config{Rules: preset, Players: players, Hands: 2*len(codes) + 4, Seed: uint64(300 + i),
			Table: "i-" + preset, Inject: codes})
	}
	files, err := filepath.Glob(filepath.Join(testfiles.Path("hh"), "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no hand histories: %v", err)
	}
	hh := readModelLog{name: "imported"}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := handhistory.Import(handhistory.Auto, filepath.Base(f), b)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hands {
			for _, e := range h.Events {
				hh.lines = append(hh.lines, e.Raw)
			}
		}
	}
	return append(out, hh)
}

// The read models take what a hand did from the auditor's rules.Hand (audit.Judge), not from a
// second reading of the events: projected, every hand of the vectors, of a simulated table of
// every preset, of their fault-injected tables and of the imported hand histories has the rows
// the projector's own derivation gave before (summarizeEvents), wherever the auditor finds no
// error in the hand's own events (table.* and tournament.* findings are about the hands around
// it), with one change: a draw the log gives only as a number (an imported hand whose hidden
// discards the room never showed: cards.discarded with declared and no cards) counts the cards
// declared, where the old derivation counted none and called the player pat. Where the auditor
// finds an error, the rows are its reading of the hand; the test counts them by finding code
// (docs/architecture.md says what they show).
// FromAFile: it projects a file in the test's one goroutine, where the race detector has nothing
// to watch; make test runs it without the detector (the Makefile's RACEFREE).
func TestProjectedRowsFromAFileAreTheAuditorsHand(t *testing.T) {
	ctx := context.Background()
	valid, invalid := 0, 0
	changed := map[finding.Code]int{}
	for _, lg := range readModelLogs(t) {
		db := openDB(t)
		project(t, db, writeLines(t, t.TempDir(), lg.lines), 0)
		for _, h := range logHands(lg.lines) {
			var id string
			if err := db.QueryRowContext(ctx, `SELECT hand_id FROM hands WHERE hand_id = ? AND end_seq IS NOT NULL`, h.id).Scan(&id); err != nil {
				continue // a hand the projector did not end (its hand.ended was refused)
			}
			codes, own := handCodes(t, db, h.id)
			before, after := rowsBefore(h), rowsStored(t, db, h.id)
			if !own {
				valid++
				if before != after {
					t.Errorf("%s: hand %s (findings %v): rows changed:\n%s", lg.name, h.id, codes, lineDiff(before, after))
				}
				continue
			}
			invalid++
			if before != after {
				for _, c := range codes {
					changed[c]++
				}
				t.Logf("%s: hand %s with %v: the auditor's reading:\n%s", lg.name, h.id, codes, lineDiff(before, after))
			}
		}
	}
	if valid < 300 || invalid < 40 {
		t.Fatalf("compared %d hands without an error of their own and %d with: too few to prove anything", valid, invalid)
	}
	t.Logf("%d hands without an error of their own, rows unchanged; %d with, rows changed in these (hands by code): %v", valid, invalid, changed)
}

// logHands returns the hands of lines that begin with hand.started, each with its events up to
// its first hand.ended, as the projector holds them when none is refused.
func logHands(lines [][]byte) []*hand {
	byID := map[string]*hand{}
	var out []*hand
	for _, l := range lines {
		e, err := events.Parse(l)
		if err != nil {
			continue
		}
		h := byID[e.Hand]
		if h == nil {
			hs, ok := e.Data.(*events.HandStarted)
			if !ok {
				continue
			}
			h = &hand{id: e.Hand, table: e.Table, start: hs, startedAt: e.At}
			byID[e.Hand] = h
			out = append(out, h)
		}
		if n := len(h.evs); n > 0 && h.evs[n-1].Type == events.HandEndedType {
			continue
		}
		h.evs = append(h.evs, e)
	}
	return out
}

// handCodes returns the codes of the findings stored for hand, and whether one of them is an
// error in the hand's own events (not a table.* or tournament.* code).
func handCodes(t *testing.T, db *sql.DB, hand string) (codes []finding.Code, ownError bool) {
	t.Helper()
	rows, err := db.Query(`SELECT code, severity FROM findings WHERE hand_id = ? ORDER BY n`, hand)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c, sev string
		if err := rows.Scan(&c, &sev); err != nil {
			t.Fatal(err)
		}
		codes = append(codes, finding.Code(c))
		if finding.Severity(sev) == finding.Error && !strings.HasPrefix(c, "table.") && !strings.HasPrefix(c, "tournament.") {
			ownError = true
		}
	}
	return codes, ownError
}

// The columns compared: what summarize gives, in the order the rows below list them.
const (
	handCols   = `pot_total, awarded, raked, carry_out, passed, misdeal, showdown, winners, ended_at`
	playerCols = `seat, player, position, start_stack, end_stack, net, put_in, returned, won, vpip, open_chance,
		opened, raised_pre, bets, raises, calls, checks, folded, drew, cards_drawn, stood_pat, saw_second,
		went_to_showdown, won_at_showdown, aggressive_post, shown`
	potCols = `pot, awarded, raked, winners`
)

// rowsStored returns the rows of hand the projection stored, one line per row.
func rowsStored(t *testing.T, db *sql.DB, hand string) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT 'hand', ` + handCols + ` FROM hands WHERE hand_id = ?`,
		`SELECT 'player', ` + playerCols + ` FROM hand_players WHERE hand_id = ? ORDER BY seat`,
		`SELECT 'pot', ` + potCols + ` FROM pots WHERE hand_id = ? ORDER BY pot`,
	} {
		rows, err := db.Query(q, hand)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			b.WriteString(rowLine(scanAny(t, rows, len(cols))...))
		}
		rows.Close()
	}
	return b.String()
}

// rowsBefore returns the rows the projector's own derivation gave h, as rowsStored reads them.
func rowsBefore(h *hand) string {
	s := summarizeEvents(h)
	for _, e := range h.evs { // the one change: a draw the log gives as a number only
		if d, ok := e.Data.(*events.CardsDiscarded); ok && len(d.Cards) == 0 && d.Declared != nil && *d.Declared > 0 {
			for i := range s.seats {
				if s.seats[i].seat == d.Seat {
					s.seats[i].cardsDrawn, s.seats[i].stoodPat = *d.Declared, false
				}
			}
		}
	}
	var b strings.Builder
	i64 := func(c events.Chips) int64 { return int64(c) }
	b.WriteString(rowLine("hand", i64(s.potTotal), i64(s.awarded), i64(s.raked), i64(s.carryOut),
		int64(b2i(s.passed)), int64(b2i(s.misdeal)), int64(b2i(s.showdown)), s.winners, s.endedAt))
	for _, x := range s.seats {
		var drawn any
		if x.drew {
			drawn = int64(x.cardsDrawn)
		}
		bi := func(v bool) int64 { return int64(b2i(v)) }
		b.WriteString(rowLine("player", int64(x.seat), x.player, int64(x.position), i64(x.start), i64(x.end), i64(x.end-x.start),
			i64(x.putIn), i64(x.returned), i64(x.won), bi(x.vpip), bi(x.openChance), bi(x.opened), bi(x.raisedPre),
			int64(x.bets), int64(x.raises), int64(x.calls), int64(x.checks), bi(x.folded), bi(x.drew), drawn, bi(x.stoodPat),
			bi(x.sawSecond), bi(x.wtsd), bi(x.wsd), bi(x.aggressivePost), cards.Join(x.shown, " ")))
	}
	sort.Slice(s.pots, func(i, j int) bool { return s.pots[i].pot < s.pots[j].pot })
	for _, p := range s.pots {
		b.WriteString(rowLine("pot", int64(p.pot), i64(p.awarded), i64(p.raked), int64(p.winners)))
	}
	return b.String()
}

func rowLine(vals ...any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = fmt.Sprintf("%v", v)
	}
	return strings.Join(parts, "|") + "\n"
}

// lineDiff returns the lines of a and b that differ, side by side.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			fmt.Fprintf(&out, "  before %s\n  now    %s\n", x, y)
		}
	}
	return out.String()
}
