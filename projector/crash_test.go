package projector

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/fechado/fechado/recorder"
)

// The crash test runs projectors in child processes started from this test binary: with
// childEnv set, TestMain runs one projection and exits instead of running the tests.
const (
	childEnv      = "FECHADO_PROJECTOR_CHILD" // "1" in a child
	childDataEnv  = "FECHADO_PROJECTOR_DATA"  // the log's data folder
	childDBEnv    = "FECHADO_PROJECTOR_DB"    // the database
	childBatchEnv = "FECHADO_PROJECTOR_BATCH" // batch size
	crashSeedEnv  = "FECHADO_CRASH_SEED"      // to replay a run of TestKillAndResume
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(runChild())
	}
	os.Exit(m.Run())
}

// runChild projects the log in the child's data folder into the child's database, and exits.
func runChild() int {
	ctx := context.Background()
	l, err := recorder.Open(ctx, recorder.Options{DataDir: os.Getenv(childDataEnv)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 3
	}
	defer l.Close()
	db, err := Open(ctx, os.Getenv(childDBEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 3
	}
	defer db.Close()
	p := New(db, &LogSource{Log: l})
	p.BatchSize, _ = strconv.Atoi(os.Getenv(childBatchEnv))
	if _, err := p.CatchUp(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	return 0
}

// TestKillAndResume kills projecting processes with SIGKILL at random points, lets the last one
// finish, and finds the database identical, row for row, to a clean rebuild; two rebuilds are
// identical too. The log is the real stream on an embedded JetStream server. Under -short the log
// is one copy of the vector tables and fewer processes are killed (each kill is a process start
// and an open of the log); the full suite kills six over four copies.
func TestKillAndResume(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(crashSeedEnv); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("%s=%d", crashSeedEnv, seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	copies, kills := 4, 6
	if testing.Short() {
		copies, kills = 1, 3
	}
	lines := buildCorpus(t, copies)
	data := t.TempDir()
	l, err := recorder.Open(context.Background(), recorder.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	last := publishLines(t, l, lines)
	l.Close() // the children open the log themselves
	t.Logf("appended %d events in %v", last, time.Since(t0))

	dbPath := filepath.Join(t.TempDir(), "fechado.db")
	child := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=1", childDataEnv+"="+data, childDBEnv+"="+dbPath, childBatchEnv+"=10")
		cmd.Stderr = os.Stderr
		return cmd
	}
	watch, err := sql.Open("sqlite3", dbPath+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	checkpoint := func() (cp uint64, open int) {
		watch.QueryRow(`SELECT stream_seq FROM checkpoint`).Scan(&cp)
		watch.QueryRow(`SELECT COUNT(*) FROM hands WHERE end_seq IS NULL`).Scan(&open)
		return cp, open
	}

	// Kill when the checkpoint passes random targets, plus a random delay.
	targets := make([]uint64, kills)
	for i := range targets {
		targets[i] = 1 + rng.Uint64N(last-1)
	}
	slices.Sort(targets)
	midway, withOpenHands := 0, 0
	var prev uint64
	for i, target := range targets {
		cmd := child()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		deadline := time.Now().Add(60 * time.Second)
		finished := false
	poll:
		for {
			select {
			case err := <-exited:
				t.Logf("kill %d: the child finished before it was killed (%v)", i, err)
				finished = true
				break poll
			default:
			}
			if cp, _ := checkpoint(); cp >= target {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("kill %d: checkpoint never reached %d", i, target)
			}
			time.Sleep(time.Millisecond)
		}
		if !finished {
			time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
			// The child may end on its own during the delay: then there is nothing to kill.
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil && !errors.Is(err, os.ErrProcessDone) {
				t.Fatal(err)
			}
			<-exited
		}
		cp, open := checkpoint()
		t.Logf("kill %d: target %d, checkpoint %d of %d, %d hands open", i, target, cp, last, open)
		if cp < prev {
			t.Fatalf("kill %d: checkpoint went back from %d to %d", i, prev, cp)
		}
		prev = cp
		if cp > 0 && cp < last {
			midway++
		}
		if open > 0 {
			withOpenHands++
		}
	}
	if midway < kills/2 || withOpenHands == 0 {
		t.Fatalf("%d kills mid-projection, %d with hands open: the test did not exercise recovery", midway, withOpenHands)
	}
	t0 = time.Now()
	if err := child().Run(); err != nil {
		t.Fatalf("last child: %v", err)
	}
	t.Logf("last child: %v", time.Since(t0))
	if cp, open := checkpoint(); cp != last || open != 0 {
		t.Fatalf("after the last child: checkpoint %d, %d hands open; want %d, 0", cp, open, last)
	}

	// Two clean rebuilds, in this process.
	l, err = recorder.Open(context.Background(), recorder.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var rebuilt []string
	for range 2 {
		db := openDB(t)
		p := New(db, &LogSource{Log: l})
		if _, err := p.CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		rebuilt = append(rebuilt, dump(t, db))
	}
	if rebuilt[0] != rebuilt[1] {
		t.Fatalf("two rebuilds differ: %s", firstDiff(rebuilt[0], rebuilt[1]))
	}
	db, err := Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := dump(t, db); got != rebuilt[0] {
		t.Fatalf("killed and resumed projection differs from a rebuild: %s", firstDiff(rebuilt[0], got))
	}
}
