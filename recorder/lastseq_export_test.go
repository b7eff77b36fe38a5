package recorder

// EmbeddedLastSeq exposes embeddedLastSeq: the tests check that an embedded log reads the
// stream's state itself and an external one does not.
func EmbeddedLastSeq(l *Log) (uint64, bool) { return l.embeddedLastSeq() }
