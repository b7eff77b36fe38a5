package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fechado/fechado/internal/testfiles"
)

// vectorFile is a vector file's name and contents.
type vectorFile struct {
	name string
	data []byte
}

// vectorFiles returns the vector files, in the order of their names.
func vectorFiles(t testing.TB) []vectorFile {
	files, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	var out []vectorFile
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, vectorFile{name, b})
	}
	return out
}

// readInputs returns files for the Reader tests: the vectors; over 1 MiB of them
// (many chunks of lines and of every slab); their sample lines re-encoded with the envelope's
// fields sorted (the general walk, data before type), with spaces, and mutated (errors, escapes);
// lines longer than a chunk; blank lines and a last line without its newline. They are built
// once for the package's six tests that read them (a tenth of a second each, the mutations of
// every sample line), and each test gets copies of its own: a Reader that wrote into the bytes it
// was given would not spoil the others' inputs.
func readInputs(t *testing.T) map[string][]byte {
	t.Helper()
	inputs.once.Do(func() { inputs.files = buildInputs(t) })
	if inputs.files == nil {
		t.Fatal("the Reader tests' inputs could not be built: the first test to read them says why")
	}
	out := make(map[string][]byte, len(inputs.files))
	for name, b := range inputs.files {
		out[name] = bytes.Clone(b)
	}
	return out
}

// inputs are the Reader tests' files, built at the first test that reads them.
var inputs struct {
	once  sync.Once
	files map[string][]byte
}

func buildInputs(t *testing.T) map[string][]byte {
	var all []byte
	for _, f := range vectorFiles(t) {
		all = append(all, f.data...)
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

// kept is what a caller received from a Reader, and a copy of what it was when received.
type kept struct {
	e    *Event
	line []byte            // e.Raw as it was read
	sum  [sha256.Size]byte // LineSum's copy
	ok   bool
}

// Whatever a Reader hands out is the caller's: a caller that keeps every event, line and line sum
// of a long file (many chunks of lines and of every slab), read in every way, finds each as it
// was at the end, equal to what Parse decodes afresh from a copy of the line taken when it was
// read.
func TestReaderValuesAreTheCallers(t *testing.T) {
	for name, b := range readInputs(t) {
		for kind := range readers {
			if len(b) > 1<<19 && (kind == "one byte" || kind == "half") {
				continue // slow, and no more telling than on shorter inputs
			}
			r := newReader(kind, b)
			var all []kept
			var lines [][2][]byte // lines of ReadLine, and their copies
			for i := 0; ; i++ {
				if i%7 == 3 {
					line, err := r.ReadLine()
					if err != nil {
						break
					}
					lines = append(lines, [2][]byte{line, bytes.Clone(line)})
					continue
				}
				e, err := r.Next()
				if errors.Is(err, ErrInvalid) {
					continue
				}
				if err != nil {
					break
				}
				sum, ok := r.LineSum()
				all = append(all, kept{e, bytes.Clone(e.Raw), sum, ok})
			}
			if len(all) == 0 {
				t.Fatalf("%s, %s reader: no event read", name, kind)
			}
			for i, k := range all {
				want, err := Parse(k.line)
				if err != nil {
					t.Fatalf("%s, %s reader: event %d no longer decodes: %v", name, kind, i, err)
				}
				if !bytes.Equal(k.e.Raw, k.line) || !reflect.DeepEqual(k.e, want) {
					t.Fatalf("%s, %s reader: event %d changed:\n got %+v %+v\nwant %+v %+v", name, kind, i, *k.e, k.e.Data, *want, want.Data)
				}
				if !k.ok || k.sum != sha256.Sum256(k.line) {
					t.Fatalf("%s, %s reader: the line sum of event %d changed", name, kind, i)
				}
			}
			for i, l := range lines {
				if !bytes.Equal(l[0], l[1]) {
					t.Fatalf("%s, %s reader: line %d changed", name, kind, i)
				}
			}
		}
	}
}

// Events given back with Recycle are cleared at once (holding nothing alive while they wait) and
// handed out again: each later event equals what Parse decodes of its line, whatever the event
// it reuses held before. What the caller took of a
// recycled event before giving it back (a copy of the value: its strings, payload, line) stays as
// it was read.
func TestRecycle(t *testing.T) {
	for name, b := range readInputs(t) {
		r := NewReaderBytes(b, "recycle", nil)
		type taken struct {
			v    Event // a copy of the event's value, taken before it went back
			line []byte
		}
		var took []taken
		var batch []*Event
		given := map[*Event]bool{}
		reused := 0
		for i := 0; ; i++ {
			e, err := r.Next()
			if errors.Is(err, ErrInvalid) {
				continue
			}
			if err != nil {
				break
			}
			if given[e] {
				reused++
				delete(given, e)
			}
			want, err := Parse(bytes.Clone(e.Raw))
			if err != nil || !reflect.DeepEqual(e, want) {
				t.Fatalf("%s: event %d is not its line's: %+v, want %+v (%v)", name, i, *e, *want, err)
			}
			took = append(took, taken{*e, bytes.Clone(e.Raw)})
			// Give the events back a few at a time, as an auditor gives back a hand's.
			if batch = append(batch, e); len(batch) == 1+i%5 {
				for _, x := range batch {
					given[x] = true
				}
				r.Recycle(batch)
				for _, x := range batch {
					if !reflect.DeepEqual(*x, Event{}) {
						t.Fatalf("%s: an event given back still holds %+v", name, *x)
					}
				}
				batch = nil
			}
		}
		if reused == 0 {
			t.Fatalf("%s: no event given back was handed out again", name)
		}
		for i, k := range took {
			want, err := Parse(k.line)
			if err != nil || !reflect.DeepEqual(&k.v, want) {
				t.Fatalf("%s: what was taken of event %d changed: %+v, want %+v", name, i, k.v, *want)
			}
		}
	}
}

// Parse copies what it keeps of its line: the strings of an event stay as they are when the
// caller writes over the line.
func TestParseValuesAreTheCallers(t *testing.T) {
	for _, line := range vectorSamples(t) {
		buf := bytes.Clone(line)
		e, err := Parse(buf)
		if err != nil {
			continue
		}
		want, _ := Parse(line)
		for i := range buf {
			buf[i] = 'x'
		}
		e.Raw, want.Raw = nil, nil
		if !reflect.DeepEqual(e, want) {
			t.Fatalf("an event changed with its line:\n got %+v\nwant %+v", *e, *want)
		}
	}
}
