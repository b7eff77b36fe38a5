package audit

// For the tests of package audit_test, which may import sim (sim imports audit).
var (
	SameRecycled        = sameRecycled
	AuditBytes          = auditBytes
	Poisoned            = poisoned
	AuditWithoutRecycle = auditWithoutRecycle
)

// SetWindows sets the windows of a's chain: the closed hands and the event ids it remembers.
func SetWindows(a *Auditor, hands, ids int) { a.chain.Window, a.chain.IDWindow = hands, ids }
