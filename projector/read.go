package projector

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// The read API: what the web (and any other reader) asks of the read models. Every query of the
// read models is here, so that a reader renders and never writes SQL of its own.

// ReadCheckpoint returns the stream sequence the read models kept by projector name have
// reached (0 before the first commit).
func ReadCheckpoint(ctx context.Context, db *sql.DB, name string) (uint64, error) {
	var cp sql.NullInt64
	err := db.QueryRowContext(ctx, `SELECT stream_seq FROM checkpoint WHERE name = ?`, name).Scan(&cp)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	return uint64(cp.Int64), nil
}

// TableRow is a table of the read models.
type TableRow struct {
	Table      string
	Preset     string // of its last hand started
	Hands      int    // hands started
	HandsEnded int
	LastHand   string
}

// Tables returns every table of the read models, in no particular order.
func Tables(ctx context.Context, db *sql.DB) ([]TableRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT table_id, preset, hands, hands_ended, last_hand_id FROM tables`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TableRow
	for rows.Next() {
		var t TableRow
		if err := rows.Scan(&t.Table, &t.Preset, &t.Hands, &t.HandsEnded, &t.LastHand); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// TableKnown reports whether the read models hold table id.
func TableKnown(ctx context.Context, db *sql.DB, id string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM tables WHERE table_id = ?`, id).Scan(&n)
	return n > 0, err
}

// ChipPoint is a player's stack before and after one ended hand of a table.
type ChipPoint struct {
	Hand   string `json:"hand"`
	Number int    `json:"number"`
	Player string `json:"player"`
	Start  int64  `json:"start"`
	End    int64  `json:"end"`
}

