package events

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/fechado/fechado/internal/testfiles"
)

// addVectorLines adds one line of each event type from each example vector file to the corpus.
func addVectorLines(f *testing.F) {
	files, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	if len(files) == 0 {
		f.Fatal("no vectors in testdata/vectors")
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seen := map[Type]bool{}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			e, err := Parse(sc.Bytes())
			if err != nil || seen[e.Type] {
				continue
			}
			seen[e.Type] = true
			f.Add(bytes.Clone(sc.Bytes()))
		}
	}
}

// addLimitLines adds lines at and over the input limits (MaxDepth, MaxLineSize) to the corpus:
// an override of the rules nested to the limit and one level more, data nested 100,000 deep, and
// lines of MaxLineSize bytes and one byte more.
func addLimitLines(f *testing.F) {
	f.Add(overrideLine(MaxDepth - 3))
	f.Add(overrideLine(MaxDepth - 2))
	f.Add(deepLine(100_000))
	f.Add(sizedLine(f, MaxLineSize))
	f.Add(sizedLine(f, MaxLineSize+1))
}

// FuzzParse checks the decoder on any line: it never panics; what it refuses is an *Error that
// wraps ErrInvalid; what it accepts re-encodes to a line that decodes again to the same encoding
// (decode, encode, decode, encode is a fixed point).
func FuzzParse(f *testing.F) {
	addVectorLines(f)
	f.Add([]byte(good))
	f.Add([]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":1,"at":"2026-11-02T21:00:11Z","type":"hand.started","data":{"rules":{"name":"x","deck_low":"7","open":{"min":[1,2.5e3,null,true]}},"number":1,"dealer":1,"seats":[{"seat":1,"player":"\u00e9\"\\","stack":5,"rebuy":0}],"stakes":{"ante":0,"min_bet":0,"max_bet":0},"carry":0,"passed_out":0,"tournament":"","previous":"83A3B53A-28D7-4272-B797-1272FE65ECFD"}}`))
	f.Add([]byte(`{"id":"908b5493-a4e9-4345-9095-d4d497820d56","table":"t","hand":"83a3b53a-28d7-4272-b797-1272fe65ecfd","seq":3,"at":"2026-11-02T21:00:11+01:00","type":"card.dealt","prev":"","data":{"seat":10,"phase":"draw"}}`))
	f.Add([]byte(`{"id":1}`))
	f.Add([]byte(`{`))
	f.Add([]byte{})
	addLimitLines(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := Parse(line)
		if err != nil {
			var ee *Error
			if !errors.As(err, &ee) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse error %v (%T) is not an *Error wrapping ErrInvalid", err, err)
			}
			return
		}
		if !bytes.Equal(e.Raw, line) {
			t.Fatalf("Raw %q is not the line %q", e.Raw, line)
		}
		if e.Data == nil || e.Data.EventType() != e.Type {
			t.Fatalf("data %T does not belong to type %s", e.Data, e.Type)
		}
		enc := Encode(e)
		e2, err := Parse(enc)
		if err != nil {
			t.Fatalf("the encoding of an accepted line does not decode: %v\n line: %q\n  enc: %q", err, line, enc)
		}
		if enc2 := Encode(e2); !bytes.Equal(enc, enc2) {
			t.Fatalf("encode is not stable:\n line: %q\n enc1: %q\n enc2: %q", line, enc, enc2)
		}
	})
}

// FuzzReader reads any bytes as a JSON Lines file: it never panics or hangs, every line is
// either an event or an *Error naming that line, and io.EOF comes after the last line and
// stays.
func FuzzReader(f *testing.F) {
	f.Add([]byte(good + "\n" + good + "\n"))
	f.Add([]byte("\n\n" + good))
	f.Add([]byte(good[:40] + "\n" + good + "\r\n"))
	f.Add([]byte("\xef\xbb\xbf" + good + "\n\xff\n"))
	f.Add(append([]byte(good+"\n"), append(sizedLine(f, MaxLineSize+1), "\n"+good+"\n"+string(deepLine(100_000))+"\n"...)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(bytes.NewReader(b), "fuzz.jsonl")
		lines := bytes.Count(b, []byte("\n")) + 1
		for calls := 0; ; calls++ {
			if calls > lines {
				t.Fatalf("no io.EOF after %d calls for %d lines", calls, lines)
			}
			before := r.Line()
			e, err := r.Next()
			if err == io.EOF {
				break
			}
			if r.Line() <= before {
				t.Fatalf("Next did not move past line %d", before)
			}
			if err != nil {
				var ee *Error
				if !errors.As(err, &ee) || !errors.Is(err, ErrInvalid) {
					t.Fatalf("error %v (%T) is not an *Error wrapping ErrInvalid", err, err)
				}
				if ee.File != "fuzz.jsonl" || ee.Line != r.Line() {
					t.Fatalf("error names %s:%d, want fuzz.jsonl:%d", ee.File, ee.Line, r.Line())
				}
				continue
			}
			if bytes.ContainsRune(e.Raw, '\n') {
				t.Fatalf("event line holds a newline: %q", e.Raw)
			}
		}
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("after io.EOF, Next returns %v", err)
		}
	})
}
