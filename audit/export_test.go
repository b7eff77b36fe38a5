package audit

// SetWindows sets the windows of a's chain: the closed hands and the event ids it remembers.
func SetWindows(a *Auditor, hands, ids int) { a.chain.Window, a.chain.IDWindow = hands, ids }
