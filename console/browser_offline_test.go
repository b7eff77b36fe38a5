package console_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/console"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/browsertest"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/recorder/recordertest"
)

// offlineFiles builds the offline mode's files once for the test binary, as go generate does:
// the rules engine compiled to WebAssembly and Go's loader.
var offlineFiles = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "fechado-offline-")
	if err != nil {
		return "", err
	}
	build := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "advise.wasm"), "./internal/advise")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v: %s", err, out)
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", err
	}
	js, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644)
})

// newBrowserOffline is newBrowser with the offline mode served, loaded before it returns.
func newBrowserOffline(t *testing.T) (*env, *tapper) {
	t.Parallel()
	dir, err := offlineFiles()
	if err != nil {
		t.Fatalf("building the offline mode: %v", err)
	}
	e := newEnvWith(t, console.Options{Log: recordertest.OpenAuth(t, devices), Auth: devices, Offline: os.DirFS(dir)})
	ctx := browsertest.Tab(t, 1024, 900, 3*time.Minute)
	p := &tapper{t: t, ctx: ctx, mouse: !testing.Short()}
	p.do("login",
		chromedp.Navigate(e.ts.URL+"/console/"),
		chromedp.WaitVisible(chromedp.CSS(`#login`)),
		chromedp.SendKeys(chromedp.CSS(`#login [name=user]`), "mesa1"),
		chromedp.SendKeys(chromedp.CSS(`#login [name=pass]`), "senha1"),
		chromedp.Click(chromedp.CSS(`[data-act=login]`)),
		chromedp.WaitVisible(chromedp.CSS(`#setup`)),
		chromedp.WaitReady(chromedp.CSS(`html[data-offline="ready"]`)))
	return e, p
}

// storedEvents returns the events the log holds for hand, as the device reads them, asking the
// console itself: the tablet's cut network does not stop the test.
func (e *env) storedEvents(hand string) []json.RawMessage {
	e.t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/console/api/hands/"+hand, nil)
	req.SetBasicAuth("mesa1", "senha1")
	rec := httptest.NewRecorder()
	e.c.ServeHTTP(rec, req)
	var st answer
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		e.t.Fatalf("the hand: %d %v", rec.Code, err)
	}
	return st.Events
}

// TestBrowserConsoleOffline: the tablet's network is cut after the cut; the dealer goes on, the
// page following the hand with the rules engine compiled to WebAssembly (the server's own), its
// events chained on the device: antes, the whole deal face down in one tap, three checks, the
// passed deal and the hand's end. Nothing reaches the log meanwhile. When the network is back the
// page appends the hand, which the log stores in order and the auditor finds clean.
func TestBrowserConsoleOffline(t *testing.T) {
	e, p := newBrowserOffline(t)
	p.do("pt-BR", chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector("#bar-lang"); s.value = "pt-BR"; s.dispatchEvent(new Event("change")); })()`),
		chromedp.WaitVisible(chromedp.CSS(`html[lang="pt-BR"] #setup`)))
	p.setup("br-fechado", 1, 2, 10, 1, []string{"Ana", "Beto", "Caio"}, []int{100, 100, 100})
	p.tap("physical-shuffle")
	p.tap("no-cut")
	id := handID(p)
	e.lose.Store(loseNetwork)
	for range 3 {
		p.tap("ante")
	}
	p.do("offline", chromedp.WaitVisible(chromedp.CSS(`#offline-note`)))
	if l, ok := lang.Get("pt-BR"); ok {
		p.floorShot(l, "offline")
	}
	p.click("deal the round", `[data-act="deal-round"]`)
	p.stored(15)
	for range 3 {
		p.tap("check")
	}
	if s := p.step(); s != "pass" {
		t.Fatalf("offline, after three checks the console asks for %q, want the passed deal", s)
	}
	p.tap("pass")
	p.tap("end")
	if n := len(e.storedEvents(id)); n != 3 {
		t.Fatalf("the log holds %d events of the hand played offline, want the 3 before the cut", n)
	}
	e.lose.Store(loseNothing)
	// Back online: the queue goes, in order, within a few of the page's retries.
	deadline := time.Now().Add(30 * time.Second)
	var evs []json.RawMessage
	for time.Now().Before(deadline) {
		if evs = e.storedEvents(id); len(evs) == p.n {
			break
		}
		time.Sleep(25 * time.Millisecond) // one request to the console in this process: cheap to ask often
	}
	if len(evs) != p.n {
		t.Fatalf("back online the log holds %d events, want %d", len(evs), p.n)
	}
	var st answer
	st.Events = evs
	for _, f := range audit.Hand(st.stored(t)) {
		if f.Severity != finding.Info {
			t.Errorf("the hand played offline is audited with %s", f.JSON())
		}
	}
	// The log holds the last event as soon as the server stored it; the page drops it from its
	// queue when the answer reaches it, a moment later.
	q := js[string](p, `localStorage.getItem("console.queue")`)
	for q != "[]" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		q = js[string](p, `localStorage.getItem("console.queue")`)
	}
	if q != "[]" {
		t.Errorf("the page still queues %s", q)
	}
}

// TestBrowserConsoleOfflineRefusedWhole: while the tablet is offline another device records the
// hand's next event; back online, the events the tablet recorded offline are refused whole
// (their chain starts from a head that is no longer the hand's), none of them is stored, and the
// page says so and shows the hand as the log holds it.
func TestBrowserConsoleOfflineRefusedWhole(t *testing.T) {
	e, p := newBrowserOffline(t)
	p.setup("br-fechado", 1, 2, 10, 1, []string{"Ana", "Beto", "Caio"}, []int{100, 100, 100})
	p.tap("physical-shuffle")
	p.tap("no-cut")
	id := handID(p)
	e.lose.Store(loseNetwork)
	p.tap("ante")
	p.tap("ante")
	// Another device of the table records the first ante meanwhile.
	otherID := uuid.NewString()
	other, _ := json.Marshal(map[string]any{"id": otherID, "table": "mesa-1", "hand": id, "seq": 4,
		"at": time.Now().UTC().Format(time.RFC3339Nano), "type": "ante.posted", "data": map[string]any{"seat": 2, "amount": 1}})
	req := httptest.NewRequest(http.MethodPost, "/console/api/hands/"+id+"/events", bytes.NewReader(other))
	req.SetBasicAuth("mesa1", "senha1")
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.c.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("the other device's event: %d %s", rec.Code, rec.Body)
	}
	e.lose.Store(loseNothing)
	p.do("refused", chromedp.WaitVisible(chromedp.CSS(`#error`)))
	evs := e.storedEvents(id)
	if len(evs) != 4 || !strings.Contains(string(evs[3]), otherID) {
		t.Errorf("the log holds %d events, want the 3 before the cut and the other device's", len(evs))
	}
	if q := js[string](p, `localStorage.getItem("console.queue")`); q != "[]" {
		t.Errorf("the refused events are still queued: %s", q)
	}
}

// js evaluates expr in the page.
func js[T any](p *tapper, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}
