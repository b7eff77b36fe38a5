package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/fechado/fechado/sim"
)

type chipsAnswer struct {
	Table  string `json:"table"`
	Points []struct {
		Hand string `json:"hand"`
	} `json:"points"`
}

// chipsOf GETs table's chips, insists on 200 and returns the body and the hands it shows, each
// once, in order.
func (e *env) chipsOf(table string) ([]byte, []string) {
	e.t.Helper()
	code, body := e.do(http.MethodGet, "/api/tables/"+table+"/chips", nil)
	if code != http.StatusOK {
		e.t.Fatalf("GET chips of %s: %d %s", table, code, body)
	}
	var a chipsAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		e.t.Fatal(err)
	}
	if a.Table != table {
		e.t.Fatalf("GET chips of %s answered table %q", table, a.Table)
	}
	var hands []string
	for _, p := range a.Points {
		if len(hands) == 0 || hands[len(hands)-1] != p.Hand {
			hands = append(hands, p.Hand)
		}
	}
	return body, hands
}

// TestChipsKeptAnswerShowsEachHandOnceEnded: the kept answer of GET /api/tables/{id}/chips is
// given again while none of the table's hands ends (a hand that starts changes nothing), and the
// first request after a hand's end is projected shows it, at each table apart.
func TestChipsKeptAnswerShowsEachHandOnceEnded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	a := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 3, Seed: 81, Table: "t-ca", ExposeRate: -1})
	b := simulated(t, sim.Config{Rules: "std-draw", Players: 4, Hands: 1, Seed: 82, Table: "t-cb", ExposeRate: -1})
	id := func(i int) string { return a[i].Events[0].Hand }
	want := func(got []string, ids ...string) {
		t.Helper()
		if len(got) != len(ids) {
			t.Fatalf("hands shown %v, want %v", got, ids)
		}
		for i := range ids {
			if got[i] != ids[i] {
				t.Fatalf("hands shown %v, want %v", got, ids)
			}
		}
	}

	// The first hand started, not ended: the table is known and shows no hand.
	first := a[0].Events
	e.post(append(jsonl(first[:len(first)-1]), handsBody(b)...), http.StatusOK, nil)
	e.waitProjected()
	_, hands := e.chipsOf("t-ca")
	want(hands)
	bBody, hands := e.chipsOf("t-cb")
	want(hands, b[0].Events[0].Hand)

	e.post(jsonl(first[len(first)-1:]), http.StatusOK, nil)
	e.waitProjected()
	body1, hands := e.chipsOf("t-ca")
	want(hands, id(0))
	if again, _ := e.chipsOf("t-ca"); !bytes.Equal(again, body1) {
		t.Fatalf("nothing ended, yet the answer changed:\n%s\n%s", body1, again)
	}

	// The second hand starts: still the first hand only, the same bytes.
	second := a[1].Events
	e.post(jsonl(second[:len(second)-1]), http.StatusOK, nil)
	e.waitProjected()
	if body, _ := e.chipsOf("t-ca"); !bytes.Equal(body, body1) {
		t.Fatalf("a hand started, and the answer changed:\n%s\n%s", body1, body)
	}
	e.post(jsonl(second[len(second)-1:]), http.StatusOK, nil)
	e.waitProjected()
	_, hands = e.chipsOf("t-ca")
	want(hands, id(0), id(1))

	e.post(handsBody(a[2:]), http.StatusOK, nil)
	e.waitProjected()
	_, hands = e.chipsOf("t-ca")
	want(hands, id(0), id(1), id(2))
	if body, _ := e.chipsOf("t-cb"); !bytes.Equal(body, bBody) {
		t.Fatalf("t-cb changed with t-ca's hands:\n%s\n%s", bBody, body)
	}
	e.get("/api/tables/t-none/chips", http.StatusNotFound, nil)
}
