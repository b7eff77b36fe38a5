package audit

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// The queue of a spread by files hands every file out once, each worker's files in the log's
// order, a group's files (a table's pieces) all to the worker that took its first, whatever the
// workers' pace (docs/cli.md, "On every core": a worker audits its files as one Auditor reads
// them). Workers take files concurrently here, some slower than others.
func TestFileQueueHandsOutInLogOrder(t *testing.T) {
	// 40 files in 25 groups: group g's files at g, g+25 (for g < 15).
	const n = 40
	files := make([]File, n)
	group := make([]int, n)
	for i := range files {
		files[i] = File{Bytes: make([]byte, 1+i%7), Name: fmt.Sprint(i)}
		group[i] = i % 25
	}
	for _, workers := range []int{2, 3} {
		q := newFileQueue(files, group, 25, workers)
		got := make([][]int, workers)
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
					got[k] = append(got[k], fi)
					for range (k + 1) * 3 { // workers of different paces
						runtime.Gosched()
					}
				}
			}()
		}
		wg.Wait()
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
