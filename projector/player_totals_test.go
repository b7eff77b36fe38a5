package projector

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// scanStats is PlayerStats as it was before player_totals: every hand's rows summed.
func scanStats(tb testing.TB, db *sql.DB, f Filter) []Stats {
	tb.Helper()
	where, args := f.where()
	rows, err := db.Query(statsQuery+where+" GROUP BY hp.player ORDER BY hp.player", args...)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []Stats
	for rows.Next() {
		var s Stats
		if err := rows.Scan(&s.Player, &s.Hands, &s.VPIPHands, &s.RaisedPreHands, &s.Bets, &s.Raises,
			&s.Calls, &s.SawSecond, &s.WentToShowdown, &s.WonAtShowdown, &s.Draws, &s.CardsDrawn,
			&s.StoodPat, &s.OpenChances, &s.Opens, &s.Net); err != nil {
			tb.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestPlayersTotalsAreTheHandsSums proves that the players' statistics read from player_totals
// are the sums over every hand's rows of hand_players, for every player and for a few, after
// the hands were projected in batches, and again after a re-projection emptied the read models.
func TestPlayersTotalsAreTheHandsSums(t *testing.T) {
	db, hands := listsDB(t)
	ctx := context.Background()
	for _, f := range []Filter{{}, {Players: []string{"nobody"}}} {
		got, err := PlayerStats(ctx, db, f)
		if err != nil {
			t.Fatal(err)
		}
		if want := scanStats(t, db, f); !reflect.DeepEqual(got, want) {
			t.Errorf("filter %+v: totals\n%+v\nsums of the hands\n%+v", f, got, want)
		}
	}
	all, _ := PlayerStats(ctx, db, Filter{})
	if len(all) != len(hands) {
		t.Fatalf("%d players in the totals, %d dealt in", len(all), len(hands))
	}
	for _, s := range all {
		if s.Hands != hands[s.Player] {
			t.Errorf("%s: %d hands in the totals, dealt in %d", s.Player, s.Hands, hands[s.Player])
		}
	}
	some := Filter{Players: []string{all[0].Player, all[len(all)-1].Player}}
	got, _ := PlayerStats(ctx, db, some)
	if want := scanStats(t, db, some); !reflect.DeepEqual(got, want) || len(got) != 2 {
		t.Errorf("two players: totals %+v, sums %+v", got, want)
	}
	// Emptied as a migration that re-projects empties them, then projected again: counted once.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := emptyReadModels(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n, _ := PlayerStats(ctx, db, Filter{}); len(n) != 0 {
		t.Fatalf("emptied read models leave %d players' totals", len(n))
	}
}

// TestPlayersReadsScanNoHands proves that the players list over the whole log, a name's prefix
// and a few players read player_totals, one row per player, and never hand_players, whose rows
// grow with the log.
func TestPlayersReadsScanNoHands(t *testing.T) {
	db := openDB(t)
	q, args := totalsQuery([]string{"Ana", "Bia"})
	for _, c := range []struct {
		query string
		args  []any
	}{{totalsColumns + " ORDER BY player", nil}, {q, args}, {playersStartingSQL, []any{"an%"}}} {
		rows, err := db.Query("EXPLAIN QUERY PLAN "+c.query, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan strings.Builder
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			plan.WriteString(detail + "\n")
		}
		rows.Close()
		if strings.Contains(plan.String(), "hand_players") || !strings.Contains(plan.String(), "player_totals") {
			t.Errorf("%s\nreads:\n%s", c.query, plan.String())
		}
	}
}

// fillPlayers writes hands synthetic hands of four of players players into the read models, as
// the projector does at hand.ended (the triggers keep player_totals).
func fillPlayers(tb testing.TB, db *sql.DB, hands, players int) {
	tb.Helper()
	tx, err := db.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	h, err := tx.Prepare(`INSERT INTO hands (hand_id, stream_seq, table_id, number, preset, dealer, players, ante, min_bet,
		max_bet, carry_in, passed_out, started_at, started_ms, end_seq) VALUES (?, ?, ?, ?, 'std-draw', 1, 4, 1, 2, 4, 0, 0, ?, ?, ?)`)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := tx.Prepare(`INSERT INTO hand_players (hand_seq, seat, hand_id, player, position, start_stack, end_stack, net,
		put_in, returned, won, vpip, open_chance, opened, raised_pre, bets, raises, calls, checks, folded, drew,
		cards_drawn, stood_pat, saw_second, went_to_showdown, won_at_showdown, aggressive_post, shown, player_fold)
		VALUES (?, ?, ?, ?, ?, 100, ?, ?, 10, 0, 0, ?, 1, ?, 0, 1, 0, 1, 0, 0, 1, 2, 0, 1, ?, 0, 0, '', ?)`)
	if err != nil {
		tb.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for i := range hands {
		seq := int64(i*20 + 1)
		id := fmt.Sprintf("hand-%07d", i)
		t := at.Add(time.Duration(i) * time.Minute)
		if _, err := h.Exec(id, seq, fmt.Sprintf("table-%d", i%100), i/100+1, t.Format(time.RFC3339), t.UnixMilli(), seq+19); err != nil {
			tb.Fatal(err)
		}
		for s := range 4 {
			name := fmt.Sprintf("Player%05d", (i*7+s*13)%players)
			if _, err := p.Exec(seq, s+1, id, name, s+1, 100+s, s, i%2, s%2, (i+s)%3 == 0, fold(name)); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkPlayersAtSize reads every player's statistics (GET /api/players without a filter) at
// 10,000 and 100,000 hands of 2,000 players: from player_totals, and as before by summing every
// hand's rows (scan), to show the first flat in the size of the log and the second growing with
// it.
func BenchmarkPlayersAtSize(b *testing.B) {
	for _, hands := range []int{10_000, 100_000} {
		db := openDB(b)
		fillPlayers(b, db, hands, 2000)
		b.Run(fmt.Sprintf("totals/hands=%d", hands), func(b *testing.B) {
			for b.Loop() {
				if st, err := PlayerStats(context.Background(), db, Filter{}); err != nil || len(st) != 2000 {
					b.Fatalf("%v: %d players", err, len(st))
				}
			}
		})
		b.Run(fmt.Sprintf("scan/hands=%d", hands), func(b *testing.B) {
			for b.Loop() {
				scanStats(b, db, Filter{})
			}
		})
	}
}
