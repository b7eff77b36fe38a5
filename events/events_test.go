package events

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/internal/testfiles"
)

// The vectors of an independent implementation decode, re-encode byte for byte, and chain.
func TestVectorsRoundTrip(t *testing.T) {
	files, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no vectors")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(fh, filepath.Base(f))
		ch := NewChain()
		n := 0
		for {
			e, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%v", err)
			}
			n++
			if got := Encode(e); !bytes.Equal(got, e.Raw) {
				t.Errorf("%s:%d: re-encoding differs:\n got %s\nwant %s", f, r.Line(), got, e.Raw)
			}
			if ps := ch.Check(e); len(ps) > 0 {
				t.Errorf("%s:%d: %v", f, r.Line(), ps)
			}
		}
		fh.Close()
		if n == 0 {
			t.Errorf("%s: no events", f)
		}
	}
}

const good = `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"X777","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":4,"at":"2026-11-02T21:00:11.696Z","type":"ante.posted","prev":"a31875f3e181e11d7ca81f6a4d4dbbb96be05747298d38935c5a53911fc64f56","data":{"seat":1,"amount":5}}`

func TestParseErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct{ name, from, to, field string }{
		{"unknown type", `"ante.posted"`, `"ante.paid"`, "type"},
		{"unknown data field", `"amount":5`, `"amount":5,"tip":1`, "data.tip"},
		{"unknown envelope field", `"seq":4`, `"seq":4,"x":1`, "x"},
		{"wrong JSON type", `"amount":5`, `"amount":"5"`, "data.amount"},
		{"fraction", `"amount":5`, `"amount":5.5`, "data.amount"},
		{"seat out of range", `"seat":1`, `"seat":11`, "data.seat"},
		{"bad uuid", `"908b5493-a4e9`, `"908b5493xa4e9`, "id"},
		{"seq zero", `"seq":4`, `"seq":0`, "seq"},
		{"missing data field", `"seat":1,`, ``, "data.seat"},
		{"bad time", `2026-11-02T21`, `2026-11-02 21`, "at"},
		{"bad prev", `"prev":"a3`, `"prev":"A3`, "prev"},
		{"truncated", `5}}`, `5}`, ""},
		{"a NUL after the event", `5}}`, "5}}\x00", ""},
	} {
		line := strings.Replace(good, tc.from, tc.to, 1)
		if line == good {
			t.Fatalf("%s: replacement did not apply", tc.name)
		}
		_, err := Parse([]byte(line))
		var ee *Error
		if !errors.As(err, &ee) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want *Error wrapping ErrInvalid", tc.name, err)
			continue
		}
		if ee.Field != tc.field {
			t.Errorf("%s: field = %q, want %q (%v)", tc.name, ee.Field, tc.field, err)
		}
	}
	if _, err := Parse([]byte(good)); err != nil {
		t.Fatal(err)
	}
}

