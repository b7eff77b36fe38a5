package web

import (
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/rules"
)

// StatsView is a player's statistics in the API: the counts, and the ratios computed from them
// (percentages, or a factor for aggression), null where the denominator is 0.
type StatsView struct {
	Player         string   `json:"player"`
	Hands          int      `json:"hands"`
	VPIPHands      int      `json:"vpip_hands"`
	RaisedPreHands int      `json:"raised_pre_hands"`
	Bets           int      `json:"bets"`
	Raises         int      `json:"raises"`
	Calls          int      `json:"calls"`
	SawSecond      int      `json:"saw_second"`
	WentToShowdown int      `json:"went_to_showdown"`
	WonAtShowdown  int      `json:"won_at_showdown"`
	Draws          int      `json:"draws"`
	CardsDrawn     int      `json:"cards_drawn"`
	StoodPat       int      `json:"stood_pat"`
	OpenChances    int      `json:"open_chances"`
	Opens          int      `json:"opens"`
	Net            int64    `json:"net"`
	VPIP           *float64 `json:"vpip_pct"`
	RaisePreDraw   *float64 `json:"raise_pre_pct"`
	Aggression     *float64 `json:"aggression"`
	WTSD           *float64 `json:"wtsd_pct"`
	WSD            *float64 `json:"wsd_pct"`
	AvgDrawn       *float64 `json:"avg_drawn"`
	StandPat       *float64 `json:"stand_pat_pct"`
	Open           *float64 `json:"open_pct"`
}

func ratio(v float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	v = math.Round(v*100) / 100
	return &v
}

func statsView(st projector.Stats) StatsView {
	return StatsView{Player: st.Player, Hands: st.Hands, VPIPHands: st.VPIPHands, RaisedPreHands: st.RaisedPreHands,
		Bets: st.Bets, Raises: st.Raises, Calls: st.Calls, SawSecond: st.SawSecond, WentToShowdown: st.WentToShowdown,
		WonAtShowdown: st.WonAtShowdown, Draws: st.Draws, CardsDrawn: st.CardsDrawn, StoodPat: st.StoodPat,
		OpenChances: st.OpenChances, Opens: st.Opens, Net: int64(st.Net),
		VPIP: ratio(st.VPIP()), RaisePreDraw: ratio(st.RaisePreDraw()),
		Aggression: ratio(st.Aggression()), WTSD: ratio(st.WentToShowdownPct()),
		WSD: ratio(st.WonAtShowdownPct()), AvgDrawn: ratio(st.AvgDrawn()),
		StandPat: ratio(st.StandPat()), Open: ratio(st.OpenPct())}
}

// filterOf reads the statistics filter of a request: table (whatever its case), preset (one of
// the presets' names), from, to. When it is bad, or the database fails, it answers the request
// and returns false.
func (s *Server) filterOf(w http.ResponseWriter, r *http.Request) (projector.Filter, bool) {
	f, bad, err := s.readFilter(r)
	if err != nil {
		storeError(w, err)
		return f, false
	}
	if bad != nil {
		writeError(w, http.StatusBadRequest, bad.Error, bad)
		return f, false
	}
	return f, true
}

// readFilter reads filterOf's filter: a failure of the database is an error, a bad filter an
// *apiError.
func (s *Server) readFilter(r *http.Request) (projector.Filter, *apiError, error) {
	q := r.URL.Query()
	var f projector.Filter
	if v := q.Get("table"); v != "" {
		ids, err := projector.TablesNamed(r.Context(), s.db, v)
		if err != nil {
			return f, nil, err
		}
		if len(ids) == 0 {
			ids = []string{v} // no such table: the filter selects nothing
		}
		f.Tables = ids
	}
	if v := q.Get("preset"); v != "" {
		if bad := checkPreset(v); bad != nil {
			return f, bad, nil
		}
		f.Presets = []string{v}
	}
	for _, b := range []struct {
		key string
		dst *time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := q.Get(b.key); v != "" {
			t, err := parseTime(v)
			if err != nil {
				return f, &apiError{Error: b.key + " must be an RFC 3339 time or a date YYYY-MM-DD", Field: b.key}, nil
			}
			*b.dst = t
		}
	}
	return f, nil, nil
}

