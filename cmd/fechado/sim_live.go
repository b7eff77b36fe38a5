package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/livereport"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/sim"
)

// simLiveHelp is the part of sim's help about --live (sim_live.go).
const simLiveHelp = `
With --live, sim is a load generator for a room: it plays --tables N simulated tables at once
against a running 'fechado serve' (--target URL), through the write path a table system uses:
each event is POSTed on its own to /api/events as it happens (with --user and --password, Basic
auth of a table device or an app user when serve runs with --auth), one every --pace on average
per table (each wait drawn between half and one and a half of it), for --duration. Meanwhile
--readers clients GET the API (tables, hands, players, and a hand the last list of hands showed
ended, as a spectator opens one), and every hand that ends is polled in its table's list of hands
(/api/hands?table=) until the read models show it ended and audited. Every
--every, a progress line goes to standard error; at the end, the report goes to standard output
as one JSON object: for appends (POST of one event), the live-audit lag (hand.ended appended →
the hand ended in the read models) and reads, the count, errors, p50, p99 and max in
milliseconds.
`

// liveConfig is what sim --live plays.
type liveConfig struct {
	target, user, password string
	tables, readers        int
	pace, duration, every  time.Duration
	rules                  string
	seed                   uint64
}

// runSimLive is sim --live: the load generator.
func runSimLive(m *Main, args []string) (err error) {
	fs := m.flags(commands["sim"])
	var c liveConfig
	fs.Bool("live", true, "play tables at once against a running serve (a load generator)")
	fs.StringVar(&c.target, "target", "", "the URL of the serve to load, e.g. http://127.0.0.1:8080/")
	fs.StringVar(&c.user, "user", "", "Basic auth user (a table device or an app user of serve --auth)")
	fs.StringVar(&c.password, "password", "", "its password")
	fs.IntVar(&c.tables, "tables", 10, "tables dealing at once")
	fs.IntVar(&c.readers, "readers", 2, "clients reading the API meanwhile")
	fs.DurationVar(&c.pace, "pace", 2*time.Second, "mean time between two events of a table")
	fs.DurationVar(&c.duration, "duration", time.Minute, "how long the tables play")
	fs.DurationVar(&c.every, "every", 5*time.Second, "time between two progress lines on standard error")
	fs.StringVar(&c.rules, "rules", "std-draw", "the preset of every table")
	fs.Uint64Var(&c.seed, "seed", 0, "the seed of the first table, the next ones following (default: from the clock, so that two runs never share an id)")
	language := fs.String("lang", "", "language of the progress lines: en, pt-BR, tr, es (default: LC_ALL, LC_MESSAGES, LANG, else en)")
	prof := addProfileFlags(fs, defaultMemoryLimit) // where the load generator's own CPU goes (make load LOAD_PROFILE=1)
	operands, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(operands) > 0 {
		return usageErr("unexpected argument %q (see 'fechado sim --help')", operands[0])
	}
	if c.target == "" || c.tables < 1 || c.pace <= 0 || c.duration <= 0 || c.readers < 0 || c.every <= 0 {
		return usageErr("--live needs --target URL, --tables N ≥ 1, and positive --pace, --duration and --every (see 'fechado sim --help')")
	}
	if !strings.HasSuffix(c.target, "/") {
		c.target += "/"
	}
	if c.seed == 0 {
		c.seed = uint64(time.Now().UnixNano())
	}
	l, err := lang.Choose(*language, m.getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	stopProfile, err := prof.start()
	if err != nil {
		return usageErr("%v", err)
	}
	defer stopProfile(&err)
	ctx, stop := interruptible()
	defer stop()
	rep, err := playLive(ctx, c, func(p liveProgress) {
		fmt.Fprintln(m.Stderr, l.T("sim.live.progress", lang.Args{"seconds": int(p.Elapsed.Seconds()), "appended": p.Append.Count,
			"append_ms": p.Append.P99, "hands": p.Lag.Count, "lag_ms": p.Lag.P99, "reads": p.Read.Count, "read_ms": p.Read.P99,
			"errors": p.Append.Errors + p.Lag.Errors + p.Read.Errors}))
	})
	if err != nil {
		return err
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	fmt.Fprintf(m.Stdout, "%s\n", b)
	return nil
}

// latencies are the samples of one kind of request.
type latencies struct {
	mu     sync.Mutex
	d      []time.Duration
	errors int
	first  string // the first error
}

func (l *latencies) add(d time.Duration) { l.mu.Lock(); l.d = append(l.d, d); l.mu.Unlock() }

func (l *latencies) fail(msg string) {
	l.mu.Lock()
	if l.errors == 0 {
		l.first = msg
	}
	l.errors++
	l.mu.Unlock()
}

func (l *latencies) figures() livereport.Figures {
	l.mu.Lock()
	d := slices.Clone(l.d)
	f := livereport.Figures{Count: len(d), Errors: l.errors, FirstError: l.first}
	l.mu.Unlock()
	if len(d) == 0 {
		return f
	}
	slices.Sort(d)
	at := func(q float64) float64 {
		i := min(int(q*float64(len(d))), len(d)-1)
		return float64(d[i].Microseconds()) / 1000
	}
	f.P50, f.P99, f.Max = at(0.50), at(0.99), float64(d[len(d)-1].Microseconds())/1000
	return f
}

// liveProgress is the load so far.
type liveProgress struct {
	Elapsed           time.Duration
	Append, Lag, Read livereport.Figures
}

// playLive plays c until its duration is over or ctx is done, calling progress every c.every.
func playLive(ctx context.Context, c liveConfig, progress func(liveProgress)) (*livereport.Report, error) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: c.tables + c.readers + 16}}
	var app, lag, read latencies
	start := time.Now()
	playCtx, stopPlay := context.WithTimeout(ctx, c.duration)
	defer stopPlay()
	var lastHand sync.Map
	var wg, polls sync.WaitGroup
	var handsEnded, unseen int
	var mu sync.Mutex
	get := func(path string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.target+path, nil)
		if err != nil {
			return nil, err
		}
		if c.user != "" {
			req.SetBasicAuth(c.user, c.password)
		}
		return client.Do(req)
	}
	// poll waits until hand shows ended and audited in the read models: the live audit has
	// judged it. It reads the table's list of hands, which the read models answer alone (GET
	// /api/hands/{id} of a hand they do not hold yet reads it from the log, and shows it ended
	// as soon as its hand.ended is stored, before any audit). The table's next hand may have
	// started: the two last hands of the table.
	poll := func(table, hand string, appended time.Time) {
		defer polls.Done()
		deadline := time.Now().Add(c.duration + 10*time.Second)
		path := "api/hands?limit=2&table=" + url.QueryEscape(table)
		for time.Now().Before(deadline) && ctx.Err() == nil {
			resp, err := get(path)
			if err == nil {
				var v handList
				if resp.StatusCode == http.StatusOK {
					err = json.NewDecoder(resp.Body).Decode(&v)
				}
				resp.Body.Close()
				if err == nil && v.audited(hand) {
					lag.add(time.Since(appended))
					return
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		mu.Lock()
		unseen++
		mu.Unlock()
	}
	for i := range c.tables {
		s, err := sim.New(sim.Config{Rules: c.rules, Players: 4 + i%3, Hands: 1 << 20, Seed: c.seed + uint64(i),
			Table: fmt.Sprintf("load-%x-%d", c.seed&0xffffff, i+1)})
		if err != nil {
			return nil, usageErr("%v", err)
		}
		rng := rand.New(rand.NewPCG(c.seed, uint64(i)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				h, err := s.Next()
				if err != nil {
					return // io.EOF: one player has every chip
				}
				for _, e := range h.Events {
					wait := c.pace/2 + time.Duration(rng.Int64N(int64(c.pace)+1))
					select {
					case <-playCtx.Done():
						return
					case <-time.After(wait):
					}
					if !postEvent(playCtx, client, c, e, &app) {
						if playCtx.Err() != nil {
							return
						}
						continue
					}
					if e.Type == events.HandEndedType {
						at := time.Now()
						mu.Lock()
						handsEnded++
						mu.Unlock()
						polls.Add(1)
						go poll(e.Table, e.Hand, at)
					}
				}
			}
		}()
	}
	reads := []string{"api/tables", "api/hands?limit=20", "api/players?limit=20", "api/players?sort=hands&limit=20"}
	for r := range c.readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := r; playCtx.Err() == nil; k++ {
				path := reads[k%len(reads)]
				if k%(len(reads)+1) == len(reads) {
					if h, ok := lastHand.Load(0); ok {
						path = "api/hands/" + h.(string)
					}
				}
				t0 := time.Now()
				resp, err := get(path)
				if err != nil {
					if playCtx.Err() == nil {
						read.fail(err.Error())
					}
					continue
				}
				if path == reads[1] && resp.StatusCode == http.StatusOK {
					// The hand a spectator would open next: one the list shows ended.
					var v handList
					if json.NewDecoder(resp.Body).Decode(&v) == nil {
						if h := v.lastEnded(); h != "" {
							lastHand.Store(0, h)
						}
					}
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					read.fail(fmt.Sprintf("GET %s: %s", path, resp.Status))
				} else {
					read.add(time.Since(t0))
				}
				select {
				case <-playCtx.Done():
				case <-time.After(100 * time.Millisecond):
				}
			}
		}()
	}
	tick := time.NewTicker(c.every)
	defer tick.Stop()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	snapshot := func() liveProgress {
		return liveProgress{Elapsed: time.Since(start), Append: app.figures(), Lag: lag.figures(), Read: read.figures()}
	}
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-tick.C:
			progress(snapshot())
		}
	}
	polls.Wait() // the hands ended last, until the read models show them
	p := snapshot()
	progress(p)
	return &livereport.Report{Tables: c.tables, PaceMS: float64(c.pace.Milliseconds()), Seconds: p.Elapsed.Seconds(), Hands: handsEnded,
		Append: p.Append, Lag: p.Lag, LagUnseen: unseen, Read: p.Read}, ctx.Err()
}

