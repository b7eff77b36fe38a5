package web

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/webguard"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/roles"
)

// rejection is a hand of a POST /api/events that was not appended.
type rejection struct {
	Hand     string `json:"hand"`
	Table    string `json:"table,omitempty"`
	Seq      int    `json:"seq,omitempty"`
	Line     int    `json:"line,omitempty"`
	Conflict bool   `json:"conflict"` // the store refused it (409); else the event is invalid (422)
	Error    string `json:"error"`
}

// postResult is the answer to POST /api/events.
type postResult struct {
	Appended int64       `json:"appended"`
	Skipped  int64       `json:"skipped"`
	Hands    int64       `json:"hands"`
	Rejected []rejection `json:"rejected"`
}

// postEvents is POST /api/events: a JSON Lines body of events, appended as `fechado record`
// appends a file. Every line is decoded first: one that is not JSON answers 400, one that is not
// a valid event 422 (a line nested deeper than events.MaxDepth too), both naming the line (and
// the field), and nothing is appended. Then each hand is validated against what the log holds
// (seq, prev chain, table) and appended, or rejected as a whole: 422 when invalid, 409 when the
// store refused it (a sequence conflict); other hands of the body still go in. A body over the
// limit, or a line over events.MaxLineSize (read past in bounded memory), answers 413.
//
// Before anything is read: a write another site's page could have sent (webguard.CrossSite)
// answers 403; with an auth file, missing or wrong credentials answer 401, and a user whose role
// writes nothing 403. Once the lines are decoded, an event the user may not append (a table
// device's event of another table: roles.User.MayAppend, the decision the NATS server takes)
// answers 403 naming its line, and nothing of the body is appended.
func (s *Server) postEvents(w http.ResponseWriter, r *http.Request) {
	if err := webguard.CrossSite(r); err != nil {
		writeError(w, http.StatusForbidden, err.Error(), nil)
		return
	}
	writer, ok := s.writer(w, r)
	if !ok {
		return
	}
	rd := bodyReader(http.MaxBytesReader(w, r.Body, s.maxBody))
	type lined struct {
		e    *events.Event
		line int
	}
	var evs []lined
	for {
		line, err := rd.ReadLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				writeError(w, http.StatusRequestEntityTooLarge, "body larger than "+strconv.FormatInt(s.maxBody, 10)+" bytes", nil)
				return
			}
			if errors.Is(err, events.ErrLineTooLong) {
				// Read past in bounded memory; line is its head, which names its hand.
				writeError(w, http.StatusRequestEntityTooLarge, "line "+strconv.Itoa(rd.Line())+": "+errors.Unwrap(err).Error(),
					&apiError{Line: rd.Line(), Hand: events.Sniff(line).Hand})
				return
			}
			writeError(w, http.StatusBadRequest, "reading the body: "+err.Error(), nil)
			return
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e, err := events.Parse(line)
		if err != nil {
			at := events.Sniff(line)
			ae := &apiError{Line: rd.Line(), Hand: at.Hand}
			var ee *events.Error
			if errors.As(err, &ee) {
				ae.Field = ee.Field
			}
			code := http.StatusUnprocessableEntity
			msg := "line " + strconv.Itoa(rd.Line()) + ": " + err.Error()
			if !errors.Is(err, events.ErrTooDeep) && !at.JSON {
				code, msg = http.StatusBadRequest, "line "+strconv.Itoa(rd.Line())+": malformed JSON: "+err.Error()
			}
			writeError(w, code, msg, ae)
			return
		}
		evs = append(evs, lined{e, rd.Line()})
	}
	if len(evs) == 0 {
		writeError(w, http.StatusBadRequest, "the body holds no event (JSON Lines: one event per line)", nil)
		return
	}
	if writer != nil {
		for _, x := range evs {
			if !writer.MayAppend(x.e.Table, x.e.Hand) {
				writeError(w, http.StatusForbidden, "line "+strconv.Itoa(x.line)+": user "+writer.Name+" may not append to table "+x.e.Table,
					&apiError{Line: x.line, Hand: x.e.Hand, Seq: int(x.e.Seq)})
				return
			}
		}
	}
	var mu sync.Mutex
	res := postResult{Rejected: []rejection{}}
	conflict := false
	// One hand at a time: a table's hands then enter the stream one after the other, so the
	// live auditor (which follows hands in the order they end) checks each table's continuity
	// in the order the hands were played.
	rec := s.log.NewRecorder(r.Context(), recorder.RecordOptions{Window: 1, OnReject: func(he *recorder.HandError) {
		mu.Lock()
		defer mu.Unlock()
		c := errors.Is(he, recorder.ErrSequenceConflict)
		conflict = conflict || c
		res.Rejected = append(res.Rejected, rejection{Hand: he.Hand, Table: he.Table, Seq: int(he.Seq), Line: he.Line,
			Conflict: c, Error: he.Err.Error()})
	}})
	for _, x := range evs {
		if err := rec.Add(x.e, "body", x.line); err != nil {
			break
		}
	}
	st, err := rec.Close()
	s.metrics.skipped.Add(float64(st.Skipped))
	s.metrics.conflicts.Add(float64(st.Conflicts))
	s.metrics.rejected.Add(float64(st.Rejected + st.BadLines))
	if err != nil {
		storeError(w, err)
		return
	}
	res.Appended, res.Skipped, res.Hands = st.Appended, st.Skipped, st.Hands
	code := http.StatusOK
	switch {
	case conflict:
		code = http.StatusConflict
	case len(res.Rejected) > 0:
		code = http.StatusUnprocessableEntity
	}
	if code != http.StatusOK {
		writeJSON(w, code, map[string]any{"error": "some hands were not appended", "appended": res.Appended,
			"skipped": res.Skipped, "hands": res.Hands, "rejected": res.Rejected})
		return
	}
	writeJSON(w, code, res)
}

