package console_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/console"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/roles"
	"github.com/fechado/fechado/rules"
	"github.com/google/uuid"
)

// devices are two tables' devices: the console must keep each to its own table.
var devices = &roles.Auth{Users: []roles.User{
	{Name: "mesa1", Password: "senha1", Role: roles.Table, Table: "mesa-1"},
	{Name: "mesa2", Password: "senha2", Role: roles.Table, Table: "mesa-2"},
	{Name: "auditor", Password: "x", Role: roles.Auditor},
}}

type env struct {
	t  *testing.T
	ts *httptest.Server
	// lose makes the connection fail on posted events: loseAnswer stores the next one and
	// loses the answer, loseAll loses every one unstored.
	lose atomic.Int32
	// c is the console itself, for a request the cut network must not stop (another device).
	c http.Handler
}

const (
	loseNothing = iota
	loseAnswer
	loseAll
	loseNetwork // every request, as when the tablet's Wi-Fi is gone
)

func newEnv(t *testing.T) *env {
	return newEnvSeeds(t, recordertest.OpenAuth(t, devices), "")
}

// newEnvSeeds is newEnv on log l, the console keeping its seeds in seedFile.
func newEnvSeeds(t *testing.T, l *recorder.Log, seedFile string) *env {
	return newEnvAuth(t, l, devices, seedFile)
}

// newEnvAuth is newEnvSeeds with the console's devices taken from auth, which may differ from the
// users the log's server knows.
func newEnvAuth(t *testing.T, l *recorder.Log, auth *roles.Auth, seedFile string) *env {
	return newEnvWith(t, console.Options{Log: l, Auth: auth, SeedFile: seedFile})
}

// newEnvWith is the console of options o behind a test server whose connection the test can cut.
func newEnvWith(t *testing.T, o console.Options) *env {
	e := &env{t: t}
	c, err := console.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	e.c = c
	e.ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e.lose.Load() == loseNetwork {
			hangUp(w)
			return
		}
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/events") {
			switch e.lose.Load() {
			case loseAnswer:
				c.ServeHTTP(httptest.NewRecorder(), r)
				e.lose.Store(loseNothing)
				hangUp(w)
				return
			case loseAll:
				hangUp(w)
				return
			}
		}
		c.ServeHTTP(w, r)
	}))
	t.Cleanup(e.ts.Close)
	return e
}

// hangUp closes the connection without an answer, as a lost network does.
func hangUp(w http.ResponseWriter) {
	if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
		conn.Close()
	}
}

