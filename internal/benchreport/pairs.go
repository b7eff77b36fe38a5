package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// pairsFlag is the mode that times two commands in turn, A B A B …, as whole processes, and
// prints the ratio A/B of their CPU and wall time pair by pair: the figures of BENCHMARKS.md's
// hand-written sections ("alternated pairs") are made this way. Pairing keeps a ratio meaningful
// on a machine whose speed drifts while it runs (other work, the clock, the caches): both of a
// pair ran at about the same moment.
//
//	benchreport -pairs [-n RUNS] [-warmup W] 'COMMAND A' 'COMMAND B'
//
// Each command is one string run by sh -c (pipes and globs allowed; it is exec'd when it is a
// plain command, so its own usage is the one measured); its output is thrown away. CPU is user +
// system time of the finished process and the children it waited for (wait4), peak the largest
// resident size among them.
const pairsFlag = "-pairs"

// pairFigures are the two commands' runs, pair i being A[i] and B[i].
type pairFigures struct {
	A, B []run
}

// cpuRatios is A's CPU time over B's, pair by pair.
func (p *pairFigures) cpuRatios() []float64 {
	var rs []float64
	for i := range min(len(p.A), len(p.B)) {
		rs = append(rs, p.A[i].CPU.Seconds()/p.B[i].CPU.Seconds())
	}
	return rs
}

// wallRatios is A's wall time over B's, pair by pair (pairedRatios with A in the baseline's place).
func (p *pairFigures) wallRatios() []float64 { return pairedRatios(p.A, p.B) }

func pairsMain(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("benchreport "+pairsFlag, flag.ContinueOnError)
	n := fs.Int("n", 7, "pairs counted")
	warmup := fs.Int("warmup", 1, "pairs run first and not counted")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 || *n < 1 || *warmup < 0 {
		return errors.New("usage: benchreport -pairs [-n RUNS] [-warmup W] 'COMMAND A' 'COMMAND B'")
	}
	ctx, stop := signalContext()
	defer stop()
	p, err := timePairs(ctx, fs.Arg(0), fs.Arg(1), *n, *warmup)
	if err != nil {
		return err
	}
	p.print(out, fs.Arg(0), fs.Arg(1))
	return nil
}

// timePairs runs a and b in turn, warmup pairs uncounted, then n pairs.
func timePairs(ctx context.Context, a, b string, n, warmup int) (*pairFigures, error) {
	p := &pairFigures{}
	for i := range warmup + n {
		ra, err := measure(ctx, nil, nil, "sh", "-c", a)
		if err != nil {
			return nil, err
		}
		rb, err := measure(ctx, nil, nil, "sh", "-c", b)
		if err != nil {
			return nil, err
		}
		if i < warmup {
			continue
		}
		p.A, p.B = append(p.A, ra), append(p.B, rb)
	}
	return p, nil
}

// print writes each command's median CPU, wall and peak, and the ratios' median, lowest and
// highest.
func (p *pairFigures) print(w io.Writer, a, b string) {
	for _, c := range []struct {
		name, cmd string
		runs      []run
	}{{"A", a, p.A}, {"B", b, p.B}} {
		var cpu, wall, peak []float64
		for _, r := range c.runs {
			cpu, wall, peak = append(cpu, r.CPU.Seconds()), append(wall, r.Wall.Seconds()), append(peak, float64(r.MaxRSS)/(1<<20))
		}
		fmt.Fprintf(w, "%s  cpu %.3f s  wall %.3f s  peak %.0f MiB  (medians of %d)  %s\n", c.name,
			quantile(cpu, 0.5), quantile(wall, 0.5), quantile(peak, 0.5), len(c.runs), strings.TrimSpace(c.cmd))
	}
	for _, r := range []struct {
		name string
		xs   []float64
	}{{"cpu ", p.cpuRatios()}, {"wall", p.wallRatios()}} {
		fmt.Fprintf(w, "A/B %s %.3f (%.3f–%.3f)\n", r.name, quantile(r.xs, 0.5), slices.Min(r.xs), slices.Max(r.xs))
	}
}
