package tournament_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/sim"
	"github.com/fechado/fechado/tournament"
)

// endedHands plays a simulated tournament and returns its hands in the order they end in the log,
// as a projector follows them.
func endedHands(t *testing.T, cfg sim.TournamentConfig) []tournament.Hand {
	t.Helper()
	var log bytes.Buffer
	if err := sim.RunTournament(cfg, &log); err != nil {
		t.Fatal(err)
	}
	open := map[string][]*events.Event{}
	var out []tournament.Hand
	for _, e := range eventfiles.Parse(t, log.Bytes(), "tournament") {
		open[e.Hand] = append(open[e.Hand], e)
		if e.Type == events.HandEndedType {
			if h, ok := tournament.HandOf(open[e.Hand]); ok {
				out = append(out, h)
			}
			delete(open, e.Hand)
		}
	}
	return out
}

// memoryJSON returns the Memory of every tournament of b, as JSON.
func memoryJSON(t *testing.T, b *tournament.Book) []string {
	t.Helper()
	var out []string
	for _, tr := range b.Tournaments() {
		j, err := json.Marshal(tr.Memory())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(j))
	}
	return out
}

// A book cut at any point, stored as the JSON of each tournament's Memory and restored into a new
// book, follows the rest of the hands to the findings, standings and memory of a book that
// followed them all without a break (events-v1.md §7: the tournament.* checks span every hand).
func TestRestoredBookFollowsOnAlike(t *testing.T) {
	for _, cfg := range []sim.TournamentConfig{
		{Rules: "br-fechado", Entries: 30, Tables: 4, Seed: 5},
		{Rules: "std-draw", Entries: 24, Tables: 3, Seed: 8},
	} {
		hands := endedHands(t, cfg)
		if len(hands) < 20 {
			t.Fatalf("%s: only %d hands", cfg.Rules, len(hands))
		}
		whole := tournament.NewBook()
		var want []finding.Finding
		for i := range hands {
			want = whole.Add(want, &hands[i])
		}
		if tr := whole.Get(sim.DefaultTournament); tr == nil || !tr.Finished() {
			t.Fatalf("%s: the tournament did not finish", cfg.Rules)
		}
		for _, cut := range []int{1, len(hands) / 5, len(hands) / 2, len(hands) - 1, len(hands)} {
			before := tournament.NewBook()
			var got []finding.Finding
			for i := range hands[:cut] {
				got = before.Add(got, &hands[i])
			}
			stored := memoryJSON(t, before)
			restored := tournament.NewBook()
			for _, s := range stored {
				var m tournament.Memory
				if err := json.Unmarshal([]byte(s), &m); err != nil {
					t.Fatal(err)
				}
				if _, err := restored.Restore(m); err != nil {
					t.Fatal(err)
				}
			}
			if again := memoryJSON(t, restored); !reflect.DeepEqual(again, stored) {
				t.Fatalf("%s cut %d: the restored book's memory differs from the one stored", cfg.Rules, cut)
			}
			for i := range hands[cut:] {
				got = restored.Add(got, &hands[cut+i])
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s cut %d: %d findings, want %d as without a break", cfg.Rules, cut, len(got), len(want))
			}
			if g, w := memoryJSON(t, restored), memoryJSON(t, whole); !reflect.DeepEqual(g, w) {
				t.Errorf("%s cut %d: the book ends otherwise than without a break", cfg.Rules, cut)
			}
			g, w := restored.Get(sim.DefaultTournament).Standings(), whole.Get(sim.DefaultTournament).Standings()
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s cut %d: standings %v, want %v", cfg.Rules, cut, g, w)
			}
		}
	}
}

// Restore refuses a memory whose table names a player the tournament does not list.
func TestRestoreRefusesUnknownPlayer(t *testing.T) {
	m := tournament.Memory{Tournament: tournament.Tournament{ID: "t"}, Tables: []tournament.TableMemory{{Table: tournament.Table{ID: "a"}, Players: []string{"nobody"}}}}
	if _, err := tournament.NewBook().Restore(m); err == nil {
		t.Fatal("a table naming an unknown player was restored")
	}
}
