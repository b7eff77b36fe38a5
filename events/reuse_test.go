package events

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// longLog returns the vectors' lines over and over, blank lines among them, for about n bytes.
func longLog(t *testing.T, n int) []byte {
	var one []byte
	for _, f := range vectorFiles(t) {
		one = append(one, f.data...)
		one = append(one, "\n  \n"...)
	}
	var b []byte
	for len(b) < n {
		b = append(b, one...)
	}
	return b
}

// A Reader that reuses its chunks, given back each hand's events once the hand has ended,
// allocates a few chunks however long the log, and returns the same events as a Reader of the
// log's bytes, though every chunk freed is filled with junk.
func TestReusingReaderAllocatesFewChunksWhenEventsComeBack(t *testing.T) {
	b := longLog(t, 4<<20)
	want := NewReaderBytes(b, "log", nil)
	r := NewReaderReusing(bytes.NewReader(b), "log", Reuse{Poison: true, Size: len(b)})
	if got, exp := r.LinesLeft(), want.LinesLeft(); got != exp {
		t.Errorf("LinesLeft %d, a Reader of the bytes %d", got, exp)
	}
	var hand []*Event
	events := 0
	for {
		w, werr := want.Next()
		e, err := r.Next()
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
			t.Fatalf("line %d: error %v, a Reader of the bytes %v", r.Line(), err, werr)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			continue
		}
		ws, _ := want.LineSum()
		s, _ := r.LineSum()
		if e.ID != w.ID || e.Hand != w.Hand || e.At != w.At || e.Prev != w.Prev || !bytes.Equal(e.Raw, w.Raw) || s != ws {
			t.Fatalf("line %d: event %s %s, a Reader of the bytes %s %s", r.Line(), e.ID, e.Raw, w.ID, w.Raw)
		}
		events++
		hand = append(hand, e)
		if e.Type == HandEndedType {
			r.Recycle(hand)
			hand = hand[:0]
		}
	}
	if chunks := len(b) / bufSize; r.Chunks() > 6 || chunks < 50 {
		t.Errorf("%d events of %d chunks' bytes read in %d chunks, want 6 at most", events, chunks, r.Chunks())
	}
}

// A Reader that reuses its chunks never reuses one while a line handed out from it is still
// held: with no event given back, every chunk is new.
func TestReusingReaderKeepsChunksOfEventsNotGivenBack(t *testing.T) {
	b := longLog(t, 1<<20)
	r := NewReaderReusing(bytes.NewReader(b), "log", Reuse{ChunkSize: 4 << 10, Poison: true})
	var kept []*Event
	var raws [][]byte
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			continue
		}
		kept = append(kept, e)
		raws = append(raws, bytes.Clone(e.Raw))
	}
	for i, e := range kept {
		if !bytes.Equal(e.Raw, raws[i]) {
			t.Fatalf("event %d's line was written again: %q, read as %q", i, e.Raw, raws[i])
		}
	}
	if least := len(b) / (4 << 10); r.Chunks() < least {
		t.Errorf("%d chunks for %d bytes: some were reused while their lines were held", r.Chunks(), len(b))
	}
}
