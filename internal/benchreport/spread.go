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
	// Data, for the audit of the stored log (audit --all), is the log's folder: the room file
	// recorded there by Record. FileSame says that the first round's one-worker output was
	// the file's, byte for byte, with the same exit status (FileChecked: compared).
	Data                  string
	Record                *run
	FileChecked, FileSame bool
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
	fmt.Fprintf(progress, "benchreport: audit --json --workers %d and --workers 1 in turn on the room (%s hands), %d rounds\n", n, thousands(sp.Room.Hands), sp.Pairs.Asked)
	w.spreadRounds(ctx, sp, "audit on every core against one worker", func(workers int) []string {
		return []string{"audit", "--json", "--workers", strconv.Itoa(workers), sp.File}
	})
	if sp.Pairs.Err != nil || sp.Pairs.rounds() < sp.Pairs.Asked {
		return
	}
	w.measureSpreadStore(ctx, sp, progress)
}

// measureSpreadStore records the room file into a log of its own (`fechado record --data`), then
// runs rounds of `audit --all --json --workers N` and `--workers 1` on it, as measureSpreadRoom
// does on the file: the audit of the stored log, read through the embedded server in the
// audit's own process. The first round's one-worker output is compared with the file's.
func (w *wholeProcess) measureSpreadStore(ctx context.Context, file *spreadAudits, progress io.Writer) {
	sp := &spreadAudits{File: file.File, Room: file.Room, Workers: file.Workers, Pairs: &pairedAudits{Asked: file.Pairs.Asked},
		Data: filepath.Join(w.cfg.work, "room-log")}
	w.storeSpread = sp
	if err := os.RemoveAll(sp.Data); err != nil {
		sp.Err = err
		return
	}
	defer os.RemoveAll(sp.Data) // 0.45 GB, which the sizes after it do not need
	fmt.Fprintf(progress, "benchreport: fechado record --data %s of the room\n", relPath(sp.Data))
	r, err := measure(ctx, nil, nil, w.cfg.fechado, "record", "--data", sp.Data, sp.File)
	if err != nil {
		sp.Err = err
		return
	}
	sp.Record = &r
	fmt.Fprintf(progress, "benchreport: audit --all --json --workers %d and --workers 1 in turn on the room's log, %d rounds\n", sp.Workers, sp.Pairs.Asked)
	w.spreadRounds(ctx, sp, "the stored log audited on every core against one worker", func(workers int) []string {
		return []string{"audit", "--all", "--json", "--workers", strconv.Itoa(workers), "--data", sp.Data}
	})
	if p, f := sp.Pairs, file.Pairs; p.Checked && f.Checked {
		sp.FileChecked = true
		sp.FileSame = p.Sums[0] == f.Sums[0] && p.Base[0].Exit == f.Base[0].Exit
	}
}

