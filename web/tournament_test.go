package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/sim"
	"github.com/fechado/fechado/sim/simtest"
	"github.com/fechado/fechado/tournament"
)

// tournamentAnswer is what GET /api/tournaments/{id} gives.
type tournamentAnswer struct {
	ID      string `json:"id"`
	Entries int    `json:"entries"`
	InPlay  int    `json:"in_play"`
	EndedAt string `json:"ended_at"`
	// Standings are read in their order.
	Standings []struct {
		Player string `json:"player"`
		Place  int    `json:"place"`
		Rank   int    `json:"rank"`
		Chips  int64  `json:"chips"`
		Hand   string `json:"hand"`
	} `json:"standings"`
	Tables []struct {
		Table string `json:"table"`
		Hands int    `json:"hands"`
		Chips []struct {
			Hand   string `json:"hand"`
			Player string `json:"player"`
			End    int64  `json:"end"`
		} `json:"chips"`
	} `json:"tables"`
	Levels []struct {
		Table string `json:"table"`
		Level int    `json:"level"`
		Ante  int64  `json:"ante"`
		Hand  string `json:"hand"`
	} `json:"levels"`
	Moves []struct {
		Hand   string `json:"hand"`
		Player string `json:"player"`
		From   string `json:"from"`
		To     string `json:"to"`
		Stack  int64  `json:"stack"`
	} `json:"moves"`
	Knockouts []struct {
		Hand   string `json:"hand"`
		Player string `json:"player"`
		Table  string `json:"table"`
		Place  int    `json:"place"`
	} `json:"knockouts"`
	Findings []struct {
		Hand     string `json:"hand"`
		Code     string `json:"code"`
		Severity string `json:"severity"`
	} `json:"findings"`
}

// entries is the number of entries of the tournaments of these tests.
const entries = 24