func TestReaderNamesFileAndLine(t *testing.T) {
	in := good + "\n\n" + strings.Replace(good, `"Z"`, `"Z`, 1) + "\n" + `{"id":` + "\n"
	r := NewReader(strings.NewReader(in), "t.jsonl")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err := r.Next()
	if err == nil || !strings.HasPrefix(err.Error(), "t.jsonl:4: ") {
		t.Fatalf("err = %v, want t.jsonl:4", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

func TestChainWindow(t *testing.T) {
	e, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	c := NewChain()
	c.Window = 1
	first := *e
	first.Seq, first.HasPrev, first.Type = 1, false, HandEndedType
	if ps := c.Check(&first); len(ps) != 0 {
		t.Fatalf("first event: %v", ps)
	}
	if !c.Ended(first.Hand) {
		t.Fatal("hand.ended not recorded")
	}
	again := first
	again.Hand = "00000000-0000-0000-0000-000000000000"
	if ps := c.Check(&again); len(ps) != 1 || ps[0].Kind != ProblemDuplicateID {
		t.Fatalf("a repeated id in another hand: %v", ps)
	}
	c.Forget(first.Hand)
	c.Forget(again.Hand) // the window holds one hand: the first is dropped with its ids
	if c.Ended(first.Hand) {
		t.Error("a hand outside the window is still remembered")
	}
}

// Bugs the fuzzer would find: escaped override keys, non-JSON numbers, unpaired surrogates.
func TestCodecEdgeCases(t *testing.T) {
	start := `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"T","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":1,"at":"2026-11-02T21:00:01Z","type":"hand.started","prev":"","data":{"rules":{"name":"br-fechado",RULE},"number":1,"dealer":1,"seats":[{"seat":1,"player":"PLAYER","stack":1}],"stakes":{"ante":0,"min_bet":1,"max_bet":0},"carry":0,"passed_out":0}}`
	line := func(rule, player string) []byte {
		return []byte(strings.Replace(strings.Replace(start, "RULE", rule, 1), "PLAYER", player, 1))
	}
	e, err := Parse(line(`"a\"b":1`, "p"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(Encode(e)); err != nil {
		t.Errorf("an escaped override key does not survive encoding: %v", err)
	}
	for _, bad := range []string{`"x":01`, `"x":1.`, `"x":-.5`, `"x":1e`, `"x":+1`} {
		if _, err := Parse(line(bad, "p")); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	e, err = Parse(line(`"x":1`, `\ud800\u0041`))
	if err != nil {
		t.Fatal(err)
	}
	if p := e.Data.(*HandStarted).Seats[0].Player; p != "\uFFFDA" {
		t.Errorf("unpaired surrogate decoded as %q", p)
	}
}

// A v1 log may carry tournament as a bare id (events-v1.md §7 reading R1 in docs/events.md): the
// recorder re-encodes such a line to fill prev, and what it writes must decode to the same hand.
func TestBareTournamentSurvivesEncoding(t *testing.T) {
	line := `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"T","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":1,"at":"2026-11-02T21:00:01Z","type":"hand.started","data":{"rules":{"name":"br-fechado"},"number":1,"dealer":1,"seats":[{"seat":1,"player":"p","stack":1}],"stakes":{"ante":0,"min_bet":1,"max_bet":0},"carry":0,"passed_out":0,"tournament":"t1"}}`
	e, err := Parse([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(Encode(e))
	if err != nil {
		t.Fatalf("the re-encoded line does not decode: %v\n%s", err, Encode(e))
	}
	if got := again.Data.(*HandStarted).Tournament; got == nil || *got != (Tournament{ID: "t1"}) {
		t.Errorf("tournament after a round trip: %+v", got)
	}
}

// rules.button (events-v1.md §7, 2026-12-05) is "dead" or "moving": the decoder keeps either as
// an override and Rules.Button reads it, dead when absent; any other value is refused at its field.
func TestRulesButtonIsDeadOrMoving(t *testing.T) {
	started := func(rules string) string {
		return `{"id":"018f4e2a-0000-7000-8000-000000000001","hand":"018f4e2a-0000-7000-8000-000000000002","table":"T1","seq":1,"at":"2026-12-05T10:00:00Z","prev":"","type":"hand.started","data":{"rules":` + rules + `,"number":1,"dealer":1,"seats":[{"seat":1,"player":"a","stack":10},{"seat":2,"player":"b","stack":10}],"stakes":{"ante":0,"min_bet":2,"max_bet":0},"carry":0,"passed_out":0}}`
	}
	for _, tc := range []struct {
		rules string
		want  Button
	}{
		{`{"name":"online-draw"}`, ButtonDead},
		{`{"name":"online-draw","button":"dead"}`, ButtonDead},
		{`{"name":"online-draw","button":"moving"}`, ButtonMoving},
	} {
		e, err := Parse([]byte(started(tc.rules)))
		if err != nil {
			t.Fatalf("%s: %v", tc.rules, err)
		}
		if got := e.Data.(*HandStarted).Rules.Button(); got != tc.want {
			t.Errorf("%s: Button() = %q, want %q", tc.rules, got, tc.want)
		}
	}
	for _, bad := range []string{`"sideways"`, `true`, `"Moving"`} {
		_, err := Parse([]byte(started(`{"name":"online-draw","button":` + bad + `}`)))
		var ee *Error
		if !errors.As(err, &ee) || ee.Field != "data.rules.button" {
			t.Errorf("button %s: err = %v, want an error at data.rules.button", bad, err)
		}
	}
}
