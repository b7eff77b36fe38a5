// Package audittest audits a whole JSON Lines log for the tests of several packages, as
// `fechado audit` does (one auditor, the log in file order), so that each test compares its own
// results with the auditor's through one helper.
package audittest

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"slices"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// Run feeds log to a through audit.AuditReader, naming it name in the findings of lines that are
// not events, and closes a; it fails tb when the log cannot be read.
func Run(tb testing.TB, a *audit.Auditor, log []byte, name string) {
	tb.Helper()
	if _, err := audit.AuditReader(a, events.NewReader(bytes.NewReader(log), name)); err != nil {
		tb.Fatal(err)
	}
	a.Close()
}

// Findings audits log with a new auditor and returns its findings, in the order reported, and
// the closed auditor (for its tournaments and counts).
func Findings(tb testing.TB, log []byte, name string) ([]finding.Finding, *audit.Auditor) {
	tb.Helper()
	var fs []finding.Finding
	a := audit.New(func(f finding.Finding) { fs = append(fs, f) })
	Run(tb, a, log, name)
	return fs, a
}

// Stored returns the findings a projector stored in db (its findings table), each as audit
// --json writes it, sorted: what the differential tests compare with the auditor's verdict.
func Stored(tb testing.TB, db *sql.DB) []string {
	tb.Helper()
	rows, err := db.Query(`SELECT hand_id, table_id, seq, code, severity, seat, message, expected, actual FROM findings`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var f finding.Finding
		var seat sql.NullInt64
		var exp, act sql.NullString
		if err := rows.Scan(&f.Hand, &f.Table, &f.Seq, &f.Code, &f.Severity, &seat, &f.Message, &exp, &act); err != nil {
			tb.Fatal(err)
		}
		f.Seat = events.Seat(seat.Int64)
		if exp.Valid {
			f.Expected = json.RawMessage(exp.String)
		}
		if act.Valid {
			f.Actual = json.RawMessage(act.String)
		}
		out = append(out, string(f.JSON()))
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	slices.Sort(out)
	return out
}
