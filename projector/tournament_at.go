package projector

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/tournament"
)

// TournamentAt is a tournament as it stood at a moment, with the times of the hand boundaries
// (a hand's start or end) just before and just after it, so that a reader can step hand by hand.
type TournamentAt struct {
	*tournament.Moment
	At string `json:"at"`
	// PrevAt and NextAt are the last boundary before At and the first after it ("" when none).
	PrevAt string `json:"prev_at"`
	NextAt string `json:"next_at"`
	// Times are every boundary of the tournament, in time order.
	Times []string `json:"times"`
}

// TournamentMoment replays tournament id up to at through a tournament.Follower fed the stored
// hand.started and hand.ended of its hands in the order they ended (the order the projector
// followed them in). It returns sql.ErrNoRows for a tournament with no hand stored.
func TournamentMoment(ctx context.Context, db *sql.DB, id string, at time.Time) (*TournamentAt, error) {
	rows, err := db.QueryContext(ctx, `SELECT started, ended FROM tournament_hands WHERE tournament_id = ? ORDER BY end_seq`, id)
	if err != nil {
		return nil, fmt.Errorf("projector: tournament hands: %w", err)
	}
	defer rows.Close()
	f := tournament.NewFollower(id, at)
	seen := map[time.Time]string{}
	n := 0
	for rows.Next() {
		var start, end []byte
		if err := rows.Scan(&start, &end); err != nil {
			return nil, err
		}
		for _, line := range [][]byte{start, end} {
			e, err := events.Parse(line)
			if err != nil {
				return nil, fmt.Errorf("projector: tournament hand: %w", err)
			}
			f.Add(e)
			if t, err := tournament.ParseTime(e.At); err == nil {
				seen[t] = stamp(t)
			}
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, sql.ErrNoRows
	}
	times := make([]time.Time, 0, len(seen))
	for t := range seen {
		times = append(times, t)
	}
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	v := &TournamentAt{Moment: f.Moment(), At: stamp(at), Times: []string{}}
	for _, t := range times {
		v.Times = append(v.Times, seen[t])
		if t.Before(at) {
			v.PrevAt = seen[t]
		} else if t.After(at) && v.NextAt == "" {
			v.NextAt = seen[t]
		}
	}
	if v.Moment == nil {
		// No hand had ended by then: the tournament has not begun to count.
		v.Moment = &tournament.Moment{Tournament: id, Tables: []tournament.TableMoment{}, Standings: []tournament.Standing{}}
	}
	return v, nil
}
