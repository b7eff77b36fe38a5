package web_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/sim"
	"github.com/fechado/fechado/web"
)

// env is a server wired to a disposable embedded log and a SQLite file, behind httptest.
type env struct {
	t   testing.TB
	db  *sql.DB
	log *recorder.Log
	srv *web.Server
	ts  *httptest.Server
	// stop stops the server (and is called at the end of the test if not before).
	stop func()
}

func newEnv(t testing.TB, maxBody int64) *env {
	t.Helper()
	l := recordertest.Open(t)
	db, err := projector.Open(context.Background(), filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return startEnv(t, l, db, maxBody)
}

// startEnv runs a server over l and db.
func startEnv(t testing.TB, l *recorder.Log, db *sql.DB, maxBody int64) *env {
	t.Helper()
	return startEnvOptions(t, web.Options{Log: l, DB: db, MaxBody: maxBody})
}

// startEnvOptions runs a server with options o.
func startEnvOptions(t testing.TB, o web.Options) *env {
	t.Helper()
	l, db := o.Log, o.DB
	srv, err := web.New(o)
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(rctx) }()
	ts := httptest.NewServer(srv.Handler())
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
			ts.Close()
		})
	}
	t.Cleanup(stop)
	return &env{t: t, db: db, log: l, srv: srv, ts: ts, stop: stop}
}

// metric returns the value of an unlabelled series of /metrics.
func (e *env) metric(name string) float64 {
	e.t.Helper()
	v, ok := e.metricIn(name)
	if !ok {
		e.t.Fatalf("/metrics has no %s", name)
	}
	return v
}

// metricOr is metric, or def when /metrics has no such series (yet).
func (e *env) metricOr(name string, def float64) float64 {
	e.t.Helper()
	if v, ok := e.metricIn(name); ok {
		return v
	}
	return def
}

// metricIn reads the series name of /metrics.
func (e *env) metricIn(name string) (float64, bool) {
	e.t.Helper()
	code, b := e.do(http.MethodGet, "/metrics", nil)
	if code != http.StatusOK {
		e.t.Fatalf("GET /metrics: %d", code)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			var f float64
			if _, err := fmt.Sscan(v, &f); err != nil {
				e.t.Fatal(err)
			}
			return f, true
		}
	}
	return 0, false
}

