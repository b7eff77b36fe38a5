package web

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/report"
)

// HandRow is a hand in the hands list.
type HandRow = projector.HandRow

// FindingView is a finding in the API: findings-v1 fields, plus expected and actual where the
// auditor gave them.
type FindingView = projector.StoredFinding

// DefaultLimit and MaxLimit bound the hands one GET /api/hands returns.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

// parseTime reads a from/to bound: RFC 3339, or a date (midnight UTC).
func parseTime(v string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02", v)
}

// getHands is GET /api/hands: hands newest first, filtered by table and player (whatever their
// case), preset (one of the presets' names, else a 400 naming them), findings (1: only hands with
// findings), from/to (start time); a page of limit hands from offset, with the total the filters
// select.
func (s *Server) getHands(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	hq := projector.HandQuery{Table: q.Get("table"), Preset: q.Get("preset"), Player: q.Get("player")}
	if bad := checkPreset(hq.Preset); bad != nil {
		writeError(w, http.StatusBadRequest, bad.Error, bad)
		return
	}
	switch q.Get("findings") {
	case "", "0":
	case "1":
		hq.WithFindings = true
	default:
		writeError(w, http.StatusBadRequest, "findings must be 0 or 1", &apiError{Field: "findings"})
		return
	}
	for _, b := range []struct {
		key string
		dst *time.Time
	}{{"from", &hq.From}, {"to", &hq.To}} {
		v := q.Get(b.key)
		if v == "" {
			continue
		}
		t, err := parseTime(v)
		if err != nil {
			writeError(w, http.StatusBadRequest, b.key+" must be an RFC 3339 time or a date YYYY-MM-DD", &apiError{Field: b.key})
			return
		}
		*b.dst = t
	}
	pg, bad := pageOf(r, DefaultLimit)
	if bad != nil {
		writeError(w, http.StatusBadRequest, bad.Error, bad)
		return
	}
	hq.Limit, hq.Offset = pg.Limit, pg.Offset
	out, err := projector.Hands(r.Context(), s.db, hq)
	if err != nil {
		storeError(w, err)
		return
	}
	total, err := projector.CountHands(r.Context(), s.db, hq)
	if err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"hands": out, "total": total, "limit": pg.Limit, "offset": pg.Offset})
}

// handSummary is the hands-list row of a hand with its findings: the "hand" SSE event.
func (s *Server) handSummary(ctx context.Context, hand string) (map[string]any, error) {
	row, err := projector.Hand(ctx, s.db, hand)
	if err != nil {
		return nil, err
	}
	fs, err := s.findingsOf(ctx, hand, row.Ended)
	if err != nil {
		return nil, err
	}
	return map[string]any{"hand": row, "findings": fs}, nil
}

// findingsOf returns the findings the projector stored for a hand. A hand in progress has none
// shown: the auditor judges a hand when it ends, and a finding (say, an open without openers)
// would give hidden cards away.
func (s *Server) findingsOf(ctx context.Context, hand string, done bool) ([]FindingView, error) {
	if !done {
		return []FindingView{}, nil
	}
	return projector.Findings(ctx, s.db, hand)
}

// readHand reads a hand's events, in seq order: from its copy in the read models when they hold
// it, else from the log (projector.ReadHand).
func (s *Server) readHand(ctx context.Context, hand string) ([]*events.Event, error) {
	var evs []*events.Event
	err := projector.ReadHand(ctx, s.db, s.log, "", hand, func(st recorder.Stored) error {
		evs = append(evs, st.Event)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].Seq < evs[j].Seq })
	return evs, nil
}

// handOr404 reads the hand of the request's {id}, answering the error itself when it fails.
func (s *Server) handOr404(w http.ResponseWriter, r *http.Request) ([]*events.Event, bool) {
	id := r.PathValue("id")
	if !validHandID(id) {
		writeError(w, http.StatusBadRequest, "hand id must be a UUID", &apiError{Field: "id"})
		return nil, false
	}
	evs, err := s.readHand(r.Context(), id)
	switch {
	case errors.Is(err, recorder.ErrHandNotFound):
		writeError(w, http.StatusNotFound, "no hand "+id, &apiError{Hand: id})
		return nil, false
	case err != nil:
		storeError(w, err)
		return nil, false
	}
	return evs, true
}

// validHandID reports whether id can be a hand's UUID (so that it is also a safe subject token).
func validHandID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return false
		}
	}
	return true
}

// shownHand reads the hand of the request's {id} as a client may see it (handView) and its
// findings, answering the error itself when it fails.
func (s *Server) shownHand(w http.ResponseWriter, r *http.Request) (evs []*events.Event, view string, fs []FindingView, ok bool) {
	stored, ok := s.handOr404(w, r)
	if !ok {
		return nil, "", nil, false
	}
	evs, view = handView(stored)
	fs, err := s.findingsOf(r.Context(), r.PathValue("id"), view == viewStored)
	if err != nil {
		storeError(w, err)
		return nil, "", nil, false
	}
	return evs, view, fs, true
}