// handList is what sim --live reads of GET /api/hands.
type handList struct {
	Hands []struct {
		Hand  string `json:"hand"`
		Ended bool   `json:"ended"`
		Audit string `json:"audit"`
	} `json:"hands"`
}

// audited reports whether the list shows hand ended and audited.
func (l *handList) audited(hand string) bool {
	for _, h := range l.Hands {
		if h.Hand == hand {
			return h.Ended && h.Audit != ""
		}
	}
	return false
}

// lastEnded returns the first hand of the list (the latest) that ended, or "".
func (l *handList) lastEnded() string {
	for _, h := range l.Hands {
		if h.Ended {
			return h.Hand
		}
	}
	return ""
}

// postEvent POSTs one event to /api/events, as a table system appends it, and records how long
// the append took; it reports whether the event was appended.
func postEvent(ctx context.Context, client *http.Client, c liveConfig, e *events.Event, app *latencies) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.target+"api/events", bytes.NewReader(append(slices.Clip(e.Raw), '\n')))
	if err != nil {
		app.fail(err.Error())
		return false
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	if c.user != "" {
		req.SetBasicAuth(c.user, c.password)
	}
	t0 := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			app.fail(err.Error())
		}
		return false
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		app.fail(fmt.Sprintf("POST api/events: %s %s", resp.Status, bytes.TrimSpace(b)))
		return false
	}
	var r struct {
		Appended int `json:"appended"`
	}
	if json.Unmarshal(b, &r) != nil || r.Appended != 1 {
		app.fail(fmt.Sprintf("POST api/events: %s", bytes.TrimSpace(b)))
		return false
	}
	app.add(time.Since(t0))
	return true
}