// simTournament plays a tournament of 24 entries on 4 tables to its end and returns its log, its
// hands, and the places an independent reading of the log gives.
func simTournament(t *testing.T) ([]byte, []*sim.Hand, map[string]int) {
	t.Helper()
	ts, err := sim.NewTournament(sim.TournamentConfig{Rules: "br-fechado", Entries: entries, Tables: 4, Seed: 3, ExposeRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	var hands []*sim.Hand
	if err := sim.WriteAll(&log, func() (*sim.Hand, error) {
		h, err := ts.Next()
		if h != nil {
			hands = append(hands, h)
		}
		return h, err
	}); err != nil {
		t.Fatal(err)
	}
	places, err := simtest.IndependentPlaces(log.Bytes(), entries)
	if err != nil {
		t.Fatal(err)
	}
	return log.Bytes(), hands, places
}

// sortedLines sorts and joins lines, to compare two sets.
func sortedLines(lines []string) string {
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// A simulated tournament posted to the server (the shared tournament day): GET
// /api/tournaments/{id} gives the places an independent reading of the JSON Lines gives
// (events-v1.md §7), each table's hands with every
// player's stack, the first hand of each level at each table, every move and knock-out with the
// hand that shows it (each hand answering GET /api/hands/{id}, the replayer's link), a
// tournament.place finding per knock-out and no error; a player's page lists the tournament with
// his place.
func TestTournamentAPI(t *testing.T) {
	t.Parallel()
	d := sharedTournamentDay(t)
	e, hands, places := d.e, d.hands, d.places
	// What the log says, hand by hand.
	var moves, levels, chips, outs []string
	seenLevel := map[string]bool{}
	tables := map[string]int{}
	for _, h := range hands {
		first, last := h.Events[0], h.Events[len(h.Events)-1]
		hs, end := first.Data.(*events.HandStarted), last.Data.(*events.HandEnded)
		tables[first.Table]++
		if k := fmt.Sprint(first.Table, hs.Tournament.Level); !seenLevel[k] {
			seenLevel[k] = true
			levels = append(levels, fmt.Sprintf("%s %d %d %s", first.Table, hs.Tournament.Level, hs.Stakes.Ante, first.Hand))
		}
		for _, s := range hs.Seats {
			if s.From != "" {
				moves = append(moves, fmt.Sprintf("%s %s %s %s %d", first.Hand, s.Player, s.From, first.Table, s.Stack))
			}
			for _, st := range end.Stacks {
				if st.Seat == s.Seat {
					chips = append(chips, fmt.Sprintf("%s %s %d", first.Hand, s.Player, st.Stack))
					if st.Stack == 0 && end.Carry == 0 { // with a carry his chips may be in it: still in (events-v1.md §7)
						outs = append(outs, fmt.Sprintf("%s %s %s %d", first.Hand, s.Player, first.Table, places[s.Player]))
					}
				}
			}
		}
	}
	if len(moves) == 0 || len(tables) < 2 {
		t.Fatalf("%d moves at %d tables: not a test of a tournament across tables", len(moves), len(tables))
	}

	var got tournamentAnswer
	e.get("/api/tournaments/"+sim.DefaultTournament, http.StatusOK, &got)
	if got.ID != sim.DefaultTournament || got.Entries != entries || got.InPlay != 1 || got.EndedAt == "" {
		t.Errorf("tournament %q: %d entries, %d in play, ended at %q; want %d entries, 1 in play, ended", got.ID, got.Entries, got.InPlay, got.EndedAt, entries)
	}
	if len(got.Standings) != entries {
		t.Fatalf("%d standings, want %d", len(got.Standings), entries)
	}
	for i, s := range got.Standings {
		if s.Place != places[s.Player] || s.Rank != i+1 || s.Place != s.Rank {
			t.Errorf("line %d: %s in place %d, rank %d; want place and rank %d", i+1, s.Player, s.Place, s.Rank, places[s.Player])
		}
		if (s.Place == 1) != (s.Hand == "") {
			t.Errorf("%s in place %d went out in hand %q", s.Player, s.Place, s.Hand)
		}
	}
	var gotMoves, gotLevels, gotChips, gotOuts []string
	for _, m := range got.Moves {
		gotMoves = append(gotMoves, fmt.Sprintf("%s %s %s %s %d", m.Hand, m.Player, m.From, m.To, m.Stack))
	}
	for _, l := range got.Levels {
		gotLevels = append(gotLevels, fmt.Sprintf("%s %d %d %s", l.Table, l.Level, l.Ante, l.Hand))
	}
	if len(got.Tables) != len(tables) {
		t.Errorf("%d tables, want %d", len(got.Tables), len(tables))
	}
	for _, tb := range got.Tables {
		if tb.Hands != tables[tb.Table] {
			t.Errorf("table %s: %d hands, want %d", tb.Table, tb.Hands, tables[tb.Table])
		}
		for _, c := range tb.Chips {
			gotChips = append(gotChips, fmt.Sprintf("%s %s %d", c.Hand, c.Player, c.End))
		}
	}
	for _, k := range got.Knockouts {
		gotOuts = append(gotOuts, fmt.Sprintf("%s %s %s %d", k.Hand, k.Player, k.Table, k.Place))
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{{"moves", gotMoves, moves}, {"levels", gotLevels, levels}, {"chip counts", gotChips, chips}, {"knock-outs", gotOuts, outs}} {
		if g, w := sortedLines(c.got), sortedLines(c.want); g != w {
			t.Errorf("%s:\n got %s\nwant %s", c.what, g, w)
		}
	}
	if len(outs) != entries-1 {
		t.Errorf("%d knock-outs in the log, want %d", len(outs), entries-1)
	}
	placeFindings := 0
	for _, f := range got.Findings {
		if f.Severity == "error" {
			t.Errorf("hand %s: %s", f.Hand, f.Code)
		}
		if f.Code == "tournament.place" {
			placeFindings++
		}
	}
	if placeFindings != entries-1 {
		t.Errorf("%d tournament.place findings, want %d", placeFindings, entries-1)
	}
	for _, k := range got.Knockouts[:3] {
		e.get("/api/hands/"+k.Hand, http.StatusOK, nil)
	}

	var list struct {
		Tournaments []struct {
			ID string `json:"id"`
		} `json:"tournaments"`
	}
	e.get("/api/tournaments", http.StatusOK, &list)
	if len(list.Tournaments) != 1 || list.Tournaments[0].ID != sim.DefaultTournament {
		t.Errorf("tournaments %+v, want only %s", list.Tournaments, sim.DefaultTournament)
	}
	e.get("/api/tournaments/no-such-tournament", http.StatusNotFound, nil)

	for _, s := range got.Standings[:2] {
		var page struct {
			Tournaments []struct {
				Tournament string `json:"tournament"`
				Place      int    `json:"place"`
				Ended      bool   `json:"ended"`
			} `json:"tournaments"`
		}
		e.get("/api/players/"+s.Player+"/stats", http.StatusOK, &page)
		if len(page.Tournaments) != 1 || page.Tournaments[0].Tournament != sim.DefaultTournament ||
			page.Tournaments[0].Place != places[s.Player] || !page.Tournaments[0].Ended {
			t.Errorf("%s's page lists tournaments %+v, want %s in place %d", s.Player, page.Tournaments, sim.DefaultTournament, places[s.Player])
		}
	}
}

// tournamentAtAnswer is what GET /api/tournaments/{id}?at=TIME gives.
type tournamentAtAnswer struct {
	tournament.Moment
	At     string   `json:"at"`
	PrevAt string   `json:"prev_at"`
	NextAt string   `json:"next_at"`
	Times  []string `json:"times"`
}

// A simulated 24-entry tournament projected: GET /api/tournaments/{id}?at=TIME in the middle of
// it gives the tables, stacks, hands in progress and standings a tournament.Follower gives on
// the JSON Lines up to that time (what replay --tournament --at shows); stepping with next_at
// from the first hand's start reaches the end, the finished tournament, through every boundary
// once; a time that is not RFC 3339 is a 400 and an unknown tournament a 404.
func TestTournamentAt(t *testing.T) {
	t.Parallel()
	d := sharedTournamentDay(t)
	e, log, hands, places := d.e, d.log, d.hands, d.places

	mid := hands[len(hands)/2].Events[2].At
	at, err := tournament.ParseTime(mid)
	if err != nil {
		t.Fatal(err)
	}
	f := tournament.NewFollower(sim.DefaultTournament, at)
	for _, ev := range eventfiles.Parse(t, log, "log") {
		f.Add(ev)
	}
	want := f.Moment()
	if want == nil || want.Finished || want.InPlay < 2 {
		t.Fatalf("the middle of the tournament is not in the middle: %+v", want)
	}
	var got tournamentAtAnswer
	e.get("/api/tournaments/"+sim.DefaultTournament+"?at="+url.QueryEscape(mid), http.StatusOK, &got)
	gj, _ := json.Marshal(got.Moment)
	wj, _ := json.Marshal(want)
	if string(gj) != string(wj) {
		t.Errorf("at %s the API gives\n%s\nthe log gives\n%s", mid, gj, wj)
	}
	inProgress := 0
	for _, tb := range got.Tables {
		if tb.InProgress != "" {
			inProgress++
		}
	}
	if inProgress == 0 {
		t.Errorf("at %s, an event in the middle of a hand, no hand is in progress", mid)
	}
	if got.PrevAt == "" || got.NextAt == "" || !(got.PrevAt < got.NextAt) {
		t.Errorf("at %s: previous %q, next %q", mid, got.PrevAt, got.NextAt)
	}

	// Step from the first boundary to the last.
	if len(got.Times) < 2*len(hands)/2 {
		t.Fatalf("%d boundaries for %d hands", len(got.Times), len(hands))
	}
	// Each step replays the tournament up to its time: under -short, walk the first and the last
	// stretch of boundaries (the end is where the standings are checked), else every one.
	stretch := len(got.Times)
	if testing.Short() {
		stretch = min(stretch, 15)
	}
	walk := func(from int) {
		step := got.Times[from]
		for i := from; ; i++ {
			if i >= len(got.Times) || got.Times[i] != step {
				t.Fatalf("step %d is at %s, not at boundary %d of %d", i-from, step, i, len(got.Times))
			}
			var s tournamentAtAnswer
			e.get("/api/tournaments/"+sim.DefaultTournament+"?at="+url.QueryEscape(step), http.StatusOK, &s)
			if s.NextAt == "" {
				if i != len(got.Times)-1 {
					t.Errorf("stepping ends at boundary %d of %d", i, len(got.Times))
				}
				if !s.Finished || s.InPlay != 1 {
					t.Errorf("at the last boundary %s: finished %v, %d in play", step, s.Finished, s.InPlay)
				}
				for _, st := range s.Standings {
					if st.Place != places[st.Player] {
						t.Errorf("at the end %s is in place %d, want %d", st.Player, st.Place, places[st.Player])
					}
				}
				return
			}
			if i-from+1 == stretch {
				return
			}
			step = s.NextAt
		}
	}
	walk(0)
	if stretch < len(got.Times) {
		walk(len(got.Times) - stretch)
	}

	e.get("/api/tournaments/"+sim.DefaultTournament+"?at=yesterday", http.StatusBadRequest, nil)
	e.get("/api/tournaments/no-such-tournament?at="+url.QueryEscape(mid), http.StatusNotFound, nil)
}