// playerSorts are the columns the players list sorts by (?sort=), each with the value it
// compares; nil values (a ratio with no denominator) come last whatever the order.
var playerSorts = map[string]func(StatsView) *float64{
	"player":        nil,
	"hands":         func(v StatsView) *float64 { return num(float64(v.Hands)) },
	"vpip_pct":      func(v StatsView) *float64 { return v.VPIP },
	"raise_pre_pct": func(v StatsView) *float64 { return v.RaisePreDraw },
	"aggression":    func(v StatsView) *float64 { return v.Aggression },
	"open_pct":      func(v StatsView) *float64 { return v.Open },
	"avg_drawn":     func(v StatsView) *float64 { return v.AvgDrawn },
	"stand_pat_pct": func(v StatsView) *float64 { return v.StandPat },
	"wtsd_pct":      func(v StatsView) *float64 { return v.WTSD },
	"wsd_pct":       func(v StatsView) *float64 { return v.WSD },
	"net":           func(v StatsView) *float64 { return num(float64(v.Net)) },
}

func num(f float64) *float64 { return &f }

// sortPlayers orders players by column key, descending when desc, ties by name.
func sortPlayers(players []StatsView, key string, desc bool) {
	val := playerSorts[key]
	sort.SliceStable(players, func(i, j int) bool {
		a, b := players[i], players[j]
		if val != nil {
			x, y := val(a), val(b)
			switch {
			case x == nil && y == nil:
			case x == nil:
				return false
			case y == nil:
				return true
			case *x != *y:
				return (*x < *y) != desc
			}
			return a.Player < b.Player
		}
		return (strings.ToLower(a.Player) < strings.ToLower(b.Player)) != desc
	})
}

// getPlayers is GET /api/players: the players' statistics (filters: player, the start of a name
// whatever its case; table, preset, from, to), sorted by a column (sort, order asc or desc), a
// page of limit players from offset, with the total the filters select.
func (s *Server) getPlayers(w http.ResponseWriter, r *http.Request) {
	f, ok := s.filterOf(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	key := q.Get("sort")
	if key == "" {
		key = "player"
	}
	if _, ok := playerSorts[key]; !ok {
		keys := make([]string, 0, len(playerSorts))
		for k := range playerSorts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		writeError(w, http.StatusBadRequest, fmt.Sprintf("sort %q is not a column: %s", key, strings.Join(keys, ", ")), &apiError{Field: "sort"})
		return
	}
	order := q.Get("order")
	if order == "" {
		order = "asc"
		if key != "player" {
			order = "desc"
		}
	}
	if order != "asc" && order != "desc" {
		writeError(w, http.StatusBadRequest, "order must be asc or desc", &apiError{Field: "order"})
		return
	}
	pg, bad := pageOf(r, DefaultLimit)
	if bad != nil {
		writeError(w, http.StatusBadRequest, bad.Error, bad)
		return
	}
	if v := q.Get("player"); v != "" {
		names, err := projector.PlayersStarting(r.Context(), s.db, v)
		if err != nil {
			storeError(w, err)
			return
		}
		if len(names) == 0 {
			writeJSON(w, http.StatusOK, map[string]any{"players": []StatsView{}, "total": 0, "limit": pg.Limit, "offset": pg.Offset, "sort": key, "order": order})
			return
		}
		f.Players = names
	}
	st, err := projector.PlayerStats(r.Context(), s.db, f)
	if err != nil {
		storeError(w, err)
		return
	}
	out := make([]StatsView, len(st))
	for i := range st {
		out[i] = statsView(st[i])
	}
	sortPlayers(out, key, order == "desc")
	total := len(out)
	out = out[min(pg.Offset, total):min(pg.Offset+pg.Limit, total)]
	writeJSON(w, http.StatusOK, map[string]any{"players": out, "total": total, "limit": pg.Limit, "offset": pg.Offset, "sort": key, "order": order})
}

// page is the part of a list one answer gives: Limit items from Offset.
type page struct {
	Limit, Offset int
}

// pageOf reads limit (1..MaxLimit, def when absent) and offset (0 or more) of a list request.
func pageOf(r *http.Request, def int) (page, *apiError) {
	pg := page{Limit: def}
	q := r.URL.Query()
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxLimit {
			return pg, &apiError{Error: "limit must be 1.." + strconv.Itoa(MaxLimit), Field: "limit"}
		}
		pg.Limit = n
	}
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return pg, &apiError{Error: "offset must be a whole number, 0 or more", Field: "offset"}
		}
		pg.Offset = n
	}
	return pg, nil
}

