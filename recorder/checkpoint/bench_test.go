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

// BenchmarkRecordWithTree records the same batches of small hands into three embedded logs in
// the same run, each going first in turn: one alone; one with a follower that only counts what
// it reads (the log's delivery to one more reader, which the tree cannot avoid: it must read
// every stored byte); and one with a Keeper following it (the tree kept as serve --sign-key keeps
// it, signing every 1000 events), timed until the tree holds every event recorded. It reports
// the three rates (plain-, follow- and tree-events/s) and the ratios of the last two to the
// first: the cost of keeping the tree while recording.
//
//	go test ./recorder/checkpoint -run '^$' -bench RecordWithTree -benchtime 12x
func BenchmarkRecordWithTree(b *testing.B) {
	const hands, tables = 2000, 50 // 12,000 events per iteration
	plain, followed, kept := recordertest.Open(b), recordertest.Open(b), recordertest.Open(b)
	skey, _, _ := checkpoint.GenerateKey("bench.example/log", false)
	signer, _ := checkpoint.NewSigner(skey)
	k, err := checkpoint.Open(b.Context(), kept, checkpoint.Options{Dir: b.TempDir(), Signer: signer, CreateStore: true, Interval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer k.Close()
	go k.Run(b.Context(), nil)
	var count atomic.Int64
	go followed.FollowRaw(b.Context(), 1, func(uint64, []byte) error { count.Add(1); return nil })
	record := func(l *recorder.Log, lines []byte) {
		r := l.NewRecorder(b.Context(), recorder.RecordOptions{})
		if err := r.AddLines(bytes.NewReader(lines), "bench"); err != nil {
			b.Fatal(err)
		}
		if _, err := r.Close(); err != nil {
			b.Fatal(err)
		}
	}
	type target struct {
		l    *recorder.Log
		size func() int64 // what the follower holds; nil: nothing follows
		took time.Duration
	}
	targets := []*target{{l: plain}, {l: followed, size: count.Load}, {l: kept, size: k.Tree().Size}}
	n, iter := 0, 0
	for b.Loop() {
		b.StopTimer()
		var evs []*events.Event
		for i := range hands {
			evs = append(evs, recordertest.Hand(b, fmt.Sprintf("bench-%d", i%tables), i+1, 3)...)
		}
		lines := recordertest.Lines(evs)
		b.StartTimer()
		for j := range targets {
			t := targets[(iter+j)%len(targets)]
			start := time.Now()
			record(t.l, lines)
			for t.size != nil && t.size() < int64(n+len(evs)) {
				time.Sleep(100 * time.Microsecond)
			}
			t.took += time.Since(start)
		}
		iter++
		n += len(evs)
	}
	rate := func(t *target) float64 { return float64(n) / t.took.Seconds() }
	b.ReportMetric(rate(targets[0]), "plain-events/s")
	b.ReportMetric(rate(targets[1]), "follow-events/s")
	b.ReportMetric(rate(targets[2]), "tree-events/s")
	b.ReportMetric(rate(targets[1])/rate(targets[0]), "follow-ratio")
	b.ReportMetric(rate(targets[2])/rate(targets[0]), "tree-ratio")
}

// BenchmarkProveHandAtAMillion proves a hand of 30 events in the tree of a log of a million
// hands: 29,200,000 synthetic leaves (the bench's million-hand log averages 29.2 events a hand,
// BENCHMARKS.md) kept in a file; recording a million hands here would take many minutes, and the
// tree's work does not depend on what the leaves hold. It reports the time to prove the hand's
// events, to check them, the proof's size (hashes only, and the JSON with 300-byte events) and
// the time of one consistency proof across the tree. The tree file takes about 1.9 GB of the
// temporary folder while it runs.
//
//	go test ./recorder/checkpoint -run '^$' -bench ProveHandAtAMillion -benchtime 200x
func BenchmarkProveHandAtAMillion(b *testing.B) {
	const leaves, handEvents = 29_200_000, 30
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
	b.ReportMetric(build.Seconds(), "build-tree-s")
}
