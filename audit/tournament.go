package audit

import (
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/tournament"
)

// tournament follows an ended hand of a tournament across the tournament's tables (tournament.*
// codes), appending the findings to out.
func (a *Auditor) tournament(out []finding.Finding, evs []*events.Event) []finding.Finding {
	if a.Alone {
		return out
	}
	th, ok := tournament.HandOf(evs)
	if !ok {
		return out
	}
	if a.book == nil {
		a.book = tournament.NewBook()
	}
	return a.book.Add(out, &th)
}

// Tournaments returns the tournaments of the hands audited so far, as their hands leave them
// (standings, tables, levels); nil when no hand belonged to one.
func (a *Auditor) Tournaments() *tournament.Book { return a.book }
