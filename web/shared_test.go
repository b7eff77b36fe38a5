package web_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"testing"

	"github.com/fechado/fechado/internal/browsertest"
	"github.com/fechado/fechado/sim"
)

// TestMain runs the package's tests, then stops what they shared (the projected tournament, the
// chromium of the browser tests). Every test runs in parallel with the others (t.Parallel): each
// starts its own server and log, or only reads the shared tournament day; the browser tests each
// open tabs of their own browser context in the one chromium (browsertest.Tab).
func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.StopShared()
	if !atEnd.run() && code == 0 {
		code = 1
	}
	os.Exit(code)
}

// endings holds what the package's shared fixtures leave to stop once every test ran, in the
// order of testing's cleanups: the last registered first.
type endings struct {
	mu    sync.Mutex
	funcs []func()
	// failed is set when stopping a shared fixture went wrong.
	failed bool
}

var atEnd endings

func (e *endings) add(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.funcs = append(e.funcs, f)
}

// run calls the functions added, the last first, and reports whether all went well.
func (e *endings) run() bool {
	e.mu.Lock()
	funcs := e.funcs
	e.funcs = nil
	e.mu.Unlock()
	for i := len(funcs) - 1; i >= 0; i-- {
		funcs[i]()
	}
	return !e.failed
}

// lasting is the test t, whose failures are its own, except that the folders and the cleanups
// it is asked for last until every test of the package ran: a fixture made with it outlives t.
type lasting struct{ *testing.T }

// TempDir returns a new folder removed after the package's tests.
func (l lasting) TempDir() string {
	dir, err := os.MkdirTemp("", "fechado-web-test-")
	if err != nil {
		l.Fatal(err)
	}
	atEnd.add(func() { os.RemoveAll(dir) })
	return dir
}

// Cleanup calls f after the package's tests.
func (l lasting) Cleanup(f func()) { atEnd.add(f) }

// Errorf reports an error once t may have ended (a shared server failing as it stops): on the
// standard error, failing the package.
func (l lasting) Errorf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "shared fixture: "+format+"\n", args...)
	atEnd.mu.Lock()
	atEnd.failed = true
	atEnd.mu.Unlock()
}

// tournamentDay is a server on which a cash table of std-draw (120 hands, players coming, going
// and rebuying) and the 24-entry tournament of simTournament, played to its end, are projected.
// The tests that only read it share one: projecting the tournament under the race detector is the
// longest set-up of the package.
type tournamentDay struct {
	e *env
	// cash are the cash table's hands, t-cash.
	cash []*sim.Hand
	// log, hands and places are simTournament's.
	log    []byte
	hands  []*sim.Hand
	places map[string]int
}

var (
	dayOnce sync.Once
	day     *tournamentDay
)

// sharedTournamentDay returns the tournament day, projected by the first test that asks for it,
// with its server's requests made on behalf of t. The tests must not append to it.
func sharedTournamentDay(t *testing.T) *tournamentDay {
	t.Helper()
	dayOnce.Do(func() {
		lt := lasting{t}
		d := &tournamentDay{e: newEnv(lt, 64<<20)}
		d.cash = simulated(t, sim.Config{Rules: "std-draw", Players: 5, Hands: 120, Seed: 4, Table: "t-cash", Cash: true, Stack: 60, ExposeRate: -1})
		d.log, d.hands, d.places = simTournament(t)
		d.e.postTogether(handsBody(d.cash), d.log)
		d.e.waitProjected()
		day = d
	})
	if day == nil {
		t.Fatal("the shared tournament day failed to start in an earlier test")
	}
	d := *day
	e := *day.e
	e.t = t
	d.e = &e
	return &d
}

// postTogether posts each body to POST /api/events at once, each request on its own, and insists
// on 200 for all: a server appends one hand at a time per request, so the hands of tables that
// have nothing to do with each other go in faster side by side.
func (e *env) postTogether(bodies ...[]byte) {
	e.t.Helper()
	type answer struct {
		code int
		body []byte
		err  error
	}
	answers := make([]answer, len(bodies))
	var wg sync.WaitGroup
	for i, body := range bodies {
		wg.Go(func() {
			resp, err := http.Post(e.ts.URL+"/api/events", "application/x-ndjson", bytes.NewReader(body))
			if err != nil {
				answers[i].err = err
				return
			}
			defer resp.Body.Close()
			answers[i].code = resp.StatusCode
			answers[i].body, answers[i].err = io.ReadAll(resp.Body)
		})
	}
	wg.Wait()
	for i, a := range answers {
		if a.err != nil || a.code != http.StatusOK {
			e.t.Fatalf("POST /api/events of body %d: %d %s %v", i+1, a.code, a.body, a.err)
		}
	}
}
