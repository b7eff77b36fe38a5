package web_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/sim"
)

// TestAppendedCountsEveryPath appends hands by three paths — POST /api/events, the log's Append
// (the table console and the demo's simulated tables), and a client of its own publishing
// straight to the hand's subject as another process would — and checks that
// fechado_events_appended_total counts the events of all three, and nothing twice: a repeated
// POST stores nothing new.
func TestAppendedCountsEveryPath(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 3, Hands: 3, Seed: 61, Table: "t-paths", ExposeRate: -1})
	ctx := context.Background()

	e.post(handsBody(hs[:1]), http.StatusOK, nil)
	posted := float64(len(hs[0].Events))
	if got := e.metric("fechado_events_appended_total"); got != posted {
		t.Fatalf("after a POST of %v events the counter is %v", posted, got)
	}

	for _, ev := range hs[1].Events {
		if _, err := e.log.Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	// Another NATS client on the same server: this process's own code never sees its appends.
	js := recordertest.JetStream(t, e.log)
	for _, ev := range hs[2].Events {
		if _, err := js.Publish(ctx, recorder.Subject(ev.Table, ev.Hand), ev.Raw, jetstream.WithMsgID(ev.ID)); err != nil {
			t.Fatal(err)
		}
	}
	e.post(handsBody(hs[:1]), http.StatusOK, nil) // already stored: skipped, not appended again
	want := posted + float64(len(hs[1].Events)+len(hs[2].Events))
	if got := e.metric("fechado_events_appended_total"); got != want {
		t.Errorf("fechado_events_appended_total = %v after %v events by three paths", got, want)
	}
	if got := e.metric("fechado_events_skipped_total"); got != posted {
		t.Errorf("fechado_events_skipped_total = %v, want the %v events posted twice", got, posted)
	}
}

// scrapeLog reads the three series of the log and its projection from one GET /metrics.
func (e *env) scrapeLog() (appended, checkpoint, lag float64) {
	e.t.Helper()
	code, b := e.do(http.MethodGet, "/metrics", nil)
	if code != http.StatusOK {
		e.t.Fatalf("GET /metrics: %d", code)
	}
	got := map[string]*float64{"fechado_events_appended_total": &appended,
		"fechado_projector_checkpoint": &checkpoint, "fechado_projector_lag_events": &lag}
	seen := 0
	for _, line := range strings.Split(string(b), "\n") {
		name, v, ok := strings.Cut(line, " ")
		if p := got[name]; ok && p != nil {
			if _, err := fmt.Sscan(v, p); err != nil {
				e.t.Fatal(err)
			}
			seen++
		}
	}
	if seen != len(got) {
		e.t.Fatalf("/metrics has %d of the log's %d series:\n%s", seen, len(got), b)
	}
	return appended, checkpoint, lag
}

// TestLogSeriesFollowEveryAppendAndProjection checks, at every scrape after each acknowledged
// append (the log's own Append, and a NATS client of its own publishing as another process
// would), that fechado_events_appended_total is the number of events appended, that the
// checkpoint never passes it nor goes back, and that the lag is exactly appended minus
// checkpoint in the same scrape; and once the projector has caught up, that the checkpoint is
// the read models' own and the lag 0. Each scrape reads the stream and the read models afresh:
// nothing is kept from one scrape to the next but the counter's floor.
func TestLogSeriesFollowEveryAppendAndProjection(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 2, Seed: 63, Table: "t-series", ExposeRate: -1})
	ctx := context.Background()
	js := recordertest.JetStream(t, e.log)
	var appended, lastCP float64
	check := func(how string) {
		t.Helper()
		a, cp, lag := e.scrapeLog()
		if a != appended {
			t.Fatalf("after %v events (%s) fechado_events_appended_total = %v", appended, how, a)
		}
		if cp < lastCP || cp > a {
			t.Fatalf("checkpoint %v after %v, with %v events appended (%s)", cp, lastCP, a, how)
		}
		if lag != a-cp {
			t.Fatalf("lag %v in the scrape where appended is %v and checkpoint %v (%s)", lag, a, cp, how)
		}
		lastCP = cp
	}
	check("none")
	for _, ev := range hs[0].Events {
		if _, err := e.log.Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
		appended++
		check("the log's Append")
	}
	for _, ev := range hs[1].Events {
		if _, err := js.Publish(ctx, recorder.Subject(ev.Table, ev.Hand), ev.Raw, jetstream.WithMsgID(ev.ID)); err != nil {
			t.Fatal(err)
		}
		appended++
		check("another client's publish")
	}
	e.waitProjected()
	a, cp, lag := e.scrapeLog()
	stored, err := e.srv.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a != appended || cp != appended || float64(stored) != cp || lag != 0 {
		t.Errorf("projected: appended %v, checkpoint %v (read models: %d), lag %v; want %v, %v, %v, 0",
			a, cp, stored, lag, appended, appended, appended)
	}
}

