package projector

import (
	"context"
	"database/sql"
	"os"
	"testing"
)

// BenchmarkReadsOfADatabase times each reader the web API's endpoints call, one at a time, on
// the read models at FECHADO_READS_DB (opened read-only; skipped without it): to compare one
// reader's time at two sizes of the log (BENCHMARKS.md, nineteenth session: reads at size). The
// player read is the one dealt the most hands (FECHADO_READS_PLAYER to choose), the table the
// first, the hand the 500th newest. "player total before 0014" is the count migration 0014
// replaced, every hand of the player's; the readers of kept tables a database lacks are skipped.
func BenchmarkReadsOfADatabase(b *testing.B) {
	path := os.Getenv("FECHADO_READS_DB")
	if path == "" {
		b.Skip("FECHADO_READS_DB names no read models")
	}
	ctx := context.Background()
	db, err := OpenReadOnly(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	player := os.Getenv("FECHADO_READS_PLAYER")
	var table, hand, logID string
	for _, q := range []struct {
		dst   *string
		query string
	}{
		{&player, `SELECT player FROM player_totals ORDER BY hands DESC LIMIT 1`},
		{&table, `SELECT table_id FROM tables ORDER BY table_id LIMIT 1`},
		{&hand, `SELECT hand_id FROM hands ORDER BY stream_seq DESC LIMIT 1 OFFSET 500`},
		{&logID, `SELECT log_id FROM source_log`},
	} {
		if *q.dst == "" {
			if err := db.QueryRow(q.query).Scan(q.dst); err != nil && err != sql.ErrNoRows {
				b.Fatal(err)
			}
		}
	}
	page := func(q HandQuery) func() error {
		q.Limit = 100
		return func() error {
			if _, err := Hands(ctx, db, q); err != nil {
				return err
			}
			_, err := CountHands(ctx, db, q)
			return err
		}
	}
	of := Filter{Players: []string{player}}
	for _, r := range []struct {
		name string
		read func() error
	}{
		{"hands", page(HandQuery{})},
		{"hands?offset=1000", page(HandQuery{Offset: 1000})},
		{"hands?table=", page(HandQuery{Table: table})},
		{"hands?player=", page(HandQuery{Player: player})},
		{"player total before 0014", func() error {
			var n int
			return db.QueryRow(`SELECT COUNT(DISTINCT hand_seq) FROM hand_players WHERE player_fold = ?`, fold(player)).Scan(&n)
		}},
		{"hands?preset=", page(HandQuery{Preset: "std-draw"})},
		{"hands?findings=1", page(HandQuery{WithFindings: true})},
		{"players", func() error { _, err := PlayerStats(ctx, db, Filter{}); return err }},
		{"players?table=", func() error { _, err := PlayerStats(ctx, db, Filter{Tables: []string{table}}); return err }},
		{"stats/totals", func() error { _, err := PlayerStats(ctx, db, of); return err }},
		{"stats/positions", func() error { _, err := OpenByPosition(ctx, db, of); return err }},
		{"stats/results", func() error { _, err := PlayerResults(ctx, db, player, 1000); return err }},
		{"stats/sessions", func() error { _, err := PlayerSessions(ctx, db, player, 500); return err }},
		{"chips", func() error { _, err := ChipCounts(ctx, db, table, 500); return err }},
		{"tables", func() error { _, err := Tables(ctx, db); return err }},
		{"hand", func() error { _, err := Hand(ctx, db, hand); return err }},
		{"hand/copy", func() error { _, _, _, err := HandCopy(ctx, db, logID, hand); return err }},
		{"hand/findings", func() error { _, err := Findings(ctx, db, hand); return err }},
	} {
		b.Run(r.name, func(b *testing.B) {
			if err := r.read(); err != nil {
				b.Skipf("%s: %v", r.name, err)
			}
			for b.Loop() {
				if err := r.read(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
