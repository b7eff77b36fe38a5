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

// TableEnded returns how many hands of table id have ended in the read models, and whether they
// hold the table. The count grows by one in the transaction that writes a hand's end (its row of
// hands and its rows of hand_players), so what ChipCounts gives of a table stays as it was while
// the count does.
func TableEnded(ctx context.Context, db *sql.DB, id string) (int, bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT hands_ended FROM tables WHERE table_id = ?`, id).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return n, err == nil, err
}

// ChipPoint is a player's stack before and after one ended hand of a table.
type ChipPoint struct {
	Hand   string `json:"hand"`
	Number int    `json:"number"`
	Player string `json:"player"`
	Start  int64  `json:"start"`
	End    int64  `json:"end"`
}

// ChipCounts returns every player's stacks in each of the last hands ended of table (at most
// last of them; 0: every one), in stream order and seat order. A table's hands are read newest
// first from the index of its hands, so that the answer costs what it holds, however long the
// table's history.
func ChipCounts(ctx context.Context, db *sql.DB, table string, last int) ([]ChipPoint, error) {
	if last <= 0 {
		last = -1 // SQLite's "no limit"
	}
	rows, err := db.QueryContext(ctx, `SELECT h.hand_id, h.number, hp.player, hp.start_stack, hp.end_stack
		FROM (SELECT stream_seq, hand_id, number FROM hands WHERE table_id = ? AND end_seq IS NOT NULL
			ORDER BY stream_seq DESC LIMIT ?) h
		JOIN hand_players hp ON hp.hand_seq = h.stream_seq ORDER BY h.stream_seq, hp.seat`, table, last)
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
	// Audit is "ok", "info", "warning" or "error" ("" while the hand is in progress; "waiting" while
	// the hand before it at its table has not been audited, projector.AuditWaiting).
	Audit    string   `json:"audit"`
	Findings int      `json:"findings"`
	Codes    []string `json:"codes"` // the distinct codes found, sorted
}

// handColumns are a HandRow's columns of hands h. Its codes are looked up in findings only for a
// hand with findings (hands.findings counts them, written with them): most hands have none, and
// the lookup was a search of the findings' index for each row of every page.
const handColumns = `h.hand_id, h.table_id, h.number, h.preset, h.players, h.started_at, COALESCE(h.ended_at, ''),
	h.end_seq IS NOT NULL, COALESCE(h.pot_total, 0), COALESCE(h.winners, ''), COALESCE(h.passed, 0),
	COALESCE(h.misdeal, 0), COALESCE(h.audit_status, ''), COALESCE(h.findings, 0),
	CASE WHEN h.findings > 0 THEN COALESCE((SELECT group_concat(code, ' ')
		FROM (SELECT DISTINCT code FROM findings f WHERE f.hand_id = h.hand_id ORDER BY code)), '') ELSE '' END`

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
	// Table and Player select a table's hands and a player's whatever the case of the name, in
	// any alphabet ("Ana" finds ana's, "JOÃO" João's, "ISTANBUL" İstanbul's); Preset is a
	// preset's exact name.
	Table, Preset, Player string
	// WithFindings selects only the hands with at least one finding.
	WithFindings bool
	// From and To bound the time a hand started: From <= started < To; zero = unbounded.
	From, To time.Time
	Limit    int // the most hands returned; 0 = no limit
	Offset   int // the hands skipped before the first returned, in the list's order

	// tableIDs, when it holds one table, is the table Table names: the page of its hands is then
	// read newest first from the index of a table's hands in stream order, which a list of
	// tables (IN) would have to sort.
	tableIDs []string
	// playerPage, when Player is the only filter, is Offset + Limit: the page is then among his
	// newest playerPage hands, read newest first from the index of his rows (whose keys end in
	// the hand's stream sequence), instead of every hand of his.
	playerPage int
}

// onlyPlayer reports whether q selects hands by player and by nothing else.
func (q HandQuery) onlyPlayer() bool {
	return q.Player != "" && q.Table == "" && q.Preset == "" && !q.WithFindings && q.From.IsZero() && q.To.IsZero()
}

// where returns the WHERE clause of q over hands h, and its arguments. The table and player
// filters compare the typed text folded with the folded names of migration 0007, through their
// indexes.
func (q HandQuery) where() (string, []any) {
	var conds []string
	var args []any
	switch {
	case len(q.tableIDs) == 1:
		conds, args = append(conds, "h.table_id = ?"), append(args, q.tableIDs[0])
	case q.Table != "":
		conds, args = append(conds, "h.table_id IN (SELECT table_id FROM tables WHERE table_fold = ?)"), append(args, fold(q.Table))
	}
	if q.Preset != "" {
		conds, args = append(conds, "h.preset = ?"), append(args, q.Preset)
	}
	switch {
	case q.Player != "" && q.playerPage > 0:
		conds, args = append(conds, "h.stream_seq IN (SELECT DISTINCT hand_seq FROM hand_players WHERE player_fold = ? ORDER BY hand_seq DESC LIMIT ?)"),
			append(args, fold(q.Player), q.playerPage)
	case q.Player != "":
		conds, args = append(conds, "h.stream_seq IN (SELECT hand_seq FROM hand_players WHERE player_fold = ?)"), append(args, fold(q.Player))
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
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Hands returns the hands q selects, newest (in stream order) first, from q.Offset on.
func Hands(ctx context.Context, db *sql.DB, q HandQuery) ([]HandRow, error) {
	if q.Table != "" {
		ids, err := TablesNamed(ctx, db, q.Table)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return []HandRow{}, nil
		}
		q.tableIDs = ids
	}
	if q.onlyPlayer() && q.Limit > 0 {
		q.playerPage = q.Offset + q.Limit
	}
	where, args := q.where()
	query := "SELECT " + handColumns + " FROM hands h" + where + " ORDER BY h.stream_seq DESC"
	if q.Limit > 0 || q.Offset > 0 {
		limit := q.Limit
		if limit <= 0 {
			limit = -1 // SQLite's "no limit"
		}
		query += " LIMIT ? OFFSET ?"
		args = append(args, limit, q.Offset)
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

// CountHands returns how many hands q selects, Limit and Offset aside: the total of a list
// shown a page at a time. By table, preset and findings it sums the kept counts of hand_counts
// (player_totals.go), by player alone his row of player_hands, but while they are not kept
// (countsKept); by time it counts the hands of the period.
func CountHands(ctx context.Context, db *sql.DB, q HandQuery) (int, error) {
	where, args := q.where()
	query := "SELECT COUNT(*) FROM hands h" + where
	kept, err := countsKept(ctx, db)
	if err != nil {
		return 0, err
	}
	switch cq, cargs, ok := q.countsQuery(); {
	case ok && kept:
		query, args = cq, cargs
	case q.onlyPlayer():
		// While the counts are not kept, his hands are counted in the index of his rows alone.
		query, args = "SELECT COUNT(DISTINCT hand_seq) FROM hand_players WHERE player_fold = ?", []any{fold(q.Player)}
	}
	var n int
	err = db.QueryRowContext(ctx, query, args...).Scan(&n)
	return n, err
}

// TablesNamed returns the tables of the read models whose name is name whatever its case, for a
// filter a person typed ("T-Clean" finds t-clean).
func TablesNamed(ctx context.Context, db *sql.DB, name string) ([]string, error) {
	out := []string{}
	err := queryRows(ctx, db, `SELECT table_id FROM tables WHERE table_fold = ? ORDER BY table_id`, func(r *sql.Rows) error {
		var t string
		if err := r.Scan(&t); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	}, fold(name))
	return out, err
}

// PlayersStarting returns the players of the read models whose name starts with prefix whatever
// its case in any alphabet ("an" finds Ana and anabel, "ça" ÇAĞLAR), sorted; the prefix is taken as written, % and _ included.
func PlayersStarting(ctx context.Context, db *sql.DB, prefix string) ([]string, error) {
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(fold(prefix))
	out := []string{}
	query := playersStartingSQL
	if kept, err := countsKept(ctx, db); err != nil {
		return nil, err
	} else if !kept {
		query = playersStartingScanSQL
	}
	err := queryRows(ctx, db, query, func(r *sql.Rows) error {
		var p string
		if err := r.Scan(&p); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	}, esc+"%")
	return out, err
}

// playersStartingSQL selects the players whose folded name starts with an escaped, folded prefix
// and a %, from player_totals, one row per player (0011): LIKE over the folded column uses its
// index (the column is NOCASE, as LIKE is).
const playersStartingSQL = `SELECT player FROM player_totals WHERE player_fold LIKE ? ESCAPE '\' ORDER BY player`

// playersStartingScanSQL is playersStartingSQL from the players' rows of every hand, while
// player_totals is not kept (countsKept).
const playersStartingScanSQL = `SELECT DISTINCT player FROM hand_players WHERE player_fold LIKE ? ESCAPE '\' ORDER BY player`

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
		f.Expected, f.Actual = rawJSON(exp), rawJSON(act)
		out = append(out, f)
	}
	return out, rows.Err()
}

