package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
)

// readsFlag makes benchreport the timer of hand reads instead of the report: it opens the log
// stored under DIR the way fechado's commands do (the same embedded server, the same options),
// and the read models DB when given, outside the timing, then reads each hand id of HANDFILE (one
// a line) by its id alone, timing each read, and prints the times as JSON (readTimes). Without
// DB a read is what `fechado export --hand ID` does without read models (the table from the
// log's per-subject index, HandSubject, then the hand's own subject); with DB, what it does with them (projector.ReadHand:
// the hand's copy in the read models, else the log).
const readsFlag = "-time-reads"

// serveFlag makes benchreport the log's server for another process: it opens the log stored
// under DIR the way fechado's commands do, with the embedded server also listening on a free
// loopback port, prints the server's URL on a line of its own, and serves until SIGTERM or
// SIGINT. The projector then runs alone in its process, with the server's memory in this one.
const serveFlag = "-serve-log"

// readSample is how many random hands are read back at each size.
const readSample = 1000

// readTimes is what the reads timer prints: the reads made and their times, in nanoseconds.
type readTimes struct {
	Reads  int   `json:"reads"`
	Events int   `json:"events"` // events delivered by every read together
	P50    int64 `json:"p50_ns"`
	P99    int64 `json:"p99_ns"`
	Max    int64 `json:"max_ns"`
	// Copies counts the hands the read models held a copy of, which the reads took (with DB).
	Copies int `json:"copies"`
}

// percentile returns the p-th percentile (0 < p ≤ 100) of sorted times, nearest rank.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(float64(len(sorted))*p/100+0.999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

// timeReads runs the reads timer: benchreport -time-reads DIR HANDFILE [DB].
func timeReads(args []string, stdout io.Writer) error {
	if len(args) != 2 && len(args) != 3 {
		return errors.New("usage: benchreport -time-reads DIR HANDFILE [DB]")
	}
	data, err := os.ReadFile(args[1])
	if err != nil {
		return err
	}
	hands := strings.Fields(string(data))
	if len(hands) == 0 {
		return fmt.Errorf("%s names no hand", args[1])
	}
	ctx := context.Background()
	l, err := recorder.Open(ctx, recorder.Options{DataDir: args[0]})
	if err != nil {
		return err
	}
	defer l.Close()
	var db *sql.DB
	if len(args) == 3 {
		if db, err = projector.OpenReadOnly(ctx, args[2]); err != nil {
			return err
		}
		defer db.Close()
	}
	var rt readTimes
	times := make([]time.Duration, 0, len(hands))
	for _, h := range hands {
		n := 0
		start := time.Now()
		err := projector.ReadHand(ctx, db, l, "", h, func(recorder.Stored) error { n++; return nil })
		d := time.Since(start)
		if err != nil {
			return fmt.Errorf("reading hand %s: %w", h, err)
		}
		times = append(times, d)
		rt.Events += n
	}
	if db != nil {
		for _, h := range hands {
			if _, _, ok, err := projector.HandCopy(ctx, db, projector.LogID(l), h); err != nil {
				return fmt.Errorf("hand %s: %w", h, err)
			} else if ok {
				rt.Copies++
			}
		}
	}
	slices.Sort(times)
	rt.Reads = len(times)
	rt.P50, rt.P99, rt.Max = int64(percentile(times, 50)), int64(percentile(times, 99)), int64(times[len(times)-1])
	return json.NewEncoder(stdout).Encode(rt)
}

// serveLog runs the log's server: benchreport -serve-log DIR.
func serveLog(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: benchreport -serve-log DIR")
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	l, err := recorder.Open(ctx, recorder.Options{DataDir: args[0], Listen: "127.0.0.1:0"})
	if err != nil {
		return err
	}
	defer l.Close()
	if _, err := fmt.Fprintln(stdout, l.ClientURL()); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}

// handRef is one hand of a simulated table.
type handRef struct{ Table, Hand string }

