package recorder

import "github.com/nats-io/nats-server/v2/server"

// embeddedLastSeq is LastSeq read from the embedded server's own state of the stream: the figure
// a stream info request answers (the server stores a message before it acknowledges it, so an
// acknowledged append is counted), by a function call under the stream's read lock. The request
// goes through the in-process connection, the server's JetStream API queue and the client's
// reader, four goroutines in turn: cheap alone, but with every core busy (a Prometheus scrape of
// a server under load, web's /metrics) each of them waits for its turn, and at a million hands
// the scrape spent most of its time there (BENCHMARKS.md). The stream is in the global account:
// the embedded server's users have no account of their own. It says false when the log is
// external or the server has no such stream to give (shutting down); LastSeq then asks.
// (Embedded, a single server, there is no leader to be ahead of the store: tests that make the
// stream info say so, LeaderAhead, set askInfo.)
func (l *Log) embeddedLastSeq() (uint64, bool) {
	st, ok := l.embeddedState()
	return st.LastSeq, ok
}

// embeddedState is the embedded server's own state of the stream (embeddedLastSeq), or false
// when the log is external, the server has no such stream to give, or a test set askInfo.
func (l *Log) embeddedState() (server.StreamState, bool) {
	if l.srv == nil || l.askInfo {
		return server.StreamState{}, false
	}
	acc := l.srv.GlobalAccount()
	if acc == nil {
		return server.StreamState{}, false
	}
	d, err := l.srv.JszAccount(&server.JSzOptions{Account: acc.GetName(), Streams: true})
	if err != nil {
		return server.StreamState{}, false
	}
	for _, s := range d.Streams {
		if s.Name == StreamName {
			return s.State, true
		}
	}
	return server.StreamState{}, false
}
