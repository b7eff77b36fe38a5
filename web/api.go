package web

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
)

// Handler returns the server's HTTP handler: the pages, /api/ and /metrics.
func (s *Server) Handler() http.Handler { return s.mux }

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/tables", s.getTables)
	m.HandleFunc("GET /api/tables/{id}/chips", s.getChips)
	m.HandleFunc("GET /api/hands", s.getHands)
	m.HandleFunc("GET /api/hands/{id}", s.getHand)
	m.HandleFunc("GET /api/hands/{id}/replay", s.getReplay)
	m.HandleFunc("GET /api/players", s.getPlayers)
	m.HandleFunc("GET /api/players/{name}/stats", s.getPlayerStats)
	m.HandleFunc("GET /api/events", s.serveSSE)
	m.HandleFunc("POST /api/events", s.postEvents)
	m.HandleFunc("/api/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, POST")
		writeError(w, http.StatusMethodNotAllowed, r.Method+" is not allowed on /api/events", nil)
	})
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API route: "+r.Method+" "+r.URL.Path, nil)
	})
	m.Handle("GET /metrics", s.metrics.handler())
	sub, _ := fs.Sub(assets, "assets")
	files := http.FileServerFS(sub)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		files.ServeHTTP(w, r)
	})
	s.mux = m
}

