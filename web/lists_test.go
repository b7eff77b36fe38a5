package web_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/rules"
)

// pagedHands is GET /api/hands with the page it answers.
type pagedHands struct {
	Hands []struct {
		Hand  string `json:"hand"`
		Table string `json:"table"`
	} `json:"hands"`
	Total  int `json:"total"`
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

// playerLine is a line of GET /api/players.
type playerLine struct {
	Player string   `json:"player"`
	Hands  int      `json:"hands"`
	Net    int64    `json:"net"`
	VPIP   *float64 `json:"vpip_pct"`
}

// pagedPlayers is GET /api/players with the page it answers.
type pagedPlayers struct {
	Players []playerLine `json:"players"`
	Total   int          `json:"total"`
	Sort    string       `json:"sort"`
	Order   string       `json:"order"`
}

// The Hands list: table and player filters whatever the case, with the total they select; pages
// of limit hands from offset that put together give the list once; an unknown preset is a 400
// naming the known ones.
func TestHandsListFiltersPagesPresets(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	clean, bad := fixture(t, e)
	all := len(clean) + len(bad)
	for q, want := range map[string]int{
		"table=T-CLEAN": len(clean), "table=t-Bad": len(bad), "table=t": 0, "player=ANA": all, "player=Ana&table=t-clean": len(clean),
		"preset=std-draw": len(bad), "": all,
	} {
		var a pagedHands
		e.get("/api/hands?"+q, http.StatusOK, &a)
		if a.Total != want || len(a.Hands) != want {
			t.Errorf("/api/hands?%s: total %d, %d hands; want %d", q, a.Total, len(a.Hands), want)
		}
		for _, h := range a.Hands {
			if strings.Contains(q, "table=T-CLEAN") && h.Table != "t-clean" {
				t.Errorf("/api/hands?%s lists a hand of %s", q, h.Table)
			}
		}
	}
	var whole pagedHands
	e.get("/api/hands", http.StatusOK, &whole)
	var paged []string
	for off := 0; off < all; off += 4 {
		var a pagedHands
		e.get("/api/hands?limit=4&offset="+strconv.Itoa(off), http.StatusOK, &a)
		if a.Total != all || a.Limit != 4 || a.Offset != off || len(a.Hands) != min(4, all-off) {
			t.Errorf("page at %d: total %d, limit %d, offset %d, %d hands", off, a.Total, a.Limit, a.Offset, len(a.Hands))
		}
		for _, h := range a.Hands {
			paged = append(paged, h.Hand)
		}
	}
	var ids []string
	for _, h := range whole.Hands {
		ids = append(ids, h.Hand)
	}
	if !slices.Equal(paged, ids) {
		t.Errorf("the pages give %v, the list %v", paged, ids)
	}
	for _, path := range []string{"/api/hands?preset=nope", "/api/hands?preset=STD-DRAW", "/api/players?preset=nope", "/api/players/ana/stats?preset=x"} {
		var a struct {
			Error string `json:"error"`
			Field string `json:"field"`
		}
		e.get(path, http.StatusBadRequest, &a)
		if a.Field != "preset" {
			t.Errorf("%s: field %q, want preset", path, a.Field)
		}
		for _, p := range rules.Names() {
			if !strings.Contains(a.Error, p) {
				t.Errorf("%s: %q does not name the preset %s", path, a.Error, p)
			}
		}
	}
	for _, q := range []string{"offset=-1", "offset=x"} {
		e.get("/api/hands?"+q, http.StatusBadRequest, nil)
	}
}

// The Players list: a name's start whatever the case, a table whatever the case, sorted by any
// column either way (players without a value last), a page with the total.
func TestPlayersListSortFilterPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	fixture(t, e)
	var a pagedPlayers
	e.get("/api/players", http.StatusOK, &a)
	if a.Total != 4 || len(a.Players) != 4 || a.Sort != "player" || a.Order != "asc" || a.Players[0].Player != "ana" {
		t.Fatalf("players %+v", a)
	}
	for q, want := range map[string][]string{
		"player=AN": {"ana"}, "player=b": {"bruno"}, "player=x": {}, "player=%25": {},
		"table=T-BAD": {"ana", "bruno", "carla"}, "table=T-BAD&player=C": {"carla"},
	} {
		var a pagedPlayers
		e.get("/api/players?"+q, http.StatusOK, &a)
		var got []string
		for _, p := range a.Players {
			got = append(got, p.Player)
		}
		if a.Total != len(want) || !slices.Equal(got, want) && len(want) > 0 {
			t.Errorf("/api/players?%s: %v (total %d), want %v", q, got, a.Total, want)
		}
	}
	for _, order := range []string{"asc", "desc"} {
		var a pagedPlayers
		e.get("/api/players?sort=net&order="+order, http.StatusOK, &a)
		if !slices.IsSortedFunc(a.Players, func(x, y playerLine) int {
			if order == "desc" {
				x, y = y, x
			}
			return int(x.Net - y.Net)
		}) {
			t.Errorf("sort=net&order=%s: %+v", order, a.Players)
		}
		if a.Players[0].Net == a.Players[len(a.Players)-1].Net {
			t.Fatalf("every player has the same net: not a test of sorting")
		}
	}
	var page pagedPlayers
	e.get("/api/players?sort=player&order=desc&limit=2&offset=1", http.StatusOK, &page)
	if page.Total != 4 || len(page.Players) != 2 || page.Players[0].Player != "carla" || page.Players[1].Player != "bruno" {
		t.Errorf("the second page of two, names descending: %+v", page)
	}
	for _, q := range []string{"sort=bogus", "order=up", "limit=0", "offset=-2"} {
		var a struct {
			Field string `json:"field"`
		}
		e.get("/api/players?"+q, http.StatusBadRequest, &a)
		if !strings.HasPrefix(q, a.Field) {
			t.Errorf("/api/players?%s: field %q", q, a.Field)
		}
	}
}

