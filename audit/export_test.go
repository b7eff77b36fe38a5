package audit

// SetWindows sets the windows of a's chain: the closed hands and the event ids it remembers.
func SetWindows(a *Auditor, hands, ids int) { a.chain.Window, a.chain.IDWindow = hands, ids }

// SameSpread and OneAuditor are sameSpread and oneAuditor, for the tests of package audit_test
// (which may import sim).
var (
	SameSpread       = sameSpread
	SameSpreadOn     = sameSpreadOn
	SameSpreadEvents = sameSpreadEvents
	OneAuditor       = oneAuditor
)

// SpreadRuns returns what the spreads of the last SameSpreadOn did.
func SpreadRuns() []SpreadRun { return spreadRuns }
