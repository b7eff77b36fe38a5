package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/sim"
)

func init() {
	register(&command{
		name:    "demo",
		summary: "serve with simulated tables playing live, for a first look",
		usage:   "demo [--http ADDR] [--data DIR] [--min-delay D] [--max-delay D] [--players N] [--seed S]",
		help: `Demo runs 'fechado serve' and seats computer players at one table per preset, each
table appending one event at a time, every --min-delay to --max-delay (300ms to 800ms by
default), so that a person can watch hands being played on the dashboard. One more table,
demo-irregular (std-draw), plays hands with an irregularity injected in each, in rotation
(the simulator's --inject mechanism: ` + strings.Join(demoInjectNames(), ", ") + `), so the
live auditor has something to show; the other tables play clean hands, with the occasional
exposed card. When a table's simulation ends (one player holds every chip) it starts again.

The URL of the web interface is printed first. The log and the read models go to a fresh
temporary folder, removed when the demo stops, unless --data DIR names a folder to keep
(then table ids carry a run suffix, so that a second run does not continue the first run's
tables). Runs until SIGINT or SIGTERM.

Exit status: 0 after a clean shutdown; 2 on bad usage; 3 when the log store failed.`,
		run: runDemo,
	})
}

// demoInject are the irregularities the demo-irregular table plays, in rotation: codes the
// simulator injects into any std-draw hand.
var demoInject = []finding.Code{finding.BetAmount, finding.PotWinner, finding.DealMismatch, finding.BetOutOfTurn, finding.StackFinal}

func demoInjectNames() []string {
	out := make([]string, len(demoInject))
	for i, c := range demoInject {
		out[i] = string(c)
	}
	return out
}

// demoTable is one simulated table of the demo.
type demoTable struct {
	id     string
	preset string
	inject []finding.Code
}

func runDemo(m *Main, args []string) error {
	c := commands["demo"]
	fs := m.flags(c)
	var f serveFlags
	f.register(fs)
	// A first look shows the Integrity page filled: the demo's log is small, so the analysis of
	// all of it every minute costs little. Setting the value, not the flag, keeps it a default.
	integrity := fs.Lookup("integrity")
	integrity.Value.Set("1m")
	integrity.DefValue = integrity.Value.String()
	minDelay := fs.Duration("min-delay", 300*time.Millisecond, "shortest pause between two events of a table")
	maxDelay := fs.Duration("max-delay", 800*time.Millisecond, "longest pause between two events of a table")
	players := fs.Int("players", 4, "players seated at each table")
	seed := fs.Uint64("seed", 0, "seed of the simulations (0: random)")
	rest, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageErr("unexpected argument %q (see 'fechado demo --help')", rest[0])
	}
	if *minDelay < 0 || *maxDelay < *minDelay {
		return usageErr("--min-delay must be at least 0 and at most --max-delay")
	}
	if *players < 2 || *players > 10 {
		return usageErr("--players must be 2..10")
	}
	if *seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		*seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	suffix := ""
	dataSet := false
	fs.Visit(func(fl *flag.Flag) { dataSet = dataSet || fl.Name == "data" })
	if !dataSet && len(f.log.nats) == 0 {
		dir, err := os.MkdirTemp("", "fechado-demo-")
		if err != nil {
			return withCode(exitStore, err)
		}
		defer os.RemoveAll(dir)
		f.log.data = dir
	} else {
		var b [2]byte
		rand.Read(b[:])
		suffix = "-" + hex.EncodeToString(b[:])
	}
	var tables []demoTable
	for _, p := range rules.Names() {
		tables = append(tables, demoTable{id: "demo-" + p + suffix, preset: p})
	}
	tables = append(tables, demoTable{id: "demo-irregular" + suffix, preset: "std-draw", inject: demoInject})
	ctx, stop := serveContext()
	defer stop()
	var failed error
	var mu sync.Mutex
	err = serveRun(ctx, m, &f, func(ctx context.Context, l *recorder.Log, url string) {
		f.logger.Info(fmt.Sprintf("fechado demo: %d tables playing; data in %s", len(tables), f.log.data),
			"tables", len(tables), "data", f.log.data)
		var wg sync.WaitGroup
		for i, t := range tables {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := playDemoTable(ctx, l, t, *players, *seed+uint64(i)*7919, *minDelay, *maxDelay)
				if err != nil && ctx.Err() == nil {
					mu.Lock()
					if failed == nil {
						failed = err
					}
					mu.Unlock()
					f.logger.Error(fmt.Sprintf("fechado demo: table %s stopped: %v", t.id, err), "table", t.id, "error", err)
				}
			}()
		}
		wg.Wait()
	})
	if err != nil {
		return err
	}
	if failed != nil {
		return withCode(exitStore, failed)
	}
	return nil
}

// playDemoTable plays simulated hands at one table, appending one event at a time with a pause
// between events, until ctx is done. A simulation that ends starts again under a new table id.
func playDemoTable(ctx context.Context, l *recorder.Log, t demoTable, players int, seed uint64, minDelay, maxDelay time.Duration) error {
	rng := mrand.New(mrand.NewPCG(seed, seed>>1|1))
	pause := func() bool {
		d := minDelay
		if maxDelay > minDelay {
			d += time.Duration(rng.Int64N(int64(maxDelay - minDelay)))
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(d):
			return true
		}
	}
	n := players
	if p, err := rules.Lookup(t.preset); err == nil {
		n = min(max(n, p.MinPlayers), p.MaxPlayers)
	}
	for round := 1; ctx.Err() == nil; round++ {
		id := t.id
		if round > 1 {
			id = fmt.Sprintf("%s-%d", t.id, round)
		}
		s, err := sim.New(sim.Config{Rules: t.preset, Players: n, Hands: 1 << 20, Seed: seed + uint64(round),
			Table: id, Inject: t.inject, Start: time.Now().UTC(),
			// The clean tables play cash sessions where the preset allows: players come and go.
			Cash: len(t.inject) == 0 && sim.CashAllowed(t.preset)})
		if err != nil {
			return err
		}
		for ctx.Err() == nil {
			h, err := s.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			prev := ""
			for _, e := range h.Events {
				// The simulator's clock runs ahead of the demo's pace: each event is stamped
				// with the time it is appended, and the hand's chain sealed again.
				e.At = time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00")
				events.Seal(e, prev)
				prev = events.Hash(e.Raw)
				if _, err := l.Append(ctx, e); err != nil {
					if ctx.Err() != nil {
						return nil
					}
					return err
				}
				if !pause() {
					return nil
				}
			}
		}
	}
	return nil
}
