package checkpoint_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/recorder/recordertest"
	"golang.org/x/mod/sumdb/tlog"
)

// BenchmarkRecordWithTree records the same batches of small hands into two embedded logs in
// the same run: one alone, one with a Keeper following it (the tree kept as serve --sign-key
// keeps it, signing every 1000 events). For the second, the time runs until the tree holds
// every event recorded. It reports the rate alone (plain-events/s), with the tree kept: the
// recording itself (recorded-events/s) and until the tree holds every event (tree-events/s), and
// the ratio of the last to the first: the cost of keeping the tree while recording.
//
//	go test ./recorder/checkpoint -run '^$' -bench RecordWithTree -benchtime 10x
func BenchmarkRecordWithTree(b *testing.B) {
	b.Run("tree", func(b *testing.B) { benchRecordFollowed(b, true) })
	// The same with a follower that only counts what it reads: the part of the cost that is the
	// log's delivery to a reader, which the tree cannot avoid (it must read every stored byte).
	b.Run("follow-only", func(b *testing.B) { benchRecordFollowed(b, false) })
}

func benchRecordFollowed(b *testing.B, tree bool) {
	const hands, tables = 2000, 50 // 12,000 events per iteration
	plain, kept := recordertest.Open(b), recordertest.Open(b)
	var size func() int64
	if tree {
		skey, _, _ := checkpoint.GenerateKey("bench.example/log", false)
		signer, _ := checkpoint.NewSigner(skey)
		k, err := checkpoint.Open(b.Context(), kept, checkpoint.Options{Dir: b.TempDir(), Signer: signer, CreateStore: true, Interval: -1})
		if err != nil {
			b.Fatal(err)
		}
		defer k.Close()
		go k.Run(b.Context(), nil)
		size = k.Tree().Size
	} else {
		var count atomic.Int64
		go kept.FollowRaw(b.Context(), 1, func(uint64, []byte) error { count.Add(1); return nil })
		size = count.Load
	}
	record := func(l *recorder.Log, lines []byte) {
		r := l.NewRecorder(b.Context(), recorder.RecordOptions{})
		if err := r.AddLines(bytes.NewReader(lines), "bench"); err != nil {
			b.Fatal(err)
		}
		if _, err := r.Close(); err != nil {
			b.Fatal(err)
		}
	}
	var plainTime, keptTime, recordTime time.Duration
	n, iter := 0, 0
	for b.Loop() {
		b.StopTimer()
		var evs []*events.Event
		for i := range hands {
			evs = append(evs, recordertest.Hand(b, fmt.Sprintf("bench-%d", i%tables), i+1, 3)...)
		}
		lines := recordertest.Lines(evs)
		b.StartTimer()
		runPlain := func() {
			start := time.Now()
			record(plain, lines)
			plainTime += time.Since(start)
		}
		runKept := func() {
			start := time.Now()
			record(kept, lines)
			recordTime += time.Since(start)
			want := int64(n + len(evs))
			for size() < want {
				time.Sleep(100 * time.Microsecond)
			}
			keptTime += time.Since(start)
		}
		// Each goes first every other iteration, so that neither has the machine to itself.
		if iter%2 == 0 {
			runPlain()
			runKept()
		} else {
			runKept()
			runPlain()
		}
		iter++
		n += len(evs)
	}
	plainRate, keptRate := float64(n)/plainTime.Seconds(), float64(n)/keptTime.Seconds()
	b.ReportMetric(plainRate, "plain-events/s")
	b.ReportMetric(float64(n)/recordTime.Seconds(), "recorded-events/s")
	b.ReportMetric(keptRate, "tree-events/s")
	b.ReportMetric(keptRate/plainRate, "ratio")
}

// BenchmarkProveHandAtAMillion proves a hand of 50 events in a tree of 1,000,000 synthetic
// leaves kept in a file (recording a million events here would take minutes: the tree's work
// does not depend on what the leaves hold). It reports the time to prove the hand's 50 events,
// to check them, the proof's size (hashes only, and the JSON with 300-byte events) and the time
// of one consistency proof across the tree.
//
//	go test ./recorder/checkpoint -run '^$' -bench ProveHandAtAMillion -benchtime 200x
func BenchmarkProveHandAtAMillion(b *testing.B) {
	const leaves, handEvents = 1_000_000, 50
	t, err := checkpoint.OpenTree(filepath.Join(b.TempDir(), "tree"))
	if err != nil {
		b.Fatal(err)
	}
	defer t.Close()
	start := time.Now()
	for i := range leaves {
		var h tlog.Hash
		h[0], h[1], h[2], h[3] = byte(i), byte(i>>8), byte(i>>16), 1
		if err := t.AppendHash(h); err != nil {
			b.Fatal(err)
		}
	}
	if err := t.Flush(); err != nil {
		b.Fatal(err)
	}
	build := time.Since(start)
	root, err := t.Root(leaves)
	if err != nil {
		b.Fatal(err)
	}
	first := int64(leaves / 2)
	var proofs []tlog.RecordProof
	b.ResetTimer()
	for b.Loop() {
		proofs = proofs[:0]
		for i := range handEvents {
			p, err := tlog.ProveRecord(leaves, first+int64(i)*3, t)
			if err != nil {
				b.Fatal(err)
			}
			proofs = append(proofs, p)
		}
	}
	b.StopTimer()
	hashes := 0
	type ev struct {
		Leaf  int64       `json:"leaf"`
		Data  []byte      `json:"data"`
		Proof []tlog.Hash `json:"proof"`
	}
	var js []ev
	checkStart := time.Now()
	for i, p := range proofs {
		hashes += len(p)
		leaf := first + int64(i)*3
		h, _ := t.LeafHash(leaf)
		if err := tlog.CheckRecord(p, leaves, root, leaf, h); err != nil {
			b.Fatal(err)
		}
		js = append(js, ev{Leaf: leaf, Data: make([]byte, 300), Proof: p})
	}
	check := time.Since(checkStart)
	raw, _ := json.Marshal(js)
	cstart := time.Now()
	if _, err := tlog.ProveTree(leaves, leaves/3, t); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(hashes*tlog.HashSize), "proof-bytes")
	b.ReportMetric(float64(len(raw)), "proof-json-bytes")
	b.ReportMetric(float64(check.Microseconds()), "check-µs")
	b.ReportMetric(float64(time.Since(cstart).Microseconds()), "consistency-µs")
	b.ReportMetric(build.Seconds(), "build-1M-s")
}
