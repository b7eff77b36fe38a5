package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/sim"
)

// GET /api/hands/{id} of a finished hand reads its copy in the read models (stream.md §5): made
// to hold another hand's lines, the copy is what the API gives; voided, the log answers again with
// the hand's stored lines.
func TestHandReadFromItsCopy(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 2, Seed: 5, Table: "t-copy", ExposeRate: -1})
	e.post(handsBody(hs), http.StatusOK, nil)
	e.waitProjected()
	first, second := hs[0].Events[0].Hand, hs[1].Events[0].Hand
	if _, _, ok, err := projector.HandCopy(context.Background(), e.db, projector.LogID(e.log), first); !ok || err != nil {
		t.Fatalf("no copy of a finished hand (%v)", err)
	}
	check := func(what string, want *sim.Hand) {
		t.Helper()
		var hand struct {
			Events []json.RawMessage `json:"events"`
		}
		e.get("/api/hands/"+first, http.StatusOK, &hand)
		if len(hand.Events) != len(want.Events) {
			t.Fatalf("%s: %d events, want %d", what, len(hand.Events), len(want.Events))
		}
		for i, raw := range hand.Events {
			if !bytes.Equal(raw, want.Events[i].Raw) {
				t.Fatalf("%s: event %d is not the line:\n got %s\nwant %s", what, i+1, raw, want.Events[i].Raw)
			}
		}
	}
	check("from the copy", hs[0])
	if _, err := e.db.Exec(`UPDATE hand_events SET (events, lines) = (SELECT events, lines FROM hand_events WHERE hand_id = ?)
		WHERE hand_id = ?`, second, first); err != nil {
		t.Fatal(err)
	}
	check("the copy changed", hs[1])
	if _, err := e.db.Exec(`INSERT INTO void_copies (hand_id) VALUES (?)`, first); err != nil {
		t.Fatal(err)
	}
	check("the copy void", hs[0])
}
