package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/sim"
)

// getRaw GETs path with an optional If-None-Match and returns the status, the ETag and the body.
func (e *env) getRaw(path, ifNoneMatch string) (int, string, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.ts.URL+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if ifNoneMatch != "" {
		req.Header.Set("If-None-Match", ifNoneMatch)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("ETag"), b
}

// waitTables reads GET /api/tables until ok accepts its answer, for at most 10 s.
func (e *env) waitTables(ok func(tablesAnswer) bool) {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, _, body := e.getRaw("/api/tables", "")
		var ts tablesAnswer
		if err := json.Unmarshal(body, &ts); err != nil {
			e.t.Fatal(err)
		}
		if ok(ts) {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("GET /api/tables after 10 s: %s", body)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type tablesAnswer struct {
	Tables []struct {
		Table      string `json:"table"`
		Hand       string `json:"hand"`
		Seq        int    `json:"seq"`
		Live       bool   `json:"live"`
		Hands      int    `json:"hands"`
		HandsEnded int    `json:"hands_ended"`
	} `json:"tables"`
}

// TestTablesKeptAnswerFollowsEveryChange: GET /api/tables is kept between changes (the same
// body and ETag, and 304 to a client that sends the ETag back), and any event projected since
// gives a new answer that shows it: a new ETag, the table's new seq and hand counts, the
// unchanged table's part as it was.
func TestTablesKeptAnswerFollowsEveryChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	a := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 2, Seed: 71, Table: "t-a", ExposeRate: -1})
	b := simulated(t, sim.Config{Rules: "std-draw", Players: 4, Hands: 1, Seed: 72, Table: "t-b", ExposeRate: -1})
	e.post(append(handsBody(a[:1]), handsBody(b)...), http.StatusOK, nil)
	e.waitProjected()
	// The live tables take a commit's events just after it: wait until they show both hands'
	// last events, so that nothing changes between the two reads below.
	e.waitTables(func(ts tablesAnswer) bool {
		return len(ts.Tables) == 2 && ts.Tables[0].Seq == int(a[0].Events[len(a[0].Events)-1].Seq) &&
			ts.Tables[1].Seq == int(b[0].Events[len(b[0].Events)-1].Seq)
	})

	code, etag, body := e.getRaw("/api/tables", "")
	if code != http.StatusOK || etag == "" {
		t.Fatalf("GET /api/tables: %d, ETag %q", code, etag)
	}
	checkAPI(t, http.MethodGet, "/api/tables", code, "application/json; charset=utf-8", body)
	code2, etag2, body2 := e.getRaw("/api/tables", "")
	if code2 != http.StatusOK || etag2 != etag || !bytes.Equal(body2, body) {
		t.Fatalf("nothing changed, yet the answer did: %d %q→%q\n%s\n%s", code2, etag, etag2, body, body2)
	}
	if code, _, nb := e.getRaw("/api/tables", etag); code != http.StatusNotModified || len(nb) != 0 {
		t.Fatalf("If-None-Match of the current ETag: %d with %d bytes, want 304 and none", code, len(nb))
	}
	if code, _, _ := e.getRaw("/api/tables", `"other"`); code != http.StatusOK {
		t.Fatalf("If-None-Match of another ETag: %d, want 200", code)
	}
	var before tablesAnswer
	if err := json.Unmarshal(body, &before); err != nil {
		t.Fatal(err)
	}

	// One event more of t-a: its second hand starts.
	e.post(jsonl(a[1].Events[:1]), http.StatusOK, nil)
	e.waitProjected()
	e.waitTables(func(ts tablesAnswer) bool {
		return len(ts.Tables) == 2 && ts.Tables[0].Hand == a[1].Events[0].Hand
	})
	code, etag3, body3 := e.getRaw("/api/tables", etag)
	if code != http.StatusOK || etag3 == etag {
		t.Fatalf("after an event: %d, ETag %q (was %q): the kept answer was served", code, etag3, etag)
	}
	var after tablesAnswer
	if err := json.Unmarshal(body3, &after); err != nil {
		t.Fatal(err)
	}
	if len(after.Tables) != 2 || after.Tables[0].Table != "t-a" || after.Tables[1].Table != "t-b" {
		t.Fatalf("tables %+v", after.Tables)
	}
	if got := after.Tables[0]; got.Hand != a[1].Events[0].Hand || got.Hands != 2 || got.HandsEnded != 1 || !got.Live {
		t.Errorf("t-a after its second hand started: %+v", got)
	}
	if after.Tables[1] != before.Tables[1] {
		t.Errorf("t-b changed without an event: %+v, was %+v", after.Tables[1], before.Tables[1])
	}
	// The answer is the JSON writeJSON gives: t-b's kept part joined to t-a's new one.
	if !json.Valid(body3) || !bytes.HasSuffix(body3, []byte("]}\n")) {
		t.Errorf("answer %s", body3)
	}
}

// TestSSEIdleFeedAnnouncesOnlyLaterHands: while nobody listens to GET /api/events the feed does
// no work; a client that connects afterwards gets the "hand" event of a hand that ends after it
// connected, and none of the hands that ended before.
func TestSSEIdleFeedAnnouncesOnlyLaterHands(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 3, Seed: 73, Table: "t-idle", ExposeRate: -1})
	e.post(handsBody(hs[:2]), http.StatusOK, nil) // ended while nobody listens
	e.waitProjected()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() && sc.Text() != ": connected" {
	}
	e.post(handsBody(hs[2:]), http.StatusOK, nil)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			event = v
			continue
		}
		if v, ok := strings.CutPrefix(line, "data: "); ok && event == "hand" {
			var hv struct {
				Hand struct {
					Hand string `json:"hand"`
				} `json:"hand"`
			}
			if err := json.Unmarshal([]byte(v), &hv); err != nil {
				t.Fatal(err)
			}
			if hv.Hand.Hand != hs[2].Events[0].Hand {
				t.Fatalf("announced %s, which ended before the client connected; want only %s", hv.Hand.Hand, hs[2].Events[0].Hand)
			}
			return
		}
	}
	t.Fatalf("stream ended (%v) before the hand that ended after the client connected", sc.Err())
}
