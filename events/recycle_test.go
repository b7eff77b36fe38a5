package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/fechado/fechado/internal/testfiles"
)

// recycleInputs returns files to read with and without Recycle: the vectors; over 1 MiB of them
// (many chunks of lines and of every slab); their sample lines re-encoded with the envelope's
// fields sorted (the general walk, data before type), with spaces, and mutated (errors, escapes);
// lines longer than a chunk; blank lines and a last line without its newline.
func recycleInputs(t *testing.T) map[string][]byte {
	files, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	var all []byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	var big []byte
	for len(big) < 1<<20 {
		big = append(big, all...)
	}
	var odd bytes.Buffer
	r := rand.New(rand.NewPCG(5, 6))
	for _, line := range vectorSamples(t) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(line, &obj) == nil {
			sorted, _ := json.Marshal(obj) // keys sorted: "data" before "type"
			odd.Write(sorted)
			odd.WriteString("\n ")
		}
		odd.Write(line)
		odd.WriteString("\n\n")
		ms := mutations(line)
		for range 40 {
			odd.Write(ms[r.IntN(len(ms))])
			odd.WriteByte('\n')
		}
	}
	reason := `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":9,"at":"2026-11-02T21:00:11Z","type":"misdeal.declared","prev":"","data":{"reason":"` + strings.Repeat("é", 100_000) + `"}}`
	return map[string][]byte{
		"vectors": all,
		"big":     big,
		"odd":     append(bytes.Repeat(odd.Bytes(), 3), good...),
		"long":    []byte(strings.Repeat(good+"\n"+reason+"\r\n\n", 3) + strings.Repeat("x", 300_000) + "\n" + good),
	}
}

// setPoison turns on the Reader's test hook: what Recycle releases is overwritten at once.
func setPoison(r *Reader) *Reader {
	r.PoisonRecycled()
	return r
}

// sameReadRecycled reads b with a Reader that recycles after every few items (between 1 and
// every, at random), its memory poisoned or not, and fails unless it returns what a Reader that
// never recycles does. Each item is compared as it is read, and the events read since the last
// Recycle again just before the next one: what is read after a Recycle stays intact until the
// next, and whatever the Reader hands out again is rewritten whole (a value of a slab is zero
// before it is filled: without poison, a value reused keeps the fields of its last use until
// then).
func sameReadRecycled(t testing.TB, b []byte, every int, seed uint64) {
	t.Helper()
	for _, poison := range []bool{true, false} {
		for name, mk := range readers {
			if len(b) > 1<<19 && (name == "one byte" || name == "half") {
				continue // slow, and no more telling than on shorter inputs
			}
			sameReadRecycledBy(t, name, mk, b, every, seed, poison)
		}
	}
}

// sameReadRecycledBy is sameReadRecycled with one kind of reader.
func sameReadRecycledBy(t testing.TB, name string, mk func([]byte) io.Reader, b []byte, every int, seed uint64, poison bool) {
	t.Helper()
	plain := NewReader(mk(b), "f.jsonl")
	want := items(plain.Next, plain.Line)
	r := NewReader(mk(b), "f.jsonl")
	r.poison = poison
	rnd := rand.New(rand.NewPCG(seed, uint64(len(b))))
	held := map[int]*Event{} // the events read since the last Recycle, by item
	n, next := 0, 1+rnd.IntN(every)
	for i := 0; ; i++ {
		if n == next {
			for j, e := range held {
				if !reflect.DeepEqual(e, want[j].e) {
					t.Fatalf("%s reader: item %d changed before Recycle:\n got %+v %+v\nwant %s", name, j, *e, e.Data, want[j])
				}
			}
			clear(held)
			r.Recycle()
			n, next = 0, 1+rnd.IntN(every)
		}
		if i >= len(want) {
			t.Fatalf("%s reader: more than %d items", name, len(want))
		}
		e, err := r.Next()
		got := item{line: r.Line(), e: e}
		end := err != nil && !errors.Is(err, ErrInvalid)
		switch {
		case end:
			_, again := r.Next()
			got.err = err.Error() + " / " + fmt.Sprint(again)
		case err != nil:
			got.err = err.Error()
		}
		if !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("%s reader: item %d:\n got %s\nwant %s", name, i, got, want[i])
		}
		if end {
			if i != len(want)-1 {
				t.Fatalf("%s reader: the end after %d items, want %d", name, i+1, len(want))
			}
			break
		}
		if e != nil {
			held[i] = e
		}
		n++
	}
}

