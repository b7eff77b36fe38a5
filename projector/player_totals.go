package projector

import (
	"context"
	"strings"

	"github.com/fechado/fechado/schema"
)

// player_totals (schema migration 0011) holds each player's counts over every hand he was dealt
// in: a trigger adds each row of hand_players as the projector writes it, in the same
// transaction, so the statistics over the whole log, and the players whose name starts with a
// prefix, are read from one row per player instead of every hand's rows. player_slices and
// player_positions (0012) hold the same counts, and the opens by position, by table and preset,
// for the statistics of a table's or a preset's hands; hand_counts (0012) the hands of each table
// and preset, with findings or not, for the totals of the hands list. While a projector fills
// empty read models they are counted once at the end instead (bulk.go), and the readers count
// from the hands' rows meanwhile (countsKept).

// totalsColumns are statsQuery's columns, from player_totals.
const totalsColumns = `SELECT player, hands, vpip, raised_pre, bets, raises, calls, saw_second, went_to_showdown,
	won_at_showdown, drew, cards_drawn, stood_pat, open_chance, opened, net FROM player_totals`

// slicesColumns are statsQuery's columns, summed over player_slices.
const slicesColumns = `SELECT player, SUM(hands), SUM(vpip), SUM(raised_pre), SUM(bets), SUM(raises), SUM(calls),
	SUM(saw_second), SUM(went_to_showdown), SUM(won_at_showdown), SUM(drew), SUM(cards_drawn), SUM(stood_pat),
	SUM(open_chance), SUM(opened), SUM(net) FROM player_slices`

// overAll reports whether f selects every hand (of the players it names, if any): its statistics
// are then player_totals' rows.
func (f Filter) overAll() bool {
	return len(f.Tables) == 0 && len(f.Presets) == 0 && f.sliced()
}

// sliced reports whether f selects hands by player, table and preset only: its statistics are
// then sums of player_slices' rows, its opens by position of player_positions'.
func (f Filter) sliced() bool {
	return len(f.Hands) == 0 && f.From.IsZero() && f.To.IsZero()
}

// inList returns "col IN (?,…)" for vals and appends them to args; "" when vals is empty.
func inList(col string, vals []string, args *[]any) string {
	if len(vals) == 0 {
		return ""
	}
	for _, v := range vals {
		*args = append(*args, v)
	}
	return col + " IN (" + strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",") + ")"
}

// sliceWhere returns the WHERE clause selecting f's players, tables and presets in player_slices
// or player_positions, and its arguments.
func (f Filter) sliceWhere() (string, []any) {
	var conds []string
	var args []any
	for _, c := range []struct {
		col  string
		vals []string
	}{{"player", f.Players}, {"table_id", f.Tables}, {"preset", f.Presets}} {
		if cond := inList(c.col, c.vals, &args); cond != "" {
			conds = append(conds, cond)
		}
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// totalsQuery returns the query of the totals of players (every player when there is none),
// ordered by player, and its arguments.
func totalsQuery(players []string) (string, []any) {
	if len(players) == 0 {
		return totalsColumns + " ORDER BY player", nil
	}
	var args []any
	return totalsColumns + " WHERE " + inList("player", players, &args) + " ORDER BY player", args
}

// slicesQuery returns the query of the statistics of f (sliced) from player_slices, ordered by
// player, and its arguments.
func slicesQuery(f Filter) (string, []any) {
	where, args := f.sliceWhere()
	return slicesColumns + where + " GROUP BY player ORDER BY player", args
}

// positionsQuery returns the query of OpenByPosition over f (sliced) from player_positions.
func positionsQuery(f Filter) (string, []any) {
	where, args := f.sliceWhere()
	return `SELECT player, position, SUM(hands), SUM(open_chance), SUM(opened) FROM player_positions` + where +
		` GROUP BY player, position ORDER BY player, position`, args
}

// countsQuery returns the query of CountHands over the kept counts, and its arguments, when q
// selects hands by table, preset and findings only (over hand_counts), or by player only (his
// row of player_hands); ok is false otherwise.
func (q HandQuery) countsQuery() (query string, args []any, ok bool) {
	if q.onlyPlayer() {
		// His hands are those of his rows (a hand's rows of hand_players are written with its row
		// of hands, at its hand.ended), each counted once by migration 0014's trigger.
		return "SELECT COALESCE(SUM(hands), 0) FROM player_hands WHERE player_fold = ?", []any{fold(q.Player)}, true
	}
	if q.Player != "" || !q.From.IsZero() || !q.To.IsZero() {
		return "", nil, false
	}
	var conds []string
	if q.Table != "" {
		conds, args = append(conds, "table_id IN (SELECT table_id FROM tables WHERE table_fold = ?)"), append(args, fold(q.Table))
	}
	if q.Preset != "" {
		conds, args = append(conds, "preset = ?"), append(args, q.Preset)
	}
	if q.WithFindings {
		conds = append(conds, "with_findings = 1")
	}
	query = "SELECT COALESCE(SUM(hands), 0) FROM hand_counts"
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	return query, args, true
}

// countsKept reports whether the kept counts are up to date: not while a projector fills empty
// read models with their triggers dropped (bulk.go, schema.DeferredTriggers), when the readers
// count from the hands' rows instead, as they did before the counts were kept: the same figures,
// read in time that grows with the log, for as long as the fill lasts.
func countsKept(ctx context.Context, db Queryer) (bool, error) {
	rows, err := db.QueryContext(ctx, `SELECT 1 FROM `+schema.DeferredTable+` WHERE name IN (`+
		strings.TrimSuffix(strings.Repeat("?,", len(schema.DeferredTriggers)), ",")+`) LIMIT 1`, deferredTriggerArgs...)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	deferred := rows.Next()
	return !deferred, rows.Err()
}

// deferredTriggerArgs are schema.DeferredTriggers as query arguments.
var deferredTriggerArgs = func() []any {
	out := make([]any, len(schema.DeferredTriggers))
	for i, n := range schema.DeferredTriggers {
		out[i] = n
	}
	return out
}()