// ChipCounts returns every player's stacks in each ended hand of table, in stream order and
// seat order.
func ChipCounts(ctx context.Context, db *sql.DB, table string) ([]ChipPoint, error) {
	rows, err := db.QueryContext(ctx, `SELECT h.hand_id, h.number, hp.player, hp.start_stack, hp.end_stack
		FROM hands h JOIN hand_players hp ON hp.hand_id = h.hand_id
		WHERE h.table_id = ? AND h.end_seq IS NOT NULL ORDER BY h.stream_seq, hp.seat`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	points := []ChipPoint{}
	for rows.Next() {
		var p ChipPoint
		if err := rows.Scan(&p.Hand, &p.Number, &p.Player, &p.Start, &p.End); err != nil {
			return nil, err
		}
		points = append(points, p)
	}
	return points, rows.Err()
}

// HandRow is a hand in a list of hands, with its audit badge.
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
	Codes    []string `json:"codes"` // the distinct codes found, sorted
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

// HandQuery selects hands: empty fields select everything, the fields combine with AND.
type HandQuery struct {
	Table, Preset, Player string
	// WithFindings selects only the hands with at least one finding.
	WithFindings bool
	// From and To bound the time a hand started: From <= started < To; zero = unbounded.
	From, To time.Time
	Limit    int // the most hands returned; 0 = no limit
}

// Hands returns the hands q selects, newest (in stream order) first.
func Hands(ctx context.Context, db *sql.DB, q HandQuery) ([]HandRow, error) {
	var conds []string
	var args []any
	if q.Table != "" {
		conds, args = append(conds, "h.table_id = ?"), append(args, q.Table)
	}
	if q.Preset != "" {
		conds, args = append(conds, "h.preset = ?"), append(args, q.Preset)
	}
	if q.Player != "" {
		conds, args = append(conds, "EXISTS (SELECT 1 FROM hand_players hp WHERE hp.hand_id = h.hand_id AND hp.player = ?)"), append(args, q.Player)
	}
	if q.WithFindings {
		conds = append(conds, "h.findings > 0")
	}
	if !q.From.IsZero() {
		conds, args = append(conds, "h.started_ms >= ?"), append(args, q.From.UnixMilli())
	}
	if !q.To.IsZero() {
		conds, args = append(conds, "h.started_ms < ?"), append(args, q.To.UnixMilli())
	}
	query := "SELECT " + handColumns + " FROM hands h"
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	query += " ORDER BY h.stream_seq DESC"
	if q.Limit > 0 {
		query += " LIMIT ?"
		args = append(args, q.Limit)
	}
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []HandRow{}
	for rows.Next() {
		h, err := scanHand(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// Hand returns the row of hand id; sql.ErrNoRows when the read models do not hold it.
func Hand(ctx context.Context, db *sql.DB, id string) (HandRow, error) {
	return scanHand(db.QueryRowContext(ctx, "SELECT "+handColumns+" FROM hands h WHERE h.hand_id = ?", id))
}

// HandTable returns the table of hand id, "" when the read models do not hold the hand.
func HandTable(ctx context.Context, db *sql.DB, id string) (string, error) {
	var table string
	err := db.QueryRowContext(ctx, `SELECT table_id FROM hands WHERE hand_id = ?`, id).Scan(&table)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return table, err
}

// StoredFinding is a finding as the read models hold it: findings-v1 fields, with the expected
// and actual values as the JSON the auditor gave (nil when it gave none).
type StoredFinding struct {
	Seq      int             `json:"seq"`
	Code     string          `json:"code"`
	Severity string          `json:"severity"`
	Seat     int             `json:"seat,omitempty"`
	Message  string          `json:"message"`
	Expected json.RawMessage `json:"expected,omitempty"`
	Actual   json.RawMessage `json:"actual,omitempty"`
}

// Findings returns the findings stored for hand, ordered by the event that shows them, then in
// the order stored.
func Findings(ctx context.Context, db *sql.DB, hand string) ([]StoredFinding, error) {
	rows, err := db.QueryContext(ctx, `SELECT seq, code, severity, COALESCE(seat, 0), message, expected, actual
		FROM findings WHERE hand_id = ? ORDER BY seq, n`, hand)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []StoredFinding{}
	for rows.Next() {
		var f StoredFinding
		var exp, act sql.NullString
		if err := rows.Scan(&f.Seq, &f.Code, &f.Severity, &f.Seat, &f.Message, &exp, &act); err != nil {
			return nil, err
		}
		if exp.Valid {
			f.Expected = json.RawMessage(exp.String)
		}
		if act.Valid {
			f.Actual = json.RawMessage(act.String)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// EndedHand is a hand that ended, with the stream sequence of its hand.ended.
type EndedHand struct {
	Hand   string
	EndSeq int64
}

// LastEnd returns the stream sequence of the last hand.ended projected (0: none).
func LastEnd(ctx context.Context, db *sql.DB) (int64, error) {
	var seq int64
	err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(end_seq), 0) FROM hands`).Scan(&seq)
	return seq, err
}

// EndedAfter returns the last limit hands whose hand.ended comes after stream sequence after,
// oldest first.
func EndedAfter(ctx context.Context, db *sql.DB, after int64, limit int) ([]EndedHand, error) {
	rows, err := db.QueryContext(ctx, `SELECT hand_id, end_seq FROM hands WHERE end_seq > ? ORDER BY end_seq DESC LIMIT ?`,
		after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EndedHand
	for rows.Next() {
		var e EndedHand
		if err := rows.Scan(&e.Hand, &e.EndSeq); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, rows.Err()
}

// NetPoint is a player's result in one hand, for the chart of his running total.
type NetPoint struct {
	Hand      string `json:"hand"`
	Table     string `json:"table"`
	Number    int    `json:"number"`
	StartedAt string `json:"started_at"`
	Net       int64  `json:"net"`
}

// PlayerResults returns player's net result in every hand he was dealt in, in the order the
// hands started.
func PlayerResults(ctx context.Context, db *sql.DB, player string) ([]NetPoint, error) {
	rows, err := db.QueryContext(ctx, `SELECT h.hand_id, h.table_id, h.number, h.started_at, hp.net
		FROM hand_players hp JOIN hands h ON h.hand_id = hp.hand_id WHERE hp.player = ? ORDER BY h.started_ms, h.stream_seq`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []NetPoint{}
	for rows.Next() {
		var p NetPoint
		if err := rows.Scan(&p.Hand, &p.Table, &p.Number, &p.StartedAt, &p.Net); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// SeatChange is one of a player's comings and goings at a table, as the hand.started of the
// table's next hand says it (events-v1.md §7): Kind is "joined" (he sat down; Amount is his
// buy-in), "away" (seated with chips but not dealt in; Amount is his stack), "left" (gone since
// the previous hand; Amount is the chips he took, ToTable where a tournament moved him) or
// "rebuy" (Amount is the chips he added).
type SeatChange struct {
	Hand      string `json:"hand"`
	Table     string `json:"table"`
	StartedAt string `json:"started_at"`
	Kind      string `json:"kind"`
	Seat      int    `json:"seat,omitempty"` // 0 for "left"
	Amount    int64  `json:"amount"`
	ToTable   string `json:"to_table,omitempty"`
}

// PlayerSessions returns player's comings and goings at every table, in the order of the hands
// that say them; within one hand, leaving comes before sitting down, then rebuying, then sitting
// out, the order they happen at a table.
func PlayerSessions(ctx context.Context, db *sql.DB, player string) ([]SeatChange, error) {
	rows, err := db.QueryContext(ctx, `SELECT hand_id, table_id, started_at, kind, COALESCE(seat, 0), amount, to_table
		FROM seat_changes WHERE player = ?
		ORDER BY stream_seq, CASE kind WHEN 'left' THEN 0 WHEN 'joined' THEN 1 WHEN 'rebuy' THEN 2 ELSE 3 END`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []SeatChange{}
	for rows.Next() {
		var c SeatChange
		if err := rows.Scan(&c.Hand, &c.Table, &c.StartedAt, &c.Kind, &c.Seat, &c.Amount, &c.ToTable); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