// Reading with Recycle returns what reading without it does, whatever the reads deliver and
// however often the caller recycles: lines and events are intact from their reading to the next
// Recycle, and the values handed out again are rewritten whole.
func TestReaderRecycledSameAsPlain(t *testing.T) {
	for name, b := range recycleInputs(t) {
		for _, every := range recycleEvery {
			t.Run(fmt.Sprintf("%s/every-%d", name, every), func(t *testing.T) {
				sameReadRecycled(t, b, every, 1)
			})
		}
	}
}

// FuzzReaderRecycledSameAsPlain reads any file recycling after every few events, as
// TestReaderRecycledSameAsPlain does.
func FuzzReaderRecycledSameAsPlain(f *testing.F) {
	f.Add([]byte(good+"\n"+good+"\n"), uint8(1))
	f.Add([]byte("\n\n"+good), uint8(2))
	f.Add([]byte(good[:40]+"\n"+good+"\r\n"), uint8(3))
	f.Add([]byte("\xef\xbb\xbf"+good+"\n\xff\n"), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, every uint8) {
		sameReadRecycled(t, b, 1+int(every%8), uint64(every))
	})
}

// Lines read with ReadLine stay as they are until the next Recycle; after it, the lines read
// before it are overwritten (poison), and the Reader writes its next lines over the memory of
// those before: a long file is read in a few chunks, reused, instead of one per 64 KiB.
func TestReaderRecyclesLineChunks(t *testing.T) {
	var b bytes.Buffer
	r := rand.New(rand.NewPCG(1, 2))
	for b.Len() < 4<<20 {
		n := 1 + r.IntN(400)
		if r.IntN(2000) == 0 {
			n = 100_000 + r.IntN(100_000) // longer than a chunk
		}
		for i := range n {
			b.WriteByte('a' + byte((i+b.Len())%26))
		}
		b.WriteByte('\n')
	}
	want := bytes.Split(b.Bytes(), []byte("\n"))
	want = want[:len(want)-1]
	for _, recycle := range []bool{false, true} {
		rd := setPoison(NewReader(bytes.NewReader(b.Bytes()), "f"))
		chunks := map[*byte]bool{} // the chunks of the usual size the lines were read into
		var since [][]byte
		var sinceIdx []int
		for i := 0; ; i++ {
			line, err := rd.ReadLine()
			if err == io.EOF {
				if i != len(want) {
					t.Fatalf("io.EOF after %d lines, want %d", i, len(want))
				}
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(line, want[i]) || cap(line) != len(line) {
				t.Fatalf("line %d: %d bytes (cap %d), want %d", i+1, len(line), cap(line), len(want[i]))
			}
			if len(rd.chunk) == bufSize {
				chunks[unsafe.SliceData(rd.chunk)] = true
			}
			since, sinceIdx = append(since, line), append(sinceIdx, i)
			if recycle && i%7 == 6 {
				for k, l := range since {
					if !bytes.Equal(l, want[sinceIdx[k]]) {
						t.Fatalf("line %d changed before Recycle", sinceIdx[k]+1)
					}
				}
				rd.Recycle()
				if l := since[0]; len(l) > 0 && l[0] != 0xAA {
					t.Fatalf("line %d not poisoned by Recycle: %.20q", sinceIdx[0]+1, l)
				}
				since, sinceIdx = since[:0], sinceIdx[:0]
			}
		}
		// (The long lines need chunks of their own, twice as long at least.)
		switch {
		case !recycle && len(chunks) < b.Len()/bufSize/2:
			t.Errorf("without Recycle: %d chunks for %d bytes", len(chunks), b.Len())
		case recycle && len(chunks) > 4:
			t.Errorf("with Recycle: %d chunks for %d bytes: not reused", len(chunks), b.Len())
		}
		t.Logf("recycle %v: %d chunks of %d bytes for %d bytes", recycle, len(chunks), bufSize, b.Len())
	}
}

// A Reader whose caller never recycles keeps nothing for recycling: every chunk is left to the
// garbage collector, as before Recycle existed. One that recycled once, then no more, keeps at
// most maxKept chunks per slab and of lines.
func TestReaderKeepsBoundedChunks(t *testing.T) {
	b := recycleInputs(t)["big"]
	kept := func(r *Reader) (n int) {
		n = len(r.lines.done) + len(r.lines.spare)
		for _, s := range r.d.allSlabs() {
			v := reflect.ValueOf(s).Elem()
			n += v.FieldByName("done").Len() + v.FieldByName("spare").Len()
		}
		return n
	}
	readAll := func(r *Reader) {
		for {
			if _, err := r.Next(); err == io.EOF {
				return
			} else if err != nil {
				t.Fatal(err)
			}
		}
	}
	r := NewReader(bytes.NewReader(b), "f")
	readAll(r)
	if n := kept(r); n != 0 {
		t.Errorf("without Recycle the Reader keeps %d chunks", n)
	}
	r = NewReader(bytes.NewReader(b), "f")
	r.Recycle()
	readAll(r)
	if n, most := kept(r), (1+len(r.d.allSlabs()))*maxKept; n == 0 || n > most {
		t.Errorf("after one Recycle the Reader keeps %d chunks, want 1 to %d", n, most)
	}
	if len(r.lines.done) > maxKept {
		t.Errorf("the Reader keeps %d finished chunks of lines", len(r.lines.done))
	}
	for _, s := range r.d.allSlabs() {
		if v := reflect.ValueOf(s).Elem(); v.FieldByName("done").Len() > maxKept {
			t.Errorf("%s keeps %d finished chunks", v.Type(), v.FieldByName("done").Len())
		}
	}
}

// Recycle reaches every slab of the decoder: allSlabs lists each slab field once.
func TestDecoderRecyclesEverySlab(t *testing.T) {
	var d decoder
	listed := map[uintptr]bool{}
	for _, s := range d.allSlabs() {
		p := reflect.ValueOf(s).Pointer()
		if listed[p] {
			t.Errorf("%T listed twice", s)
		}
		listed[p] = true
	}
	n := 0
	for _, v := range []reflect.Value{reflect.ValueOf(&d).Elem(), reflect.ValueOf(&d.payloads).Elem()} {
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !strings.HasPrefix(f.Type.Name(), "slab[") {
				continue
			}
			n++
			if !listed[v.Field(i).Addr().Pointer()] {
				t.Errorf("%s.%s is not in allSlabs: Recycle would not reuse it", v.Type().Name(), f.Name)
			}
		}
	}
	if n != len(listed) || n < 20 {
		t.Errorf("%d slab fields, %d listed", n, len(listed))
	}
}

