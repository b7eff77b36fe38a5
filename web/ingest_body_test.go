package web_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/fechado/fechado/sim"
)

// A body is read whole when it is small and as a stream when it is not (bodyReader): around the
// boundary (4 KiB) the answers are the same. Every event of a body on either side is appended,
// a malformed line that straddles the boundary is named by its number, and a limit smaller than
// the boundary still answers 413.
func TestPostBodiesAroundTheSmallBodyBoundary(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "std-draw", Players: 4, Hands: 3, Seed: 74, Table: "t-boundary", ExposeRate: -1})
	lines := bytes.SplitAfter(jsonl(hs[0].Events), []byte("\n"))
	lines = lines[:len(lines)-1] // the empty piece after the last newline
	// The first k lines of the hand fit in 4 KiB, the first k+1 do not.
	k, size := 0, 0
	for k < len(lines) && size+len(lines[k]) <= 4<<10 {
		size += len(lines[k])
		k++
	}
	if k < 2 || k >= len(lines) {
		t.Fatalf("the hand's lines do not straddle 4 KiB: %d of %d fit", k, len(lines))
	}
	var res struct {
		Appended int `json:"appended"`
	}
	e.post(bytes.Join(lines[:k], nil), http.StatusOK, &res) // read whole
	if res.Appended != k {
		t.Fatalf("small body: appended %d of %d", res.Appended, k)
	}
	e.post(bytes.Join(lines[k:], nil), http.StatusOK, &res) // the rest, over 4 KiB or not
	if res.Appended != len(lines)-k {
		t.Fatalf("the rest: appended %d of %d", res.Appended, len(lines)-k)
	}

	// Line k+1 malformed, across the boundary: 400 naming it, nothing appended.
	next := bytes.SplitAfter(jsonl(hs[1].Events), []byte("\n"))
	before := e.streamLast()
	body := append(bytes.Join(next[:k], nil), []byte(`{"id": "`+strings.Repeat("x", 200)+"\" oops\n")...)
	var a struct {
		Error string `json:"error"`
		Line  int    `json:"line"`
	}
	e.post(body, http.StatusBadRequest, &a)
	if a.Line != k+1 {
		t.Errorf("malformed line %d across the boundary: answer names line %d (%s)", k+1, a.Line, a.Error)
	}
	if e.streamLast() != before {
		t.Error("a rejected body appended events")
	}

	// A limit under the boundary: the body is over it before 4 KiB are read.
	small := newEnv(t, 1<<10)
	small.post(bytes.Join(next[:k], nil), http.StatusRequestEntityTooLarge, nil)
}
