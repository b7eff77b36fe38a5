package events

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// The input limits of docs/events.md ("Input limits"): a line of at most MaxLineSize bytes,
// nested at most MaxDepth deep, refused otherwise by every reader of lines in bounded memory.

const limitsEnvelope = `{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":1,"at":"2026-11-02T21:00:11Z","type":"hand.started","prev":"","data":`

// sizedLine returns a valid misdeal.declared line of exactly n bytes: its reason pads it.
func sizedLine(t testing.TB, n int) []byte {
	t.Helper()
	head := strings.Replace(limitsEnvelope, "hand.started", "misdeal.declared", 1) + `{"reason":"`
	tail := `"}}`
	if n < len(head)+len(tail) {
		t.Fatalf("a line of %d bytes is too short for an event", n)
	}
	return []byte(head + strings.Repeat("x", n-len(head)-len(tail)) + tail)
}

// deepLine returns a hand.started line whose data is n arrays nested (not an object: refused for
// its depth before its type is judged), about 2n bytes.
func deepLine(n int) []byte {
	return []byte(limitsEnvelope + strings.Repeat("[", n) + strings.Repeat("]", n) + "}")
}

// overrideLine returns a valid hand.started line whose rules carry an override nested n arrays
// deep: the line nests n+3 deep (the envelope, data, rules).
func overrideLine(n int) []byte {
	data := strings.Replace(lenientStarted, `"ante":10}`, `"ante":10,"x":`+strings.Repeat("[", n)+strings.Repeat("]", n)+`}`, 1)
	return []byte(limitsEnvelope + data + "}")
}

// Parse takes a line of MaxLineSize bytes and refuses one byte more, naming the limit.
func TestParseLineSizeLimit(t *testing.T) {
	if _, err := Parse(sizedLine(t, MaxLineSize)); err != nil {
		t.Fatalf("a line of MaxLineSize bytes: %v", err)
	}
	for _, n := range []int{MaxLineSize + 1, 2 << 20} {
		_, err := Parse(sizedLine(t, n))
		var ee *Error
		if !errors.Is(err, ErrLineTooLong) || !errors.Is(err, ErrInvalid) || !errors.As(err, &ee) || ee.Field != "" {
			t.Fatalf("a line of %d bytes: %v", n, err)
		}
		if !strings.Contains(err.Error(), "over the limit of 1048576") {
			t.Errorf("the message does not name the limit: %v", err)
		}
	}
}

// Parse takes a line nested MaxDepth deep and refuses one level more, wherever the depth is: in
// an override of the rules (read by Skip, from the typed walk's depth) or in data read before its
// type; and the 500,000 levels of a line just under MaxLineSize cost neither stack nor more than
// a little heap (the 4,000,000 of a line of 8 MB are refused for its size before).
func TestParseDepthLimit(t *testing.T) {
	if _, err := Parse(overrideLine(MaxDepth - 3)); err != nil {
		t.Fatalf("an override nesting the line %d deep: %v", MaxDepth, err)
	}
	if _, err := Parse(overrideLine(MaxDepth - 2)); !errors.Is(err, ErrTooDeep) || !strings.Contains(err.Error(), "data.rules.x") {
		t.Fatalf("an override nesting the line %d deep: %v", MaxDepth+1, err)
	}
	// Not the layout of the fast path: the general walk, with spaces.
	spaced := bytes.Replace(overrideLine(MaxDepth-2), []byte(`"data":`), []byte(`"data" : `), 1)
	if _, err := Parse(spaced); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("an override nesting the line %d deep, spaced: %v", MaxDepth+1, err)
	}
	// Data before type: checked by Skip inside the envelope, then decoded.
	before := []byte(`{"data":` + strings.TrimPrefix(string(overrideLine(MaxDepth-2)), limitsEnvelope))
	before = append(before[:len(before)-1], strings.TrimSuffix(strings.TrimPrefix(limitsEnvelope, "{"), `,"data":`)+"}"...)
	if _, err := Parse(before); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("data before type nesting the line %d deep: %v", MaxDepth+1, err)
	}
	deep := deepLine(500_000)
	if _, err := Parse(deepLine(4_000_000)); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("8 MB: %v", err)
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	_, err := Parse(deep)
	runtime.ReadMemStats(&m1)
	var ee *Error
	if !errors.Is(err, ErrTooDeep) || !errors.As(err, &ee) || ee.Field != "data" {
		t.Fatalf("500,000 nested arrays: %v", err)
	}
	if got := m1.TotalAlloc - m0.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing a line nested 500,000 deep allocated %d bytes", got)
	}
	if m1.StackInuse > m0.StackInuse+1<<20 {
		t.Errorf("refusing a line nested 500,000 deep grew the stacks from %d to %d bytes", m0.StackInuse, m1.StackInuse)
	}
	// ParseLenient refuses it whole: no event, Parse's error.
	if e, err := ParseLenient(deep); e != nil || !errors.Is(err, ErrTooDeep) {
		t.Errorf("ParseLenient: %v, %v", e, err)
	}
	if e, err := ParseLenient(overrideLine(MaxDepth - 2)); e != nil || !errors.Is(err, ErrTooDeep) {
		t.Errorf("ParseLenient: %v, %v", e, err)
	}
}

