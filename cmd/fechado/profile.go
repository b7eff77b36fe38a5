package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// profileFlags are --cpuprofile and --memprofile, which the commands that read or write the
// whole log take so that anyone can see where a large run spends its time and memory
// (docs/stream.md, "Memory"), and --memory-limit, the soft limit of their memory.
type profileFlags struct {
	cpu, mem string
	limit    string
	// defaultLimit is the limit when neither --memory-limit nor GOMEMLIMIT gives one.
	defaultLimit string
}

// defaultMemoryLimit is the soft memory limit of the commands that take --memory-limit when
// neither the flag nor GOMEMLIMIT says otherwise (docs/stream.md, "The memory limit"), but serve
// and record. Without a limit Go's
// collector lets the heap grow to twice what is live (three times for record) before it collects,
// and the process keeps what it grew to; with it, the collector runs sooner as the heap nears the
// limit, so resident memory stays near the heap in use. It is soft: a process whose live heap
// needs more goes over it, collecting more often (Go bounds the collector's share of the CPU),
// and never fails for it.
const defaultMemoryLimit = "400MiB"

// serveMemoryLimit is serve's: a long-running process whose live heap at a million hands is about
// 120 MB, where 300 MiB kept it at 407 MB resident under 20 API clients against 450 MB with
// 400 MiB, for no more CPU a request (BENCHMARKS.md, seventeenth session).
const serveMemoryLimit = "300MiB"

// recordMemoryLimit is record's. What lives in its heap during a bulk record is mostly the
// embedded server's: the cache of every block it wrote in the last 10 s or so (the server reads
// each hand's last event back to check the append's expected sequence, and a block read keeps
// its cache for 10 s after its last read), about 310 MB of 380 MB in use at 60,000 events a
// second on two cores, and the de-duplication window's ids. That is live, so under 400 MiB the
// collector ran nearly all the time: record took about twice the time and the CPU. At 1 GiB
// it runs at the speed it has without a limit, at 1.07 GB resident instead of 2.3 GB
// (BENCHMARKS.md, nineteenth session). It does not grow with the log, only with the rate.
const recordMemoryLimit = "1GiB"

// addProfileFlags adds --cpuprofile, --memprofile and --memory-limit, whose default is def.
func addProfileFlags(fs *flag.FlagSet, def string) *profileFlags {
	p := profileFlags{defaultLimit: def}
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof)")
	fs.StringVar(&p.mem, "memprofile", "", "write to `FILE` a heap profile taken when the heap in use was largest (go tool pprof)")
	fs.StringVar(&p.limit, "memory-limit", "", "soft limit of the process's memory, `SIZE` as GOMEMLIMIT writes it (400MiB, 1GiB) or off; default GOMEMLIMIT when set, else "+def)
	return &p
}

// memoryLimit sets the soft memory limit (runtime/debug.SetMemoryLimit) from --memory-limit,
// else leaves GOMEMLIMIT's when it is set (the runtime applied it), else sets the default.
func (p *profileFlags) memoryLimit() error {
	v := p.limit
	if v == "" {
		if _, set := os.LookupEnv("GOMEMLIMIT"); set {
			return nil
		}
		v = p.defaultLimit
	}
	n, err := parseMemoryLimit(v)
	if err != nil {
		return usageErr("--memory-limit: %v", err)
	}
	debug.SetMemoryLimit(n)
	return nil
}

// parseMemoryLimit reads a size as GOMEMLIMIT does: a whole number of bytes, or one followed by
// B, KiB, MiB, GiB or TiB; "off" is no limit.
func parseMemoryLimit(v string) (int64, error) {
	if v == "off" {
		return math.MaxInt64, nil
	}
	num := strings.TrimRightFunc(v, unicode.IsLetter)
	unit := map[string]int64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}[v[len(num):]]
	n, err := strconv.ParseInt(num, 10, 64)
	if unit == 0 || err != nil || n < 1 || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("%q is not a size such as 400MiB, 1GiB or 536870912, nor off", v)
	}
	return n * unit, nil
}

// heapSample is how often the heap is looked at for its largest size.
const heapSample = 100 * time.Millisecond

// start sets the memory limit and begins profiling. The command defers the function it returns with the address of its
// own error: it ends profiling, writes the files, and sets the error when writing them failed and
// the command had none.
func (p *profileFlags) start() (stop func(*error), err error) {
	if err := p.memoryLimit(); err != nil {
		return nil, err
	}
	var cpu *os.File
	if p.cpu != "" {
		if cpu, err = os.Create(p.cpu); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	done := make(chan struct{})
	peak := make(chan []byte, 1)
	if p.mem != "" {
		go func() { peak <- largestHeap(done) }()
	}
	return func(cmdErr *error) {
		var first error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				first = fmt.Errorf("--cpuprofile: %w", err)
			}
		}
		if p.mem != "" {
			close(done)
			if err := os.WriteFile(p.mem, <-peak, 0o644); err != nil && first == nil {
				first = fmt.Errorf("--memprofile: %w", err)
			}
		}
		if *cmdErr == nil {
			*cmdErr = first
		}
	}, nil
}

// largestHeap samples the heap in use until done is closed and returns a heap profile taken each
// time it grew by a tenth over the largest seen so far (and one at the end if none was): the
// profile of the heap near its peak, not after the work let it go.
func largestHeap(done <-chan struct{}) []byte {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var largest uint64
	var profile []byte
	tick := time.NewTicker(heapSample)
	defer tick.Stop()
	for {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > largest+largest/10 || profile == nil {
			largest = v
			// The heap profile is as of the last collection; collect now so that it is current.
			runtime.GC()
			var b bytes.Buffer
			if err := pprof.Lookup("heap").WriteTo(&b, 0); err == nil {
				profile = b.Bytes()
			}
		}
		select {
		case <-done:
			return profile
		case <-tick.C:
		}
	}
}

// workFlags are the flags of the commands that work through the whole log and log their progress
// (project, record): where the log lives, how stderr's lines are written, and the profiles.
type workFlags struct {
	log    *logFlags
	format *logFormat
	prof   *profileFlags
}

// addWorkFlags adds the log's flags, --log-format, --cpuprofile, --memprofile and --memory-limit,
// whose default is limit, to fs.
func addWorkFlags(fs *flag.FlagSet, limit string) *workFlags {
	return &workFlags{log: addLogFlags(fs), format: addLogFormat(fs), prof: addProfileFlags(fs, limit)}
}

// start checks the log's flags, makes the command's logger writing to stderr and begins
// profiling. The command defers stopProfile with the address of its own error (profileFlags.start).
func (w *workFlags) start(stderr io.Writer, command string) (log *slog.Logger, stopProfile func(*error), err error) {
	if _, err := w.log.options(); err != nil {
		return nil, nil, err
	}
	if log, err = w.format.logger(stderr, command); err != nil {
		return nil, nil, err
	}
	if stopProfile, err = w.prof.start(); err != nil {
		return nil, nil, err
	}
	return log, stopProfile, nil
}