// spreadRounds runs sp.Pairs.Asked rounds of the audit args gives for N workers (sp.Workers) and
// for one, one after the other, neither pinned, the one that goes first changing each round; the
// first round's two outputs are compared byte for byte. A round that would not end before ctx's
// deadline (estimated from the rounds so far, times -margin) is left out, and the notes say so
// under what.
func (w *wholeProcess) spreadRounds(ctx context.Context, sp *spreadAudits, what string, args func(workers int) []string) {
	p := sp.Pairs
	workers := [2]int{1, sp.Workers} // the order of Base, Cur
	runs := [2]*[]run{&p.Base, &p.Cur}
	var outs [2]string
	for i := range p.Asked {
		deadline, _ := ctx.Deadline()
		if est := spreadEstimate(p, w.cfg.margin); time.Until(deadline) < est {
			w.notes = append(w.notes, fmt.Sprintf("%s: %d of %d rounds, another was estimated at about %s, %s left of the budget",
				what, i, p.Asked, est.Round(time.Second), max(time.Until(deadline), 0).Round(time.Second)))
			return
		}
		for j := range 2 {
			k := j ^ i%2 // one worker first in even rounds, every core first in odd ones
			var stdout *os.File
			if i == 0 {
				name := "spread"
				if sp.Data != "" {
					name = "spread-all"
				}
				outs[k] = filepath.Join(w.cfg.work, fmt.Sprintf("%s-workers-%d.json", name, workers[k]))
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
			r, err := measure(ctx, out, []int{0, 1}, w.cfg.fechado, args(workers[k])...)
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

// spreadEstimate is the time of the next round of p, times margin: the mean of the rounds so far,
// else a minute.
func spreadEstimate(p *pairedAudits, margin float64) time.Duration {
	n := p.rounds()
	if n == 0 {
		return time.Duration(float64(time.Minute) * margin)
	}
	var sum time.Duration
	for i := range n {
		sum += p.Base[i].Wall + p.Cur[i].Wall
	}
	return time.Duration(float64(sum) / float64(n) * margin)
}

// spreadRow is the summary row of the audit on every core against one worker, on the file, and
// the row of the same on the room's log (audit --all).
func (r *report) spreadRow(p printer) {
	var sp, st *spreadAudits
	if r.Whole != nil {
		sp, st = r.Whole.spread, r.Whole.storeSpread
	}
	what := fmt.Sprintf("A room's file audited on every core: `fechado audit --json --workers N` (N the CPUs) against `--workers 1`, whole processes, not pinned, in turn (`fechado sim %s`)", strings.Join(roomArgs, " "))
	spreadRowOf(p, sp, what, "")
	if sp == nil || sp.Err != nil {
		return // the room's log is recorded from the file, once it was audited
	}
	what = "The same room's log audited from the store on every core: `fechado audit --all --json --workers N --data DIR` against `--workers 1`, the room's file recorded with `fechado record --data DIR` (its embedded server in the audit's process), whole processes, not pinned, in turn"
	extra := ""
	if st != nil && st.Err == nil && st.Pairs.rounds() > 0 {
		same := "**differ from the file's**"
		switch {
		case !st.FileChecked:
			same = "not compared with the file's"
		case st.FileSame:
			same = "identical to the file's"
		}
		extra = fmt.Sprintf("; one worker's findings %s; `--workers %d` takes %.1f× the time of the file's audit on as many workers", same, st.Workers,
			float64(wallAt(st.Pairs.Cur, 0.5))/float64(max(wallAt(sp.Pairs.Cur, 0.5), 1)))
		if st.Record != nil {
			extra += fmt.Sprintf("; `record` took %s (%s events/s)", secs(st.Record.Wall), thousandsF(perSecond(st.Room.Events, st.Record.Wall)))
		}
	}
	spreadRowOf(p, st, what, extra)
}

// spreadRowOf is the row of one spread; extra ends its last cell.
func spreadRowOf(p printer, sp *spreadAudits, what, extra string) {
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
	met := up >= spreadTarget && pa.Checked && pa.Identical && pa.Err == nil && (sp.Data == "" || sp.FileSame)
	note := ""
	if pa.Err != nil {
		note = fmt.Sprintf("; a run failed: %v", pa.Err)
	}
	p("| %s on %s hands (%s events, %.0f MB), %s; %s | `--workers %d`: median %s (%s hands/s), peak memory %s MB | `--workers 1`: median %s, peak memory %s MB | %.2f× the speed of one worker (median of the rounds' ratios, quartiles %.2f and %.2f); target at least %.1f× on 2 cores (issue 43): %s%s%s |\n",
		what, thousands(sp.Room.Hands), thousands(sp.Room.Events), float64(sp.Room.Bytes)/1e6, roundsText(pa.rounds()), same,
		sp.Workers, secs(wallAt(pa.Cur, 0.5)), thousandsF(perSecond(sp.Room.Hands, wallAt(pa.Cur, 0.5))), peakMedian(pa.Cur),
		secs(wallAt(pa.Base, 0.5)), peakMedian(pa.Base), up, quantile(ratios, 0.25), quantile(ratios, 0.75), spreadTarget, metOrNot(met), note, extra)
}

// raw writes the spread's rounds as benchmark lines, one a round of each number of workers:
// audit-spread on the file, audit-all-spread on the stored log.
func (sp *spreadAudits) raw(b io.Writer) {
	if sp == nil || sp.Err != nil {
		return
	}
	name := "audit-spread"
	if sp.Data != "" {
		name = "audit-all-spread"
	}
	for k, runs := range [2][]run{sp.Pairs.Base, sp.Pairs.Cur} {
		workers := 1
		if k == 1 {
			workers = sp.Workers
		}
		for _, r := range runs[:sp.Pairs.rounds()] {
			fmt.Fprintf(b, "BenchmarkCmd/%s/workers=%d \t1\t%d ns/op\t%.0f hands/s\t%d peak-RSS-B\t%.2f CPU-s\n",
				name, workers, r.Wall.Nanoseconds(), perSecond(sp.Room.Hands, r.Wall), r.MaxRSS, r.CPU.Seconds())
		}
	}
}
