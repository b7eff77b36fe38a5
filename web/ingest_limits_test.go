package web_test

import (
	"bytes"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/fechado/fechado/sim"
)

// deepBody returns line with its payload replaced by n nested arrays (about 2n bytes), and a
// newline.
func deepBody(line []byte, n int) []byte {
	i := bytes.Index(line, []byte(`"data":`)) + len(`"data":`)
	return append(append(bytes.Clone(line[:i]), strings.Repeat("[", n)...), strings.Repeat("]", n)+"}\n"...)
}

// POST /api/events refuses a line over the input limits (docs/events.md, "Input limits"),
// naming it, in bounded memory, and serves on: a line of 8 MB nested 4,000,000 deep (which
// overflowed the stack of the whole server, issue 38) answers 413 having allocated a few MiB,
// a line nested 500,000 deep (under the size limit) 422; nothing of either body is appended,
// and the next request is served.
func TestIngestLimitsBoundedMemory(t *testing.T) {
	e := newEnv(t, 0) // the default body limit, 8 MiB: the deep line fits in it
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 2, Seed: 38, Table: "t-limits", ExposeRate: -1})
	good := jsonl(hs[0].Events)
	first := bytes.SplitAfter(good, []byte("\n"))[0]
	before := e.streamLast()
	type answer struct {
		Error string `json:"error"`
		Line  int    `json:"line"`
		Hand  string `json:"hand"`
	}
	for _, c := range []struct {
		name  string
		depth int
		code  int
		want  string
	}{
		{"8 MB, 4,000,000 deep", 4_000_000, http.StatusRequestEntityTooLarge, "line 2: line too long: 8000"},
		{"1 MB, 500,000 deep", 500_000, http.StatusUnprocessableEntity, "line 2: data: nested too deep"},
	} {
		body := append(bytes.Clone(first), deepBody(first, c.depth)...)
		body = append(body, good...)
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		var a answer
		e.post(body, c.code, &a)
		runtime.ReadMemStats(&m1)
		alloc := m1.TotalAlloc - m0.TotalAlloc
		t.Logf("%s: %d bytes posted, %.1f MiB allocated (client and server)", c.name, len(body), float64(alloc)/(1<<20))
		if a.Line != 2 || !strings.HasPrefix(a.Error, c.want) || a.Hand != hs[0].Events[0].Hand {
			t.Errorf("%s: %+v, want line 2, %q", c.name, a, c.want)
		}
		if alloc > 64<<20 {
			t.Errorf("%s: allocated %d MiB", c.name, alloc>>20)
		}
	}
	if got := e.streamLast(); got != before {
		t.Fatalf("refused bodies appended %d events", got-before)
	}
	// Still serving: the good hands go in, the pages answer.
	e.post(append(good, jsonl(hs[1].Events)...), http.StatusOK, nil)
	e.get("/api/tables", http.StatusOK, nil)
}
