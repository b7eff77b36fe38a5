package projector

import "github.com/fechado/fechado/events"

// Severity is how serious a finding is (events-v1.md §6).
type Severity string

// The severities, mildest first.
const (
	SeverityInfo    Severity = "info"
	SeverityWarning Severity = "warning"
	SeverityError   Severity = "error"
)

// rank orders severities; unknown ones count as errors.
func (s Severity) rank() int {
	switch s {
	case SeverityInfo:
		return 1
	case SeverityWarning:
		return 2
	default:
		return 3
	}
}

// Finding is one irregularity an auditor reports in a hand (findings-v1.md). The projector
// stores findings; it does not judge hands itself.
type Finding struct {
	Seq      events.Seq  // the first event that shows it
	Code     string      // e.g. "pot.split"
	Severity Severity    // error, warning or info
	Seat     events.Seat // 0 when the finding concerns no seat
	Message  string
}

// AuditFunc audits the events of one hand, in seq order, from hand.started to hand.ended, and
// returns its findings. The projector calls it once per hand when hand.ended arrives, inside the
// transaction that stores the hand, so it must be deterministic and must not block.
type AuditFunc func(hand []*events.Event) []Finding

// Audit statuses stored in hands.audit_status.
const (
	AuditOK = "ok" // audited, no finding
)

// auditStatus is "ok" without findings, else the worst severity found.
func auditStatus(fs []Finding) string {
	if len(fs) == 0 {
		return AuditOK
	}
	worst := fs[0].Severity
	for _, f := range fs[1:] {
		if f.Severity.rank() > worst.rank() {
			worst = f.Severity
		}
	}
	if worst.rank() == 3 {
		return string(SeverityError)
	}
	return string(worst)
}