// After Recycle the decoder keeps no table or hand id of the lines read before (they may alias
// those lines), and it shares the ids of the lines read after it with their events.
func TestDecoderForgetsIDsAtRecycle(t *testing.T) {
	rd := NewReader(strings.NewReader(good+"\n"+good+"\n"), "f")
	if _, err := rd.Next(); err != nil {
		t.Fatal(err)
	}
	if rd.d.hand == "" || rd.d.table == "" {
		t.Fatal("no last hand and table")
	}
	rd.Recycle()
	if rd.d.hand != "" || rd.d.table != "" {
		t.Fatalf("after Recycle the decoder keeps hand %q, table %q", rd.d.hand, rd.d.table)
	}
	e, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	if unsafe.StringData(e.Hand) != &e.Raw[bytes.Index(e.Raw, []byte(e.Hand))] {
		t.Errorf("after a Recycle the hand id is not a piece of its line")
	}
}

// The Chain keeps its own copies of hand ids: the strings of the events it was given may change
// (their memory recycled) without changing what it remembers, in the open hands, the window of
// forgotten ones and the links dropped from it.
func TestChainKeepsOwnHandIDs(t *testing.T) {
	c := NewChain()
	c.Window = 3
	buf := make([]byte, 64)
	// hand returns id as a string of buf, the way a recycled line holds it.
	hand := func(id string) string {
		n := copy(buf, id)
		return unsafe.String(&buf[0], n)
	}
	ids := make([]string, 8)
	for i := range ids {
		ids[i] = fmt.Sprintf("83a3b53a-28d7-4272-b797-%012d", i)
		if i%4 == 3 {
			ids[i] += "-and-longer-than-a-uuid" // the keys held out of line
		}
	}
	raw := []byte("line")
	for i, id := range ids {
		for seq := Seq(1); seq <= 3; seq++ {
			e := &Event{ID: fmt.Sprintf("908b5493-a4e9-4345-9095-%04d%08d", i, seq), Hand: hand(id), Seq: seq, Type: PlayerActedType, Raw: raw}
			if seq == 3 {
				e.Type = HandEndedType
			}
			if ps := c.Check(e); len(ps) != 0 {
				t.Fatalf("hand %d seq %d: %v", i, seq, ps)
			}
		}
		c.Forget(hand(id))
		hand(strings.Repeat("\xaa", len(id))) // the line's memory reused
	}
	for i, id := range ids {
		inWindow := i >= len(ids)-c.Window
		if c.Ended(id) != inWindow {
			t.Errorf("hand %d: Ended %v, want %v", i, c.Ended(id), inWindow)
		}
		if seq, _ := c.Last(id); (seq == 3) != inWindow {
			t.Errorf("hand %d: Last seq %d", i, seq)
		}
	}
	if len(c.hands) != c.Window || c.ringLen != c.Window {
		t.Errorf("%d hands held, %d in the window; want %d", len(c.hands), c.ringLen, c.Window)
	}
	// An event of a hand in the window, after its hand.ended, is caught.
	last := ids[len(ids)-1]
	if ps := c.Check(&Event{ID: "908b5493-a4e9-4345-9095-d4d497820d56", Hand: hand(last), Seq: 4, Type: PlayerActedType, Raw: raw}); len(ps) != 1 || ps[0].Kind != ProblemSequence {
		t.Errorf("an event after hand.ended: %v", ps)
	}
}

