package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// The room the spread of the audit over the cores is measured on: many cash tables whose hands
// interleave in one file, as a room's export is (the alternated pairs of BENCHMARKS.md's
// sixteenth session): `fechado sim --room --players 300 --tables 50 --hands 20000 --seed 5`.
var roomArgs = []string{"--room", "--players", "300", "--tables", "50", "--hands", "20000", "--seed", "5"}

// spreadAudits is `audit --json --workers N` (N the machine's CPUs) against `--workers 1` on the
// room file, run in turn: Pairs.Base holds the one-worker runs, Pairs.Cur the N-worker ones, so
// that pairedRatios gives the speed-up of each round.
type spreadAudits struct {
	File    string // the room file, in the cache folder
	Room    table  // its hands, events and bytes
	Workers int
	Pairs   *pairedAudits
	Err     error // the room could not be simulated or counted
}

// roomPath is where the cache keeps the room file: named by its arguments, so that another room
// is another file.
func (w *wholeProcess) roomPath() string {
	name := "room"
	for _, a := range roomArgs[1:] {
		if len(a) > 2 && a[:2] == "--" {
			name += "-" + a[2:3]
		} else {
			name += a
		}
	}
	return filepath.Join(w.cfg.cache, name+".jsonl")
}

// measureSpreadRoom simulates the room file into the cache when it is not there yet, then runs
// -spread-rounds rounds of `audit --json --workers N` and `--workers 1` on it, neither pinned (the
// spread is over every core), the one that goes first changing each round. The first round's two
// outputs are compared byte for byte. A round that would not end before until (estimated from the
// rounds so far, times -margin) is left out, and the report says so.
func (w *wholeProcess) measureSpreadRoom(ctx context.Context, until time.Time, progress io.Writer) {
	n := runtime.NumCPU()
	if n < 2 {
		w.notes = append(w.notes, "audit on every core against one worker: left out, the machine has one CPU")
		return
	}
	ctx, cancel := context.WithDeadline(ctx, until)
	defer cancel()
	sp := &spreadAudits{File: w.roomPath(), Workers: n, Pairs: &pairedAudits{Asked: w.cfg.spreadRounds}}
	w.spread = sp
	if _, err := os.Stat(sp.File); err != nil {
		fmt.Fprintf(progress, "benchreport: the room for the audit on every core: fechado sim %v (cached in %s)\n", roomArgs, relPath(w.cfg.cache))
		tmp := sp.File + ".tmp"
		if _, err := measure(ctx, nil, nil, w.cfg.fechado, append(append([]string{"sim"}, roomArgs...), "--out", tmp)...); err != nil {
			os.Remove(tmp)
			sp.Err = err
			return
		}
		// Only a whole room is given the file's name: a run stopped halfway leaves none.
		if err := os.Rename(tmp, sp.File); err != nil {
			sp.Err = err
			return
		}
	}
	sp.Room.Path = sp.File
	if err := sp.Room.count(); err != nil {
		sp.Err = err
		return
	}
	p := sp.Pairs
	fmt.Fprintf(progress, "benchreport: audit --json --workers %d and --workers 1 in turn on the room (%s hands), %d rounds\n", n, thousands(sp.Room.Hands), p.Asked)
	workers := [2]int{1, n} // the order of Base, Cur
	runs := [2]*[]run{&p.Base, &p.Cur}
	var outs [2]string
	for i := range p.Asked {
		if est := w.spreadEstimate(); time.Until(until) < est {
			w.notes = append(w.notes, fmt.Sprintf("audit on every core against one worker: %d of %d rounds, another was estimated at about %s, %s left of the budget",
				i, p.Asked, est.Round(time.Second), max(time.Until(until), 0).Round(time.Second)))
			return
		}
		for j := range 2 {
			k := j ^ i%2 // one worker first in even rounds, every core first in odd ones
			var stdout *os.File
			if i == 0 {
				outs[k] = filepath.Join(w.cfg.work, fmt.Sprintf("spread-workers-%d.json", workers[k]))
				f, err := os.Create(outs[k])
				if err != nil {
					p.Err = err
					return
				}
				stdout = f
			}
			var out io.Writer
			if stdout != nil {
				out = stdout
			}
			r, err := measure(ctx, out, []int{0, 1}, w.cfg.fechado, "audit", "--json", "--workers", strconv.Itoa(workers[k]), sp.File)
			if stdout != nil {
				stdout.Close()
			}
			if err != nil {
				p.Err = err
				return
			}
			*runs[k] = append(*runs[k], r)
		}
		if i == 0 {
			p.compareOutputs(outs)
		}
	}
}

