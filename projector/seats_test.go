package projector

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/sim"
)

// A cash session's comings and goings (events-v1.md §7) are kept as seat_changes rows, one per
// player and change, exactly as the hands' hand.started say them: sat down with a buy-in, sat out
// with a stack, left with chips, rebought.
func TestSeatChanges(t *testing.T) {
	hands, err := sim.All(sim.Config{Rules: "std-draw", Players: 5, Hands: 200, Seed: 4, Table: "cash", Cash: true})
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	var want []string
	for _, h := range hands {
		for _, e := range h.Events {
			lines = append(lines, bytes.Clone(e.Raw))
		}
		hs := h.Events[0].Data.(*events.HandStarted)
		for _, st := range hs.Seats {
			if st.Joined {
				want = append(want, fmt.Sprintf("%s %s joined %d %d", h.Events[0].Hand, st.Player, st.Seat, st.Stack))
			}
			if st.Rebuy != nil && *st.Rebuy > 0 {
				want = append(want, fmt.Sprintf("%s %s rebuy %d %d", h.Events[0].Hand, st.Player, st.Seat, *st.Rebuy))
			}
		}
		for _, a := range hs.Away {
			want = append(want, fmt.Sprintf("%s %s away %d %d", h.Events[0].Hand, a.Player, a.Seat, a.Stack))
		}
		for _, l := range hs.Left {
			want = append(want, fmt.Sprintf("%s %s left 0 %d", h.Events[0].Hand, l.Player, l.Stack))
		}
	}
	kinds := map[string]bool{}
	for _, w := range want {
		var hand, player, kind string
		fmt.Sscan(w, &hand, &player, &kind)
		kinds[kind] = true
	}
	if len(kinds) < 3 {
		t.Fatalf("the session has only %v: not a test of comings and goings", kinds)
	}
	db := openDB(t)
	project(t, db, writeLines(t, t.TempDir(), lines), 50)
	rows, err := db.QueryContext(context.Background(), `SELECT hand_id, player, kind, COALESCE(seat, 0), amount FROM seat_changes WHERE table_id = 'cash'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var hand, player, kind string
		var seat, amount int64
		if err := rows.Scan(&hand, &player, &kind, &seat, &amount); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %s %s %d %d", hand, player, kind, seat, amount))
	}
	sort.Strings(got)
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("seat_changes differ from the hands:\n got %v\nwant %v", got, want)
	}
}

// The live tables show who sits out the hand in progress (events-v1.md §7 away), with his chips,
// as its hand.started says; a copy handed out does not share them.
func TestLiveShowsWhoIsAway(t *testing.T) {
	hands, err := sim.All(sim.Config{Rules: "br-fechado", Players: 5, Hands: 300, Seed: 4, Table: "cash", Cash: true})
	if err != nil {
		t.Fatal(err)
	}
	live := NewLive()
	seen := 0
	for _, h := range hands {
		live.Apply(h.Events[0])
		st, _ := live.Table("cash")
		want := h.Events[0].Data.(*events.HandStarted).Away
		if fmt.Sprint(st.Away) != fmt.Sprint(want) {
			t.Fatalf("hand %s: live away %v, hand.started %v", h.Events[0].Hand, st.Away, want)
		}
		if len(want) > 0 {
			seen++
			st.Away[0].Stack = -1
			if again, _ := live.Table("cash"); again.Away[0].Stack == -1 {
				t.Fatal("a copy of the table shares its away list")
			}
		}
		for _, e := range h.Events[1:] {
			live.Apply(e)
		}
	}
	if seen == 0 {
		t.Fatal("nobody sat out: not a test")
	}
}