// BenchmarkMetrics is one scrape of /metrics as Prometheus makes it (gzip), over an embedded
// log of a few projected hands, on an idle server and on a busy one: in "busy", twenty
// goroutines (serve's readers under the issue 43 load) each compute for 50 µs at a time and
// yield, so a goroutine the scrape waits for waits its turn behind them, as on a server whose
// cores are all taken. The time per scrape there grows with every goroutine hand-off and yield
// the scrape makes, not with its own work.
func BenchmarkMetrics(b *testing.B) {
	e := newEnv(b, 0)
	hs := simulatedB(b, sim.Config{Rules: "std-draw", Players: 4, Hands: 8, Seed: 97, Table: "bench", ExposeRate: -1})
	for range 8 {
		h, err := hs.Next()
		if err != nil {
			b.Fatal(err)
		}
		e.post(jsonl(h.Events), http.StatusOK, nil)
	}
	e.waitProjected()
	client := &http.Client{}
	scrape := func(b *testing.B) {
		for b.Loop() {
			req, err := http.NewRequest(http.MethodGet, e.ts.URL+"/metrics", nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Accept-Encoding", "gzip")
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("%d", resp.StatusCode)
			}
		}
	}
	b.Run("idle", scrape)
	b.Run("busy", func(b *testing.B) {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				h := sha256.New()
				buf := make([]byte, 4096)
				for {
					select {
					case <-stop:
						return
					default:
					}
					for t0 := time.Now(); time.Since(t0) < 50*time.Microsecond; {
						h.Write(buf)
					}
					runtime.Gosched()
				}
			}()
		}
		scrape(b)
		close(stop)
		wg.Wait()
	})
}

// TestMetricsKeepEverySeries lists the families /metrics gives, each once with its type and its
// labels: the server's own, the process's and a few of the Go runtime's, as they were before the
// registry's collectors were collected in turn (collectInTurn) and the log's three series read
// together (logSeries). A dashboard or alert that reads one of them by name keeps working.
func TestMetricsKeepEverySeries(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	clean, bad := fixture(t, e)
	e.waitMetric("fechado_hands_audited_total", float64(len(clean)+len(bad)))
	code, b := e.do(http.MethodGet, "/metrics", nil)
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	types := map[string]string{}  // family: its TYPE
	labels := map[string]string{} // family: the names of its series' labels, le and quantile aside
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(rest, " ")
			if _, twice := types[name]; twice {
				t.Errorf("family %s given twice", name)
			}
			types[name] = typ
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		series, _, _ := strings.Cut(line, " ")
		name, set, _ := strings.Cut(series, "{")
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			if base, ok := strings.CutSuffix(name, suffix); ok && types[base] != "" {
				name = base
			}
		}
		var names []string
		for _, kv := range strings.Split(strings.TrimSuffix(set, "}"), ",") {
			if k, _, ok := strings.Cut(kv, "="); ok && k != "le" && k != "quantile" {
				names = append(names, k)
			}
		}
		labels[name] = strings.Join(names, ",")
	}
	for _, f := range []struct{ name, typ, labels string }{
		{"fechado_events_appended_total", "counter", ""},
		{"fechado_events_skipped_total", "counter", ""},
		{"fechado_append_conflicts_total", "counter", ""},
		{"fechado_append_rejected_total", "counter", ""},
		{"fechado_findings_total", "counter", "code,severity"},
		{"fechado_audit_duration_seconds", "histogram", ""},
		{"fechado_hands_audited_total", "counter", ""},
		{"fechado_sse_clients", "gauge", ""},
		{"fechado_projector_lag_events", "gauge", ""},
		{"fechado_projector_checkpoint", "gauge", ""},
		{"process_cpu_seconds_total", "counter", ""},
		{"process_open_fds", "gauge", ""},
		{"process_max_fds", "gauge", ""},
		{"process_virtual_memory_bytes", "gauge", ""},
		{"process_virtual_memory_max_bytes", "gauge", ""},
		{"process_resident_memory_bytes", "gauge", ""},
		{"process_start_time_seconds", "gauge", ""},
		{"process_network_receive_bytes_total", "counter", ""},
		{"process_network_transmit_bytes_total", "counter", ""},
		{"go_goroutines", "gauge", ""},
		{"go_threads", "gauge", ""},
		{"go_gc_duration_seconds", "summary", ""},
		{"go_memstats_alloc_bytes", "gauge", ""},
		{"go_info", "gauge", "version"},
	} {
		if types[f.name] != f.typ {
			t.Errorf("%s: type %q, want %q", f.name, types[f.name], f.typ)
		}
		if got, ok := labels[f.name]; !ok || got != f.labels {
			t.Errorf("%s: labels %q (a series: %v), want %q", f.name, got, ok, f.labels)
		}
	}
}