// apiError is the body of every error answer.
type apiError struct {
	Error string `json:"error"`
	// Line, Field and Hand say where a posted event went wrong, when known.
	Line  int    `json:"line,omitempty"`
	Field string `json:"field,omitempty"`
	Hand  string `json:"hand,omitempty"`
	Seq   int    `json:"seq,omitempty"`
	// Rejected lists the hands of a POST /api/events that were not appended.
	Rejected []rejection `json:"rejected,omitempty"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, code int, msg string, e *apiError) {
	if e == nil {
		e = &apiError{}
	}
	e.Error = msg
	writeJSON(w, code, e)
}

// storeError answers a failure of the log or the database.
func storeError(w http.ResponseWriter, err error) {
	writeError(w, http.StatusServiceUnavailable, "store: "+err.Error(), nil)
}

// --- tables ---

// TableView is a table's public live state in the API.
type TableView struct {
	Table      string      `json:"table"`
	Hand       string      `json:"hand"`
	Number     int         `json:"number"`
	Preset     string      `json:"preset"`
	Dealer     events.Seat `json:"dealer"`
	Stage      string      `json:"stage"`
	Round      string      `json:"round"`
	ToAct      events.Seat `json:"to_act"`
	Pot        int64       `json:"pot"`
	Carry      int64       `json:"carry"`
	Commitment string      `json:"commitment,omitempty"`
	Seq        int         `json:"seq"`
	At         string      `json:"at"`
	Seats      []SeatView  `json:"seats"`
	// Live is false for a table known from the read models only (no hand seen since start).
	Live bool `json:"live"`
	// Hands and HandsEnded count the table's hands in the read models.
	Hands      int `json:"hands"`
	HandsEnded int `json:"hands_ended"`
}

// SeatView is a seat of TableView: public information only.
type SeatView struct {
	Seat    events.Seat `json:"seat"`
	Player  string      `json:"player"`
	Stack   int64       `json:"stack"`
	InFront int64       `json:"in_front"`
	InPot   int64       `json:"in_pot"`
	Cards   int         `json:"cards"`
	Folded  bool        `json:"folded"`
	AllIn   bool        `json:"all_in"`
	Drawn   int         `json:"drawn"`
	Exposed []string    `json:"exposed"`
	Openers []string    `json:"openers"`
	Shown   []string    `json:"shown"`
	Won     int64       `json:"won"`
}

func cardStrings[T interface{ String() string }](cs []T) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

func tableView(t projector.TableState) TableView {
	v := TableView{Table: t.Table, Hand: t.Hand, Number: t.Number, Preset: t.Preset, Dealer: t.Dealer,
		Stage: string(t.Stage), Round: string(t.Round), ToAct: t.ToAct, Pot: int64(t.Pot), Carry: int64(t.Carry),
		Commitment: t.Commitment, Seq: int(t.Seq), At: t.At, Seats: []SeatView{}, Live: true}
	for _, s := range t.Seats {
		v.Seats = append(v.Seats, SeatView{Seat: s.Seat, Player: s.Player, Stack: int64(s.Stack),
			InFront: int64(s.InFront), InPot: int64(s.InPot), Cards: s.Cards, Folded: s.Folded, AllIn: s.AllIn,
			Drawn: s.Drawn, Exposed: cardStrings(s.Exposed), Openers: cardStrings(s.Openers),
			Shown: cardStrings(s.Shown), Won: int64(s.Won)})
	}
	return v
}

// getTables is GET /api/tables: every table, live state where the server has seen its hand.
func (s *Server) getTables(w http.ResponseWriter, r *http.Request) {
	byID := map[string]*TableView{}
	var out []*TableView
	for _, t := range s.live.Tables() {
		v := tableView(t)
		byID[t.Table] = &v
		out = append(out, &v)
	}
	rows, err := s.db.QueryContext(r.Context(), `SELECT table_id, preset, hands, hands_ended, last_hand_id FROM tables`)
	if err != nil {
		storeError(w, err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id, preset, last string
		var hands, ended int
		if err := rows.Scan(&id, &preset, &hands, &ended, &last); err != nil {
			storeError(w, err)
			return
		}
		v := byID[id]
		if v == nil {
			v = &TableView{Table: id, Preset: preset, Hand: last, Seats: []SeatView{}}
			out = append(out, v)
		}
		v.Hands, v.HandsEnded = hands, ended
	}
	if err := rows.Err(); err != nil {
		storeError(w, err)
		return
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Table < out[j].Table })
	if out == nil {
		out = []*TableView{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"tables": out})
}

// ChipPoint is a player's stack after one hand of a table.
type ChipPoint struct {
	Hand   string `json:"hand"`
	Number int    `json:"number"`
	Player string `json:"player"`
	Start  int64  `json:"start"`
	End    int64  `json:"end"`
}

// Elimination is a player who lost his last chip at a table.
type Elimination struct {
	Player string `json:"player"`
	Hand   string `json:"hand"`
	Number int    `json:"number"`
	// Place is his finishing place: players still with chips, plus one, when he went out.
	Place int `json:"place"`
}

// getChips is GET /api/tables/{id}/chips: every player's stack after each ended hand of the
// table, and the players eliminated (stack 0 after a hand and no chips again later).
func (s *Server) getChips(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rows, err := s.db.QueryContext(r.Context(), `SELECT h.hand_id, h.number, hp.player, hp.start_stack, hp.end_stack
		FROM hands h JOIN hand_players hp ON hp.hand_id = h.hand_id
		WHERE h.table_id = ? AND h.end_seq IS NOT NULL ORDER BY h.stream_seq, hp.seat`, id)
	if err != nil {
		storeError(w, err)
		return
	}
	defer rows.Close()
	points := []ChipPoint{}
	var players []string
	seen := map[string]bool{}
	for rows.Next() {
		var p ChipPoint
		if err := rows.Scan(&p.Hand, &p.Number, &p.Player, &p.Start, &p.End); err != nil {
			storeError(w, err)
			return
		}
		points = append(points, p)
		if !seen[p.Player] {
			seen[p.Player] = true
			players = append(players, p.Player)
		}
	}
	if err := rows.Err(); err != nil {
		storeError(w, err)
		return
	}
	if len(points) == 0 {
		var n int
		if err := s.db.QueryRowContext(r.Context(), `SELECT COUNT(*) FROM tables WHERE table_id = ?`, id).Scan(&n); err != nil {
			storeError(w, err)
			return
		}
		if n == 0 {
			writeError(w, http.StatusNotFound, "no table "+id, nil)
			return
		}
	}
	// A player is out when his last row at the table ends with no chips.
	last := map[string]ChipPoint{}
	for _, p := range points {
		last[p.Player] = p
	}
	outs := []Elimination{}
	for _, p := range players {
		if lp := last[p]; lp.End == 0 {
			outs = append(outs, Elimination{Player: p, Hand: lp.Hand, Number: lp.Number})
		}
	}
	order := map[string]int{}
	for i, p := range points {
		if _, ok := order[p.Hand]; !ok {
			order[p.Hand] = i
		}
	}
	sort.SliceStable(outs, func(i, j int) bool { return order[outs[i].Hand] < order[outs[j].Hand] })
	remaining := len(players)
	for i := range outs {
		// Players out in the same hand share the place.
		if i > 0 && outs[i].Hand == outs[i-1].Hand {
			outs[i].Place = outs[i-1].Place
		} else {
			same := 0
			for _, o := range outs[i:] {
				if o.Hand == outs[i].Hand {
					same++
				}
			}
			outs[i].Place = remaining - same + 1
			remaining -= same
		}
	}
	if players == nil {
		players = []string{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"table": id, "players": players, "points": points, "eliminations": outs})
}

// --- hands ---

// HandRow is a hand in the hands list.
type HandRow struct {
	Hand      string `json:"hand"`
	Table     string `json:"table"`
	Number    int    `json:"number"`
	Preset    string `json:"preset"`
	Players   int    `json:"players"`
	StartedAt string `json:"started_at"`
	EndedAt   string `json:"ended_at,omitempty"`
	Ended     bool   `json:"ended"`
	Pot       int64  `json:"pot"`
	Winners   string `json:"winners"`
	Passed    bool   `json:"passed"`
	Misdeal   bool   `json:"misdeal"`
	// Audit is "ok", "info", "warning" or "error" ("" while the hand is in progress).
	Audit    string   `json:"audit"`
	Findings int      `json:"findings"`
	Codes    []string `json:"codes"`
}

const handColumns = `h.hand_id, h.table_id, h.number, h.preset, h.players, h.started_at, COALESCE(h.ended_at, ''),
	h.end_seq IS NOT NULL, COALESCE(h.pot_total, 0), COALESCE(h.winners, ''), COALESCE(h.passed, 0),
	COALESCE(h.misdeal, 0), COALESCE(h.audit_status, ''), COALESCE(h.findings, 0),
	COALESCE((SELECT group_concat(code, ' ') FROM (SELECT DISTINCT code FROM findings f WHERE f.hand_id = h.hand_id ORDER BY code)), '')`

func scanHand(sc interface{ Scan(...any) error }) (HandRow, error) {
	var h HandRow
	var codes string
	err := sc.Scan(&h.Hand, &h.Table, &h.Number, &h.Preset, &h.Players, &h.StartedAt, &h.EndedAt, &h.Ended,
		&h.Pot, &h.Winners, &h.Passed, &h.Misdeal, &h.Audit, &h.Findings, &codes)
	h.Codes = strings.Fields(codes)
	if h.Codes == nil {
		h.Codes = []string{}
	}
	return h, err
}

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

// getHands is GET /api/hands: hands newest first, filtered by table, player, preset, findings
// (1: only hands with findings), from/to (start time), limit.
func (s *Server) getHands(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var conds []string
	var args []any
	if v := q.Get("table"); v != "" {
		conds, args = append(conds, "h.table_id = ?"), append(args, v)
	}
	if v := q.Get("preset"); v != "" {
		conds, args = append(conds, "h.preset = ?"), append(args, v)
	}
	if v := q.Get("player"); v != "" {
		conds, args = append(conds, "EXISTS (SELECT 1 FROM hand_players hp WHERE hp.hand_id = h.hand_id AND hp.player = ?)"), append(args, v)
	}
	switch q.Get("findings") {
	case "", "0":
	case "1":
		// Hands with stored findings, or with table continuity findings of the live auditor.
		cond := "h.findings > 0"
		if hs := s.continuityHands(); len(hs) > 0 {
			cond = "(h.findings > 0 OR h.hand_id IN (" + strings.TrimSuffix(strings.Repeat("?,", len(hs)), ",") + "))"
			for _, h := range hs {
				args = append(args, h)
			}
		}
		conds = append(conds, cond)
	default:
		writeError(w, http.StatusBadRequest, "findings must be 0 or 1", &apiError{Field: "findings"})
		return
	}
	for _, b := range []struct{ key, op string }{{"from", ">="}, {"to", "<"}} {
		v := q.Get(b.key)
		if v == "" {
			continue
		}
		t, err := parseTime(v)
		if err != nil {
			writeError(w, http.StatusBadRequest, b.key+" must be an RFC 3339 time or a date YYYY-MM-DD", &apiError{Field: b.key})
			return
		}
		conds, args = append(conds, "h.started_ms "+b.op+" ?"), append(args, t.UnixMilli())
	}
	limit := DefaultLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxLimit {
			writeError(w, http.StatusBadRequest, "limit must be 1.."+strconv.Itoa(MaxLimit), &apiError{Field: "limit"})
			return
		}
		limit = n
	}
	query := "SELECT " + handColumns + " FROM hands h"
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	query += " ORDER BY h.stream_seq DESC LIMIT ?"
	rows, err := s.db.QueryContext(r.Context(), query, append(args, limit)...)
	if err != nil {
		storeError(w, err)
		return
	}
	defer rows.Close()
	out := []HandRow{}
	for rows.Next() {
		h, err := scanHand(rows)
		if err != nil {
			storeError(w, err)
			return
		}
		s.mergeContinuity(&h)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"hands": out})
}

// FindingView is a finding in the API: findings-v1 fields, plus expected and actual where the
// auditor gave them.
type FindingView struct {
	Seq      int    `json:"seq"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Seat     int    `json:"seat,omitempty"`
	Message  string `json:"message"`
	Expected any    `json:"expected,omitempty"`
	Actual   any    `json:"actual,omitempty"`
}

