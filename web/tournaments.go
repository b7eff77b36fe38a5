package web

// The tournaments page: the tournaments of the read models, one tournament's standings, tables
// with their chip counts, levels, moves, knock-outs and findings; and a table's chip counts hand
// by hand with the players knocked out there.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"sort"

	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/tournament"
)

// ChipPoint is a player's stack after one hand of a table.
type ChipPoint = projector.ChipPoint

// Elimination is a player who lost his last chip at a table.
type Elimination struct {
	Player string `json:"player"`
	Hand   string `json:"hand"`
	Number int    `json:"number"`
	// Place is his finishing place: players still with chips, plus one, when he went out.
	Place int `json:"place"`
}

// ChipHands is how many of a table's last ended hands GET /api/tables/{id}/chips gives: a
// tournament's table plays fewer, a cash table's history grows without end (issue 43: an answer
// costs what it shows, not the log's size).
const ChipHands = 500

// getChips is GET /api/tables/{id}/chips: every player's stack after each of the table's last
// ChipHands ended hands, and the players eliminated in them (stack 0 after a hand and no chips
// again later). The answer is kept until the table's next hand ends (chipsCache).
func (s *Server) getChips(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	body, found, err := s.chips.answer(r.Context(), s.db, id)
	if err != nil {
		storeError(w, err)
		return
	}
	if !found {
		writeError(w, http.StatusNotFound, "no table "+id, nil)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// chipsAnswer builds the body of GET /api/tables/{id}/chips as writeJSON writes it; found is
// false when the read models hold no table id.
func chipsAnswer(ctx context.Context, db *sql.DB, id string) (body []byte, found bool, err error) {
	points, err := projector.ChipCounts(ctx, db, id, ChipHands)
	if err != nil {
		return nil, false, err
	}
	var players []string
	seen := map[string]bool{}
	for _, p := range points {
		if !seen[p.Player] {
			seen[p.Player] = true
			players = append(players, p.Player)
		}
	}
	if len(points) == 0 {
		known, err := projector.TableKnown(ctx, db, id)
		if err != nil || !known {
			return nil, false, err
		}
	}
	// A player is out when his last row at the table ends with no chips.
	last := map[string]ChipPoint{}
	for _, p := range points {
		last[p.Player] = p
	}
	outs := []Elimination{}
	for _, p := range players {
		if lp := last[p]; lp.End == 0 {
			outs = append(outs, Elimination{Player: p, Hand: lp.Hand, Number: lp.Number})
		}
	}
	order := map[string]int{}
	for i, p := range points {
		if _, ok := order[p.Hand]; !ok {
			order[p.Hand] = i
		}
	}
	sort.SliceStable(outs, func(i, j int) bool { return order[outs[i].Hand] < order[outs[j].Hand] })
	remaining := len(players)
	for i := range outs {
		// Players out in the same hand share the place.
		if i > 0 && outs[i].Hand == outs[i-1].Hand {
			outs[i].Place = outs[i-1].Place
		} else {
			same := 0
			for _, o := range outs[i:] {
				if o.Hand == outs[i].Hand {
					same++
				}
			}
			outs[i].Place = remaining - same + 1
			remaining -= same
		}
	}
	if players == nil {
		players = []string{}
	}
	b, err := marshalJSON(map[string]any{"table": id, "players": players, "points": points, "eliminations": outs})
	if err != nil {
		return nil, false, err
	}
	return append(b, '\n'), true, nil
}

// getTournaments is GET /api/tournaments: every tournament, the latest started first.
func (s *Server) getTournaments(w http.ResponseWriter, r *http.Request) {
	ts, err := projector.Tournaments(r.Context(), s.db)
	if err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tournaments": ts})
}

// getTournament is GET /api/tournaments/{id}: the tournament's standings, its tables with every
// player's stack hand by hand, its level timeline, moves and knock-outs each with the hand that
// shows it, and its tournament.* findings. With ?at=TIME (RFC 3339) it gives instead the
// tournament as it stood at that moment (see getTournamentAt).
func (s *Server) getTournament(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if r.URL.Query().Has("at") {
		s.getTournamentAt(w, r, id, r.URL.Query().Get("at"))
		return
	}
	v, err := projector.Tournament(r.Context(), s.db, id)
	answerTournament(w, id, v, err)
}

// getTournamentAt is GET /api/tournaments/{id}?at=TIME: every table with its players and
// stacks, its level and the hand in progress, and the standings, as the hands of the tournament
// leave them at TIME (the same tournament code as replay --tournament --at), with the times of
// the hand boundaries before and after it to step through the tournament.
func (s *Server) getTournamentAt(w http.ResponseWriter, r *http.Request, id, at string) {
	t, err := tournament.ParseTime(at)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("The time %q is not an RFC 3339 time such as 2026-11-29T13:05:00Z.", at), nil)
		return
	}
	v, err := projector.TournamentMoment(r.Context(), s.db, id, t)
	answerTournament(w, id, v, err)
}

// answerTournament writes v, or a 404 when tournament id has no row, or the store's error.
func answerTournament(w http.ResponseWriter, id string, v any, err error) {
	if errors.Is(err, sql.ErrNoRows) {
		writeError(w, http.StatusNotFound, "no tournament "+id, nil)
		return
	}
	if err != nil {
		storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