// call sends a request as a device and decodes the answer into out; it returns the status.
func (e *env) call(user, pass, method, path string, body []byte, out any) int {
	e.t.Helper()
	req, err := http.NewRequest(method, e.ts.URL+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.SetBasicAuth(user, pass)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json") // what the page sends
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return res.StatusCode
}

// answer is the console's answer to a posted event.
type answer struct {
	Skipped bool              `json:"skipped"`
	Events  []json.RawMessage `json:"events"`
	Advice  struct {
		rules.Advice
		Stage string // the stage's name (rules.Stage encodes as text)
		Top   *cards.Card
		Seed  string
	} `json:"advice"`
	Error        string   `json:"error"`
	Detail       string   `json:"detail"`
	Warnings     []string `json:"warnings"`
	WarningCodes []string `json:"warning_codes"`
	Receipt      string   `json:"receipt"`
}

// stored returns the answer's events, parsed.
func (a answer) stored(t testing.TB) []*events.Event {
	t.Helper()
	var evs []*events.Event
	for _, raw := range a.Events {
		ev, err := events.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// forcedEvent is the event of an advised step that leaves the table nothing to choose: the hand
// passed, no card discarded, a hand or openers shown, a bet returned, a pot awarded, the hand
// ended. The tests play the other steps each in its own way.
func forcedEvent(a rules.Advice) events.Data {
	switch a.Step {
	case rules.StepPass:
		return &events.HandPassed{}
	case rules.StepDiscard:
		return &events.CardsDiscarded{Seat: a.Seat, Cards: []cards.Card{}}
	case rules.StepShow:
		return &events.HandShown{Seat: a.Seat, Cards: a.Cards}
	case rules.StepOpeners:
		return &events.OpenersShown{Seat: a.Seat, Cards: a.Cards}
	case rules.StepReturn:
		return &events.BetReturned{Seat: a.Seat, Amount: a.Amount}
	case rules.StepAward:
		return &events.PotAwarded{Seat: a.Seat, Amount: a.Amount, Pot: a.Pot}
	case rules.StepEnd:
		return &events.HandEnded{Stacks: a.Stacks, Carry: a.Carry}
	}
	return nil
}

// hand builds events of one hand of table as the page does: no prev (the recorder fills it).
type hand struct {
	table, id string
	seq       events.Seq
	minute    int // when the hand is played: the hands of a session follow one another
}

func (h *hand) event(d events.Data) []byte {
	h.seq++
	e := &events.Event{ID: uuid.NewString(), Table: h.table, Hand: h.id, Seq: h.seq,
		At: time.Date(2026, 12, 1, 21, h.minute, int(h.seq), 0, time.UTC).Format(time.RFC3339), Type: d.EventType(), Data: d}
	// The page leaves prev out: the recorder fills it from what it holds.
	return bytes.Replace(events.Encode(e), []byte(`"prev":"",`), nil, 1)
}

func start(table string) (*hand, []byte) {
	h := &hand{table: table, id: uuid.NewString()}
	return h, h.event(&events.HandStarted{Rules: events.Rules{Name: "br-fechado"}, Number: 1, Dealer: 1,
		Stakes: events.Stakes{Ante: 1, MinBet: 2, MaxBet: 10},
		Seats:  []events.SeatStack{{Seat: 1, Player: "Ana", Stack: 100}, {Seat: 2, Player: "Beto", Stack: 100}, {Seat: 3, Player: "Caio", Stack: 100}}})
}

// TestAppendOnce: an event posted twice (a resend after a lost connection) is stored once; an
// event the recorder refuses is answered with its reason and nothing is written.
func TestAppendOnce(t *testing.T) {
	e := newEnv(t)
	h, first := start("mesa-1")
	path := "/console/api/hands/" + h.id + "/events"
	var a answer
	if code := e.call("mesa1", "senha1", "POST", path, first, &a); code != http.StatusOK || a.Skipped {
		t.Fatalf("first post: %d %+v", code, a)
	}
	if code := e.call("mesa1", "senha1", "POST", path, first, &a); code != http.StatusOK || !a.Skipped || len(a.Events) != 1 {
		t.Fatalf("the same event again: %d skipped=%v with %d events stored, want 200, skipped, 1", code, a.Skipped, len(a.Events))
	}
	if a.Advice.Step != rules.StepShuffle {
		t.Errorf("after hand.started the console offers %q, want the shuffle", a.Advice.Step)
	}
	// A gap in seq: refused, with the recorder's reason.
	h.seq++
	gap := h.event(&events.DeckShuffled{Method: cards.PhysicalMethod})
	a = answer{}
	if code := e.call("mesa1", "senha1", "POST", path, gap, &a); code != http.StatusUnprocessableEntity || a.Error != "err.invalid" || a.Detail == "" {
		t.Fatalf("an event out of sequence: %d %+v, want 422 err.invalid with the reason", code, a)
	}
	var st answer
	e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id, nil, &st)
	if len(st.Events) != 1 {
		t.Fatalf("after the refused event the hand holds %d events, want 1", len(st.Events))
	}
}

// TestOtherTableRefused: a device of another table, with its own good credentials, cannot append
// to the first table; wrong credentials and non-device users cannot log in.
func TestOtherTableRefused(t *testing.T) {
	e := newEnv(t)
	h, first := start("mesa-1")
	path := "/console/api/hands/" + h.id + "/events"
	var a answer
	if code := e.call("mesa2", "senha2", "POST", path, first, &a); code != http.StatusForbidden || a.Error != "err.other-table" {
		t.Fatalf("mesa2 appending to mesa-1: %d %+v, want 403 err.other-table", code, a)
	}
	for _, c := range [][2]string{{"mesa1", "wrong"}, {"auditor", "x"}, {"nobody", ""}} {
		if code := e.call(c[0], c[1], "POST", path, first, &a); code != http.StatusUnauthorized {
			t.Errorf("user %q password %q: %d, want 401", c[0], c[1], code)
		}
	}
	var st answer
	if code := e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id, nil, &st); code != http.StatusOK || len(st.Events) != 0 {
		t.Fatalf("mesa-1 holds %d events after the refusals (status %d), want none", len(st.Events), code)
	}
}

// TestServerRefusesOtherTable: the log's server itself keeps a device to its own table. A
// console whose auth file is wrong (it gives mesa2 table mesa-1, where the server's users keep
// mesa2 at mesa-2) lets mesa2's event for mesa-1 through its own check, and the server refuses it:
// 403 err.denied naming the subject, nothing stored; mesa1 still appends the same event.
func TestServerRefusesOtherTable(t *testing.T) {
	l := recordertest.OpenAuth(t, devices)
	wrong := &roles.Auth{Users: []roles.User{
		{Name: "mesa1", Password: "senha1", Role: roles.Table, Table: "mesa-1"},
		{Name: "mesa2", Password: "senha2", Role: roles.Table, Table: "mesa-1"},
	}}
	e := newEnvAuth(t, l, wrong, "")
	h, first := start("mesa-1")
	path := "/console/api/hands/" + h.id + "/events"
	var a answer
	if code := e.call("mesa2", "senha2", "POST", path, first, &a); code != http.StatusForbidden || a.Error != "err.denied" ||
		!strings.Contains(a.Detail, recorder.Subject("mesa-1", h.id)) {
		t.Fatalf("mesa2 appending to mesa-1 past the console's check: %d %+v, want 403 err.denied naming the subject", code, a)
	}
	var st answer
	if code := e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id, nil, &st); code != http.StatusOK || len(st.Events) != 0 {
		t.Fatalf("mesa-1 holds %d events after the refusal (status %d), want none", len(st.Events), code)
	}
	a = answer{}
	if code := e.call("mesa1", "senha1", "POST", path, first, &a); code != http.StatusOK || len(a.Events) != 1 {
		t.Fatalf("mesa1 appending to its own table: %d %+v", code, a)
	}
}

