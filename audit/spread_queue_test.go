package audit

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The queue of a spread by files hands every file out once, each worker's files in the log's
// order, a group's files (a table's pieces) all to the worker that took its first, whatever the
// workers' pace (docs/cli.md, "On every core": a worker audits its files as one Auditor reads
// them), while the deliverer is still working out the files' groups from their first lines.
// Workers take files concurrently here, some slower than others; the groups are read two before
// the workers start (several), the rest as they take files.
func TestFileQueueHandsOutInLogOrder(t *testing.T) {
	// 40 files in 25 groups: group g's files at g, g+25 (for g < 15); file 7's first line names no
	// table (a group of its own), so that 26 groups are met.
	const n = 40
	files := make([]File, n)
	group := make([]int, n)
	for i := range files {
		line := fmt.Sprintf(`{"id":"%08d-0000-7000-8000-000000000000","table":"t%d","hand":"h%d","seq":1}`+"\n", i, i%25, i)
		group[i] = i % 25
		if i == 7 {
			line = "{broken\n"
			group[i] = 25
		}
		files[i] = File{Bytes: []byte(strings.Repeat(line, 1+i%7)), Name: fmt.Sprint(i)}
	}
	for _, workers := range []int{2, 3} {
		q := newFileQueue(files, workers)
		if !q.several(files) || len(q.group) != 2 {
			t.Fatalf("%d workers: several read %d first lines, or found one group", workers, len(q.group))
		}
		got, wait := takeAll(q, files, workers, func(k int) {
			for range (k + 1) * 3 { // workers of different paces
				runtime.Gosched()
			}
		})
		for q.readGroup(files) {
			runtime.Gosched()
		}
		q.end()
		wait()
		if len(q.owner) != 26 {
			t.Errorf("%d workers: %d groups, want 26", workers, len(q.owner))
		}
		// The groups numbered in the order of their first files.
		number := map[int]int{}
		for fi, g := range q.group {
			want, ok := number[group[fi]]
			if !ok {
				want = len(number)
				number[group[fi]] = want
			}
			if g != want {
				t.Errorf("%d workers: file %d in group %d, want %d", workers, fi, g, want)
			}
		}
		seen := make([]int, n)
		owner := map[int]int{}
		total := 0
		for k, fs := range got {
			for i, fi := range fs {
				seen[fi]++
				total += len(files[fi].Bytes)
				if i > 0 && fi <= fs[i-1] {
					t.Errorf("%d workers: worker %d took file %d after %d", workers, k, fi, fs[i-1])
				}
				if w, ok := owner[group[fi]]; ok && w != k {
					t.Errorf("%d workers: group %d on workers %d and %d", workers, group[fi], w, k)
				}
				owner[group[fi]] = k
			}
		}
		for fi, c := range seen {
			if c != 1 {
				t.Errorf("%d workers: file %d handed out %d times", workers, fi, c)
			}
		}
		sum := 0
		for _, b := range q.bytes {
			sum += b
		}
		if sum != total {
			t.Errorf("%d workers: the queue counted %d bytes, the workers took %d", workers, sum, total)
		}
	}
}

// When the deliverer stops working out the groups (reading a file's first line failed: it is
// cut short, and the caller's Guard turns the fault into an error), the workers waiting for a
// group take no more files instead of waiting for ever, and no file whose group is unknown is
// handed out.
func TestFileQueueEndedFreesWaitingWorkers(t *testing.T) {
	files := make([]File, 10)
	for i := range files {
		files[i] = File{Bytes: fmt.Appendf(nil, `{"id":"%08d-0000-7000-8000-000000000000","table":"t%d","hand":"h%d","seq":1}`+"\n", i, i, i)}
	}
	q := newFileQueue(files, 2)
	if !q.several(files) {
		t.Fatal("ten tables found to be one group")
	}
	q.readGroup(files) // three groups known
	took, wait := takeAll(q, files, 2, func(int) {})
	q.end()
	wait()
	if n := len(took[0]) + len(took[1]); n != 3 {
		t.Fatalf("the workers took %v and %v: want the three files whose groups are known", took[0], took[1])
	}
}

// takeAll starts workers goroutines that take files from q until it has none left for them,
// each calling pace(k) after every file it takes; wait waits for them and returns, by worker,
// the files each took in the order it took them.
func takeAll(q *fileQueue, files []File, workers int, pace func(k int)) (took [][]int, wait func()) {
	took = make([][]int, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				fi, ok := q.take(k, files)
				if !ok {
					return
				}
				took[k] = append(took[k], fi)
				pace(k)
			}
		}()
	}
	return took, wg.Wait
}