// sampleHands chooses n distinct hands at random over tables, each table in proportion to its
// hands, each hand out of the table's sample (table.Sample, a uniform sample of its hands).
// Fewer come back when the tables hold fewer.
func sampleHands(tables []*table, n int, rng *rand.Rand) []handRef {
	total := 0
	for _, t := range tables {
		total += len(t.Sample)
	}
	n = min(n, total)
	weight := 0
	for _, t := range tables {
		weight += t.Hands
	}
	seen := map[handRef]bool{}
	var out []handRef
	for len(out) < n {
		k := rng.IntN(max(weight, 1))
		var t *table
		for _, t = range tables {
			if k < t.Hands {
				break
			}
			k -= t.Hands
		}
		if len(t.Sample) == 0 {
			continue
		}
		h := handRef{t.Table, t.Sample[rng.IntN(len(t.Sample))]}
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

// writeHandList writes readSample random hands of tables, one id a line, to the file the reads
// of the size at data take (handListPath).
func writeHandList(s *size, data string, tables []*table) error {
	hands := sampleHands(tables, readSample, rand.New(rand.NewPCG(uint64(s.Nominal), 21)))
	var list bytes.Buffer
	for _, h := range hands {
		fmt.Fprintln(&list, h.Hand)
	}
	return os.WriteFile(handListPath(data), list.Bytes(), 0o644)
}

// handListPath is the file of the hands read back at the size whose log is at data.
func handListPath(data string) string { return data + "-hands.txt" }

// timeReadsOf times the reads of the hands of handListPath(data) by id, in a process of its own
// (readsFlag): from the log under data, or, with db, as projector.ReadHand reads them with the
// read models db beside the log.
func (w *wholeProcess) timeReadsOf(ctx context.Context, data, db string) (*readTimes, *run, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	args := []string{readsFlag, data, handListPath(data)}
	if db != "" {
		args = append(args, db)
	}
	var out bytes.Buffer
	r, err := measure(ctx, &out, nil, self, args...)
	if err != nil {
		return nil, &r, err
	}
	var rt readTimes
	if err := json.Unmarshal(out.Bytes(), &rt); err != nil {
		return nil, &r, fmt.Errorf("reading the read times: %v", err)
	}
	return &rt, &r, nil
}

// measureReads times the hands of the size read back by id from the log under data alone
// (before any read models), after record.
func (w *wholeProcess) measureReads(ctx context.Context, s *size, data string, tables []*table) {
	if err := writeHandList(s, data, tables); err != nil {
		s.ReadsErr = err
		return
	}
	s.Reads, s.ReadsRun, s.ReadsErr = w.timeReadsOf(ctx, data, "")
}

// measureProject runs `fechado project --rebuild` of the log under data against the log's
// server in a process of its own (serveFlag), so that the projector's peak memory and time are
// its own; the server's peak memory is measured too. The database is deleted afterwards.
func (w *wholeProcess) measureProject(ctx context.Context, s *size, data string) {
	self, err := os.Executable()
	if err != nil {
		s.ProjectErr = err
		return
	}
	srv := exec.CommandContext(ctx, self, serveFlag, data)
	killGroup(srv)
	out, err := srv.StdoutPipe()
	if err != nil {
		s.ProjectErr = err
		return
	}
	var stderr bytes.Buffer
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		s.ProjectErr = err
		return
	}
	stopServer := func() *run {
		srv.Process.Signal(syscall.SIGTERM)
		srv.Wait()
		r := &run{Args: []string{self, serveFlag, data}}
		r.usage(srv.ProcessState)
		return r
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	url := strings.TrimSpace(line)
	if err != nil || url == "" {
		stopServer()
		s.ProjectErr = fmt.Errorf("the log's server did not start: %v: %s", err, tail(stderr.String()))
		return
	}
	db := data + "-project.db"
	rounds := 1
	if s.Hands < projectOnceFrom {
		rounds = projectRounds
	}
	for range rounds {
		removeDB(db)
		p, err := measure(ctx, nil, nil, w.cfg.fechado, "project", "--nats", url, "--db", db, "--rebuild")
		if err != nil {
			s.Project, s.ProjectErr = &p, err
			break
		}
		s.ProjectRuns = append(s.ProjectRuns, p)
	}
	if s.ProjectErr == nil {
		s.Project = medianRun(s.ProjectRuns)
	}
	s.Server = stopServer()
	if s.ProjectErr == nil && s.ReadsErr == nil {
		// The same hands as after record, now with the read models the projection left.
		s.ModelReads, s.ModelReadsRun, s.ModelReadsErr = w.timeReadsOf(ctx, data, db)
	}
	if s.ProjectErr == nil && w.cfg.apiAt(s.Nominal) {
		// The web API over the same log and read models, under a serve of its own.
		s.API, s.APIRun, s.APIErr = w.timeAPIOf(ctx, data, db)
	}
	removeDB(db)
}

// A projection of a small log lasts seconds, and what the machine does at that moment sways it
// (3.25 to 3.87 s for the same 10,000 hands in one session): the time a hand at a million hands
// is judged against it (issue 21), so below projectOnceFrom hands project runs projectRounds
// times and the median run stands for the size. Larger logs take minutes and run once.
const (
	projectRounds   = 3
	projectOnceFrom = 100000
)

// medianRun returns the run of median wall time of runs (the later of the two middle ones of an
// even number).
func medianRun(runs []run) *run {
	sorted := slices.Clone(runs)
	slices.SortStableFunc(sorted, func(a, b run) int { return cmp.Compare(a.Wall, b.Wall) })
	m := sorted[len(sorted)/2]
	return &m
}

// projectRuns returns every run of project at s: ProjectRuns, or Project alone when that is all
// s holds.
func (s *size) projectRuns() []run {
	if len(s.ProjectRuns) == 0 && s.Project != nil {
		return []run{*s.Project}
	}
	return s.ProjectRuns
}

// removeDB deletes the SQLite database db with its WAL and shared-memory files.
func removeDB(db string) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
}
