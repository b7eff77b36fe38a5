package recorder_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/fechado/fechado/internal/cputime"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/sim"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// simFile is a file `fechado sim` writes: tables std-draw tables of four players, hands hands
// each (fewer when one player wins every chip), table after table.
func simFile(b *testing.B, tables, hands int) []byte {
	b.Helper()
	var buf bytes.Buffer
	for k := range tables {
		cfg := sim.Config{Rules: "std-draw", Players: 4, Hands: hands, Seed: uint64(k + 1), Table: fmt.Sprintf("bench-%d", k+1)}
		if err := sim.Run(cfg, &buf); err != nil {
			b.Fatal(err)
		}
	}
	return buf.Bytes()
}

// BenchmarkRecordFile records one file of simulated hands of a realistic size (about 29 events
// a hand) the way `fechado record` does (Recorder.AddLines from the file's bytes, every guarantee
// on), each iteration into a new embedded log, and publishes the same lines to the same subjects
// of another new embedded log with plain PublishAsync (no headers, no checks, no decoding beyond
// finding the subject). It reports both rates in events/s and their ratio, from the same run.
//
//	go test ./recorder -run '^$' -bench RecordFile -benchtime 3x
//	FECHADO_RECORD_WINDOW=1024 go test ./recorder -run '^$' -bench RecordFile   # another window
func BenchmarkRecordFile(b *testing.B) {
	file := simFile(b, 4, 1000)
	n := bytes.Count(file, []byte{'\n'})
	var recTime, plainTime, recCPU time.Duration
	for b.Loop() {
		b.StopTimer()
		rec, plain := recordertest.Open(b), recordertest.Open(b)
		b.StartTimer()

		start, cpu := time.Now(), cputime.Process()
		r := rec.NewRecorder(b.Context(), recorder.RecordOptions{Window: benchWindow()})
		if err := r.AddLines(bytes.NewReader(file), "bench"); err != nil {
			b.Fatal(err)
		}
		st, err := r.Close()
		if err != nil || st.Appended != int64(n) {
			b.Fatalf("%v %+v, want %d appended", err, st, n)
		}
		recTime += time.Since(start)
		recCPU += cputime.Process() - cpu

		start = time.Now()
		plainPublish(b, plain.Conn(), file)
		plainTime += time.Since(start)

		b.StopTimer()
		rec.Close()
		plain.Close()
		b.StartTimer()
	}
	events := float64(n * b.N)
	recRate, plainRate := events/recTime.Seconds(), events/plainTime.Seconds()
	b.ReportMetric(recRate, "events/s")
	b.ReportMetric(plainRate, "plain-events/s")
	b.ReportMetric(recRate/plainRate, "ratio")
	b.ReportMetric(float64(recCPU.Nanoseconds())/events, "cpu-ns/event")
}

// plainPublish publishes every line of file to its hand's subject with PublishAsync and waits
// for every ack: the rate JetStream allows without fechado's checks.
func plainPublish(b *testing.B, nc *nats.Conn, file []byte) {
	b.Helper()
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(file))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if _, err := js.PublishAsync(recorder.Subject(field(line, `"table":"`), field(line, `"hand":"`)), bytes.Clone(line), jetstream.WithStallWait(time.Minute)); err != nil {
			b.Fatal(err)
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(5 * time.Minute):
		b.Fatal("plain publishes not acknowledged")
	}
}

// field returns the string value after key in a JSON line (ids and table names hold no quotes).
func field(line []byte, key string) string {
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return ""
	}
	rest := line[i+len(key):]
	return string(rest[:bytes.IndexByte(rest, '"')])
}

// benchWindow is the Recorder's window in BenchmarkRecordFile: $FECHADO_RECORD_WINDOW, else the
// default.
func benchWindow() int {
	n, _ := strconv.Atoi(os.Getenv("FECHADO_RECORD_WINDOW"))
	return n
}
