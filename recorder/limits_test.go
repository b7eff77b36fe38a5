package recorder_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
)

// withEvent returns evs with its event i replaced by one of data d, the chain sealed again from
// there (each prev the SHA-256 of the line before).
func withEvent(evs []*events.Event, i int, d events.Data) []*events.Event {
	out := make([]*events.Event, len(evs))
	for k, e := range evs {
		c := *e
		out[k] = &c
	}
	out[i].Data, out[i].Type = d, d.EventType()
	for k := i; k < len(out); k++ {
		prev := ""
		if k > 0 {
			prev = events.Hash(out[k-1].Raw)
		}
		events.Seal(out[k], prev)
	}
	return out
}

// storedHands returns the hand ids of the stored events, and how many events each has.
func storedHands(t *testing.T, l *recorder.Log) map[string]int {
	t.Helper()
	got := map[string]int{}
	err := l.ReadHands(ctx(t), func(s recorder.Stored) error {
		got[s.Event.Hand]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// recordCase records the lines of hands (a hand's lines may be changed by edit) and checks that
// exactly the hands of want are stored, each whole, and that every rejection names bad, the hand
// and the line of the file given.
func recordCase(t *testing.T, l *recorder.Log, file []byte, hands [][]*events.Event, bad int, badLine int, wantErr error) {
	t.Helper()
	st, rej := record(t, l, "f.jsonl", file)
	if len(rej) != 1 || rej[0].Hand != hands[bad][0].Hand || rej[0].File != "f.jsonl" || rej[0].Line != badLine ||
		!errors.Is(rej[0], events.ErrInvalid) || (wantErr != nil && !errors.Is(rej[0], wantErr)) {
		t.Fatalf("rejected %v, want hand %s at f.jsonl:%d (%v)", rej, hands[bad][0].Hand, badLine, wantErr)
	}
	if st.Rejected != 1 || st.BadLines != 0 {
		t.Errorf("stats %+v", st)
	}
	got := storedHands(t, l)
	for i, h := range hands {
		switch n := got[h[0].Hand]; {
		case i == bad && n != 0:
			t.Errorf("%d events of the refused hand %d were stored", n, i)
		case i != bad && n != len(h):
			t.Errorf("hand %d: %d of %d events stored", i, n, len(h))
		}
	}
	t.Logf("rejected: %v", rej[0])
}

// limitHands returns four small hands of one table, and their lines.
func limitHands(t *testing.T) [][]*events.Event {
	var hands [][]*events.Event
	for n := range 4 {
		hands = append(hands, recordertest.Hand(t, "limits", n+1, 2))
	}
	return hands
}

func joinHands(hands [][]*events.Event) []byte {
	var b []byte
	for _, h := range hands {
		b = append(b, recordertest.Lines(h)...)
	}
	return b
}

// A hand with an event of 2 MiB, over the line limit (events.MaxLineSize), is refused whole:
// nothing of it is stored, every other hand of the file is, and the rejection names the hand and
// the line (issue 38: record used to store parts of other hands and stop on "maximum payload
// exceeded").
func TestRecordRefusesHandWithOversizeEvent(t *testing.T) {
	hands := limitHands(t)
	hands[1] = withEvent(hands[1], 2, &events.MisdealDeclared{Reason: strings.Repeat("x", 2<<20)})
	l := recordertest.Open(t)
	recordCase(t, l, joinHands(hands), hands, 1, len(hands[0])+3, events.ErrLineTooLong)
}

// A hand with a line nested 4,000,000 deep (8 MB) is refused whole; the others go in.
func TestRecordRefusesHandWithDeepLine(t *testing.T) {
	hands := limitHands(t)
	deep := []byte(strings.Replace(string(hands[2][1].Raw), `"data":{"method":"physical"}`,
		`"data":`+strings.Repeat("[", 4_000_000)+strings.Repeat("]", 4_000_000), 1))
	if len(deep) < 8_000_000 {
		t.Fatalf("the deep line is %d bytes", len(deep))
	}
	file := joinHands(hands[:2])
	file = append(file, hands[2][0].Raw...)
	file = append(append(append(file, '\n'), deep...), '\n')
	for _, e := range hands[2][2:] {
		file = append(append(file, e.Raw...), '\n')
	}
	file = append(file, joinHands(hands[3:])...)
	l := recordertest.Open(t)
	recordCase(t, l, file, hands, 2, len(hands[0])+len(hands[1])+2, events.ErrLineTooLong)
}

// A line that is not JSON at all inside a hand refuses that hand whole (issue 39: record used to
// drop the line and store the rest of the hand); a line naming no hand belongs to the hand of
// the line before it (events-v1.md §8).
func TestRecordRefusesHandWithNonJSONLine(t *testing.T) {
	hands := limitHands(t)
	var file []byte
	for i, h := range hands {
		for k, e := range h {
			file = append(append(file, e.Raw...), '\n')
			if i == 2 && k == 1 {
				file = append(file, "this is not JSON\n"...)
			}
		}
	}
	l := recordertest.Open(t)
	recordCase(t, l, file, hands, 2, len(hands[0])+len(hands[1])+3, nil)
}

// An event the store cannot take for its size, though under the line limit, is found before
// anything of its hand is appended: here an event a little under events.MaxLineSize whose prev,
// filled in by the recorder, puts it over what the log takes (Log.MaxEvent).
func TestRecordRefusesHandOverStoreLimit(t *testing.T) {
	hands := limitHands(t)
	l := recordertest.Open(t)
	if got := l.MaxEvent(); got != events.MaxLineSize {
		t.Fatalf("the embedded log takes events of %d bytes, want %d", got, events.MaxLineSize)
	}
	big := withEvent(hands[1], 2, &events.MisdealDeclared{Reason: "x"})
	short := len(big[2].Raw)
	big = withEvent(hands[1], 2, &events.MisdealDeclared{Reason: strings.Repeat("x", events.MaxLineSize-short+30)})
	// Left without prev: the recorder fills it in, 75 bytes more.
	noPrev := *big[2]
	noPrev.HasPrev, noPrev.Prev = false, ""
	noPrev.Raw = events.Encode(&noPrev)
	noPrev.Raw = bytes.Replace(noPrev.Raw, []byte(`"prev":"",`), nil, 1)
	if _, err := events.Parse(noPrev.Raw); err != nil || len(noPrev.Raw) > events.MaxLineSize || len(big[2].Raw) <= events.MaxLineSize {
		t.Fatalf("the line without prev (%d bytes, %d with it): %v", len(noPrev.Raw), len(big[2].Raw), err)
	}
	big[2] = &noPrev
	hands[1] = big
	var file []byte
	for _, h := range hands {
		for _, e := range h {
			file = append(append(file, e.Raw...), '\n')
		}
	}
	recordCase(t, l, file, hands, 1, len(hands[0])+3, nil)
}

// A hand whose event reuses the id of another hand's event in the same run is refused whole,
// before anything of it is sent: the store would refuse only that event (a duplicate of the
// other hand's message, within the de-duplication window), after the events before it were
// stored, a hand stored in part for ever (found on 2026-12-06: the 11th event of a hand reusing
// an id of the hand before it left seq 1–10 stored). The hands around it are stored whole.
func TestRecordRefusesHandReusingAnotherHandsEventID(t *testing.T) {
	hands := limitHands(t)
	reused := make([]*events.Event, len(hands[2]))
	for k, e := range hands[2] {
		c := *e
		reused[k] = &c
	}
	reused[3].ID = hands[0][2].ID
	for k := 3; k < len(reused); k++ {
		events.Seal(reused[k], events.Hash(reused[k-1].Raw))
	}
	hands[2] = reused
	l := recordertest.Open(t)
	recordCase(t, l, joinHands(hands), hands, 2, len(hands[0])+len(hands[1])+4, nil)
}
