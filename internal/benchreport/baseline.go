package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// bigBaselineRounds is how many rounds of the two audits the largest size gets at most: each
// round there takes as long as two audits of the whole largest log, and the rounds of the
// first size already give the spread.
const bigBaselineRounds = 2

// pairedAudits is the audit of one size's files by the baseline's fechado and by this commit's,
// run in turn. Round i holds one run of each, back to back, so that the two share whatever the
// machine was doing at that moment; the ratio of the two times of a round then leaves out most of
// what slows the whole round, which the ratio of two medians taken apart would keep.
type pairedAudits struct {
	Asked     int   // rounds asked for
	Base, Cur []run // the baseline's runs and this commit's, in the order of the rounds
	// Checked is set when the first round's two --json outputs were compared; Identical when
	// they were the same byte for byte, with the same exit status.
	Checked, Identical  bool
	BaseBytes, CurBytes int64                // the sizes of the two outputs compared
	Sums                [2][sha256.Size]byte // their SHA-256
	Err                 error                // a run that failed (the rounds stop there), or the budget running out
}

// rounds is the number of rounds both audits ran in.
func (p *pairedAudits) rounds() int { return min(len(p.Base), len(p.Cur)) }

// pairedRatios returns, for each round both ran in, the baseline's time over the current one's:
// the current code's rate as a share of the baseline's (above 1 when the current code is faster).
func pairedRatios(base, cur []run) []float64 {
	var rs []float64
	for i := range min(len(base), len(cur)) {
		if cur[i].Wall > 0 {
			rs = append(rs, float64(base[i].Wall)/float64(cur[i].Wall))
		}
	}
	return rs
}

// quantile returns the q-th quantile (0 ≤ q ≤ 1) of xs, interpolated linearly between the two
// nearest ranks, so that q = 0.5 is the usual median (the mean of the middle two of an even
// count); NaN when xs is empty.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	i := int(math.Floor(pos))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}

// wallAt returns the q-th quantile (quantile's) of the wall times of runs.
func wallAt(runs []run, q float64) time.Duration {
	var ws []float64
	for _, r := range runs {
		ws = append(ws, float64(r.Wall))
	}
	return time.Duration(quantile(ws, q))
}

// baselineName is how the report names the baseline: its commit, else its file.
func (c *config) baselineName() string {
	if c.baselineCommit != "" {
		return c.baselineCommit
	}
	return filepath.Base(c.baseline)
}

// roundsAt returns how many rounds of the two audits size i of -sizes gets at most: the asked
// number at the first size, a few at the largest, none between (nor without a baseline).
func (c *config) roundsAt(i int) int {
	switch {
	case c.baseline == "":
		return 0
	case i == 0:
		return c.baselineRounds
	case i == len(c.sizes)-1:
		return bigBaselineRounds
	}
	return 0
}

