package projector

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/fechado/fechado/events"
)

// Queryer runs queries: a *sql.DB, *sql.Conn or *sql.Tx.
type Queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Filter selects the hands statistics are computed over. Empty fields select everything; the
// fields combine with AND, the values of one field with OR. Only hands that ended count.
type Filter struct {
	Players []string
	Tables  []string
	Presets []string
	Hands   []string
	// From and To bound the time a hand started: From <= started < To; zero = unbounded.
	From, To time.Time
}

// where returns the WHERE clause over hand_players hp and hands h, and its arguments.
func (f Filter) where() (string, []any) {
	var conds []string
	var args []any
	in := func(col string, vals []string) {
		if len(vals) == 0 {
			return
		}
		conds = append(conds, col+" IN ("+strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",")+")")
		for _, v := range vals {
			args = append(args, v)
		}
	}
	in("hp.player", f.Players)
	in("h.table_id", f.Tables)
	in("h.preset", f.Presets)
	in("h.hand_id", f.Hands)
	if !f.From.IsZero() {
		conds = append(conds, "h.started_ms >= ?")
		args = append(args, f.From.UnixMilli())
	}
	if !f.To.IsZero() {
		conds = append(conds, "h.started_ms < ?")
		args = append(args, f.To.UnixMilli())
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// Stats are one player's counts over a set of hands, from which the tracker statistics follow.
// Each ratio method returns a percentage (or, for Aggression, a factor) and false when its
// denominator is zero.
type Stats struct {
	Player         string
	Hands          int // hands dealt in
	VPIPHands      int // hands he called, bet or raised before the draw
	RaisedPreHands int // hands he raised before the draw
	Bets           int // bets, all rounds
	Raises         int // raises, all rounds
	Calls          int // calls, all rounds
	SawSecond      int // hands he was still in after the draw
	WentToShowdown int
	WonAtShowdown  int
	Draws          int // hands he drew in (standing pat included)
	CardsDrawn     int // cards drawn over those hands
	StoodPat       int
	OpenChances    int // hands he acted in the opening round before anybody bet
	Opens          int
	Net            events.Chips // chips won less chips lost
}

func pct(n, d int) (float64, bool) {
	if d == 0 {
		return 0, false
	}
	return 100 * float64(n) / float64(d), true
}

// VPIP is the percentage of hands in which he voluntarily put chips in before the draw.
func (s Stats) VPIP() (float64, bool) { return pct(s.VPIPHands, s.Hands) }

// RaisePreDraw is the percentage of hands in which he raised before the draw.
func (s Stats) RaisePreDraw() (float64, bool) { return pct(s.RaisedPreHands, s.Hands) }

// Aggression is the aggression factor (bets + raises) / calls, over all rounds.
func (s Stats) Aggression() (float64, bool) {
	if s.Calls == 0 {
		return 0, false
	}
	return float64(s.Bets+s.Raises) / float64(s.Calls), true
}

// WentToShowdownPct is the percentage of the hands he saw the second round in that he took to
// showdown.
func (s Stats) WentToShowdownPct() (float64, bool) { return pct(s.WentToShowdown, s.SawSecond) }

// WonAtShowdownPct is the percentage of his showdowns in which a pot paid him.
func (s Stats) WonAtShowdownPct() (float64, bool) { return pct(s.WonAtShowdown, s.WentToShowdown) }

// AvgDrawn is the average number of cards he drew per draw.
func (s Stats) AvgDrawn() (float64, bool) {
	if s.Draws == 0 {
		return 0, false
	}
	return float64(s.CardsDrawn) / float64(s.Draws), true
}

// StandPat is the percentage of his draws in which he stood pat.
func (s Stats) StandPat() (float64, bool) { return pct(s.StoodPat, s.Draws) }

// OpenPct is the percentage of his chances to open in which he opened.
func (s Stats) OpenPct() (float64, bool) { return pct(s.Opens, s.OpenChances) }

const statsQuery = `SELECT hp.player, COUNT(*), SUM(hp.vpip), SUM(hp.raised_pre), SUM(hp.bets),
	SUM(hp.raises), SUM(hp.calls), SUM(hp.saw_second), SUM(hp.went_to_showdown), SUM(hp.won_at_showdown),
	SUM(hp.drew), COALESCE(SUM(hp.cards_drawn), 0), SUM(hp.stood_pat), SUM(hp.open_chance), SUM(hp.opened),
	SUM(hp.net)
	FROM hand_players hp JOIN hands h ON h.stream_seq = hp.hand_seq`

// PlayerStats returns the statistics of every player over the hands f selects, ordered by player.
// Over every hand (f selects players at most) they are read from player_totals, one row per player
// kept as the hands are projected (player_totals.go), whatever the size of the log; over the hands
// of tables and presets, from player_slices, one row per player, table and preset. Only a filter by
// time or by hand sums the hands' rows, and any filter while the counts are not kept (countsKept).
func PlayerStats(ctx context.Context, db Queryer, f Filter) ([]Stats, error) {
	where, args := f.where()
	query := statsQuery + where + " GROUP BY hp.player ORDER BY hp.player"
	kept, err := countsKept(ctx, db)
	if err != nil {
		return nil, err
	}
	switch {
	case !kept:
	case f.overAll():
		query, args = totalsQuery(f.Players)
	case f.sliced():
		query, args = slicesQuery(f)
	}
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Stats
	for rows.Next() {
		var s Stats
		if err := rows.Scan(&s.Player, &s.Hands, &s.VPIPHands, &s.RaisedPreHands, &s.Bets, &s.Raises,
			&s.Calls, &s.SawSecond, &s.WentToShowdown, &s.WonAtShowdown, &s.Draws, &s.CardsDrawn,
			&s.StoodPat, &s.OpenChances, &s.Opens, &s.Net); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// PositionStats counts how often a player opened from one position (seats after the dealer,
// 1 = first to act).
type PositionStats struct {
	Player   string
	Position int
	Hands    int // hands dealt in at that position
	Chances  int // hands he acted in the opening round before anybody bet
	Opens    int
}

// OpenPct is the percentage of his chances to open in which he opened.
func (s PositionStats) OpenPct() (float64, bool) { return pct(s.Opens, s.Chances) }

// OpenByPosition returns, for every player and position, the open counts over the hands f
// selects, ordered by player and position: from player_positions unless f selects by time or by
// hand, or the counts are not kept (countsKept).
func OpenByPosition(ctx context.Context, db Queryer, f Filter) ([]PositionStats, error) {
	where, args := f.where()
	query := `SELECT hp.player, hp.position, COUNT(*), SUM(hp.open_chance), SUM(hp.opened)
		FROM hand_players hp JOIN hands h ON h.stream_seq = hp.hand_seq` + where +
		` GROUP BY hp.player, hp.position ORDER BY hp.player, hp.position`
	kept, err := countsKept(ctx, db)
	if err != nil {
		return nil, err
	}
	if kept && f.sliced() {
		query, args = positionsQuery(f)
	}
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PositionStats
	for rows.Next() {
		var s PositionStats
		if err := rows.Scan(&s.Player, &s.Position, &s.Hands, &s.Chances, &s.Opens); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