// limitsFile is a log of good lines around a line of 2 MiB, one nested 500,000 deep (under
// MaxLineSize) and one nested 4,000,000 deep (8 MB).
func limitsFile(t testing.TB) (file []byte, lines [][]byte) {
	lines = [][]byte{[]byte(good), sizedLine(t, 2<<20), []byte(good), deepLine(500_000), []byte(good), deepLine(4_000_000), []byte(good)}
	return append(bytes.Join(lines, []byte("\n")), '\n'), lines
}

// A Reader refuses a line longer than MaxLineSize with an *Error naming its line (ErrLineTooLong),
// returns its first LineHead bytes, the SHA-256 of the whole line (LineSum), and goes on with the
// next line; the line nested 500,000 deep, shorter than the limit, is Parse's ErrTooDeep. Every kind of reader
// reads the same, and the last line may lack its newline.
func TestReaderRefusesLongLines(t *testing.T) {
	file, lines := limitsFile(t)
	for kind := range readers {
		if kind == "one byte" || kind == "half" || kind == "fails" {
			continue // the same paths in smaller steps, and slow on 10 MB
		}
		for _, in := range [][]byte{file, file[:len(file)-1]} {
			r := newReader(kind, in)
			for i, want := range lines {
				e, head, err := r.NextLine()
				switch i {
				case 1, 5:
					if !errors.Is(err, ErrLineTooLong) || !errors.Is(err, ErrInvalid) || !bytes.Equal(head, want[:LineHead]) {
						t.Fatalf("%s reader, line %d: %v, head %.40q", kind, i+1, err, head)
					}
					if !strings.HasPrefix(err.Error(), fmt.Sprintf("f.jsonl:%d: line too long: %d bytes", i+1, len(want))) {
						t.Errorf("%s reader: %v", kind, err)
					}
				case 3:
					if !errors.Is(err, ErrTooDeep) || !strings.HasPrefix(err.Error(), "f.jsonl:4: data: nested too deep") {
						t.Fatalf("%s reader, line 4: %v", kind, err)
					}
				default:
					if err != nil || !bytes.Equal(e.Raw, want) {
						t.Fatalf("%s reader, line %d: %v", kind, i+1, err)
					}
				}
				if sum, ok := r.LineSum(); !ok || sum != sha256.Sum256(want) {
					t.Errorf("%s reader, line %d: LineSum %x %v", kind, i+1, sum, ok)
				}
			}
			if _, err := r.Next(); err != io.EOF {
				t.Fatalf("%s reader: after the last line, %v", kind, err)
			}
		}
	}
}

// A Reader of an io.Reader reads past a line of 64 MiB in bounded memory: it allocates little
// more than twice MaxLineSize however long the line, and keeps none of it.
func TestReaderLongLineBoundedMemory(t *testing.T) {
	const n = 64 << 20
	in := io.MultiReader(strings.NewReader(limitsEnvelope), io.LimitReader(byteRun('['), n), strings.NewReader("\n"+good+"\n"))
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	r := NewReader(in, "big.jsonl")
	_, err := r.Next()
	e, err2 := r.Next()
	runtime.ReadMemStats(&m1)
	if !errors.Is(err, ErrLineTooLong) || err2 != nil || string(e.Raw) != good {
		t.Fatalf("%v; then %v", err, err2)
	}
	alloc := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("a line of %d MiB cost the Reader %d KiB", n>>20, alloc>>10)
	if alloc > 5*MaxLineSize {
		t.Errorf("reading past a line of %d bytes allocated %d bytes", n, alloc)
	}
}

// byteRun reads as an endless run of one byte.
type byteRun byte

func (c byteRun) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}