// Steady reading with Recycle after every few events allocates (almost) nothing: lines, events
// and payloads are written over those recycled. Without Recycle the Reader allocates as before,
// more than the bytes it reads.
func TestReaderRecycledAllocatesNothing(t *testing.T) {
	b := recycleInputs(t)["big"]
	lines := bytes.Count(b, []byte("\n"))
	for _, recycle := range []bool{false, true} {
		rd := NewReader(bytes.NewReader(bytes.Repeat(b, 3)), "f")
		read := func() {
			for i := range lines {
				if _, err := rd.Next(); err != nil {
					t.Fatal(err)
				}
				if recycle && i%30 == 29 {
					rd.Recycle()
				}
			}
		}
		read()
		read() // warm: even the rarest payloads have had a chunk recycled
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		read()
		runtime.ReadMemStats(&after)
		bytes, mallocs := after.TotalAlloc-before.TotalAlloc, after.Mallocs-before.Mallocs
		t.Logf("recycle %v: %d bytes in %d allocations for %d events, %d bytes", recycle, bytes, mallocs, lines, len(b))
		if recycle && (bytes > uint64(len(b))/1000 || mallocs > uint64(lines)/1000) {
			t.Errorf("with Recycle: %d bytes in %d allocations for %d events", bytes, mallocs, lines)
		}
		if !recycle && bytes < uint64(len(b)) {
			t.Errorf("without Recycle: %d bytes allocated to read %d", bytes, len(b))
		}
	}
}
