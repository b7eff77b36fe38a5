package recorder_test

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go/jetstream"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkTmpRecOnly(b *testing.B) {
	w, _ := strconv.Atoi(os.Getenv("WIN"))
	rec := recordertest.Open(b)
	plain := recordertest.Open(b)
	js, _ := jetstream.New(plain.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	hdr := recordertest.Open(b)
	hjs, _ := jetstream.New(hdr.Conn(), jetstream.WithPublishAsyncMaxPending(4096))
	var hbase uint64
	n := 0
	var rc, pc, rw, pw, hc time.Duration
	for b.Loop() {
		b.StopTimer()
		bt := newBatch(b, 2000, 50)
		b.StartTimer()
		c0, w0 := cpuNow(), time.Now()
		r := rec.NewRecorder(b.Context(), recorder.RecordOptions{Window: w})
		if err := r.AddLines(bytes.NewReader(bt.lines), "bench"); err != nil {
			b.Fatal(err)
		}
		if _, err := r.Close(); err != nil {
			b.Fatal(err)
		}
		rc += cpuNow() - c0
		rw += time.Since(w0)
		c0, w0 = cpuNow(), time.Now()
		for _, e := range bt.evs {
			js.PublishAsync(recorder.Subject(e.Table, e.Hand), e.Raw, jetstream.WithStallWait(time.Minute))
		}
		<-js.PublishAsyncComplete()
		pc += cpuNow() - c0
		pw += time.Since(w0)
		c0 = cpuNow()
		last := map[string]uint64{}
		for i, e := range bt.evs {
			subj := recorder.Subject(e.Table, e.Hand)
			_, err := hjs.PublishAsync(subj, e.Raw, jetstream.WithStallWait(time.Minute), jetstream.WithMsgID(e.ID), jetstream.WithExpectLastSequencePerSubject(last[subj]))
			if err != nil {
				b.Fatal(err)
			}
			last[subj] = hbase + uint64(i) + 1
		}
		select {
		case <-hjs.PublishAsyncComplete():
		}
		hbase += uint64(len(bt.evs))
		hc += cpuNow() - c0
		n += len(bt.evs)
	}
	b.ReportMetric(float64(hc.Microseconds())/float64(n), "hdr-cpu-us/ev")
	if info, _ := hdr.Stream().Info(b.Context()); info.State.Msgs != hbase {
		b.Fatalf("hdr stored %d of %d", info.State.Msgs, hbase)
	}
	b.ReportMetric(float64(rc.Microseconds())/float64(n), "rec-cpu-us/ev")
	b.ReportMetric(float64(pc.Microseconds())/float64(n), "plain-cpu-us/ev")
	b.ReportMetric(float64(n)/rw.Seconds(), "rec/s")
	b.ReportMetric(float64(n)/pw.Seconds(), "plain/s")
}
