package web

import (
	"math"
	"net/http"
	"time"

	"github.com/fechado/fechado/projector"
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

// filterOf reads the statistics filter of a request: table, preset, from, to.
func filterOf(r *http.Request) (projector.Filter, *apiError) {
	q := r.URL.Query()
	var f projector.Filter
	if v := q.Get("table"); v != "" {
		f.Tables = []string{v}
	}
	if v := q.Get("preset"); v != "" {
		f.Presets = []string{v}
	}
	for _, b := range []struct {
		key string
		dst *time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := q.Get(b.key); v != "" {
			t, err := parseTime(v)
			if err != nil {
				return f, &apiError{Error: b.key + " must be an RFC 3339 time or a date YYYY-MM-DD", Field: b.key}
			}
			*b.dst = t
		}
	}
	return f, nil
}

// getPlayers is GET /api/players: every player's statistics (filters: table, preset, from, to).
func (s *Server) getPlayers(w http.ResponseWriter, r *http.Request) {
	f, bad := filterOf(r)
	if bad != nil {
		writeError(w, http.StatusBadRequest, bad.Error, bad)
		return
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
	writeJSON(w, http.StatusOK, map[string]any{"players": out})
}

// NetPoint is a player's result in one hand, for the chart of his running total.
type NetPoint = projector.NetPoint

// getPlayerStats is GET /api/players/{name}/stats: one player's statistics, his opens by
// position, his result hand by hand, his sessions (sat down, sat out, cashed out, rebought) and
// his tournaments with the place he finished in.
func (s *Server) getPlayerStats(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	f, bad := filterOf(r)
	if bad != nil {
		writeError(w, http.StatusBadRequest, bad.Error, bad)
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
	series, err := projector.PlayerResults(r.Context(), s.db, name)
	if err != nil {
		storeError(w, err)
		return
	}
	sessions, err := projector.PlayerSessions(r.Context(), s.db, name)
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
		"sessions": sessions, "tournaments": tournaments})
}
