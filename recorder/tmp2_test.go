package recorder_test

import (
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder/recordertest"
)

func BenchmarkTmpParse(b *testing.B) {
	h := recordertest.Hand(b, "t", 1, 3)
	for b.Loop() {
		for _, e := range h {
			if _, err := events.Parse(e.Raw); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(h)), "ns/event")
}

func BenchmarkTmpHash(b *testing.B) {
	h := recordertest.Hand(b, "t", 1, 3)
	for b.Loop() {
		for _, e := range h {
			events.Hash(e.Raw)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(h)), "ns/event")
}
