package events

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/cards"
)

// lenientLine is a valid line of type typ with data, edited by old/new pairs.
func lenientLine(typ, data string, edits ...string) string {
	s := `{"id":"0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6","table":"t-1","hand":"0190f1f6-0000-7000-8000-000000000001",` +
		`"seq":7,"at":"2026-11-29T13:05:00.250Z","type":"` + typ + `","prev":"` + strings.Repeat("ab", 32) + `","data":` + data + `}`
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			panic("edit " + edits[i] + " does not apply")
		}
		s = strings.Replace(s, edits[i], edits[i+1], 1)
	}
	return s
}

const lenientStarted = `{"rules":{"name":"std-draw","ante":10},"number":3,"dealer":1,"seats":[{"seat":1,"player":"ana","stack":150},{"seat":3,"player":"bo","stack":80,"rebuy":20}],"stakes":{"ante":5,"min_bet":10,"max_bet":20},"carry":0,"passed_out":0,"tournament":{"id":"cup","level":2},"away":[{"seat":5,"player":"cy","stack":40}]}`

// A line the strict decoder refuses is read as far as it can be, each bad field treated as
// unknown (events-v1.md §8), and the strict error names the field.
func TestParseLenient(t *testing.T) {
	started := func(f func(*HandStarted)) *HandStarted {
		e, err := Parse([]byte(lenientLine("hand.started", lenientStarted)))
		if err != nil {
			t.Fatal(err)
		}
		h := e.Data.(*HandStarted)
		f(h)
		return h
	}
	for _, tc := range []struct {
		name, line string
		field      string // the strict error's field; "-" for a valid line
		want       func(e *Event) bool
		data       Data // the payload read; nil for none
	}{
		{"a valid line", lenientLine("card.dealt", `{"seat":2,"card":"Ah","phase":"deal"}`), "-",
			func(e *Event) bool { return e.HasPrev && e.Seq == 7 },
			&CardDealt{Seat: 2, Card: cards.New(14, cards.Hearts), Phase: PhaseDeal}},
		{"a bad card of card.dealt is an unknown card", lenientLine("card.dealt", `{"seat":2,"card":"Zz","phase":"deal"}`), "data.card",
			func(e *Event) bool { return e.Type == CardDealtType && e.Seq == 7 && e.HasPrev },
			&CardDealt{Seat: 2, Unknown: true, Phase: PhaseDeal}},
		{"a bad card that card.burned needs leaves no payload", lenientLine("card.burned", `{"card":"1c"}`), "data.card",
			func(e *Event) bool { return e.Type == CardBurnedType }, nil},
		{"a bad amount leaves no payload", lenientLine("player.acted", `{"seat":2,"round":"first","action":"bet","amount":-10}`), "data.amount",
			func(e *Event) bool { return e.Type == PlayerActedType && e.ID != "" && e.Hand != "" }, nil},
		{"an unknown data field is left out", lenientLine("ante.posted", `{"seat":2,"amount":5,"tip":1}`), "data.tip",
			func(e *Event) bool { return true }, &AntePosted{Seat: 2, Amount: 5}},
		{"a bad rebuy is left out", lenientLine("hand.started", lenientStarted, `"rebuy":20`, `"rebuy":-1`), "data.seats[1].rebuy",
			func(e *Event) bool { return true }, started(func(h *HandStarted) { h.Seats[1].Rebuy = nil })},
		{"a bad away seat leaves the away list out", lenientLine("hand.started", lenientStarted, `"seat":5`, `"seat":0`), "data.away[0].seat",
			func(e *Event) bool { return true }, started(func(h *HandStarted) { h.Away = nil })},
		{"a bad tournament level leaves the tournament out", lenientLine("hand.started", lenientStarted, `"level":2`, `"level":0`), "data.tournament.level",
			func(e *Event) bool { return true }, started(func(h *HandStarted) { h.Tournament = nil })},
		{"a bad seat of the seats leaves no payload", lenientLine("hand.started", lenientStarted, `"seat":3`, `"seat":11`), "data.seats[1].seat",
			func(e *Event) bool { return e.Type == HandStartedType }, nil},
		{"a bad prev is left out", lenientLine("hand.mucked", `{"seat":4}`, `"prev":"ab`, `"prev":"AB`), "prev",
			func(e *Event) bool { return !e.HasPrev && e.Prev == "" && e.Seq == 7 }, &HandMucked{Seat: 4}},
		{"a bad time is left empty", lenientLine("hand.mucked", `{"seat":4}`, `13:05`, `25:05`), "at",
			func(e *Event) bool { return e.At == "" && e.Table == "t-1" }, &HandMucked{Seat: 4}},
		{"a bad table is left empty", lenientLine("hand.mucked", `{"seat":4}`, `"t-1"`, `"t 1"`), "table",
			func(e *Event) bool { return e.Table == "" && e.At != "" }, &HandMucked{Seat: 4}},
		{"an unknown type leaves type and payload empty", lenientLine("card.flipped", `{"card":"Ah"}`), "type",
			func(e *Event) bool { return e.Type == "" && e.Seq == 7 }, nil},
		{"a missing data object leaves no payload", lenientLine("hand.mucked", `{"seat":4}`, `,"data":{"seat":4}`, ``), "data",
			func(e *Event) bool { return e.Type == HandMuckedType }, nil},
		{"an unknown envelope field is left out", lenientLine("hand.mucked", `{"seat":4}`, `"seq":7`, `"seq":7,"by":"me"`), "by",
			func(e *Event) bool { return e.Seq == 7 }, &HandMucked{Seat: 4}},
		{"two bad fields: the error names the first, both are unknown", lenientLine("card.dealt", `{"seat":2,"card":"Zz","phase":"deal"}`, `13:05`, `25:05`), "at",
			func(e *Event) bool { return e.At == "" }, &CardDealt{Seat: 2, Unknown: true, Phase: PhaseDeal}},
		{"data before type", `{"data":{"seat":2,"card":"Zz","phase":"draw"},"id":"0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6","table":"t-1","hand":"0190f1f6-0000-7000-8000-000000000001","seq":7,"at":"2026-11-29T13:05:00Z","type":"card.dealt"}`, "data.card",
			func(e *Event) bool { return !e.HasPrev }, &CardDealt{Seat: 2, Unknown: true, Phase: PhaseDraw}},
	} {
		e, err := ParseLenient([]byte(tc.line))
		if tc.field == "-" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
		} else {
			var pe *Error
			if !errors.As(err, &pe) || pe.Field != tc.field || !errors.Is(err, ErrInvalid) {
				t.Errorf("%s: error %v, want one naming %s", tc.name, err, tc.field)
			}
		}
		if e == nil {
			t.Errorf("%s: no event", tc.name)
			continue
		}
		if string(e.Raw) != tc.line || e.ID != "0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6" || e.Hand != "0190f1f6-0000-7000-8000-000000000001" {
			t.Errorf("%s: envelope %+v", tc.name, *e)
		}
		if !tc.want(e) {
			t.Errorf("%s: event %+v", tc.name, *e)
		}
		if tc.data == nil && e.Data != nil || tc.data != nil && !reflect.DeepEqual(e.Data, tc.data) {
			t.Errorf("%s: payload %+v, want %+v", tc.name, e.Data, tc.data)
		}
	}
}