// smallBody is how much of a POST /api/events body is read before its events are: a live
// table's body is one event, a few hundred bytes.
const smallBody = 4 << 10

// bodyReader returns the events.Reader of a request's body. A body that fits in smallBody is read
// whole and its lines handed out from that memory (events.NewReaderBytes); a longer one is read
// as a stream (events.NewReader), which takes a chunk of 64 KiB at its start: a chunk for every
// request of a room's tables was a twentieth of serve's CPU, in the collector. An error of the
// body (one over the limit) comes after the lines read before it, as from the stream.
func bodyReader(body io.Reader) *events.Reader {
	buf := make([]byte, smallBody)
	n, err := io.ReadFull(body, buf)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return events.NewReaderBytes(buf[:n], "body", nil)
	case err == nil:
		return events.NewReader(io.MultiReader(bytes.NewReader(buf), body), "body")
	}
	return events.NewReader(io.MultiReader(bytes.NewReader(buf[:n]), failingReader{err}), "body")
}

// failingReader returns its error at every read.
type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

// writer authenticates the writer of a request when the server has an auth file: the HTTP basic
// credentials of a user who writes (roles.User.Writes). It answers 401 (no or wrong credentials)
// or 403 (a user whose role appends nothing) and returns false. Without an auth file it returns
// nil and true: writes are open.
func (s *Server) writer(w http.ResponseWriter, r *http.Request) (*roles.User, bool) {
	if s.auth == nil {
		return nil, true
	}
	name, pass, ok := r.BasicAuth()
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="fechado", charset="UTF-8"`)
		writeError(w, http.StatusUnauthorized, "credentials required: a table device or an app user of the auth file (HTTP basic)", nil)
		return nil, false
	}
	u, err := s.auth.Authenticate(name, pass)
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Basic realm="fechado", charset="UTF-8"`)
		writeError(w, http.StatusUnauthorized, err.Error(), nil)
		return nil, false
	}
	if !u.Writes() {
		writeError(w, http.StatusForbidden, "user "+u.Name+" (role "+string(u.Role)+") may not append", nil)
		return nil, false
	}
	return &u, true
}
