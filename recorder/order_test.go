package recorder_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/sim"
)

// A Recorder appends many hands at once, yet stores each table's hand.ended events in the order
// of the input (docs/stream.md §4): two tables of hands of different lengths, interleaved by
// table, recorded with a window of 32 hands, end in the stream hand after hand as in the file,
// so that a reader judges each hand at its hand.ended (the projector keeps none waiting).
func TestRecorderEndsATablesHandsInTheirOrder(t *testing.T) {
	var files [2][]byte
	for k := range files {
		var b bytes.Buffer
		if err := sim.Run(sim.Config{Rules: "std-draw", Players: 4, Hands: 120, Seed: uint64(20 + k),
			Table: fmt.Sprintf("t%d", k)}, &b); err != nil {
			t.Fatal(err)
		}
		files[k] = b.Bytes()
	}
	// The input: the two tables' hands in turn, each hand's lines together.
	var in bytes.Buffer
	want := map[string][]string{}
	var hands [2][][]byte
	for k, f := range files {
		var cur []byte
		for _, l := range bytes.SplitAfter(f, []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			cur = append(cur, l...)
			e, err := events.Parse(bytes.TrimSuffix(l, []byte("\n")))
			if err != nil {
				t.Fatal(err)
			}
			if e.Type == events.HandEndedType {
				hands[k] = append(hands[k], cur)
				cur = nil
				want[e.Table] = append(want[e.Table], e.Hand)
			}
		}
	}
	for i := range max(len(hands[0]), len(hands[1])) {
		for k := range hands {
			if i < len(hands[k]) {
				in.Write(hands[k][i])
			}
		}
	}
	l := recordertest.Open(t)
	r := l.NewRecorder(ctx(t), recorder.RecordOptions{Window: 32})
	if err := r.AddLines(bytes.NewReader(in.Bytes()), "in"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	open, mostOpen := 0, 0 // hands started and not ended in the stream
	if err := l.ReadAll(ctx(t), 0, func(s recorder.Stored) error {
		switch s.Event.Type {
		case events.HandEndedType:
			got[s.Event.Table] = append(got[s.Event.Table], s.Event.Hand)
			open--
		case events.HandStartedType:
			open++
			mostOpen = max(mostOpen, open)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for table, w := range want {
		if len(w) < 50 {
			t.Fatalf("table %s has %d hands: the test proves little", table, len(w))
		}
		if !slices.Equal(got[table], w) {
			t.Errorf("table %s: its %d hands end in the stream in another order than the input's (first difference at hand %d)",
				table, len(w), firstDifference(got[table], w))
		}
	}
	// The window was used: hands overlap in the stream, so the order is not that of one hand
	// appended after another.
	if mostOpen < 8 {
		t.Errorf("at most %d hands were open at once in the stream: the hands were not appended at once", mostOpen)
	}
}

func firstDifference(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