// A line that is not JSON, or whose id, hand or seq cannot be read, gives only the error
// (events-v1.md §8: it has no place in a hand's sequence).
func TestParseLenientUnreadable(t *testing.T) {
	for _, line := range []string{
		`{"id":"0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6","table":`,
		`not json`,
		`[1,2]`,
		`"a string"`,
		lenientLine("hand.mucked", `{"seat":4}`, `"seq":7`, `"seq":0`),
		lenientLine("hand.mucked", `{"seat":4}`, `"seq":7,`, ``),
		lenientLine("hand.mucked", `{"seat":4}`, `"id":"0190f1f6`, `"id":"x190f1f6`),
		lenientLine("hand.mucked", `{"seat":4}`, `"hand":"0190f1f6`, `"hand":"zz`),
		"{\"id\":\"\xff\"}",
	} {
		e, err := ParseLenient([]byte(line))
		if e != nil || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: event %v, error %v", line, e, err)
		}
	}
}

// Reader.NextLenient gives the event and the error naming file, line and field, and reads on.
func TestReaderNextLenient(t *testing.T) {
	good := lenientLine("hand.mucked", `{"seat":4}`)
	bad := lenientLine("card.dealt", `{"seat":2,"card":"Zz","phase":"deal"}`)
	r := NewReader(strings.NewReader(good+"\n"+bad+"\nnot json\n"+good+"\n"), "f.jsonl")
	var got []string
	for {
		e, err := r.NextLenient()
		if err == io.EOF {
			break
		}
		var pe *Error
		switch {
		case err == nil:
			got = append(got, "ok")
		case errors.As(err, &pe) && e != nil && string(e.Raw) == bad && e.Data.(*CardDealt).Unknown:
			got = append(got, pe.File+":"+strconv.Itoa(pe.Line)+":"+pe.Field)
		case errors.As(err, &pe) && e == nil:
			got = append(got, "not json:"+strconv.Itoa(pe.Line))
		default:
			t.Fatalf("event %v, error %v", e, err)
		}
	}
	if want := []string{"ok", "f.jsonl:2:data.card", "not json:3", "ok"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzParseLenient checks the lenient decoder on any line: it never panics; a line Parse accepts
// gives Parse's event and no error; otherwise the error is Parse's, and an event, when there is
// one, has the line as Raw, the readable envelope of §8 (id, hand, seq) and a payload of its type.
func FuzzParseLenient(f *testing.F) {
	addVectorLines(f)
	f.Add([]byte(lenientLine("card.dealt", `{"seat":2,"card":"Zz","phase":"deal"}`)))
	f.Add([]byte(lenientLine("hand.started", lenientStarted, `"level":2`, `"level":0`)))
	f.Add([]byte(lenientLine("hand.mucked", `{"seat":4}`, `13:05`, `25:05`)))
	f.Add([]byte(`{"id":1}`))
	addLimitLines(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		want, werr := Parse(line)
		e, err := ParseLenient(line)
		if werr == nil {
			if err != nil || !reflect.DeepEqual(e, want) {
				t.Fatalf("ParseLenient %+v %v, Parse %+v", e, err, want)
			}
			return
		}
		if err == nil || err.Error() != werr.Error() {
			t.Fatalf("ParseLenient error %v, Parse's %v", err, werr)
		}
		if e == nil {
			return
		}
		if !bytes.Equal(e.Raw, line) || e.ID == "" || e.Hand == "" || e.Seq < 1 {
			t.Fatalf("event %+v of %q", *e, line)
		}
		if e.Data != nil && e.Data.EventType() != e.Type {
			t.Fatalf("payload %T for type %q", e.Data, e.Type)
		}
	})
}