// spreadEstimate is the time of the next round of the spread, times -margin: the mean of the
// rounds so far, else a minute.
func (w *wholeProcess) spreadEstimate() time.Duration {
	p := w.spread.Pairs
	n := p.rounds()
	if n == 0 {
		return time.Duration(float64(time.Minute) * w.cfg.margin)
	}
	var sum time.Duration
	for i := range n {
		sum += p.Base[i].Wall + p.Cur[i].Wall
	}
	return time.Duration(float64(sum) / float64(n) * w.cfg.margin)
}

// spreadRow is the summary row of the audit on every core against one worker.
func (r *report) spreadRow(p printer) {
	var sp *spreadAudits
	if r.Whole != nil {
		sp = r.Whole.spread
	}
	what := fmt.Sprintf("A room's file audited on every core: `fechado audit --json --workers N` (N the CPUs) against `--workers 1`, whole processes, not pinned, in turn (`fechado sim %s`)", strings.Join(roomArgs, " "))
	switch {
	case sp == nil:
		p("| %s | missing: see \"Left out\" | | |\n", what)
		return
	case sp.Err != nil:
		p("| %s | missing: %v | | |\n", what, sp.Err)
		return
	}
	pa := sp.Pairs
	ratios := pairedRatios(pa.Base, pa.Cur)
	if len(ratios) == 0 {
		if pa.Err != nil {
			p("| %s | missing: %v | | |\n", what, pa.Err)
		} else {
			p("| %s | missing: see \"Left out\" | | |\n", what)
		}
		return
	}
	up := quantile(ratios, 0.5)
	same := "the findings (the first round's two `--json` outputs) identical byte for byte"
	if pa.Checked && !pa.Identical {
		same = "**the findings differ** (the first round's two `--json` outputs, kept in the scratch folder with `-keep`)"
	}
	met := up >= spreadTarget && pa.Checked && pa.Identical && pa.Err == nil
	note := ""
	if pa.Err != nil {
		note = fmt.Sprintf("; a run failed: %v", pa.Err)
	}
	p("| %s on %s hands (%s events, %.0f MB), %s; %s | `--workers %d`: median %s (%s hands/s), peak memory %s MB | `--workers 1`: median %s, peak memory %s MB | %.2f× the speed of one worker (median of the rounds' ratios, quartiles %.2f and %.2f); target at least %.1f× on 2 cores (issue 43): %s%s |\n",
		what, thousands(sp.Room.Hands), thousands(sp.Room.Events), float64(sp.Room.Bytes)/1e6, roundsText(pa.rounds()), same,
		sp.Workers, secs(wallAt(pa.Cur, 0.5)), thousandsF(perSecond(sp.Room.Hands, wallAt(pa.Cur, 0.5))), peakMedian(pa.Cur),
		secs(wallAt(pa.Base, 0.5)), peakMedian(pa.Base), up, quantile(ratios, 0.25), quantile(ratios, 0.75), spreadTarget, metOrNot(met), note)
}

// spreadRaw writes the spread's rounds as benchmark lines, one a round of each number of workers.
func (sp *spreadAudits) raw(b io.Writer) {
	if sp == nil || sp.Err != nil {
		return
	}
	for k, runs := range [2][]run{sp.Pairs.Base, sp.Pairs.Cur} {
		workers := 1
		if k == 1 {
			workers = sp.Workers
		}
		for _, r := range runs[:sp.Pairs.rounds()] {
			fmt.Fprintf(b, "BenchmarkCmd/audit-spread/workers=%d \t1\t%d ns/op\t%.0f hands/s\t%d peak-RSS-B\t%.2f CPU-s\n",
				workers, r.Wall.Nanoseconds(), perSecond(sp.Room.Hands, r.Wall), r.MaxRSS, r.CPU.Seconds())
		}
	}
}
