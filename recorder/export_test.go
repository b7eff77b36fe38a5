package recorder

// SetMaxBuffered lowers the grouping buffer for a test and returns a func that restores it.
func SetMaxBuffered(n int) (restore func()) {
	old := maxBuffered
	maxBuffered = n
	return func() { maxBuffered = old }
}
