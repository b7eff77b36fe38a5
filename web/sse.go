package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/fechado/fechado/projector"
)

// sseMessage is one Server-Sent Event: its name and its JSON data.
type sseMessage struct {
	event string
	data  []byte
}

// clientBuffer is how many messages a slow client may lag behind before it is dropped (its
// EventSource reconnects and reloads).
const clientBuffer = 256

// hub fans live messages out to the connected clients.
type hub struct {
	mu      sync.Mutex
	clients map[chan sseMessage]struct{}
	closed  bool
	// since is the end sequence the feed's cursor starts from once it has clients again: while
	// nobody listens the feed neither encodes tables nor reads the hands that ended (under a
	// room's load that was a tenth of serve's CPU), so its cursor stays behind; a client
	// subscribing to an empty hub sets since to the last hand ended before it subscribed, and
	// the hands after it are announced to it. sinceSet says whether since was set.
	since    int64
	sinceSet bool
}

func newHub() *hub { return &hub{clients: map[chan sseMessage]struct{}{}} }

// subscribe adds a client; lastEnd is the stream sequence of the last hand.ended in the read
// models before the call, from which an idle feed resumes announcing.
func (h *hub) subscribe(lastEnd int64) (chan sseMessage, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, false
	}
	if len(h.clients) == 0 && (!h.sinceSet || lastEnd < h.since) {
		h.since, h.sinceSet = lastEnd, true
	}
	c := make(chan sseMessage, clientBuffer)
	h.clients[c] = struct{}{}
	return c, true
}

// listening reports whether some client listens, and takes the since a subscription set (ok
// false when none did since the last call).
func (h *hub) listening() (on bool, since int64, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	since, ok = h.since, h.sinceSet
	h.sinceSet = false
	return len(h.clients) > 0, since, ok
}

func (h *hub) unsubscribe(c chan sseMessage) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		close(c)
	}
}

func (h *hub) publish(event string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		select {
		case c <- sseMessage{event, b}:
		default: // too slow: drop it; the browser reconnects
			delete(h.clients, c)
			close(c)
		}
	}
}

// close disconnects every client and refuses new ones.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for c := range h.clients {
		delete(h.clients, c)
		close(c)
	}
}

// maxAnnounce bounds the "hand" events one change sends; past it (a projector catching up on
// a backlog) the older hands are skipped.
const maxAnnounce = 50

// feed turns the changes Live reports into messages: "table" with the table's public state
// after each change, and "hand" with the summary and findings of every hand that ended since
// the last change (read from the read models, so none is lost when changes coalesce).
func (s *Server) feed(ctx context.Context) {
	sub := s.live.Subscribe()
	defer sub.Close()
	cursor, err := projector.LastEnd(ctx, s.db) // stream sequence of the last hand.ended announced
	if err != nil {
		return
	}
	for {
		ids, err := sub.Next(ctx)
		if err != nil {
			return
		}
		on, since, ok := s.hub.listening()
		if ok {
			// The cursor only stays behind while nobody listens; a subscriber's since may also
			// come before hands announced to the clients it joined as they left.
			cursor = max(cursor, since)
		}
		if !on {
			continue // nobody to tell: the next subscriber resumes from its own since
		}
		for _, id := range ids {
			if t, ok := s.live.Table(id); ok {
				s.hub.publish("table", tableView(t))
			}
		}
		cursor = s.announce(ctx, cursor)
	}
}

// announce publishes a "hand" event for each hand that ended after stream sequence cursor, and
// returns the new cursor.
func (s *Server) announce(ctx context.Context, cursor int64) int64 {
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ended, err := projector.EndedAfter(qctx, s.db, cursor, maxAnnounce)
	if err != nil {
		return cursor
	}
	next := cursor
	for _, e := range ended {
		next = max(next, e.EndSeq)
		if h, err := s.handSummary(qctx, e.Hand); err == nil {
			s.hub.publish("hand", h)
		}
	}
	return next
}

// serveSSE is GET /api/events: a text/event-stream of "table" and "hand" events, with a comment
// line every 15 s to keep proxies from closing it.
func (s *Server) serveSSE(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming unsupported", nil)
		return
	}
	lastEnd, err := projector.LastEnd(r.Context(), s.db)
	if err != nil {
		storeError(w, err)
		return
	}
	c, ok := s.hub.subscribe(lastEnd)
	if !ok {
		writeError(w, http.StatusServiceUnavailable, "the server is shutting down", nil)
		return
	}
	defer s.hub.unsubscribe(c)
	s.metrics.sseClients.Inc()
	defer s.metrics.sseClients.Dec()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// The current state first, so a new client needs no other request.
	for _, t := range s.live.Tables() {
		b, _ := json.Marshal(tableView(t))
		fmt.Fprintf(w, "event: table\ndata: %s\n\n", b)
	}
	fmt.Fprint(w, ": connected\n\n")
	fl.Flush()
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ping.C:
			fmt.Fprint(w, ": ping\n\n")
		case m, ok := <-c:
			if !ok {
				return
			}
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", m.event, m.data)
		}
		fl.Flush()
	}
}