// checkPreset returns the answer to a preset filter that names no preset ("" filters nothing).
func checkPreset(name string) *apiError {
	if name == "" {
		return nil
	}
	if _, err := rules.Lookup(name); err != nil {
		return &apiError{Error: fmt.Sprintf("preset %q is not one of the known presets: %s", name, strings.Join(rules.Names(), ", ")), Field: "preset"}
	}
	return nil
}

// NetPoint is a player's result in one hand, for the chart of his running total.
type NetPoint = projector.NetPoint

// SeriesHands and SessionChanges bound what GET /api/players/{name}/stats gives of a player's
// history, which grows without end (issue 43: an answer costs what it shows, not the log's size):
// his result in his last SeriesHands hands, with his hands and net before them, and his last
// SessionChanges comings and goings.
const (
	SeriesHands    = 1000
	SessionChanges = 500
)

// getPlayerStats is GET /api/players/{name}/stats: one player's statistics, his opens by
// position, his result hand by hand in his last SeriesHands hands (hands_before and net_before
// say where they start), his last SessionChanges comings and goings (sat down, sat out, cashed
// out, rebought) and his tournaments with the place he finished in.
func (s *Server) getPlayerStats(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	f, ok := s.filterOf(w, r)
	if !ok {
		return
	}
	f.Players = []string{name}
	st, err := projector.PlayerStats(r.Context(), s.db, f)
	if err != nil {
		storeError(w, err)
		return
	}
	if len(st) == 0 {
		writeError(w, http.StatusNotFound, "no hand of player "+name, nil)
		return
	}
	pos, err := projector.OpenByPosition(r.Context(), s.db, f)
	if err != nil {
		storeError(w, err)
		return
	}
	type posView struct {
		Position int      `json:"position"`
		Hands    int      `json:"hands"`
		Chances  int      `json:"chances"`
		Opens    int      `json:"opens"`
		Open     *float64 `json:"open_pct"`
	}
	positions := []posView{}
	for _, p := range pos {
		positions = append(positions, posView{p.Position, p.Hands, p.Chances, p.Opens, ratio(p.OpenPct())})
	}
	series, err := projector.PlayerResults(r.Context(), s.db, name, SeriesHands)
	if err != nil {
		storeError(w, err)
		return
	}
	// The series starts where his earlier hands left him: his hands and net over every hand, less
	// the series' own (player_totals, one row).
	all, err := projector.PlayerStats(r.Context(), s.db, projector.Filter{Players: []string{name}})
	if err != nil {
		storeError(w, err)
		return
	}
	handsBefore, netBefore := 0, int64(0)
	if len(all) == 1 {
		handsBefore, netBefore = all[0].Hands-len(series), int64(all[0].Net)
		for _, p := range series {
			netBefore -= p.Net
		}
	}
	sessions, err := projector.PlayerSessions(r.Context(), s.db, name, SessionChanges)
	if err != nil {
		storeError(w, err)
		return
	}
	tournaments, err := projector.PlayerTournaments(r.Context(), s.db, name)
	if err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"stats": statsView(st[0]), "positions": positions, "hands": series,
		"hands_before": handsBefore, "net_before": netBefore, "sessions": sessions, "tournaments": tournaments})
}