// waitMetric polls until the series name of /metrics (labels and all, as /metrics writes them;
// a series not there yet reads 0) is want: the auditor's counters move once the projector's
// commit is done, just after the checkpoint waitProjected waits for.
func (e *env) waitMetric(name string, want float64) {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for e.metricOr(name, 0) != want {
		if time.Now().After(deadline) {
			e.t.Fatalf("%s is %v after 5 s, want %v", name, e.metricOr(name, 0), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// simulated plays hands with the simulator and returns them.
func simulated(t *testing.T, cfg sim.Config) []*sim.Hand {
	t.Helper()
	hs, err := sim.All(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return hs
}

func jsonl(evs []*events.Event) []byte {
	var b bytes.Buffer
	for _, e := range evs {
		b.Write(e.Raw)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func handsBody(hs []*sim.Hand) []byte {
	var b []byte
	for _, h := range hs {
		b = append(b, jsonl(h.Events)...)
	}
	return b
}

func (e *env) do(method, path string, body []byte) (int, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.ts.URL+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if method == http.MethodPost {
		// What a table system sends (a write needs a type no form can send: docs/security.md).
		req.Header.Set("Content-Type", "application/x-ndjson")
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
	checkAPI(e.t, method, path, resp.StatusCode, resp.Header.Get("Content-Type"), b) // openapi_test.go
	return resp.StatusCode, b
}

// get fetches path, insists on want and decodes the JSON answer into v.
func (e *env) get(path string, want int, v any) {
	e.t.Helper()
	code, b := e.do(http.MethodGet, path, nil)
	if code != want {
		e.t.Fatalf("GET %s: %d %s, want %d", path, code, b, want)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			e.t.Fatalf("GET %s: %v in %s", path, err, b)
		}
	}
}

func (e *env) post(body []byte, want int, v any) {
	e.t.Helper()
	code, b := e.do(http.MethodPost, "/api/events", body)
	if code != want {
		e.t.Fatalf("POST /api/events: %d %s, want %d", code, b, want)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			e.t.Fatalf("POST: %v in %s", err, b)
		}
	}
}

// streamLast is the stream's last sequence.
func (e *env) streamLast() uint64 {
	e.t.Helper()
	info, err := e.log.Stream().Info(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return info.State.LastSeq
}

// waitProjected polls until the read models reach the end of the stream.
func (e *env) waitProjected() {
	e.t.Helper()
	want := e.streamLast()
	deadline := time.Now().Add(20 * time.Second)
	for {
		cp, err := e.srv.Checkpoint(context.Background())
		if err != nil {
			e.t.Fatal(err)
		}
		if cp >= want {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("projector at %d, stream at %d after 20 s", cp, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type handsAnswer struct {
	Hands []struct {
		Hand     string   `json:"hand"`
		Table    string   `json:"table"`
		Number   int      `json:"number"`
		Preset   string   `json:"preset"`
		Ended    bool     `json:"ended"`
		Audit    string   `json:"audit"`
		Findings int      `json:"findings"`
		Codes    []string `json:"codes"`
	} `json:"hands"`
}

type finding1 struct {
	Seq      int    `json:"seq"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Expected any    `json:"expected"`
}

// fixture loads a clean br-fechado table and a std-draw table whose hands carry injected
// irregularities, and returns them.
func fixture(t *testing.T, e *env) (clean, bad []*sim.Hand) {
	t.Helper()
	clean = simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 6, Seed: 11, Table: "t-clean", ExposeRate: -1})
	bad = simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 3, Seed: 12, Table: "t-bad", ExposeRate: -1,
		Inject: []finding.Code{finding.OpenWithoutOpeners, finding.BetAmount}})
	var res struct {
		Appended int `json:"appended"`
		Hands    int `json:"hands"`
	}
	e.post(append(handsBody(clean), handsBody(bad)...), http.StatusOK, &res)
	n := 0
	for _, h := range append(append([]*sim.Hand{}, clean...), bad...) {
		n += len(h.Events)
	}
	if res.Appended != n || res.Hands != len(clean)+len(bad) {
		t.Fatalf("appended %d events of %d hands, want %d of %d", res.Appended, res.Hands, n, len(clean)+len(bad))
	}
	e.waitProjected()
	return clean, bad
}

// injectedCount counts the hands of hs with an irregularity injected.
func injectedCount(hs []*sim.Hand) int {
	n := 0
	for _, h := range hs {
		if h.Injected != "" {
			n++
		}
	}
	return n
}

func injected(t *testing.T, hs []*sim.Hand) *sim.Hand {
	t.Helper()
	for _, h := range hs {
		if h.Injected != "" {
			return h
		}
	}
	t.Fatal("the simulator injected nothing")
	return nil
}

func TestHandsAndFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	clean, bad := fixture(t, e)
	var all handsAnswer
	e.get("/api/hands", http.StatusOK, &all)
	if len(all.Hands) != len(clean)+len(bad) {
		t.Fatalf("%d hands listed, want %d", len(all.Hands), len(clean)+len(bad))
	}
	var flagged handsAnswer
	e.get("/api/hands?findings=1", http.StatusOK, &flagged)
	inj := injectedCount(bad)
	if len(flagged.Hands) != inj {
		t.Fatalf("findings=1 lists %d hands, want the %d injected ones: %+v", len(flagged.Hands), inj, flagged.Hands)
	}
	for _, h := range flagged.Hands {
		if h.Table != "t-bad" || h.Audit != "error" || len(h.Codes) == 0 {
			t.Errorf("flagged hand %+v: want table t-bad, audit error and codes", h)
		}
	}
	want := map[string]int{
		"table=t-clean": len(clean), "table=t-bad": len(bad), "preset=std-draw": len(bad), "preset=br-fechado": len(clean),
		"player=ana": len(clean) + len(bad), "table=nope": 0, "limit=2": 2,
		"from=2000-01-01": len(clean) + len(bad), "to=2000-01-01": 0, "from=2999-01-01T00:00:00Z": 0,
	}
	for q, n := range want {
		var a handsAnswer
		e.get("/api/hands?"+q, http.StatusOK, &a)
		if len(a.Hands) != n {
			t.Errorf("/api/hands?%s: %d hands, want %d", q, len(a.Hands), n)
		}
	}
	for _, q := range []string{"findings=2", "from=yesterday", "to=2026-13-45", "limit=0", "limit=x", "limit=100000"} {
		var a struct {
			Error string `json:"error"`
			Field string `json:"field"`
		}
		e.get("/api/hands?"+q, http.StatusBadRequest, &a)
		if a.Error == "" || !strings.HasPrefix(q, a.Field) {
			t.Errorf("/api/hands?%s: error %q field %q", q, a.Error, a.Field)
		}
	}
}

func TestHandAndReplay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	_, bad := fixture(t, e)
	h := injected(t, bad)
	id := h.Events[0].Hand
	var hand struct {
		Hand     string            `json:"hand"`
		Ended    bool              `json:"ended"`
		Events   []json.RawMessage `json:"events"`
		Findings []finding1        `json:"findings"`
	}
	e.get("/api/hands/"+id, http.StatusOK, &hand)
	if hand.Hand != id || !hand.Ended || len(hand.Events) != len(h.Events) {
		t.Fatalf("hand %s ended %v with %d events, want %s ended with %d", hand.Hand, hand.Ended, len(hand.Events), id, len(h.Events))
	}
	for i, raw := range hand.Events {
		if !bytes.Equal(raw, h.Events[i].Raw) {
			t.Fatalf("event %d of a finished hand is not the stored line:\n got %s\nwant %s", i+1, raw, h.Events[i].Raw)
		}
	}
	var f *finding1
	for i := range hand.Findings {
		if hand.Findings[i].Code == string(h.Injected) && hand.Findings[i].Seq == int(h.Seq) {
			f = &hand.Findings[i]
		}
	}
	if f == nil || f.Message == "" || f.Severity != "error" {
		t.Fatalf("findings %+v lack %s at seq %d with a message", hand.Findings, h.Injected, h.Seq)
	}
	if f.Expected == nil {
		t.Errorf("finding %+v has no expected value", f)
	}

	var step struct {
		Seq      int        `json:"seq"`
		Hand     string     `json:"hand"`
		Stage    string     `json:"stage"`
		Event    struct{}   `json:"event"`
		Findings []finding1 `json:"findings"`
		Seats    []struct {
			Player string   `json:"player"`
			Cards  []string `json:"cards"`
		} `json:"seats"`
	}
	e.get(fmt.Sprintf("/api/hands/%s/replay?at=%d", id, h.Seq), http.StatusOK, &step)
	if step.Seq != int(h.Seq) || step.Hand != id || len(step.Findings) == 0 || step.Findings[0].Code != string(h.Injected) {
		t.Fatalf("step at %d: seq %d hand %s findings %+v", h.Seq, step.Seq, step.Hand, step.Findings)
	}
	if len(step.Seats) == 0 || len(step.Seats[0].Cards) == 0 {
		t.Errorf("a finished hand's step shows no cards: %+v", step.Seats)
	}
	var steps struct {
		Steps []struct {
			Seq      int        `json:"seq"`
			Findings []finding1 `json:"findings"`
		} `json:"steps"`
	}
	e.get("/api/hands/"+id+"/replay", http.StatusOK, &steps)
	if len(steps.Steps) != len(h.Events) {
		t.Fatalf("%d steps, want %d", len(steps.Steps), len(h.Events))
	}
	for i, s := range steps.Steps {
		if s.Seq != i+1 {
			t.Fatalf("step %d has seq %d", i, s.Seq)
		}
		if (len(s.Findings) > 0) != hasFindingAt(hand.Findings, s.Seq) {
			t.Errorf("step %d findings %+v do not match the hand's", s.Seq, s.Findings)
		}
	}
	// Bad input.
	e.get("/api/hands/not-a-uuid", http.StatusBadRequest, nil)
	e.get("/api/hands/00000000-0000-7000-8000-000000000000", http.StatusNotFound, nil)
	e.get("/api/hands/00000000-0000-7000-8000-000000000000/replay", http.StatusNotFound, nil)
	e.get("/api/hands/"+id+"/replay?at=x", http.StatusBadRequest, nil)
	e.get("/api/hands/"+id+"/replay?at=0", http.StatusBadRequest, nil)
	e.get("/api/hands/"+id+"/replay?at=9999", http.StatusNotFound, nil)
}

func hasFindingAt(fs []finding1, seq int) bool {
	for _, f := range fs {
		if f.Seq == seq {
			return true
		}
	}
	return false
}

func TestTablesPlayersChips(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	clean, _ := fixture(t, e)
	var tables struct {
		Tables []struct {
			Table  string `json:"table"`
			Hand   string `json:"hand"`
			Stage  string `json:"stage"`
			Live   bool   `json:"live"`
			Hands  int    `json:"hands"`
			Preset string `json:"preset"`
			Seats  []struct {
				Player string `json:"player"`
				Stack  int64  `json:"stack"`
			} `json:"seats"`
		} `json:"tables"`
	}
	// The live view takes a batch's events after its commit, so the checkpoint waitProjected saw
	// may come a moment before the tables show the last hand ended.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		e.get("/api/tables", http.StatusOK, &tables)
		if len(tables.Tables) != 2 || tables.Tables[0].Table != "t-bad" || tables.Tables[1].Table != "t-clean" {
			t.Fatalf("tables %+v", tables.Tables)
		}
		if tables.Tables[1].Stage == "ended" || time.Now().After(deadline) {
			break
		}
	}
	tc := tables.Tables[1]
	last := clean[len(clean)-1].Events
	if !tc.Live || tc.Stage != "ended" || tc.Hand != last[0].Hand || tc.Hands != len(clean) || tc.Preset != "br-fechado" || len(tc.Seats) == 0 {
		t.Errorf("table t-clean: %+v", tc)
	}
	end := last[len(last)-1].Data.(*events.HandEnded)
	for _, s := range end.Stacks {
		found := false
		for _, v := range tc.Seats {
			if int64(s.Stack) == v.Stack {
				found = true
			}
		}
		if !found {
			t.Errorf("final stack %d of seat %d not on the table %+v", s.Stack, s.Seat, tc.Seats)
		}
	}

	var players struct {
		Players []struct {
			Player string   `json:"player"`
			Hands  int      `json:"hands"`
			VPIP   *float64 `json:"vpip_pct"`
		} `json:"players"`
	}
	e.get("/api/players", http.StatusOK, &players)
	if len(players.Players) != 4 || players.Players[0].Player != "ana" || players.Players[0].Hands == 0 || players.Players[0].VPIP == nil {
		t.Fatalf("players %+v", players.Players)
	}
	var one struct {
		Stats struct {
			Player string `json:"player"`
			Hands  int    `json:"hands"`
		} `json:"stats"`
		Positions []struct {
			Position int `json:"position"`
		} `json:"positions"`
		Hands []struct {
			Net int64 `json:"net"`
		} `json:"hands"`
	}
	e.get("/api/players/ana/stats", http.StatusOK, &one)
	if one.Stats.Player != "ana" || one.Stats.Hands != len(one.Hands) || len(one.Positions) == 0 {
		t.Fatalf("ana's stats %+v", one)
	}
	e.get("/api/players/ana/stats?table=t-clean", http.StatusOK, &one)
	if one.Stats.Hands != len(clean) {
		t.Errorf("ana's hands at t-clean: %d, want %d", one.Stats.Hands, len(clean))
	}
	e.get("/api/players/nobody/stats", http.StatusNotFound, nil)
	e.get("/api/players?from=never", http.StatusBadRequest, nil)

	var chips struct {
		Players []string `json:"players"`
		Points  []struct {
			Hand   string `json:"hand"`
			Player string `json:"player"`
			End    int64  `json:"end"`
		} `json:"points"`
		Eliminations []struct {
			Player string `json:"player"`
			Place  int    `json:"place"`
		} `json:"eliminations"`
	}
	e.get("/api/tables/t-clean/chips", http.StatusOK, &chips)
	rows := 0
	for _, h := range clean {
		rows += len(h.Events[0].Data.(*events.HandStarted).Seats)
	}
	if len(chips.Players) != 4 || len(chips.Points) != rows {
		t.Fatalf("chips: %d players, %d points, want 4 and %d", len(chips.Players), len(chips.Points), rows)
	}
	for _, el := range chips.Eliminations {
		if el.Place < 2 || el.Place > 4 {
			t.Errorf("elimination %+v: place out of range", el)
		}
	}
	e.get("/api/tables/nope/chips", http.StatusNotFound, nil)
}

// TestEliminations plays a tournament to its end: everybody but the winner is eliminated once.
// Under -short the stacks are smaller, and the table is down to one player in a quarter of the
// hands.
func TestEliminations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	stack := events.Chips(60)
	if testing.Short() {
		stack = 40
	}
	hs := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 400, Seed: 5, Table: "t-tour", Stack: stack, ExposeRate: -1})
	e.post(handsBody(hs), http.StatusOK, nil)
	e.waitProjected()
	var chips struct {
		Eliminations []struct {
			Player string `json:"player"`
			Place  int    `json:"place"`
		} `json:"eliminations"`
	}
	e.get("/api/tables/t-tour/chips", http.StatusOK, &chips)
	last := hs[len(hs)-1].Events
	end := last[len(last)-1].Data.(*events.HandEnded)
	broke := 0
	for _, s := range end.Stacks {
		if s.Stack == 0 {
			broke++
		}
	}
	if broke == 0 {
		t.Fatalf("the tournament ended with nobody broke: %+v", end.Stacks)
	}
	if len(chips.Eliminations) < broke {
		t.Fatalf("eliminations %+v, want at least %d", chips.Eliminations, broke)
	}
	places := map[int]bool{}
	for _, el := range chips.Eliminations {
		places[el.Place] = true
	}
	if places[1] {
		t.Errorf("an eliminated player took first place: %+v", chips.Eliminations)
	}
}

func TestPostBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 64<<10)
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 2, Seed: 21, Table: "t-post", ExposeRate: -1})
	good := jsonl(hs[0].Events)
	lines := bytes.SplitAfter(good, []byte("\n"))
	type errAnswer struct {
		Error    string `json:"error"`
		Line     int    `json:"line"`
		Field    string `json:"field"`
		Rejected []struct {
			Hand     string `json:"hand"`
			Conflict bool   `json:"conflict"`
			Error    string `json:"error"`
		} `json:"rejected"`
	}
	before := e.streamLast()

	// Malformed JSON on line 3: 400 naming the line; nothing appended.
	body := bytes.Join([][]byte{lines[0], lines[1], []byte("{\"id\": oops\n")}, nil)
	var a errAnswer
	e.post(body, http.StatusBadRequest, &a)
	if a.Line != 3 || !strings.Contains(a.Error, "line 3") {
		t.Errorf("malformed JSON: %+v", a)
	}
	// A valid JSON line that is not a valid event: 422 naming the line and the field.
	bad := bytes.Replace(lines[1], []byte(`"method":"hmac-sha256-fy-v1"`), []byte(`"method":7`), 1)
	if bytes.Equal(bad, lines[1]) {
		t.Fatalf("line 2 is not the shuffle: %s", lines[1])
	}
	a = errAnswer{}
	e.post(bytes.Join([][]byte{lines[0], bad}, nil), http.StatusUnprocessableEntity, &a)
	if a.Line != 2 || a.Field != "data.method" {
		t.Errorf("invalid field: %+v, want line 2 field data.method", a)
	}
	// Empty body.
	e.post(nil, http.StatusBadRequest, nil)
	e.post([]byte("\n\n"), http.StatusBadRequest, nil)
	// Too large.
	e.post(bytes.Repeat([]byte(" "), 65<<10), http.StatusRequestEntityTooLarge, nil)
	if got := e.streamLast(); got != before {
		t.Fatalf("rejected bodies appended %d events", got-before)
	}

	// A hand with a gap in seq is rejected as a whole (422) while the other hand goes in.
	gap := append(append([]byte{}, lines[0]...), bytes.Join(lines[2:], nil)...)
	a = errAnswer{}
	e.post(append(gap, jsonl(hs[1].Events)...), http.StatusUnprocessableEntity, &a)
	if len(a.Rejected) != 1 || a.Rejected[0].Hand != hs[0].Events[0].Hand || a.Rejected[0].Conflict {
		t.Fatalf("seq gap: %+v", a)
	}
	if got := e.streamLast(); got != before+uint64(len(hs[1].Events)) {
		t.Fatalf("stream grew by %d, want only the %d events of the valid hand", got-before, len(hs[1].Events))
	}
	// The same events again are skipped, not doubled.
	var ok struct {
		Appended int `json:"appended"`
		Skipped  int `json:"skipped"`
	}
	e.post(jsonl(hs[1].Events), http.StatusOK, &ok)
	if ok.Appended != 0 || ok.Skipped != len(hs[1].Events) {
		t.Errorf("posting a stored hand again: %+v", ok)
	}
	// Another event in the place of a stored one: 409.
	other := *hs[1].Events[3]
	other.ID = "01900000-0000-7000-8000-000000000001"
	events.Seal(&other, events.Hash(hs[1].Events[2].Raw))
	a = errAnswer{}
	e.post(append(other.Raw, '\n'), http.StatusConflict, &a)
	if len(a.Rejected) != 1 || !a.Rejected[0].Conflict {
		t.Errorf("conflict: %+v", a)
	}
	// Routes and methods.
	if code, _ := e.do(http.MethodPut, "/api/events", nil); code != http.StatusMethodNotAllowed {
		t.Errorf("PUT /api/events: %d", code)
	}
	if code, b := e.do(http.MethodGet, "/api/nothing", nil); code != http.StatusNotFound || !bytes.Contains(b, []byte(`"error"`)) {
		t.Errorf("GET /api/nothing: %d %s", code, b)
	}
	if code, _ := e.do(http.MethodPost, "/", nil); code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", code)
	}
}

// TestInProgressHidden checks that a hand without hand.ended shows no face-down card and no
// seed, and shows everything once it ends.
func TestInProgressHidden(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 1, Seed: 31, Table: "t-live", ExposeRate: -1})
	evs := hs[0].Events
	cut := 0
	for i, ev := range evs {
		if ev.Type == events.CardsDiscardedType {
			cut = i + 1 // up to and including the first discard
			break
		}
	}
	if cut == 0 {
		t.Fatal("the hand has no draw")
	}
	e.post(jsonl(evs[:cut]), http.StatusOK, nil)
	e.waitProjected()
	id := evs[0].Hand
	code, b := e.do(http.MethodGet, "/api/hands/"+id, nil)
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, b)
	}
	var hand struct {
		Ended  bool   `json:"ended"`
		View   string `json:"view"`
		Events []struct {
			Type string         `json:"type"`
			Prev *string        `json:"prev"`
			Data map[string]any `json:"data"`
		} `json:"events"`
	}
	if err := json.Unmarshal(b, &hand); err != nil {
		t.Fatal(err)
	}
	burns := 0
	for _, ev := range evs[:cut] {
		if ev.Type == events.CardBurnedType || ev.Type == events.DeckRevealedType {
			burns++
		}
	}
	if hand.Ended || hand.View != "public" || len(hand.Events) != cut-burns {
		t.Fatalf("in progress: ended %v, view %q, %d events; want the %d public views", hand.Ended, hand.View, len(hand.Events), cut-burns)
	}
	for _, ev := range hand.Events {
		if ev.Prev != nil {
			// The hash of the line before: 52 guesses give a face-down card of it away.
			t.Errorf("%s of a hand in progress carries prev", ev.Type)
		}
		switch ev.Type {
		case "card.dealt":
			if _, ok := ev.Data["card"]; ok {
				t.Errorf("%s shows its card: %v", ev.Type, ev.Data)
			}
		case "card.burned", "deck.revealed":
			t.Errorf("%s shown while the hand runs: %v", ev.Type, ev.Data)
		case "cards.discarded":
			if c, ok := ev.Data["cards"].([]any); !ok || len(c) != 0 {
				t.Errorf("discards shown: %v", ev.Data)
			}
			if _, ok := ev.Data["declared"]; !ok {
				t.Errorf("discard count missing: %v", ev.Data)
			}
		}
	}
	// Each event shown is a valid v1 event (events-v1.md §4): the public view is one.
	var lines struct {
		Events []json.RawMessage `json:"events"`
	}
	json.Unmarshal(b, &lines)
	for _, l := range lines.Events {
		if _, err := events.Parse(l); err != nil {
			t.Errorf("the view %s is not a valid event: %v", l, err)
		}
	}
	// No card of any seat anywhere in the replay (none was exposed: ExposeRate -1).
	code, b = e.do(http.MethodGet, "/api/hands/"+id+"/replay", nil)
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, b)
	}
	for _, ev := range evs[:cut] {
		if d, ok := ev.Data.(*events.CardDealt); ok && bytes.Contains(b, []byte(`"`+d.Card.String()+`"`)) {
			t.Fatalf("the replay of a hand in progress shows the face-down card %s", d.Card)
		}
	}
	var steps struct {
		Steps []struct {
			Redacted bool `json:"redacted"`
			Seats    []struct {
				Hidden int `json:"hidden"`
			} `json:"seats"`
			Draws map[string]int `json:"draws"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b, &steps); err != nil {
		t.Fatal(err)
	}
	lastStep := steps.Steps[len(steps.Steps)-1]
	if !lastStep.Redacted || len(lastStep.Draws) != 1 || lastStep.Seats[0].Hidden == 0 {
		t.Errorf("last step of a hand in progress: %+v", lastStep)
	}
	// The table view never holds cards at all; the hand is listed as in progress.
	var list handsAnswer
	e.get("/api/hands?table=t-live", http.StatusOK, &list)
	if len(list.Hands) != 1 || list.Hands[0].Ended || list.Hands[0].Audit != "" {
		t.Errorf("hand in progress listed as %+v", list.Hands)
	}

	// The rest of the hand: now everything shows.
	e.post(jsonl(evs[cut:]), http.StatusOK, nil)
	e.waitProjected()
	code, b = e.do(http.MethodGet, "/api/hands/"+id, nil)
	if code != http.StatusOK || bytes.Contains(b, []byte(`"redacted"`)) || !bytes.Contains(b, evs[len(evs)-1].Raw) {
		t.Fatalf("finished hand still redacted: %d %.300s", code, b)
	}
}

// TestSSE follows GET /api/events while a hand is appended, until its "hand" event arrives.
func TestSSE(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	hs := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 2, Seed: 41, Table: "t-sse", ExposeRate: -1})
	e.post(handsBody(hs), http.StatusOK, nil)
	want := map[string]bool{hs[0].Events[0].Hand: true, hs[1].Events[0].Hand: true}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	event, tables := "", 0
	for len(want) > 0 && sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && event == "table":
			var tv struct {
				Table string `json:"table"`
				Seats []struct {
					Cards int `json:"cards"`
				} `json:"seats"`
			}
			if err := json.Unmarshal([]byte(line[6:]), &tv); err != nil || tv.Table != "t-sse" {
				t.Fatalf("table event %s: %v", line, err)
			}
			tables++
		case strings.HasPrefix(line, "data: ") && event == "hand":
			var hv struct {
				Hand struct {
					Hand  string `json:"hand"`
					Audit string `json:"audit"`
				} `json:"hand"`
				Findings []finding1 `json:"findings"`
			}
			if err := json.Unmarshal([]byte(line[6:]), &hv); err != nil {
				t.Fatal(err)
			}
			if hv.Hand.Audit == "" || hv.Findings == nil {
				t.Errorf("hand event without audit: %s", line)
			}
			delete(want, hv.Hand.Hand)
		}
	}
	if len(want) > 0 {
		t.Fatalf("stream ended (%v) before the hands %v ended", sc.Err(), want)
	}
	if tables == 0 {
		t.Error("no table event")
	}
}

func TestNATSPublish(t *testing.T) {
	t.Parallel()
	// A table system publishing straight to the hand's subject: the projector and the
	// auditor see it like any other event.
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "tr-kapali", Players: 3, Hands: 1, Seed: 51, Table: "t-nats", ExposeRate: -1})
	ctx := context.Background()
	for _, ev := range hs[0].Events {
		if _, err := e.log.Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	e.waitProjected()
	var list handsAnswer
	e.get("/api/hands?table=t-nats", http.StatusOK, &list)
	if len(list.Hands) != 1 || !list.Hands[0].Ended || list.Hands[0].Audit != "ok" {
		t.Fatalf("hand appended to the log directly: %+v", list.Hands)
	}
}

func TestMetricsAndPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	clean, bad := fixture(t, e)
	e.waitMetric("fechado_hands_audited_total", float64(len(clean)+len(bad))) // each hand once
	code, b := e.do(http.MethodGet, "/metrics", nil)
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	text := string(b)
	for _, want := range []string{
		"fechado_events_appended_total ", "fechado_append_conflicts_total 0", "fechado_projector_lag_events 0",
		"fechado_audit_duration_seconds_count ", "fechado_hands_audited_total ",
		fmt.Sprintf(`fechado_findings_total{code=%q,severity="error"} `, injected(t, bad).Injected),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	for path, want := range map[string]string{"/": "app.js", "/app.js": "EventSource", "/style.css": ".felt"} {
		code, b := e.do(http.MethodGet, path, nil)
		if code != http.StatusOK || !bytes.Contains(b, []byte(want)) {
			t.Errorf("GET %s: %d, want a page with %q", path, code, want)
		}
	}
	for _, p := range []string{"index.html", "app.js", "style.css"} {
		if bytes.Contains(mustAsset(t, e, "/"+p), []byte("http://")) || bytes.Contains(mustAsset(t, e, "/"+p), []byte("https://")) {
			t.Errorf("%s loads something from the network", p)
		}
	}
}

func mustAsset(t *testing.T, e *env, path string) []byte {
	t.Helper()
	code, b := e.do(http.MethodGet, path, nil)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d", path, code)
	}
	return b
}

func TestNewNeedsLogAndDB(t *testing.T) {
	t.Parallel()
	if _, err := web.New(web.Options{}); err == nil {
		t.Fatal("New without a log worked")
	}
}

// TestConcurrentHands appends a table's hands the way `fechado record` does, many hands at
// once, so that they end out of order in the stream: the live auditor must not compare a hand
// with the wrong previous one (no table.* finding on a clean table).
func TestConcurrentHands(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 12, Seed: 61, Table: "t-conc", ExposeRate: -1})
	rec := e.log.NewRecorder(context.Background(), recorder.RecordOptions{})
	for _, h := range hs {
		for _, ev := range h.Events {
			if err := rec.Add(ev, "", 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	if st, err := rec.Close(); err != nil || st.Appended == 0 {
		t.Fatalf("record: %+v %v", st, err)
	}
	e.waitProjected()
	var flagged handsAnswer
	e.get("/api/hands?findings=1", http.StatusOK, &flagged)
	if len(flagged.Hands) != 0 {
		t.Fatalf("a clean table appended concurrently has findings: %+v", flagged.Hands)
	}
	var all handsAnswer
	e.get("/api/hands?table=t-conc", http.StatusOK, &all)
	if len(all.Hands) != len(hs) {
		t.Fatalf("%d hands listed, want %d", len(all.Hands), len(hs))
	}
}

// TestContinuityFindings: the table.* findings come from the projector's auditor, are stored in
// the read models with their expected and actual values, listed and shown with the hand.
func TestContinuityFindings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 4, Seed: 71, Table: "t-cont", ExposeRate: -1,
		Inject: []finding.Code{finding.TableDealer}})
	e.post(handsBody(hs), http.StatusOK, nil)
	e.waitProjected()
	h := injected(t, hs)
	id := h.Events[0].Hand
	var flagged handsAnswer
	e.get("/api/hands?findings=1&table=t-cont", http.StatusOK, &flagged)
	want := map[string]bool{}
	for _, x := range hs {
		if x.Injected != "" {
			want[x.Events[0].Hand] = true
		}
	}
	for _, f := range flagged.Hands {
		if !want[f.Hand] || f.Audit != "error" || len(f.Codes) != 1 || f.Codes[0] != string(finding.TableDealer) {
			t.Errorf("flagged %+v, want only the injected hands, with table.dealer", f)
		}
	}
	if len(flagged.Hands) != len(want) {
		t.Fatalf("findings=1 lists %d hands, want the %d injected", len(flagged.Hands), len(want))
	}
	var hand struct {
		Findings []finding1 `json:"findings"`
	}
	e.get("/api/hands/"+id, http.StatusOK, &hand)
	if len(hand.Findings) != 1 || hand.Findings[0].Code != string(finding.TableDealer) || hand.Findings[0].Seq != int(h.Seq) ||
		hand.Findings[0].Expected == nil {
		t.Fatalf("hand findings %+v", hand.Findings)
	}
	var n int
	if err := e.db.QueryRow(`SELECT COUNT(*) FROM findings WHERE code LIKE 'table.%'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Errorf("%d table.* findings stored in the read models, want %d", n, len(want))
	}
}

// TestEachHandAuditedOnce: the projector audits every hand once, and a server started again on
// the same log and read models audits none of the hands already stored, only new ones; the
// findings it shows, table.* included, are those stored before.
func TestEachHandAuditedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 8, Seed: 71, Table: "t-once", ExposeRate: -1,
		Inject: []finding.Code{finding.TableDealer}})
	e.post(handsBody(hs[:5]), http.StatusOK, nil)
	e.waitProjected()
	e.waitMetric("fechado_hands_audited_total", 5)
	before := map[string][]finding1{}
	for _, h := range hs[:5] {
		var hand struct {
			Findings []finding1 `json:"findings"`
		}
		e.get("/api/hands/"+h.Events[0].Hand, http.StatusOK, &hand)
		before[h.Events[0].Hand] = hand.Findings
	}
	e.stop()

	e2 := startEnv(t, e.log, e.db, 0)
	e2.post(handsBody(hs[5:]), http.StatusOK, nil)
	e2.waitProjected()
	// A last hand, of another table, with a finding of its own: the projector reports what it
	// audited in the stream's order, so once that finding is counted every hand before it has
	// been counted too, a hand audited again included.
	last := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 1, Seed: 72, Table: "t-once-last", ExposeRate: -1,
		Inject: []finding.Code{finding.OpenWithoutOpeners}})
	e2.post(handsBody(last), http.StatusOK, nil)
	e2.waitMetric(`fechado_findings_total{code="open.without-openers",severity="error"}`, 1)
	if got := e2.metric("fechado_hands_audited_total"); got != 4 {
		t.Fatalf("fechado_hands_audited_total %v after a restart and 4 more hands, want 4 (none of those before)", got)
	}
	continuity := 0
	for id, want := range before {
		var hand struct {
			Findings []finding1 `json:"findings"`
		}
		e2.get("/api/hands/"+id, http.StatusOK, &hand)
		if fmt.Sprint(hand.Findings) != fmt.Sprint(want) {
			t.Errorf("hand %s: findings %+v after the restart, %+v before", id, hand.Findings, want)
		}
		for _, f := range want {
			if strings.HasPrefix(f.Code, "table.") {
				continuity++
			}
		}
	}
	if continuity == 0 {
		t.Error("no table.* finding in the hands before the restart: the test proves nothing")
	}
	// The hands after the restart are checked against the last one before it.
	var flagged handsAnswer
	e2.get("/api/hands?findings=1&table=t-once", http.StatusOK, &flagged)
	if wantFlagged := injectedCount(hs); len(flagged.Hands) != wantFlagged {
		t.Errorf("%d hands flagged, want the %d injected", len(flagged.Hands), wantFlagged)
	}
}

// A player's page lists his sessions (events-v1.md §7): every time he sat down with a buy-in,
// sat out with his stack, rebought and cashed out with his chips, in the order of the hands of a
// cash session that say so (the shared tournament day's cash table, whose tournament beside it
// must not mix into the cash players' sessions).
func TestPlayerSessions(t *testing.T) {
	t.Parallel()
	d := sharedTournamentDay(t)
	e, hs := d.e, d.cash
	want := map[string][]string{} // by player, "hand kind seat amount", in the order they happen
	kinds := map[string]map[string]bool{}
	for _, h := range hs {
		hs := h.Events[0].Data.(*events.HandStarted)
		add := func(player, kind string, seat events.Seat, amount events.Chips) {
			want[player] = append(want[player], fmt.Sprintf("%s %s %d %d", h.Events[0].Hand, kind, seat, amount))
			if kinds[player] == nil {
				kinds[player] = map[string]bool{}
			}
			kinds[player][kind] = true
		}
		for _, l := range hs.Left {
			add(l.Player, "left", 0, l.Stack)
		}
		for _, s := range hs.Seats {
			if s.Joined {
				add(s.Player, "joined", s.Seat, s.Stack)
			}
		}
		for _, s := range hs.Seats {
			if s.Rebuy != nil && *s.Rebuy > 0 {
				add(s.Player, "rebuy", s.Seat, *s.Rebuy)
			}
		}
		for _, a := range hs.Away {
			add(a.Player, "away", a.Seat, a.Stack)
		}
	}
	all := map[string]bool{}
	for p := range kinds {
		for k := range kinds[p] {
			all[k] = true
		}
	}
	if len(all) < 3 {
		t.Fatalf("the session has only %v: not a test of comings and goings", all)
	}
	for player := range want {
		checkSessions(t, e, player, want[player])
	}
}

// checkSessions compares player's sessions on his page with want ("hand kind seat amount").
func checkSessions(t *testing.T, e *env, player string, want []string) {
	t.Helper()
	var page struct {
		Sessions []struct {
			Hand   string `json:"hand"`
			Table  string `json:"table"`
			Kind   string `json:"kind"`
			Seat   int    `json:"seat"`
			Amount int64  `json:"amount"`
		} `json:"sessions"`
	}
	e.get("/api/players/"+player+"/stats", http.StatusOK, &page)
	var got []string
	for _, c := range page.Sessions {
		if c.Table != "t-cash" {
			t.Errorf("change at table %q", c.Table)
		}
		got = append(got, fmt.Sprintf("%s %s %d %d", c.Hand, c.Kind, c.Seat, c.Amount))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s's sessions:\n got %v\nwant %v", player, got, want)
	}
}