// rawJSON is a stored JSON value, nil for NULL.
func rawJSON(v sql.NullString) json.RawMessage {
	if !v.Valid {
		return nil
	}
	return json.RawMessage(v.String)
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
	// Start and End are his stack when the hand began and when it ended.
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// PlayerResults returns player's net result and stacks in the last hands he was dealt in (at
// most last of them, the last in stream order; 0: every one), in the order the hands started.
// His hands are read newest first from the index of his rows (whose keys end in the hand's
// stream sequence), so that the answer costs what it holds, however many hands he played.
func PlayerResults(ctx context.Context, db *sql.DB, player string, last int) ([]NetPoint, error) {
	if last <= 0 {
		last = -1
	}
	rows, err := db.QueryContext(ctx, `SELECT h.hand_id, h.table_id, h.number, h.started_at, hp.net, hp.start_stack, hp.end_stack
		FROM (SELECT hand_seq, net, start_stack, end_stack FROM hand_players WHERE player = ? ORDER BY hand_seq DESC LIMIT ?) hp
		JOIN hands h ON h.stream_seq = hp.hand_seq ORDER BY h.started_ms, h.stream_seq`, player, last)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []NetPoint{}
	for rows.Next() {
		var p NetPoint
		if err := rows.Scan(&p.Hand, &p.Table, &p.Number, &p.StartedAt, &p.Net, &p.Start, &p.End); err != nil {
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

// PlayerSessions returns player's last comings and goings at every table (at most last of them,
// in the order of the hands that say them; 0: every one); within one hand, leaving comes before
// sitting down, then rebuying, then sitting out, the order they happen at a table.
func PlayerSessions(ctx context.Context, db *sql.DB, player string, last int) ([]SeatChange, error) {
	if last <= 0 {
		last = -1
	}
	rows, err := db.QueryContext(ctx, `SELECT hand_id, table_id, started_at, kind, seat, amount, to_table FROM (
		SELECT hand_id, table_id, started_at, kind, COALESCE(seat, 0) AS seat, amount, to_table, stream_seq
		FROM seat_changes WHERE player = ? ORDER BY stream_seq DESC LIMIT ?)
		ORDER BY stream_seq, CASE kind WHEN 'left' THEN 0 WHEN 'joined' THEN 1 WHEN 'rebuy' THEN 2 ELSE 3 END`, player, last)
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

// TournamentRow is a tournament of the read models. EndedAt is "" while it runs.
type TournamentRow struct {
	ID        string `json:"id"`
	Entries   int    `json:"entries"`
	Stack     int64  `json:"stack"`
	Rebuys    int64  `json:"rebuys"`
	Hands     int    `json:"hands"`
	Level     int    `json:"level"`
	InPlay    int    `json:"in_play"`
	StartedAt string `json:"started_at"`
	LastAt    string `json:"last_at"`
	EndedAt   string `json:"ended_at,omitempty"`
}

const tournamentColumns = `tournament_id, entries, stack, rebuys, hands, level, in_play, started_at, last_at, COALESCE(ended_at, '')`

func scanTournament(sc interface{ Scan(...any) error }) (TournamentRow, error) {
	var t TournamentRow
	err := sc.Scan(&t.ID, &t.Entries, &t.Stack, &t.Rebuys, &t.Hands, &t.Level, &t.InPlay, &t.StartedAt, &t.LastAt, &t.EndedAt)
	return t, err
}

// Tournaments returns every tournament of the read models, the latest started first.
func Tournaments(ctx context.Context, db *sql.DB) ([]TournamentRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments ORDER BY started_at DESC, tournament_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []TournamentRow{}
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// TournamentStanding is one line of a tournament's standings: Place is the finishing place (0
// while he is in); Rank orders everyone, the players still in by chips, then those out by place;
// Table is where he sits or went out; Hand the hand he went out in.
type TournamentStanding struct {
	Player string `json:"player"`
	Place  int    `json:"place"`
	Rank   int    `json:"rank"`
	Chips  int64  `json:"chips"`
	Table  string `json:"table"`
	Hand   string `json:"hand,omitempty"`
	Hands  int    `json:"hands"`
	Rebuys int64  `json:"rebuys,omitempty"`
}

// TournamentTable is one table of a tournament, with every player's stack in each of its hands.
type TournamentTable struct {
	Table     string      `json:"table"`
	Hands     int         `json:"hands"`
	Level     int         `json:"level"`
	FirstHand string      `json:"first_hand"`
	LastHand  string      `json:"last_hand"`
	Chips     []ChipPoint `json:"chips"`
}

// TournamentLevel is the first hand of a level at one table of a tournament.
type TournamentLevel struct {
	Table     string `json:"table"`
	Level     int    `json:"level"`
	Ante      int64  `json:"ante"`
	MinBet    int64  `json:"min_bet"`
	MaxBet    int64  `json:"max_bet"`
	Hand      string `json:"hand"`
	StartedAt string `json:"started_at"`
}

// TournamentMove is a player moved from one table to another, in the first hand he was dealt in
// at the new one, with the stack he brought.
type TournamentMove struct {
	Hand   string `json:"hand"`
	Player string `json:"player"`
	From   string `json:"from"`
	To     string `json:"to"`
	Stack  int64  `json:"stack"`
}

// TournamentKnockout is a player knocked out, in the hand he lost his last chip.
type TournamentKnockout struct {
	Hand   string `json:"hand"`
	Player string `json:"player"`
	Table  string `json:"table"`
	Place  int    `json:"place"`
}

// TournamentFinding is a tournament.* finding with the hand and table that show it.
type TournamentFinding struct {
	Hand  string `json:"hand"`
	Table string `json:"table"`
	StoredFinding
}

// TournamentView is what the read models hold of one tournament.
type TournamentView struct {
	TournamentRow
	Standings []TournamentStanding `json:"standings"`
	Tables    []TournamentTable    `json:"tables"`
	Levels    []TournamentLevel    `json:"levels"`
	Moves     []TournamentMove     `json:"moves"`
	Knockouts []TournamentKnockout `json:"knockouts"`
	Findings  []TournamentFinding  `json:"findings"`
}

// queryRows runs q and scans each row with scan.
func queryRows(ctx context.Context, db *sql.DB, q string, scan func(*sql.Rows) error, args ...any) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Tournament returns tournament id: its standings (the players still in by chips, then those
// out by place), its tables with their chip counts hand by hand, its levels, moves and
// knock-outs in the order of the hands that show them, and its tournament.* findings.
// sql.ErrNoRows when the read models hold no such tournament.
func Tournament(ctx context.Context, db *sql.DB, id string) (TournamentView, error) {
	var v TournamentView
	var err error
	v.TournamentRow, err = scanTournament(db.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE tournament_id = ?`, id))
	if err != nil {
		return v, err
	}
	v.Standings, v.Tables, v.Levels, v.Moves, v.Knockouts, v.Findings =
		[]TournamentStanding{}, []TournamentTable{}, []TournamentLevel{}, []TournamentMove{}, []TournamentKnockout{}, []TournamentFinding{}
	err = queryRows(ctx, db, `SELECT player, place, chips, table_id, out_hand, hands, rebuys FROM tournament_players
		WHERE tournament_id = ? ORDER BY place > 0 AND chips = 0, place, chips DESC, player`, func(r *sql.Rows) error {
		var s TournamentStanding
		if err := r.Scan(&s.Player, &s.Place, &s.Chips, &s.Table, &s.Hand, &s.Hands, &s.Rebuys); err != nil {
			return err
		}
		s.Rank = len(v.Standings) + 1
		if s.Place > 0 {
			s.Rank = s.Place
		}
		v.Standings = append(v.Standings, s)
		return nil
	}, id)
	if err != nil {
		return v, err
	}
	byTable := map[string]int{}
	err = queryRows(ctx, db, `SELECT table_id, hands, level, first_hand, last_hand FROM tournament_tables
		WHERE tournament_id = ? ORDER BY table_id`, func(r *sql.Rows) error {
		t := TournamentTable{Chips: []ChipPoint{}}
		if err := r.Scan(&t.Table, &t.Hands, &t.Level, &t.FirstHand, &t.LastHand); err != nil {
			return err
		}
		byTable[t.Table] = len(v.Tables)
		v.Tables = append(v.Tables, t)
		return nil
	}, id)
	if err != nil {
		return v, err
	}
	err = queryRows(ctx, db, `SELECT th.table_id, h.hand_id, h.number, hp.player, hp.start_stack, hp.end_stack
		FROM tournament_hands th JOIN hands h ON h.hand_id = th.hand_id JOIN hand_players hp ON hp.hand_seq = h.stream_seq
		WHERE th.tournament_id = ? ORDER BY th.end_seq, hp.seat`, func(r *sql.Rows) error {
		var table string
		var p ChipPoint
		if err := r.Scan(&table, &p.Hand, &p.Number, &p.Player, &p.Start, &p.End); err != nil {
			return err
		}
		if i, ok := byTable[table]; ok {
			v.Tables[i].Chips = append(v.Tables[i].Chips, p)
		}
		return nil
	}, id)
	if err != nil {
		return v, err
	}
	err = queryRows(ctx, db, `SELECT l.table_id, l.level, l.ante, l.min_bet, l.max_bet, l.first_hand, l.started_at
		FROM tournament_levels l WHERE l.tournament_id = ? ORDER BY l.started_at, l.table_id`, func(r *sql.Rows) error {
		var l TournamentLevel
		if err := r.Scan(&l.Table, &l.Level, &l.Ante, &l.MinBet, &l.MaxBet, &l.Hand, &l.StartedAt); err != nil {
			return err
		}
		v.Levels = append(v.Levels, l)
		return nil
	}, id)
	if err != nil {
		return v, err
	}
	err = queryRows(ctx, db, `SELECT hand_id, player, from_table, to_table, stack FROM tournament_moves
		WHERE tournament_id = ? ORDER BY end_seq, player`, func(r *sql.Rows) error {
		var m TournamentMove
		if err := r.Scan(&m.Hand, &m.Player, &m.From, &m.To, &m.Stack); err != nil {
			return err
		}
		v.Moves = append(v.Moves, m)
		return nil
	}, id)
	if err != nil {
		return v, err
	}
	err = queryRows(ctx, db, `SELECT hand_id, player, table_id, place FROM tournament_knockouts
		WHERE tournament_id = ? ORDER BY end_seq, place DESC, player`, func(r *sql.Rows) error {
		var k TournamentKnockout
		if err := r.Scan(&k.Hand, &k.Player, &k.Table, &k.Place); err != nil {
			return err
		}
		v.Knockouts = append(v.Knockouts, k)
		return nil
	}, id)
	if err != nil {
		return v, err
	}
	err = queryRows(ctx, db, `SELECT f.hand_id, f.table_id, f.seq, f.code, f.severity, COALESCE(f.seat, 0), f.message, f.expected, f.actual
		FROM tournament_hands th JOIN findings f ON f.hand_id = th.hand_id
		WHERE th.tournament_id = ? AND f.code LIKE 'tournament.%' ORDER BY th.end_seq, f.n`, func(r *sql.Rows) error {
		var f TournamentFinding
		var exp, act sql.NullString
		if err := r.Scan(&f.Hand, &f.Table, &f.Seq, &f.Code, &f.Severity, &f.Seat, &f.Message, &exp, &act); err != nil {
			return err
		}
		f.Expected, f.Actual = rawJSON(exp), rawJSON(act)
		v.Findings = append(v.Findings, f)
		return nil
	}, id)
	return v, err
}

// PlayerTournament is a player's line in one tournament.
type PlayerTournament struct {
	Tournament string `json:"tournament"`
	Entries    int    `json:"entries"`
	StartedAt  string `json:"started_at"`
	Ended      bool   `json:"ended"`
	Place      int    `json:"place"` // 0 while he is in
	Chips      int64  `json:"chips"`
	Hand       string `json:"hand,omitempty"` // the hand he went out in
}

// PlayerTournaments returns every tournament player played, the latest started first.
func PlayerTournaments(ctx context.Context, db *sql.DB, player string) ([]PlayerTournament, error) {
	out := []PlayerTournament{}
	err := queryRows(ctx, db, `SELECT t.tournament_id, t.entries, t.started_at, t.ended_at IS NOT NULL, p.place, p.chips, p.out_hand
		FROM tournament_players p JOIN tournaments t ON t.tournament_id = p.tournament_id
		WHERE p.player = ? ORDER BY t.started_at DESC, t.tournament_id`, func(r *sql.Rows) error {
		var t PlayerTournament
		if err := r.Scan(&t.Tournament, &t.Entries, &t.StartedAt, &t.Ended, &t.Place, &t.Chips, &t.Hand); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	}, player)
	return out, err
}
