package web

import (
	"net/http"
	"sort"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/replay"
)

// TableView is a table's public live state in the API.
type TableView struct {
	Table      string      `json:"table"`
	Hand       string      `json:"hand"`
	Number     int         `json:"number"`
	Preset     string      `json:"preset"`
	Dealer     events.Seat `json:"dealer"`
	Stage      string      `json:"stage"`
	Round      string      `json:"round"`
	ToAct      events.Seat `json:"to_act"`
	Pot        int64       `json:"pot"`
	Carry      int64       `json:"carry"`
	Commitment string      `json:"commitment,omitempty"`
	Seq        int         `json:"seq"`
	At         string      `json:"at"`
	Seats      []SeatView  `json:"seats"`
	// Away lists the players seated with chips who are not dealt in (events-v1.md §7).
	Away []replay.Away `json:"away"`
	// Live is false for a table known from the read models only (no hand seen since start).
	Live bool `json:"live"`
	// Hands and HandsEnded count the table's hands in the read models.
	Hands      int `json:"hands"`
	HandsEnded int `json:"hands_ended"`
}

// SeatView is a seat of TableView: public information only.
type SeatView struct {
	Seat    events.Seat `json:"seat"`
	Player  string      `json:"player"`
	Stack   int64       `json:"stack"`
	InFront int64       `json:"in_front"`
	InPot   int64       `json:"in_pot"`
	Cards   int         `json:"cards"`
	Folded  bool        `json:"folded"`
	AllIn   bool        `json:"all_in"`
	Drawn   int         `json:"drawn"`
	Exposed []string    `json:"exposed"`
	Openers []string    `json:"openers"`
	Shown   []string    `json:"shown"`
	Won     int64       `json:"won"`
}

func cardStrings[T interface{ String() string }](cs []T) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

func tableView(t projector.TableState) TableView {
	v := TableView{Table: t.Table, Hand: t.Hand, Number: t.Number, Preset: t.Preset, Dealer: t.Dealer,
		Stage: t.Stage.String(), Round: string(t.Round), ToAct: t.ToAct, Pot: int64(t.Pot), Carry: int64(t.Carry),
		Commitment: t.Commitment, Seq: int(t.Seq), At: t.At, Seats: []SeatView{}, Away: replay.AwayOf(t.Away), Live: true}
	for _, s := range t.Seats {
		v.Seats = append(v.Seats, SeatView{Seat: s.Seat, Player: s.Player, Stack: int64(s.Stack),
			InFront: int64(s.InFront), InPot: int64(s.InPot), Cards: s.Cards, Folded: s.Folded, AllIn: s.AllIn,
			Drawn: s.Drawn, Exposed: cardStrings(s.Exposed), Openers: cardStrings(s.Openers),
			Shown: cardStrings(s.Shown), Won: int64(s.Won)})
	}
	return v
}

// getTables is GET /api/tables: every table, live state where the server has seen its hand.
func (s *Server) getTables(w http.ResponseWriter, r *http.Request) {
	byID := map[string]*TableView{}
	var out []*TableView
	for _, t := range s.live.Tables() {
		v := tableView(t)
		byID[t.Table] = &v
		out = append(out, &v)
	}
	rows, err := projector.Tables(r.Context(), s.db)
	if err != nil {
		storeError(w, err)
		return
	}
	for _, row := range rows {
		v := byID[row.Table]
		if v == nil {
			v = &TableView{Table: row.Table, Preset: row.Preset, Hand: row.LastHand, Seats: []SeatView{}}
			out = append(out, v)
		}
		v.Hands, v.HandsEnded = row.Hands, row.HandsEnded
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Table < out[j].Table })
	if out == nil {
		out = []*TableView{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"tables": out})
}
