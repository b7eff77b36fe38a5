package events

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"github.com/fechado/fechado/internal/multisha"
)

// A Reader of chosen lines (NewReaderLines) gives each line's SHA-256, whatever the lengths of
// the lines and of the lists more gives: lines shorter and longer than a group of sums
// (sumBytes), empty lines, lists of one line and of hundreds; and no call of multisha.SumMany
// hashes more than sumBytes but for a single longer line (a long call into C has its thread's
// processor taken by the scheduler's monitor, see sumBytes).
func TestReaderLinesSumsInBoundedGroups(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 43))
	var b bytes.Buffer
	var spans []multisha.Span
	for i := range 3000 {
		n := 50 + rnd.IntN(600)
		switch {
		case i%500 == 3:
			n = sumBytes + 1 + rnd.IntN(3*sumBytes) // longer than a group
		case i%97 == 5:
			n = sumBytes // exactly a group
		case i%61 == 0:
			n = 0 // an empty line (the queue holds what the caller chose)
		}
		spans = append(spans, multisha.Span{Off: b.Len(), Len: n})
		b.Write(bytes.Repeat([]byte{byte('a' + i%26)}, n))
		b.WriteByte('\n')
	}
	// The lists more gives: of 1 to 400 lines, in the order of the file.
	var lists [][]multisha.Span
	for rest := spans; len(rest) > 0; {
		n := min(len(rest), 1+rnd.IntN(400))
		lists = append(lists, rest[:n])
		rest = rest[n:]
	}
	given := 0
	r := NewReaderLines(b.Bytes(), "f.jsonl", func() ([]multisha.Span, []int) {
		if given == len(lists) {
			return nil, nil
		}
		l := lists[given]
		given++
		numbers := make([]int, len(l))
		for i := range numbers {
			numbers[i] = i + 1
		}
		return l, numbers
	})
	read, groups := 0, 0
	for {
		line, err := r.ReadLine()
		if err != nil {
			break
		}
		sp := spans[read]
		if !bytes.Equal(line, b.Bytes()[sp.Off:sp.Off+sp.Len]) && len(line) <= MaxLineSize {
			t.Fatalf("line %d: got %d bytes, want the span %+v", read, len(line), sp)
		}
		read++
		if read%5 == 0 {
			continue // a line whose sum is not asked for
		}
		before := [2]int{r.sumFrom, r.sumTo}
		got, ok := r.LineSum()
		if want := sha256.Sum256(b.Bytes()[sp.Off : sp.Off+sp.Len]); !ok || got != want {
			t.Fatalf("line %d (%d bytes): sum %x, want %x", read, sp.Len, got, want)
		}
		if before != [2]int{r.sumFrom, r.sumTo} {
			groups++
		}
		size := 0
		for _, s := range r.queue[r.sumFrom:r.sumTo] {
			size += s.Len
		}
		if n := r.sumTo - r.sumFrom; n > queuedSums || (n > 1 && size > sumBytes) {
			t.Fatalf("line %d: one call hashed %d lines, %d bytes (at most %d lines, and %d bytes but for one line)",
				read, n, size, queuedSums, sumBytes)
		}
	}
	if read != len(spans) {
		t.Fatalf("%d lines read, want %d", read, len(spans))
	}
	// About 1.3 MB of lines: some hundred groups, each of many lines.
	if groups < b.Len()/sumBytes || groups > len(spans)/4 {
		t.Fatalf("%d groups hashed for %d lines of %d bytes", groups, len(spans), b.Len())
	}
}