// Every word the list pages ask of the catalogue exists: each key their scripts name, and each of
// the keys they build from a stage, an audit status, a statistic or a kind of seat change.
func TestListPagesWordsExist(t *testing.T) {
	t.Parallel()
	var src strings.Builder
	for _, f := range []string{"tables.js", "handlist.js", "players.js", "tournaments.js", "integrity.js", "charts.js"} {
		b, err := os.ReadFile(filepath.Join("assets", f))
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	keys := map[string]bool{}
	for _, m := range regexp.MustCompile(`"((?:web|preset|status|sev)\.[a-z0-9_.-]*[a-z0-9_])"`).FindAllStringSubmatch(src.String(), -1) {
		keys[m[1]] = true
	}
	if len(keys) < 100 {
		t.Fatalf("only %d keys found in the scripts: the pattern misses them", len(keys))
	}
	for _, stage := range []string{"setup", "deal", "betting", "betting.blind", "betting.first", "betting.second", "draw", "showdown", "settle", "ended"} {
		keys["web.tables.stage."+stage] = true
	}
	for _, a := range []string{"ok", "info", "warning", "error"} {
		keys["web.hands.audit."+a] = true
		keys["sev."+a] = a != "ok"
	}
	for _, m := range regexp.MustCompile(`\["([a-z_]+)", "[a-z_]+", (?:num|pct|dec)\]`).FindAllStringSubmatch(src.String(), -1) {
		keys["web.players.stat."+m[1]+".name"], keys["web.players.stat."+m[1]+".help"] = true, true
	}
	for _, k := range []string{"joined", "away", "rebuy", "left"} {
		keys["web.player.session."+k] = true
	}
	for _, p := range rules.Names() {
		keys["preset."+p] = true
	}
	for k, want := range keys {
		for _, l := range lang.All() {
			if want && !l.Has(k) {
				t.Errorf("%s: the list pages ask for %q, which the catalogue lacks", l.Code, k)
			}
		}
	}
	if !keys["web.players.stat.wsd.help"] || !keys["web.tables.stage.draw"] {
		t.Error("the built keys are not checked")
	}
}
