// Package audittest audits a whole JSON Lines log for the tests of several packages, as
// `fechado audit` does (one auditor, the log in file order), so that each test compares its own
// results with the auditor's through one helper.
package audittest

import (
	"bytes"
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
