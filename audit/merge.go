package audit

import (
	"crypto/sha256"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/tournament"
)

// AuditMerged audits several logs as one, merged in time order (tournament.Merge): the files of
// the tables of a tournament. keep, when not nil, chooses the events to audit (tournament.Only). A line that
// does not decode is given to invalid and counted in bad; an unreadable file stops the audit with
// its error.
func AuditMerged(a *Auditor, rs []*events.Reader, keep func(*events.Event) bool, invalid func(error)) (bad int, err error) {
	var sum [sha256.Size]byte
	return tournament.Merge(rs, func(e *events.Event, r *events.Reader) bool {
		if keep == nil || keep(e) {
			a.add(e, lineSum(r, &sum))
		}
		return true
	}, invalid)
}
