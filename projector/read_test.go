package projector

import (
	"bytes"
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/sim"
)

// listsDB projects two simulated tables, "Cash-A" (std-draw) and "t-b" (br-fechado), and returns
// the database with each player's number of hands.
func listsDB(t *testing.T) (*sql.DB, map[string]int) {
	t.Helper()
	var lines [][]byte
	hands := map[string]int{}
	for _, cfg := range []sim.Config{
		{Rules: "std-draw", Players: 4, Hands: 30, Seed: 11, Table: "Cash-A", ExposeRate: -1},
		{Rules: "br-fechado", Players: 3, Hands: 20, Seed: 12, Table: "t-b", ExposeRate: -1},
	} {
		hs, err := sim.All(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			for _, s := range h.Events[0].Data.(*events.HandStarted).Seats {
				hands[s.Player]++
			}
			for _, e := range h.Events {
				lines = append(lines, bytes.Clone(e.Raw))
			}
		}
	}
	db := openDB(t)
	project(t, db, writeLines(t, t.TempDir(), lines), 100)
	return db, hands
}

// The lists' filters find a table or a player whatever the case typed, the total counts every
// hand the filter selects, and the pages (limit, offset) put together give the whole list once, in
// order.
func TestHandsFiltersAndPages(t *testing.T) {
	db, perPlayer := listsDB(t)
	ctx := context.Background()
	cases := []struct {
		q    HandQuery
		want int
	}{
		{HandQuery{}, 50},
		{HandQuery{Table: "Cash-A"}, 30},
		{HandQuery{Table: "cash-a"}, 30},
		{HandQuery{Table: "T-B"}, 20},
		{HandQuery{Table: "cash"}, 0},
		{HandQuery{Player: "ANA"}, perPlayer["ana"]},
		{HandQuery{Player: "Deniz"}, perPlayer["deniz"]},
		{HandQuery{Player: "an"}, 0},
		{HandQuery{Player: "ana", Table: "T-b"}, 20},
		{HandQuery{Preset: "std-draw"}, 30},
		{HandQuery{Preset: "STD-DRAW"}, 0}, // a preset is a code, not a name a person types
	}
	for _, c := range cases {
		n, err := CountHands(ctx, db, c.q)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := Hands(ctx, db, c.q)
		if err != nil {
			t.Fatal(err)
		}
		if n != c.want || len(rows) != c.want {
			t.Errorf("%+v: total %d, %d rows; want %d", c.q, n, len(rows), c.want)
		}
	}
	if perPlayer["deniz"] == 0 || perPlayer["deniz"] == 50 {
		t.Fatalf("deniz played %d hands: not a test of the player filter", perPlayer["deniz"])
	}

	all, err := Hands(ctx, db, HandQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var paged []string
	for off := 0; off < 60; off += 7 {
		page, err := Hands(ctx, db, HandQuery{Limit: 7, Offset: off})
		if err != nil {
			t.Fatal(err)
		}
		if want := min(7, max(0, 50-off)); len(page) != want {
			t.Errorf("page at %d: %d rows, want %d", off, len(page), want)
		}
		for _, h := range page {
			paged = append(paged, h.Hand)
		}
	}
	var whole []string
	for _, h := range all {
		whole = append(whole, h.Hand)
	}
	if !slices.Equal(paged, whole) {
		t.Errorf("the pages give %d hands, not the %d of the list in its order", len(paged), len(whole))
	}
}

func TestNamesWhateverTheCase(t *testing.T) {
	db, perPlayer := listsDB(t)
	ctx := context.Background()
	var withA []string
	for p := range perPlayer {
		if strings.HasPrefix(p, "a") {
			withA = append(withA, p)
		}
	}
	slices.Sort(withA)
	for prefix, want := range map[string][]string{"A": withA, "BRU": {"bruno"}, "": nil, "%": {}, "_na": {}, "zz": {}} {
		got, err := PlayersStarting(ctx, db, prefix)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			if len(got) != len(perPlayer) {
				t.Errorf("prefix %q: %v, want every player", prefix, got)
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("prefix %q: %v, want %v", prefix, got, want)
		}
	}
	for name, want := range map[string][]string{"CASH-a": {"Cash-A"}, "t-b": {"t-b"}, "t": {}} {
		got, err := TablesNamed(ctx, db, name)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("table %q: %v, %v; want %v", name, got, err, want)
		}
	}
}