// handSummary is the hands-list row of a hand with its findings: the "hand" SSE event.
func (s *Server) handSummary(ctx context.Context, hand string) (map[string]any, error) {
	row, err := scanHand(s.db.QueryRowContext(ctx, "SELECT "+handColumns+" FROM hands h WHERE h.hand_id = ?", hand))
	if err != nil {
		return nil, err
	}
	s.mergeContinuity(&row)
	fs, err := s.findingsOf(ctx, hand, nil, row.Ended)
	if err != nil {
		return nil, err
	}
	return map[string]any{"hand": row, "findings": fs}, nil
}

// storedFindings reads a hand's findings from the read models.
func (s *Server) storedFindings(ctx context.Context, hand string) ([]FindingView, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, code, severity, COALESCE(seat, 0), message FROM findings
		WHERE hand_id = ? ORDER BY n`, hand)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []FindingView{}
	for rows.Next() {
		var f FindingView
		if err := rows.Scan(&f.Seq, &f.Code, &f.Severity, &f.Seat, &f.Message); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// findingsOf returns the findings of a hand: those of the read models (the hand audited on
// its own), with expected and actual values from the live auditor or from auditing the hand's
// events again, and the live auditor's table continuity findings. A hand in progress has none:
// the auditor judges a hand when it ends, and a finding (say, an open without openers) would
// give hidden cards away.
func (s *Server) findingsOf(ctx context.Context, hand string, evs []*events.Event, done bool) ([]FindingView, error) {
	if !done {
		return []FindingView{}, nil
	}
	again, ok := s.knownFindings(hand)
	if !ok && evs != nil {
		again = audit.Hand(evs)
	}
	stored, err := s.storedFindings(ctx, hand)
	if err != nil {
		return nil, err
	}
	used := make([]bool, len(again))
	for i := range stored {
		for j, f := range again {
			if !used[j] && string(f.Code) == stored[i].Code && int(f.Seq) == stored[i].Seq {
				used[j] = true
				stored[i].Expected, stored[i].Actual = f.Expected, f.Actual
				break
			}
		}
	}
	for _, f := range s.continuityOf(hand) {
		stored = append(stored, FindingView{Seq: int(f.Seq), Code: string(f.Code), Severity: string(f.Severity),
			Seat: int(f.Seat), Message: f.Message, Expected: f.Expected, Actual: f.Actual})
	}
	sort.SliceStable(stored, func(i, j int) bool { return stored[i].Seq < stored[j].Seq })
	return stored, nil
}

// mergeContinuity adds the live auditor's table.* findings of a hand to its row.
func (s *Server) mergeContinuity(h *HandRow) {
	cs := s.continuityOf(h.Hand)
	if len(cs) == 0 {
		return
	}
	h.Findings += len(cs)
	for _, f := range cs {
		if !slices.Contains(h.Codes, string(f.Code)) {
			h.Codes = append(h.Codes, string(f.Code))
		}
		if severityRank(string(f.Severity)) > severityRank(h.Audit) {
			h.Audit = string(f.Severity)
		}
	}
	sort.Strings(h.Codes)
}

func severityRank(s string) int {
	switch s {
	case "info":
		return 1
	case "warning":
		return 2
	case "error":
		return 3
	}
	return 0
}

// readHand reads a hand's events from the log, in seq order.
func (s *Server) readHand(ctx context.Context, hand string) ([]*events.Event, error) {
	var table string
	err := s.db.QueryRowContext(ctx, `SELECT table_id FROM hands WHERE hand_id = ?`, hand).Scan(&table)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	var evs []*events.Event
	err = s.log.ReadHand(ctx, table, hand, func(st recorder.Stored) error {
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

// getHand is GET /api/hands/{id}: the hand's events (redacted while it is in progress) and its
// findings.
func (s *Server) getHand(w http.ResponseWriter, r *http.Request) {
	evs, ok := s.handOr404(w, r)
	if !ok {
		return
	}
	done := ended(evs)
	fs, err := s.findingsOf(r.Context(), r.PathValue("id"), evs, done)
	if err != nil {
		storeError(w, err)
		return
	}
	out := make([]json.RawMessage, len(evs))
	for i, e := range evs {
		out[i] = publicEvent(e, !done)
	}
	first := evs[0]
	writeJSON(w, http.StatusOK, map[string]any{
		"hand": first.Hand, "table": first.Table, "ended": done, "events": out, "findings": fs,
	})
}

// getReplay is GET /api/hands/{id}/replay: the table after each event (?at=SEQ: after that one
// event only), with the findings that show at each step.
func (s *Server) getReplay(w http.ResponseWriter, r *http.Request) {
	evs, ok := s.handOr404(w, r)
	if !ok {
		return
	}
	done := ended(evs)
	at := 0
	if v := r.URL.Query().Get("at"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeError(w, http.StatusBadRequest, "at must be a seq of the hand (1 or more)", &apiError{Field: "at"})
			return
		}
		at = n
	}
	fs, err := s.findingsOf(r.Context(), r.PathValue("id"), evs, done)
	if err != nil {
		storeError(w, err)
		return
	}
	type stepOut struct {
		Step
		Event    json.RawMessage `json:"event"`
		Findings []FindingView   `json:"findings"`
	}
	one := func(i int) (stepOut, error) {
		st, err := stateAt(evs, evs[i].Seq, !done)
		if err != nil {
			return stepOut{}, err
		}
		o := stepOut{Step: st, Event: publicEvent(evs[i], !done), Findings: []FindingView{}}
		for _, f := range fs {
			if f.Seq == int(evs[i].Seq) {
				o.Findings = append(o.Findings, f)
			}
		}
		return o, nil
	}
	if at > 0 {
		for i, e := range evs {
			if int(e.Seq) == at {
				o, err := one(i)
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
	out := make([]stepOut, 0, len(evs))
	for i := range evs {
		o, err := one(i)
		if err != nil {
			writeError(w, http.StatusUnprocessableEntity, err.Error(), &apiError{Hand: evs[i].Hand, Seq: int(evs[i].Seq)})
			return
		}
		out = append(out, o)
	}
	first := evs[0]
	writeJSON(w, http.StatusOK, map[string]any{
		"hand": first.Hand, "table": first.Table, "ended": done, "steps": out, "findings": fs,
	})
}

// --- players ---

// StatsView is a player's statistics in the API: the counts, and the ratios computed from them
// (percentages, or a factor for aggression), null where the denominator is 0.
type StatsView struct {
	Player         string   `json:"player"`
	Hands          int      `json:"hands"`
	VPIPHands      int      `json:"vpip_hands"`
	RaisedPreHands int      `json:"raised_pre_hands"`
	Bets           int      `json:"bets"`
	Raises         int      `json:"raises"`
	Calls          int      `json:"calls"`
	SawSecond      int      `json:"saw_second"`
	WentToShowdown int      `json:"went_to_showdown"`
	WonAtShowdown  int      `json:"won_at_showdown"`
	Draws          int      `json:"draws"`
	CardsDrawn     int      `json:"cards_drawn"`
	StoodPat       int      `json:"stood_pat"`
	OpenChances    int      `json:"open_chances"`
	Opens          int      `json:"opens"`
	Net            int64    `json:"net"`
	VPIP           *float64 `json:"vpip_pct"`
	RaisePreDraw   *float64 `json:"raise_pre_pct"`
	Aggression     *float64 `json:"aggression"`
	WTSD           *float64 `json:"wtsd_pct"`
	WSD            *float64 `json:"wsd_pct"`
	AvgDrawn       *float64 `json:"avg_drawn"`
	StandPat       *float64 `json:"stand_pat_pct"`
	Open           *float64 `json:"open_pct"`
}

func ratio(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	v = math.Round(v*100) / 100
	return &v
}

func statsView(st projector.Stats) StatsView {
	return StatsView{Player: st.Player, Hands: st.Hands, VPIPHands: st.VPIPHands, RaisedPreHands: st.RaisedPreHands,
		Bets: st.Bets, Raises: st.Raises, Calls: st.Calls, SawSecond: st.SawSecond, WentToShowdown: st.WentToShowdown,
		WonAtShowdown: st.WonAtShowdown, Draws: st.Draws, CardsDrawn: st.CardsDrawn, StoodPat: st.StoodPat,
		OpenChances: st.OpenChances, Opens: st.Opens, Net: int64(st.Net),
		VPIP: ratio(st.VPIP()), RaisePreDraw: ratio(st.RaisePreDraw()),
		Aggression: ratio(st.Aggression()), WTSD: ratio(st.WentToShowdownPct()),
		WSD: ratio(st.WonAtShowdownPct()), AvgDrawn: ratio(st.AvgDrawn()),
		StandPat: ratio(st.StandPat()), Open: ratio(st.OpenPct())}
}

// filterOf reads the statistics filter of a request: table, preset, from, to.
func filterOf(r *http.Request) (projector.Filter, *apiError) {
	q := r.URL.Query()
	var f projector.Filter
	if v := q.Get("table"); v != "" {
		f.Tables = []string{v}
	}
	if v := q.Get("preset"); v != "" {
		f.Presets = []string{v}
	}
	for _, b := range []struct {
		key string
		dst *time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := q.Get(b.key); v != "" {
			t, err := parseTime(v)
			if err != nil {
				return f, &apiError{Error: b.key + " must be an RFC 3339 time or a date YYYY-MM-DD", Field: b.key}
			}
			*b.dst = t
		}
	}
	return f, nil
}

// getPlayers is GET /api/players: every player's statistics (filters: table, preset, from, to).
func (s *Server) getPlayers(w http.ResponseWriter, r *http.Request) {
	f, bad := filterOf(r)
	if bad != nil {
		writeError(w, http.StatusBadRequest, bad.Error, bad)
		return
	}
	st, err := projector.PlayerStats(r.Context(), s.db, f)
	if err != nil {
		storeError(w, err)
		return
	}
	out := make([]StatsView, len(st))
	for i := range st {
		out[i] = statsView(st[i])
	}
	writeJSON(w, http.StatusOK, map[string]any{"players": out})
}

// NetPoint is a player's result in one hand, for the chart of his running total.
type NetPoint struct {
	Hand      string `json:"hand"`
	Table     string `json:"table"`
	Number    int    `json:"number"`
	StartedAt string `json:"started_at"`
	Net       int64  `json:"net"`
}

// getPlayerStats is GET /api/players/{name}/stats: one player's statistics, his opens by
// position and his result hand by hand.
func (s *Server) getPlayerStats(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	f, bad := filterOf(r)
	if bad != nil {
		writeError(w, http.StatusBadRequest, bad.Error, bad)
		return
	}
	f.Players = []string{name}
	st, err := projector.PlayerStats(r.Context(), s.db, f)
	if err != nil {
		storeError(w, err)
		return
	}
	if len(st) == 0 {
		writeError(w, http.StatusNotFound, "no hand of player "+name, nil)
		return
	}
	pos, err := projector.OpenByPosition(r.Context(), s.db, f)
	if err != nil {
		storeError(w, err)
		return
	}
	type posView struct {
		Position int      `json:"position"`
		Hands    int      `json:"hands"`
		Chances  int      `json:"chances"`
		Opens    int      `json:"opens"`
		Open     *float64 `json:"open_pct"`
	}
	positions := []posView{}
	for _, p := range pos {
		positions = append(positions, posView{p.Position, p.Hands, p.Chances, p.Opens, ratio(p.OpenPct())})
	}
	rows, err := s.db.QueryContext(r.Context(), `SELECT h.hand_id, h.table_id, h.number, h.started_at, hp.net
		FROM hand_players hp JOIN hands h ON h.hand_id = hp.hand_id WHERE hp.player = ? ORDER BY h.started_ms, h.stream_seq`, name)
	if err != nil {
		storeError(w, err)
		return
	}
	defer rows.Close()
	series := []NetPoint{}
	for rows.Next() {
		var p NetPoint
		if err := rows.Scan(&p.Hand, &p.Table, &p.Number, &p.StartedAt, &p.Net); err != nil {
			storeError(w, err)
			return
		}
		series = append(series, p)
	}
	if err := rows.Err(); err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"stats": statsView(st[0]), "positions": positions, "hands": series})
}
