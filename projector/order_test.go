package projector

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/audittest"
	"github.com/fechado/fechado/sim"
)

// halvesSwapped returns the lines of log, whole hands in the order they first appear, with the
// second half of its hands before the first: a file recorded second half first.
func halvesSwapped(t *testing.T, log []byte) [][]byte {
	t.Helper()
	var order []string
	byHand := map[string][][]byte{}
	for _, l := range bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n")) {
		e, err := events.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := byHand[e.Hand]; !ok {
			order = append(order, e.Hand)
		}
		byHand[e.Hand] = append(byHand[e.Hand], l)
	}
	half := len(order) / 2
	var out [][]byte
	for _, h := range append(slices.Clone(order[half:]), order[:half]...) {
		out = append(out, byHand[h]...)
	}
	return out
}

// A table's hands stored second half first are judged in the order of their chain: the
// projector stores the findings the audit of the file in order gives (an injected table.stack
// in every hand it can), none waits once the log is read, and a projector stopped while hands
// wait (a batch of 50 messages, a new projector for each batch) finds the same.
func TestProjectorJudgesHandsInChainOrder(t *testing.T) {
	var log bytes.Buffer
	if err := sim.Run(sim.Config{Rules: "br-fechado", Players: 5, Hands: 40, Seed: 8, Table: "t",
		Inject: []finding.Code{finding.TableStack}}, &log); err != nil {
		t.Fatal(err)
	}
	want, _ := audittest.Findings(t, log.Bytes(), "log")
	var wantLines []string
	stack := 0
	for _, f := range want {
		wantLines = append(wantLines, fmt.Sprintf("%s %d %s %s", f.Hand, f.Seq, f.Code, f.Message))
		if f.Code == finding.TableStack {
			stack++
		}
	}
	slices.Sort(wantLines)
	if stack < 5 {
		t.Fatalf("only %d table.stack findings in the log: the test proves little", stack)
	}
	lines := halvesSwapped(t, log.Bytes())
	for _, restart := range []bool{false, true} {
		db := openDB(t)
		dir := t.TempDir()
		if restart {
			// A new projector (a restart) for every 50 more lines of the log.
			for k := 50; k < len(lines)+50; k += 50 {
				path := writeLines(t, dir, lines[:min(k, len(lines))])
				if _, err := New(db, &FileSource{Path: path}).CatchUp(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		} else if _, err := New(db, &FileSource{Path: writeLines(t, dir, lines)}).CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		var waiting int
		if err := db.QueryRow(`SELECT COUNT(*) FROM hands WHERE audit_status = ?`, AuditWaiting).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting != 0 {
			t.Errorf("restart %v: %d hands still wait once the whole log is read", restart, waiting)
		}
		rows, err := db.Query(`SELECT hand_id, seq, code, message FROM findings`)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var h, code, msg string
			var seq int
			rows.Scan(&h, &seq, &code, &msg)
			got = append(got, fmt.Sprintf("%s %d %s %s", h, seq, code, msg))
		}
		rows.Close()
		slices.Sort(got)
		if !slices.Equal(got, wantLines) {
			t.Errorf("restart %v: stored %d findings, the audit of the file gives %d", restart, len(got), len(wantLines))
			for _, g := range got {
				if !slices.Contains(wantLines, g) {
					t.Errorf("  stored only: %s", g)
				}
			}
			for _, w := range wantLines {
				if !slices.Contains(got, w) {
					t.Errorf("  audit only: %s", w)
				}
			}
		}
	}
}

// A line of a hand that waits for the hand before it, stored after its hand.ended and before it
// is judged (here its hand.ended again), is counted with the hand's own findings once it is
// judged: the projector stores what it stores without that line, and the line's finding, and
// counts them all in hands.findings, with or without a restart while the hand waits.
func TestWaitingHandCountsItsStrayLine(t *testing.T) {
	var log bytes.Buffer
	if err := sim.Run(sim.Config{Rules: "br-fechado", Players: 5, Hands: 30, Seed: 9, Table: "t",
		Inject: []finding.Code{finding.TableStack}}, &log); err != nil {
		t.Fatal(err)
	}
	clean := halvesSwapped(t, log.Bytes())
	project := func(lines [][]byte, restart bool) *sql.DB {
		db := openDB(t)
		dir := t.TempDir()
		if restart {
			// A new projector (a restart) for every 40 more lines of the log.
			for k := 40; k < len(lines)+40; k += 40 {
				path := writeLines(t, dir, lines[:min(k, len(lines))])
				if _, err := New(db, &FileSource{Path: path}).CatchUp(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		} else if _, err := New(db, &FileSource{Path: writeLines(t, dir, lines)}).CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		return db
	}
	stored := func(db *sql.DB) []string {
		rows, err := db.Query(`SELECT hand_id, seq, code FROM findings`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			var h, code string
			var seq int
			if err := rows.Scan(&h, &seq, &code); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s %d %s", h, seq, code))
		}
		slices.Sort(got)
		return got
	}
	base := stored(project(clean, false))
	// The first hand.ended of the log is that of a hand of its second half, which waits for
	// the first half; its hand.ended goes in again right after it.
	var lines [][]byte
	var hand string
	var seq events.Seq
	for i, l := range clean {
		e, err := events.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		if e.Type == events.HandEndedType {
			hand, seq = e.Hand, e.Seq
			lines = slices.Insert(slices.Clone(clean), i+1, l)
			break
		}
	}
	own := 0
	for _, b := range base {
		if strings.HasPrefix(b, hand+" ") {
			own++
		}
	}
	if own == 0 {
		t.Fatalf("hand %s has no finding of its own: the test proves little", hand)
	}
	want := slices.Clone(base)
	want = append(want, fmt.Sprintf("%s %d %s", hand, seq, finding.LogSequence))
	slices.Sort(want)
	for _, restart := range []bool{false, true} {
		db := project(lines, restart)
		if got := stored(db); !slices.Equal(got, want) {
			t.Errorf("restart %v: stored findings\n%s\nwant\n%s", restart, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		var counted, rows int
		var status string
		if err := db.QueryRow(`SELECT findings, audit_status FROM hands WHERE hand_id = ?`, hand).Scan(&counted, &status); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT COUNT(*) FROM findings WHERE hand_id = ?`, hand).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if counted != own+1 || rows != own+1 || status != string(finding.Error) {
			t.Errorf("restart %v: hand %s counts %d findings with status %q and stores %d; want %d and %q",
				restart, hand, counted, status, rows, own+1, finding.Error)
		}
	}
}