// The filters without case are served by the indexes of the folded names, not by reading every row.
func TestCaseFiltersUseTheIndexes(t *testing.T) {
	db := openDB(t)
	plan := func(q string, args ...any) string {
		rows, err := db.Query("EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			b.WriteString(detail + "\n")
		}
		return b.String()
	}
	where, args := HandQuery{Player: "Ana", Table: "T"}.where()
	p := plan("SELECT COUNT(*) FROM hands h"+where, args...)
	for _, idx := range []string{"hand_players_player_fold", "tables_table_fold"} {
		if !strings.Contains(p, idx) {
			t.Errorf("the hands filter does not use %s:\n%s", idx, p)
		}
	}
	if p := plan(playersStartingSQL, "an%"); !strings.Contains(p, "player_totals_fold") {
		t.Errorf("a name's prefix does not use the folded names' index:\n%s", p)
	}
}

// fold treats case as a person typing in Portuguese or Turkish does: every letter's case, the
// Turkish dotted and dotless i as one letter, accents kept, combining accents as precomposed.
func TestFold(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"JOÃO", "João"},
		{"çağlar", "ÇAĞLAR"},
		{"ISTANBUL", "İstanbul"},
		{"istanbul", "İSTANBUL"},
		{"ıŞIK", "Işık"},
		{"Joa\u0303o", "JOÃO"}, // ã as a plus a combining tilde
		{"STRASSE", "straße"},
	} {
		if fold(c.a) != fold(c.b) {
			t.Errorf("fold(%q) = %q, fold(%q) = %q: want the same", c.a, fold(c.a), c.b, fold(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{{"João", "Joao"}, {"Çağlar", "Caglar"}, {"ana", "ana "}} {
		if fold(c.a) == fold(c.b) {
			t.Errorf("fold(%q) = fold(%q) = %q: want them apart", c.a, c.b, fold(c.a))
		}
	}
}

// The filters find names written with letters beyond ASCII whatever the case typed: the players of
// the simulated hands are renamed in their events before projecting.
func TestNamesBeyondASCII(t *testing.T) {
	hs, err := sim.All(sim.Config{Rules: "br-fechado", Players: 3, Hands: 10, Seed: 12, Table: "T-ist", ExposeRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	seated := hs[0].Events[0].Data.(*events.HandStarted).Seats
	rename := map[string]string{}
	for i, name := range []string{"João", "ÇAĞLAR", "İstanbul"} {
		if i < len(seated) {
			rename[seated[i].Player] = name
		}
	}
	var lines [][]byte
	for _, h := range hs {
		for _, e := range h.Events {
			line := bytes.Clone(e.Raw)
			for from, to := range rename {
				line = bytes.ReplaceAll(line, []byte(`"`+from+`"`), []byte(`"`+to+`"`))
			}
			lines = append(lines, line)
		}
	}
	db := openDB(t)
	project(t, db, writeLines(t, t.TempDir(), lines), 100)
	ctx := context.Background()
	for typed, want := range map[string]string{"JOÃO": "João", "çağlar": "ÇAĞLAR", "ISTANBUL": "İstanbul", "ıstanbul": "İstanbul", "joao": ""} {
		n, err := CountHands(ctx, db, HandQuery{Player: typed})
		if err != nil {
			t.Fatal(err)
		}
		if (n > 0) != (want != "") {
			t.Errorf("player %q: %d hands, want %q's", typed, n, want)
		}
	}
	for prefix, want := range map[string][]string{"jo": {"João"}, "ÇA": {"ÇAĞLAR"}, "ça": {"ÇAĞLAR"}, "ca": {}, "is": {"İstanbul"}} {
		got, err := PlayersStarting(ctx, db, prefix)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("prefix %q: %v, %v; want %v", prefix, got, err, want)
		}
	}
	// Table ids are ASCII (events-v1.md), but the Turkish capital İ still finds an i.
	for _, typed := range []string{"t-IST", "T-İST"} {
		got, err := TablesNamed(ctx, db, typed)
		if err != nil || !slices.Equal(got, []string{"T-ist"}) {
			t.Errorf("table %q: %v, %v; want T-ist", typed, got, err)
		}
		if n, err := CountHands(ctx, db, HandQuery{Table: typed}); err != nil || n != len(hs) {
			t.Errorf("hands of table %q: %d, %v; want %d", typed, n, err, len(hs))
		}
	}
}