// measurePaired runs the baseline's `audit --json` and this commit's on the files of s in turn,
// up to rounds rounds, each pinned to one core as the size's own audit is; the one that goes first
// changes each round, so that neither always finds the machine as the other left it. The first
// round's outputs go to files, compared byte for byte afterwards; the others', as the size's own
// audit's, to the null device. A round is left out when it would not end before the deadline of
// ctx with reserve still left (the rest of the size: record, project); the report says so.
func (w *wholeProcess) measurePaired(ctx context.Context, s *size, files []string, rounds int, reserve time.Duration, progress io.Writer) {
	p := &pairedAudits{Asked: rounds}
	s.Paired = p
	name := w.cfg.baselineName()
	fmt.Fprintf(progress, "benchreport:   audit --json of %s and of this commit in turn, on one core, %d rounds\n", name, rounds)
	codes := [2]struct {
		bin, tag string
		runs     *[]run
	}{{w.cfg.baseline, "baseline", &p.Base}, {w.cfg.fechado, "current", &p.Cur}}
	var outs [2]string // the first round's outputs, in the order of codes
	for i := range rounds {
		est := w.roundEstimate(s)
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline)-reserve < est {
			left := fmt.Sprintf("%s left of the budget", max(time.Until(deadline)-reserve, 0).Round(time.Second))
			if reserve > 0 {
				left += " beyond record and project"
			}
			if i == 0 {
				w.notes = append(w.notes, fmt.Sprintf("%s hands: audit against the code of %s left out: a round of the two was estimated at about %s, %s",
					thousands(s.Nominal), name, est.Round(time.Second), left))
			} else {
				w.notes = append(w.notes, fmt.Sprintf("%s hands: audit against the code of %s, %d of %d rounds: another was estimated at about %s, %s",
					thousands(s.Nominal), name, i, rounds, est.Round(time.Second), left))
			}
			return
		}
		for j := range 2 {
			k := j ^ i%2         // the baseline first in even rounds, this commit first in odd ones
			var stdout io.Writer // nil: the null device
			if i == 0 {
				// A file, not a pipe: the process writes to it directly, as to the null device.
				outs[k] = filepath.Join(w.cfg.work, fmt.Sprintf("audit-%d-%s.json", s.Nominal, codes[k].tag))
				f, err := os.Create(outs[k])
				if err != nil {
					p.Err = err
					return
				}
				stdout = f
			}
			cmd, args, env := oneCore(codes[k].bin, append([]string{"audit", "--json"}, files...)...)
			r, err := measureEnv(ctx, env, stdout, []int{0, 1}, cmd, args...)
			if f, ok := stdout.(*os.File); ok {
				f.Close()
			}
			if err != nil {
				p.Err = err
				return
			}
			*codes[k].runs = append(*codes[k].runs, r)
		}
		if i == 0 {
			p.compareOutputs(outs)
		}
	}
}

// roundEstimate is the time the next round of s is expected to take, times -margin: the mean of
// its rounds so far, else the size's own audit with the baseline's share of it found at an
// earlier size (the same time when there is none).
func (w *wholeProcess) roundEstimate(s *size) time.Duration {
	p := s.Paired
	if n := p.rounds(); n > 0 {
		var sum time.Duration
		for i := range n {
			sum += p.Base[i].Wall + p.Cur[i].Wall
		}
		return time.Duration(float64(sum) / float64(n) * w.cfg.margin)
	}
	ratio := 1.0
	for _, prev := range w.sizes {
		if prev != s && prev.Paired != nil {
			if r := quantile(pairedRatios(prev.Paired.Base, prev.Paired.Cur), 0.5); !math.IsNaN(r) {
				ratio = r
			}
		}
	}
	return time.Duration(float64(s.Audit.Wall) * (1 + ratio) * w.cfg.margin)
}

// compareOutputs compares the first round's two outputs and removes them when they are the
// same; different ones stay in the scratch folder (kept with -keep) for a look at the difference.
func (p *pairedAudits) compareOutputs(paths [2]string) {
	var sums [2][sha256.Size]byte
	var sizes [2]int64
	for k, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			p.Err = err
			return
		}
		h := sha256.New()
		sizes[k], err = io.Copy(h, f)
		f.Close()
		if err != nil {
			p.Err = err
			return
		}
		copy(sums[k][:], h.Sum(nil))
	}
	p.Checked = true
	p.BaseBytes, p.CurBytes, p.Sums = sizes[0], sizes[1], sums
	p.Identical = sums[0] == sums[1] && p.Base[0].Exit == p.Cur[0].Exit
	if p.Identical {
		for _, path := range paths {
			os.Remove(path)
		}
	}
}

// issue21Commit is the commit issue 21 was filed at: the rate of `fechado audit` the issue
// asks to keep is relative to this commit's, run on the same machine.
const issue21Commit = "3f492ce"

// auditBaselineTarget is the least share of issue21Commit's rate that issue 21 asks audit to
// keep, judged on the median of the rounds' ratios.
const auditBaselineTarget = 0.8

// peakMedian is the median peak memory of runs, in MB.
func peakMedian(runs []run) string {
	var ps []float64
	for _, r := range runs {
		ps = append(ps, float64(r.MaxRSS))
	}
	return peakMB(&run{MaxRSS: int64(quantile(ps, 0.5))}, nil)
}

