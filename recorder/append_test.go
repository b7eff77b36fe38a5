package recorder_test

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

var prevField = regexp.MustCompile(`"prev":"[0-9a-f]*",`)

// The recorder fills prev where the producer left it out, so that the stored log is the one
// the producer would have written with prev.
func TestRecordFillsPrev(t *testing.T) {
	f := vectors(t)[0]
	want := readFile(t, f)
	in := prevField.ReplaceAll(want, nil)
	if bytes.Contains(in, []byte(`"prev"`)) || lines(in) != lines(want) {
		t.Fatal("stripping prev did not apply")
	}
	l := recordertest.Open(t)
	st, rej := record(t, l, "noprev.jsonl", in)
	if len(rej) > 0 || st.Appended != int64(lines(in)) {
		t.Fatalf("%+v %v", st, rej)
	}
	if got := exportHands(t, l); !bytes.Equal(got, want) {
		t.Fatalf("stored log differs from the producer's with prev:\n%s", firstDiff(got, want))
	}
}

// Two writers appending different events at the same place in one hand: one wins, the other gets
// ErrSequenceConflict, and the hand stays one clean chain.
func TestConcurrentAppendsConflict(t *testing.T) {
	l := recordertest.Open(t)
	base := recordertest.Hand(t, "t1", 1, 1) // started, shuffled, ante, ended
	for _, e := range base[:2] {
		if _, err := l.Append(ctx(t), e); err != nil {
			t.Fatal(err)
		}
	}
	for round := range 20 {
		seq := events.Seq(3 + round)
		rivals := make([]*events.Event, 2)
		for w := range rivals {
			e := *base[2]
			e.ID = recordertest.Hand(t, "x", 1, 0)[0].ID // a fresh UUIDv7
			e.Seq = seq
			e.Data = &events.AntePosted{Seat: events.Seat(w + 1), Amount: 5}
			e.Raw, e.Prev, e.HasPrev = nil, "", false // let the recorder chain it
			rivals[w] = &e
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for w := range rivals {
			wg.Go(func() { _, errs[w] = l.Append(ctx(t), rivals[w]) })
		}
		wg.Wait()
		won := 0
		for w, err := range errs {
			switch {
			case err == nil:
				won++
			case errors.Is(err, recorder.ErrSequenceConflict):
				var he *recorder.HandError
				if !errors.As(err, &he) || he.Hand != base[0].Hand || he.Seq != seq {
					t.Fatalf("round %d writer %d: %v does not name the hand and seq", round, w, err)
				}
			default:
				t.Fatalf("round %d writer %d: %v", round, w, err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d writers won (%v)", round, won, errs)
		}
	}
	var n int
	ch := events.NewChain()
	err := l.ReadHand(ctx(t), "", base[0].Hand, func(s recorder.Stored) error {
		n++
		if ps := ch.Check(s.Event); len(ps) > 0 {
			t.Errorf("stored hand: %v", ps)
		}
		return nil
	})
	if err != nil || n != 22 {
		t.Fatalf("stored hand has %d events (%v), want 22", n, err)
	}
}

// An event appended again (a retry, a second run) is skipped, not stored twice; the same id
// with other content is a conflict.
func TestAppendIsIdempotent(t *testing.T) {
	l := recordertest.Open(t)
	h := recordertest.Hand(t, "t1", 1, 2)
	for _, e := range h {
		if a, err := l.Append(ctx(t), e); err != nil || a.Skipped {
			t.Fatalf("%v %+v", err, a)
		}
	}
	for _, e := range h {
		a, err := l.Append(ctx(t), e)
		if err != nil || !a.Skipped {
			t.Fatalf("again: %v %+v", err, a)
		}
	}
	// Append takes an event as decoded: the changed line is decoded, as a reader would.
	other, err := events.Parse(bytes.Replace(h[2].Raw, []byte(`"amount":5`), []byte(`"amount":6`), 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx(t), other); !errors.Is(err, recorder.ErrSequenceConflict) {
		t.Fatalf("changed event: %v, want a conflict", err)
	}
	// The same id reused by an event of another hand (inside the de-duplication window).
	h2 := recordertest.Hand(t, "t1", 2, 0)
	h2[0].ID = h[0].ID
	events.Seal(h2[0], "")
	if _, err := l.Append(ctx(t), h2[0]); !errors.Is(err, recorder.ErrSequenceConflict) {
		t.Fatalf("reused id: %v, want a conflict", err)
	}
	rep, err := l.Verify(ctx(t))
	if err != nil || !rep.OK() || rep.Events != int64(len(h)) {
		t.Fatalf("verify: %v %d events %v", err, rep.Events, rep.Problems)
	}
}

// Append checks seq and prev against what is stored.
func TestAppendChecksTheStoredHand(t *testing.T) {
	l := recordertest.Open(t)
	h := recordertest.Hand(t, "t1", 1, 3)
	for _, e := range h[:2] {
		if _, err := l.Append(ctx(t), e); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Append(ctx(t), h[3]); !errors.Is(err, events.ErrInvalid) || !strings.Contains(err.Error(), "does not follow") {
		t.Fatalf("gap: %v", err)
	}
	bad, err := events.Parse(bytes.Replace(h[2].Raw, []byte(h[2].Prev), []byte(strings.Repeat("0", 64)), 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx(t), bad); !errors.Is(err, events.ErrInvalid) || !strings.Contains(err.Error(), "prev") {
		t.Fatalf("bad prev: %v", err)
	}
	for _, e := range h[2:] {
		if _, err := l.Append(ctx(t), e); err != nil {
			t.Fatal(err)
		}
	}
	after := *h[len(h)-1]
	after.ID, after.Seq, after.Raw, after.HasPrev = recordertest.Hand(t, "x", 1, 0)[0].ID, after.Seq+1, nil, false
	if _, err := l.Append(ctx(t), &after); !errors.Is(err, events.ErrInvalid) || !strings.Contains(err.Error(), "ended") {
		t.Fatalf("after hand.ended: %v", err)
	}
}

// A file with bad hands: each bad hand is rejected whole with a message naming file and line;
// the good hands go in.
func TestRecordRejectsBadHands(t *testing.T) {
	good1 := recordertest.Hand(t, "t1", 1, 2)
	broken := recordertest.Hand(t, "t1", 2, 2) // an undecodable line mid-hand
	gap := recordertest.Hand(t, "t2", 1, 2)    // seq 4 missing
	badPrev := recordertest.Hand(t, "t2", 2, 2)
	good2 := recordertest.Hand(t, "t3", 1, 1)
	var in bytes.Buffer
	in.Write(recordertest.Lines(good1))
	in.Write(recordertest.Lines(broken[:2]))
	in.WriteString(strings.Replace(string(broken[2].Raw), `"amount":5`, `"amount":"5"`, 1) + "\n") // line 8
	in.Write(recordertest.Lines(broken[3:]))
	in.Write(recordertest.Lines(gap[:3]))
	in.Write(recordertest.Lines(gap[4:])) // line 14: seq 5 after 3
	in.Write(recordertest.Lines(badPrev[:2]))
	in.WriteString(strings.Replace(string(badPrev[2].Raw), badPrev[2].Prev, badPrev[1].Prev, 1) + "\n") // line 17
	in.Write(recordertest.Lines(badPrev[3:]))
	in.WriteString("{\"id\":\n") // line 20: names no hand
	in.Write(recordertest.Lines(good2))

	l := recordertest.Open(t)
	st, rej := record(t, l, "in.jsonl", in.Bytes())
	want := map[string]string{
		broken[0].Hand:  "in.jsonl:8: hand " + broken[0].Hand + " (table t1): data.amount: want integer",
		gap[0].Hand:     "in.jsonl:14: hand " + gap[0].Hand + " (table t2) seq 5: seq 5 follows seq 3",
		badPrev[0].Hand: "in.jsonl:17: hand " + badPrev[0].Hand + " (table t2) seq 3: prev ",
		"":              "in.jsonl:20: id: want string",
	}
	if len(rej) != len(want) {
		t.Fatalf("rejections: %v", rej)
	}
	for _, he := range rej {
		if w := want[he.Hand]; !strings.HasPrefix(he.Error(), w) || !errors.Is(he, events.ErrInvalid) {
			t.Errorf("rejection %q, want it to start %q and be invalid input", he, w)
		}
	}
	if st.Rejected != 3 || st.BadLines != 1 || st.Conflicts != 0 || st.Appended != int64(len(good1)+len(good2)) {
		t.Fatalf("stats %+v", st)
	}
	if got, want := exportHands(t, l), append(recordertest.Lines(good1), recordertest.Lines(good2)...); !bytes.Equal(got, want) {
		t.Fatalf("stored:\n%s", firstDiff(got, want))
	}
}

// A hand recorded in two runs: the second part is checked against and chained to what is stored,
// with prev filled from the stored hand when left out.
func TestRecordContinuesAStoredHand(t *testing.T) {
	l := recordertest.Open(t)
	h := recordertest.Hand(t, "t1", 1, 4)
	if _, rej := record(t, l, "a", recordertest.Lines(h[:3])); len(rej) > 0 {
		t.Fatal(rej)
	}
	rest := prevField.ReplaceAll(recordertest.Lines(h[3:]), nil)
	st, rej := record(t, l, "b", rest)
	if len(rej) > 0 || st.Appended != int64(len(h)-3) {
		t.Fatalf("%+v %v", st, rej)
	}
	if got := exportHands(t, l); !bytes.Equal(got, recordertest.Lines(h)) {
		t.Fatalf("stored:\n%s", firstDiff(got, recordertest.Lines(h)))
	}
	// Overlapping again with part of it: everything is skipped.
	if st, rej := record(t, l, "c", recordertest.Lines(h[2:5])); len(rej) > 0 || st.Skipped != 3 || st.Appended != 0 {
		t.Fatalf("overlap: %+v %v", st, rej)
	}
	// The same place with other content is refused by the store.
	changed := make([]*events.Event, len(h))
	prev := ""
	for i, e := range h {
		c := *e
		if i == 3 {
			c.Data = &events.AntePosted{Seat: 2, Amount: 7}
		}
		events.Seal(&c, prev)
		prev = events.Hash(c.Raw)
		changed[i] = &c
	}
	st, rej = record(t, l, "d", recordertest.Lines(changed))
	if len(rej) != 1 || !errors.Is(rej[0], recorder.ErrSequenceConflict) || st.Conflicts != 1 {
		t.Fatalf("changed: %+v %v", st, rej)
	}
	if got := exportHands(t, l); !bytes.Equal(got, recordertest.Lines(h)) {
		t.Fatal("the refused run changed the log")
	}
}

// Hands of many tables recorded at once are pipelined but enter the stream in the order they
// were handed over; the same hand twice in one input is stored once.
func TestRecordManyHands(t *testing.T) {
	var in bytes.Buffer
	var want []byte
	for i := range 300 {
		h := recordertest.Hand(t, fmt.Sprintf("t%d", i%7), i+1, i%5)
		want = append(want, recordertest.Lines(h)...)
	}
	in.Write(want)
	third := want[:bytes.IndexByte(want[len(want)/3:], '\n')+len(want)/3+1]
	in.Write(third) // a third again, its last hand cut short
	l := recordertest.Open(t)
	var rej []*recorder.HandError
	var mu sync.Mutex
	r := l.NewRecorder(ctx(t), recorder.RecordOptions{Window: 16, OnReject: func(he *recorder.HandError) {
		mu.Lock()
		rej = append(rej, he)
		mu.Unlock()
	}})
	if err := r.AddLines(&in, "many"); err != nil {
		t.Fatal(err)
	}
	st, err := r.Close()
	if err != nil || len(rej) > 0 {
		t.Fatal(err, rej)
	}
	if st.Appended != int64(lines(want)) || st.Appended+st.Skipped != st.Read {
		t.Fatalf("%+v, want %d appended", st, lines(want))
	}
	if got := exportHands(t, l); !bytes.Equal(got, want) {
		t.Fatalf("stored:\n%s", firstDiff(got, want))
	}
}

// When the server goes away in the middle of a recording, the Recorder stops with an error
// instead of hanging.
func TestRecordStoreGoesAway(t *testing.T) {
	t.Parallel() // waits on timeouts, on a server of its own
	s := startServer(t)
	l, err := recorder.Open(ctx(t), recorder.Options{URLs: []string{s.ClientURL()}, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r := l.NewRecorder(ctx(t), recorder.RecordOptions{Window: 8})
	added := 0
	for i := 0; ; i++ {
		for _, e := range recordertest.Hand(t, "A", i+1, 2) {
			if err := r.Add(e, "", 0); err != nil {
				t.Fatalf("Add failed before the server went away: %v", err)
			}
		}
		if added++; added == 50 {
			break
		}
	}
	start := time.Now()
	s.Shutdown()
	var addErr error
	for i := 0; addErr == nil && time.Since(start) < 20*time.Second; i++ {
		for _, e := range recordertest.Hand(t, "A", 100+i, 2) {
			if addErr = r.Add(e, "", 0); addErr != nil {
				break
			}
		}
	}
	_, err = r.Close()
	if err == nil {
		t.Fatal("Close reported no error after the server went away")
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("the recorder took %s to give up", d)
	}
	t.Logf("stopped after %s: %v (Add: %v)", time.Since(start), err, addErr)
}

// Append takes an event as it was decoded, once: it appends a copy and changes e only when it
// succeeded (prev filled in); an event built in memory (Raw nil) is checked as a line read would
// be.
func TestAppendTakesTheDecodedEvent(t *testing.T) {
	l := recordertest.Open(t)
	h := recordertest.Hand(t, "t1", 1, 2)
	if _, err := l.Append(ctx(t), h[0]); err != nil {
		t.Fatal(err)
	}
	// Decoded without prev, at a gap: refused, and e is as it was.
	line := bytes.Replace(h[2].Raw, []byte(`"prev":"`+h[2].Prev+`",`), nil, 1)
	gap, err := events.Parse(line)
	if err != nil || gap.HasPrev {
		t.Fatalf("%v %s", err, line)
	}
	if _, err := l.Append(ctx(t), gap); !errors.Is(err, events.ErrInvalid) {
		t.Fatalf("gap: %v", err)
	}
	if !bytes.Equal(gap.Raw, line) || gap.HasPrev || gap.Prev != "" {
		t.Fatalf("a refused append changed the event: %s, prev %v %q", gap.Raw, gap.HasPrev, gap.Prev)
	}
	// Decoded without prev, in its place: the recorder fills prev in and says what it stored.
	next, err := events.Parse(bytes.Replace(h[1].Raw, []byte(`"prev":"`+h[1].Prev+`",`), nil, 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx(t), next); err != nil {
		t.Fatal(err)
	}
	if !next.HasPrev || next.Prev != events.Hash(h[0].Raw) || !bytes.Equal(next.Raw, h[1].Raw) {
		t.Fatalf("stored %s, prev %v %q", next.Raw, next.HasPrev, next.Prev)
	}
	// Built in memory with seat 0, which no valid event names: encoded, decoded, refused.
	mem := *h[2]
	mem.Raw, mem.HasPrev, mem.Prev = nil, false, ""
	mem.Type, mem.Data = events.AntePostedType, &events.AntePosted{Seat: 0, Amount: 5}
	if _, err := l.Append(ctx(t), &mem); !errors.Is(err, events.ErrInvalid) {
		t.Fatalf("invalid event built in memory: %v", err)
	}
}