// TestRecordHand records a whole br-fechado hand through the API with the console's machine
// shuffle, taking every step and card from the advice; the stored hand audits clean.
func TestRecordHand(t *testing.T) {
	e := newEnv(t)
	h, first := start("mesa-1")
	path := "/console/api/hands/" + h.id
	var a answer
	e.call("mesa1", "senha1", "POST", path+"/events", first, &a)
	a = e.play(h, a)
	evs := a.stored(t)
	for _, f := range audit.Hand(evs) {
		t.Errorf("the audit finds %s at seq %d: %s", f.Code, f.Seq, f.Message)
	}
	if evs[len(evs)-1].Type != events.HandEndedType {
		t.Fatalf("the stored hand ends with %s", evs[len(evs)-1].Type)
	}
	var next map[string]any
	if code := e.call("mesa1", "senha1", "GET", path+"/next", nil, &next); code != http.StatusOK || fmt.Sprint(next["dealer"]) != "2" {
		t.Errorf("the next hand: %d %v, want the dealer passed left to seat 2", code, next)
	}
}

// play records the rest of hand h through the API from the answer a, taking every step and card
// from the advice (a policy that bets when it may, else calls or checks, and stands pat), and
// returns the last answer.
func (e *env) play(h *hand, a answer) answer {
	e.t.Helper()
	return e.playWith(h, a, nil)
}

// playWith is play with a hook that may record a step its own way: it returns the event's data,
// or nil for play's.
func (e *env) playWith(h *hand, a answer, hook func(answer) events.Data) answer {
	t := e.t
	t.Helper()
	path := "/console/api/hands/" + h.id
	for i := 0; a.Advice.Step != rules.StepDone; i++ {
		if i > 200 {
			t.Fatal("the hand did not end")
		}
		ad := a.Advice
		var d events.Data
		if hook != nil {
			d = hook(a)
		}
		if d == nil {
			d = e.policy(h, a)
		}
		a = answer{}
		if code := e.call("mesa1", "senha1", "POST", path+"/events", h.event(d), &a); code != http.StatusOK {
			t.Fatalf("step %s: %d %s %s", ad.Step, code, a.Error, a.Detail)
		}
	}
	return a
}