// getHand is GET /api/hands/{id}: the hand's events (its public views while it is in progress,
// see handView) and its findings.
func (s *Server) getHand(w http.ResponseWriter, r *http.Request) {
	evs, view, fs, ok := s.shownHand(w, r)
	if !ok {
		return
	}
	done := view == viewStored
	out := make([]json.RawMessage, len(evs))
	for i, e := range evs {
		out[i] = eventJSON(e)
	}
	first := evs[0]
	writeJSON(w, http.StatusOK, map[string]any{
		"hand": first.Hand, "table": first.Table, "ended": done, "view": view, "events": out, "findings": fs,
	})
}

// getReplay is GET /api/hands/{id}/replay?lang=&tz=: the table after each event (?at=SEQ: after
// that one event only), each step with the event in words, the findings that show at it told as
// sentences with their rules, and the table drawn (tableview's SVG, as in the printed report).
// The whole hand's answer adds its title, its history in words, its result and its deck checked
// against the commitment. Words are in the language of ?lang= (else the browser's), times in the
// zone of ?tz= (an IANA name; else UTC). ?cards=shown tells the hand as it happened: at each step
// the cards nobody had seen yet are face down (counted, not named) until they are shown.
func (s *Server) getReplay(w http.ResponseWriter, r *http.Request) {
	at := 0
	if v := r.URL.Query().Get("at"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeError(w, http.StatusBadRequest, "at must be a seq of the hand (1 or more)", &apiError{Field: "at"})
			return
		}
		at = n
	}
	loc, ok := readerZone(w, r)
	if !ok {
		return
	}
	evs, view, fs, ok := s.shownHand(w, r)
	if !ok {
		return
	}
	done := view == viewStored
	first := evs[0]
	tl, err := newTeller(readerLang(r), evs, !done, r.URL.Query().Get("cards") == "shown", fs)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error(), &apiError{Hand: first.Hand})
		return
	}
	if at > 0 {
		for _, e := range evs {
			if int(e.Seq) == at {
				o, err := tl.step(e)
				if err != nil {
					writeError(w, http.StatusUnprocessableEntity, err.Error(), &apiError{Hand: e.Hand, Seq: at})
					return
				}
				writeJSON(w, http.StatusOK, o)
				return
			}
		}
		writeError(w, http.StatusNotFound, "the hand has no event at seq "+strconv.Itoa(at), &apiError{Field: "at", Seq: at})
		return
	}
	out := make([]shownStep, 0, len(evs))
	for _, e := range evs {
		o, err := tl.step(e)
		if err != nil {
			writeError(w, http.StatusUnprocessableEntity, err.Error(), &apiError{Hand: e.Hand, Seq: int(e.Seq)})
			return
		}
		out = append(out, o)
	}
	shown := tl.shown
	if shown == nil {
		shown = []shownFinding{}
	}
	writeGzipJSON(w, r, http.StatusOK, map[string]any{
		"hand": first.Hand, "table": first.Table, "ended": done, "view": view, "steps": out, "findings": shown,
		"words": tl.words(out[len(out)-1].State, done, loc), "table_css": report.TableCSS,
	})
}

// writeGzipJSON answers like writeJSON, gzipped when the client accepts it: a hand's replay holds
// a drawing of the table at every event, which compresses about tenfold.
func writeGzipJSON(w http.ResponseWriter, r *http.Request, code int, v any) {
	w.Header().Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r.Header.Get("Accept-Encoding")) {
		writeJSON(w, code, v)
		return
	}
	w.Header().Set("Content-Encoding", "gzip")
	gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // the level is valid: no error
	writeJSON(gzipWriter{w, gz}, code, v)
	gz.Close()
}

// acceptsGzip reports whether an Accept-Encoding header lists gzip without refusing it (q=0).
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// gzipWriter is a ResponseWriter whose body goes through gzip.
type gzipWriter struct {
	http.ResponseWriter
	gz *gzip.Writer
}

func (g gzipWriter) Write(b []byte) (int, error) { return g.gz.Write(b) }

// readerZone returns the time zone the request's tz names (UTC when it names none) in which a
// page writes its times; it answers 400 and returns false when tz names no zone.
func readerZone(w http.ResponseWriter, r *http.Request) (*time.Location, bool) {
	v := r.URL.Query().Get("tz")
	if v == "" {
		return time.UTC, true
	}
	loc, err := time.LoadLocation(v)
	if err != nil {
		writeError(w, http.StatusBadRequest, "tz must be a time zone's name (Europe/Istanbul)", &apiError{Field: "tz"})
		return nil, false
	}
	return loc, true
}
