package projector

import (
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// AuditFunc audits the events of one hand, in seq order, from hand.started to hand.ended, and
// returns its findings. The projector calls it once per hand when hand.ended arrives, inside the
// transaction that stores the hand, so it must be deterministic and must not block.
type AuditFunc func(hand []*events.Event) []finding.Finding

// Audit statuses stored in hands.audit_status.
const (
	AuditOK = "ok" // audited, no finding
)

// auditStatus is "ok" without findings, else the worst severity found.
func auditStatus(fs []finding.Finding) string {
	if len(fs) == 0 {
		return AuditOK
	}
	worst := fs[0].Severity
	for _, f := range fs[1:] {
		if rank(f.Severity) > rank(worst) {
			worst = f.Severity
		}
	}
	if rank(worst) == 3 {
		return string(finding.Error)
	}
	return string(worst)
}

// rank orders severities; an unknown one counts as an error.
func rank(s finding.Severity) int {
	switch s {
	case finding.Info:
		return 1
	case finding.Warning:
		return 2
	default:
		return 3
	}
}