// policy is the event play records for the advice of a: every step and card from the advice, a
// player betting when he may, else calling or checking, and standing pat.
func (e *env) policy(h *hand, a answer) events.Data {
	t := e.t
	t.Helper()
	path := "/console/api/hands/" + h.id
	ad := a.Advice
	var d events.Data
	switch ad.Step {
	case rules.StepShuffle, rules.StepReshuffle:
		var sh map[string]string
		body, _ := json.Marshal(map[string]any{"seq": h.seq + 1})
		e.call("mesa1", "senha1", "POST", path+"/shuffle", body, &sh)
		ds := &events.DeckShuffled{Method: sh["method"], Commitment: sh["commitment"]}
		if ad.Step == rules.StepReshuffle {
			ds.Cards = ad.Cards
		}
		d = ds
	case rules.StepCut:
		d = &events.DeckCut{At: 5}
	case rules.StepAnte:
		d = &events.AntePosted{Seat: ad.Seat, Amount: ad.Amount}
	case rules.StepBlind:
		d = &events.BlindPosted{Seat: ad.Seat, Amount: ad.Amount, Blind: ad.Blind}
	case rules.StepDeal, rules.StepDraw:
		if ad.Top == nil {
			t.Fatalf("step %s: the console's own shuffle gives no card", ad.Step)
		}
		ph := events.PhaseDeal
		if ad.Step == rules.StepDraw {
			ph = events.PhaseDraw
		}
		d = &events.CardDealt{Seat: ad.Seat, Card: *ad.Top, Phase: ph}
	case rules.StepBurn:
		d = &events.CardBurned{Card: *ad.Top}
	case rules.StepAction:
		o := ad.Options
		switch {
		case o.Bet:
			d = &events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: events.Bet, Amount: o.MinBet}
		case o.Call > 0:
			d = &events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: events.Call, Amount: o.Call}
		case o.Check:
			d = &events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: events.Check}
		default:
			d = &events.PlayerActed{Seat: o.Seat, Round: o.Round, Action: events.Fold}
		}
	case rules.StepPass, rules.StepDiscard, rules.StepShow, rules.StepOpeners, rules.StepReturn, rules.StepAward, rules.StepEnd:
		d = forcedEvent(ad.Advice)
	case rules.StepReveal:
		seed, err := cards.ParseSeed(ad.Seed)
		if err != nil {
			t.Fatalf("the seed to reveal: %v", err)
		}
		d = &events.DeckRevealed{Shuffle: ad.Shuffle, Seed: seed}
	default:
		t.Fatalf("unexpected step %q", ad.Step)
	}
	return d
}

// TestSeedsSurviveRestart: a console started again on the same seed file still knows the seed of
// a hand's machine shuffle (it deals the same top card and can reveal it), and forgets it once
// the hand has ended.
func TestSeedsSurviveRestart(t *testing.T) {
	l := recordertest.OpenAuth(t, devices)
	file := filepath.Join(t.TempDir(), "seeds.json")
	e := newEnvSeeds(t, l, file)
	h, first := start("mesa-1")
	path := "/console/api/hands/" + h.id
	var a answer
	e.call("mesa1", "senha1", "POST", path+"/events", first, &a)
	var sh map[string]string
	e.call("mesa1", "senha1", "POST", path+"/shuffle", []byte(`{"seq":2}`), &sh)
	e.call("mesa1", "senha1", "POST", path+"/events", h.event(&events.DeckShuffled{Method: sh["method"], Commitment: sh["commitment"]}), &a)
	e.call("mesa1", "senha1", "POST", path+"/events", h.event(&events.DeckCut{At: 3}), &a)
	for a.Advice.Step == rules.StepAnte {
		e.call("mesa1", "senha1", "POST", path+"/events", h.event(&events.AntePosted{Seat: a.Advice.Seat, Amount: a.Advice.Amount}), &a)
	}
	if a.Advice.Step != rules.StepDeal || a.Advice.Top == nil {
		t.Fatalf("before the restart the console offers %s with top card %v", a.Advice.Step, a.Advice.Top)
	}
	top := *a.Advice.Top
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(file); info.Mode().Perm() != 0o600 {
		t.Errorf("the seed file is readable by others: %v", info.Mode())
	}
	e2 := newEnvSeeds(t, l, file)
	var again answer
	e2.call("mesa1", "senha1", "GET", path, nil, &again)
	if again.Advice.Top == nil || *again.Advice.Top != top {
		t.Fatalf("after the restart the top card is %v, want %v (seed file %s)", again.Advice.Top, top, b)
	}
	e2.play(h, again)
	if b, err := os.ReadFile(file); err != nil || len(b) != 0 {
		t.Errorf("after the hand ended the seed file holds %q (%v), want no seed", b, err)
	}
}

// With Receipts (serve --sign-key), the console links an ended hand's receipt, the path the
// transparency log serves it at, and only once the hand has ended; without, never.
func TestReceiptLinkOfAnEndedHand(t *testing.T) {
	for _, receipts := range []bool{true, false} {
		e := newEnvWith(t, console.Options{Log: recordertest.OpenAuth(t, devices), Auth: devices, Receipts: receipts})
		h, first := start("mesa-1")
		path := "/console/api/hands/" + h.id
		var a answer
		e.call("mesa1", "senha1", "POST", path+"/events", first, &a)
		if a.Receipt != "" {
			t.Errorf("receipts %v: a hand in progress links %q", receipts, a.Receipt)
		}
		a = e.play(h, a)
		want := ""
		if receipts {
			want = "/tlog/receipt/" + h.id
		}
		if a.Receipt != want {
			t.Errorf("receipts %v: the ended hand links %q, want %q", receipts, a.Receipt, want)
		}
	}
}