// roundsText is "1 round" or "N rounds".
func roundsText(n int) string {
	if n == 1 {
		return "1 round"
	}
	return fmt.Sprintf("%d rounds", n)
}

// pairedSize returns the size whose rounds are the summary's figure: the first with a round.
func (r *report) pairedSize() *size {
	if r.Whole == nil {
		return nil
	}
	for _, s := range r.Whole.sizes {
		if s.Paired != nil && s.Paired.rounds() > 0 {
			return s
		}
	}
	return nil
}

// baselineRow is the summary's row of audit against the baseline's code; nothing without one.
func (r *report) baselineRow(p printer) {
	if r.cfg.baseline == "" {
		return
	}
	name := r.cfg.baselineName()
	issue21 := strings.HasPrefix(name, issue21Commit)
	what := fmt.Sprintf("Hands audited, whole process, against the code of %s", name)
	if issue21 {
		what += " (when issue 21 was filed)"
	}
	what += ", same files, alternated"
	s := r.pairedSize()
	if s == nil {
		p("| %s | missing: see below and \"Left out\" | | |\n", what)
		return
	}
	pa := s.Paired
	findings := "the findings identical byte for byte"
	switch {
	case !pa.Checked:
		findings = "the findings not compared"
	case !pa.Identical:
		findings = "**the findings differ**"
	}
	cur, base := wallAt(pa.Cur, 0.5), wallAt(pa.Base, 0.5)
	ratio := quantile(pairedRatios(pa.Base, pa.Cur), 0.5)
	verdict := ""
	if issue21 {
		verdict = fmt.Sprintf("; target at least %.1f×: %s", auditBaselineTarget, metOrNot(ratio >= auditBaselineTarget))
	}
	p("| %s: `fechado audit --json` on %s hands, one core, %s, %s | %s hands/s (median %s) | the code of %s: %s hands/s (median %s) | %.2f× the rate (median of the rounds' ratios)%s |\n",
		what, thousands(s.Hands), roundsText(pa.rounds()), findings, thousandsF(perSecond(s.Hands, cur)), secs(cur),
		name, thousandsF(perSecond(s.Hands, base)), secs(base), ratio, verdict)
}

// baselineBullets gives, below the growth table, the rounds of each size against the baseline.
func (r *report) baselineBullets(p printer) {
	if r.cfg.baseline == "" || r.Whole == nil {
		return
	}
	name := r.cfg.baselineName()
	for _, s := range r.Whole.sizes {
		pa := s.Paired
		if pa == nil {
			continue
		}
		p("- %s hands, `audit --json` of the code of %s and of this commit in turn on the same files, on one core", thousands(s.Hands), name)
		n := pa.rounds()
		switch {
		case n == 0:
			p(": no round ran.")
		default:
			p(", %s", roundsText(n))
			if n < pa.Asked {
				p(" of the %d asked", pa.Asked)
			}
			p(" (the one that runs first changing each round): %s median %s, fastest %s, peak memory %s MB; this commit median %s, fastest %s, peak memory %s MB",
				name, secs(wallAt(pa.Base, 0.5)), secs(wallAt(pa.Base, 0)), peakMedian(pa.Base),
				secs(wallAt(pa.Cur, 0.5)), secs(wallAt(pa.Cur, 0)), peakMedian(pa.Cur))
			rs := pairedRatios(pa.Base, pa.Cur)
			p("; the time of %s over this commit's in each round (this commit's rate as a share of the other's): median %.2f, quartiles %.2f and %.2f.",
				name, quantile(rs, 0.5), quantile(rs, 0.25), quantile(rs, 0.75))
		}
		switch {
		case !pa.Checked:
		case pa.Identical:
			p(" The findings (the first round's two `--json` outputs) are identical byte for byte.")
		default:
			p(" **The findings differ**: the first round's two `--json` outputs are not the same (%s bytes from %s, %s from this commit; exit statuses %d and %d).",
				thousands(int(pa.BaseBytes)), name, thousands(int(pa.CurBytes)), pa.Base[0].Exit, pa.Cur[0].Exit)
		}
		if pa.Err != nil {
			p(" **Failed**: %v.", pa.Err)
		}
		p("\n")
	}
}
