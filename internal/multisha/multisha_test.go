package multisha

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/internal/race"
	"pgregory.net/rapid"
)

// paths runs f with every kernel this machine has, the fallback on crypto/sha256 included: all
// must give crypto's answers. Each runs as a subtest named after it (-v shows which ran), and
// TestMain fails the run if a kernel the CPU has was run by no test.
func paths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, k := range kernels() {
		t.Run(k.String(), func(t *testing.T) {
			setKernel(t, k)
			ran[k] = true
			f(t)
		})
	}
}

// ran is the kernels that paths ran.
var ran = map[kernel]bool{}

func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && len(ran) > 0 {
		for _, k := range kernels() {
			if !ran[k] {
				fmt.Fprintf(os.Stderr, "FAIL: kernel %v of this CPU ran in no test (ran: %v)\n", k, ran)
				code = 1
			}
		}
	}
	os.Exit(code)
}

// setKernel switches SumMany (and HMACCounter, on or off the SHA extensions) to kernel k for the
// rest of the test.
func setKernel(t testing.TB, k kernel) {
	old := sumKernel
	sumKernel = k
	t.Cleanup(func() { sumKernel = old })
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// checkSums runs SumMany on spans of buf and compares every digest with sha256.Sum256; the
// digests after len(spans) must be left alone.
func checkSums(t *testing.T, buf []byte, spans []Span) {
	t.Helper()
	out := make([][Size]byte, len(spans)+2)
	guard := [Size]byte{0: 0xa5, Size - 1: 0x5a}
	out[len(spans)], out[len(spans)+1] = guard, guard
	SumMany(out, buf, spans)
	for i, s := range spans {
		if want := sha256.Sum256(buf[s.Off : s.Off+s.Len]); out[i] != want {
			t.Fatalf("span %d of %d (%d+%d): %x, want %x", i, len(spans), s.Off, s.Len, out[i], want)
		}
	}
	if out[len(spans)] != guard || out[len(spans)+1] != guard {
		t.Fatalf("%d spans: SumMany wrote past them", len(spans))
	}
}

// Every length from 0 to 300 (one to six blocks, each side of the 55- and 119-byte padding
// edges), alone and in batches of several sizes, at random offsets, lengths shuffled so that the
// lanes finish at different times.
func TestSumManyEveryLength(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		buf := randomBytes(r, 4096)
		var all []Span
		for n := 0; n <= 300; n++ {
			s := Span{r.IntN(len(buf) - n + 1), n}
			checkSums(t, buf, []Span{s})
			all = append(all, s)
		}
		checkSums(t, buf, all)
		for _, batch := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 31, 64, 200} {
			for range 20 {
				spans := make([]Span, batch)
				for i := range spans {
					spans[i] = all[r.IntN(len(all))]
				}
				checkSums(t, buf, spans)
			}
		}
	})
}

// Messages of very different lengths in one batch: a long one in one lane while the others go
// through many short ones, and the batch ending with lanes of several lengths still running.
func TestSumManyMixed(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		buf := randomBytes(r, 1<<16)
		for round := range 50 {
			spans := make([]Span, r.IntN(40))
			for i := range spans {
				n := r.IntN(200)
				switch r.IntN(4) {
				case 0:
					n = r.IntN(len(buf))
				case 1:
					n = 64*r.IntN(20) + []int{0, 55, 56, 63}[r.IntN(4)]
				}
				spans[i] = Span{r.IntN(len(buf) - n + 1), n}
			}
			t.Run(fmt.Sprint(round), func(t *testing.T) { checkSums(t, buf, spans) })
		}
		checkSums(t, buf, []Span{{0, len(buf)}, {0, 0}, {len(buf), 0}, {1, len(buf) - 1}})
	})
}

// A nil or empty buffer holds empty messages only.
func TestSumManyEmpty(t *testing.T) {
	paths(t, func(t *testing.T) {
		empty := sha256.Sum256(nil)
		for _, buf := range [][]byte{nil, {}} {
			out := make([][Size]byte, 5)
			SumMany(out, buf, make([]Span, 5))
			for i, d := range out {
				if d != empty {
					t.Fatalf("digest %d of an empty message: %x", i, d)
				}
			}
		}
		SumMany(nil, nil, nil)
	})
}

func TestSumManyPanics(t *testing.T) {
	paths(t, func(t *testing.T) {
		buf := make([]byte, 100)
		for _, tc := range []struct {
			out   int
			spans []Span
			want  string
		}{
			{1, []Span{{0, 1}, {1, 1}}, "2 spans"},
			{3, []Span{{0, 1}, {90, 11}}, "span 1 (90+11)"},
			{1, []Span{{101, 0}}, "outside"},
			{1, []Span{{-1, 1}}, "outside"},
			{1, []Span{{1, -1}}, "outside"},
			{1, []Span{{1, int(^uint(0) >> 1)}}, "outside"}, // Off+Len overflows
		} {
			func() {
				defer func() {
					msg, _ := recover().(string)
					if !strings.Contains(msg, tc.want) {
						t.Errorf("%d digests, spans %v: panic %q, want one with %q", tc.out, tc.spans, msg, tc.want)
					}
				}()
				SumMany(make([][Size]byte, tc.out), buf, tc.spans)
			}()
		}
	})
}

func TestAppendLines(t *testing.T) {
	for _, tc := range []struct {
		chunk string
		want  []string
	}{
		{"", nil},
		{"\n", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\nbc\n", []string{"a", "bc"}},
		{"a\n\nbc", []string{"a", "", "bc"}},
		{"a\r\nb\n", []string{"a\r", "b"}}, // only "\n" ends a line, as for ReadLine
	} {
		prefix := []Span{{7, 7}}
		spans := AppendLines(prefix, []byte(tc.chunk))
		if spans[0] != (Span{7, 7}) {
			t.Errorf("%q: the spans before were changed", tc.chunk)
		}
		var got []string
		for _, s := range spans[1:] {
			got = append(got, tc.chunk[s.Off:s.Off+s.Len])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("AppendLines(%q) = %q, want %q", tc.chunk, got, tc.want)
		}
	}
}

// The intended use: every line of a chunk hashed in one call, each digest that of the line
// without its newline.
func TestSumManyLines(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		var chunk []byte
		var lines [][]byte
		for range 200 {
			line := bytes.ReplaceAll(randomBytes(r, 200+r.IntN(200)), []byte("\n"), []byte("x"))
			lines = append(lines, line)
			chunk = append(append(chunk, line...), '\n')
		}
		spans := AppendLines(nil, chunk)
		out := make([][Size]byte, len(spans))
		SumMany(out, chunk, spans)
		if len(spans) != len(lines) {
			t.Fatalf("%d spans for %d lines", len(spans), len(lines))
		}
		for i, line := range lines {
			if out[i] != sha256.Sum256(line) {
				t.Fatalf("line %d: %x, want %x", i, out[i], sha256.Sum256(line))
			}
		}
	})
}

func hmacBlock(key []byte, k uint64) [Size]byte {
	m := hmac.New(sha256.New, key)
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], k)
	m.Write(msg[:])
	return [Size]byte(m.Sum(nil))
}

// HMACCounter gives crypto/hmac's blocks for keys of every kind of length (empty, shorter than a
// block, a block, longer and hashed first), any start, the counter wrapping, and any count.
func TestHMACCounter(t *testing.T) {
	paths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		for _, klen := range []int{0, 1, 31, 32, 33, 63, 64, 65, 100, 128, 200} {
			key := randomBytes(r, klen)
			for _, from := range []uint64{0, 1, 1000, 1<<32 - 2, ^uint64(0) - 5} {
				for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 13, 14, 17} {
					out := make([][Size]byte, n+1)
					guard := [Size]byte{1, 2, 3}
					out[n] = guard
					HMACCounter(out[:n], key, from)
					for i := range n {
						if want := hmacBlock(key, from+uint64(i)); out[i] != want {
							t.Fatalf("key %d bytes, from %d, %d blocks: block %d = %x, want %x", klen, from, n, i, out[i], want)
						}
					}
					if out[n] != guard {
						t.Fatalf("key %d bytes, from %d, %d blocks: wrote past them", klen, from, n)
					}
				}
			}
		}
	})
}

// The shuffle's own key and counter: the seed of events-v1.md's test vectors, blocks 0 to 12.
func TestHMACCounterShuffleSeed(t *testing.T) {
	paths(t, func(t *testing.T) {
		seed := make([]byte, 32)
		for i := range seed {
			seed[i] = byte(i)
		}
		var out [13][Size]byte
		HMACCounter(out[:], seed, 0)
		for k := range out {
			if want := hmacBlock(seed, uint64(k)); out[k] != want {
				t.Errorf("block %d = %x, want %x", k, out[k], want)
			}
		}
	})
}

// SumMany and HMACCounter allocate nothing, the caller's arrays staying on its stack.
func TestAllocs(t *testing.T) {
	if race.Enabled {
		return // the race detector's instrumentation allocates
	}
	paths(t, func(t *testing.T) {
		buf := make([]byte, 1000)
		key := make([]byte, 32)
		if n := testing.AllocsPerRun(100, func() {
			var spans [8]Span
			var out [8][Size]byte
			for i := range spans {
				spans[i] = Span{i * 100, 50 + i*20}
			}
			SumMany(out[:], buf, spans[:])
			var blocks [13][Size]byte
			HMACCounter(blocks[:], key, 0)
		}); n != 0 {
			t.Errorf("%v allocations a run", n)
		}
	})
}

// Property: for any buffer and any spans within it, each digest is crypto/sha256's, with every
// kernel.
func TestSumManyRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		buf := rapid.SliceOfN(rapid.Byte(), 0, 600).Draw(t, "buf")
		spans := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Span {
			off := rapid.IntRange(0, len(buf)).Draw(t, "off")
			return Span{off, rapid.IntRange(0, len(buf)-off).Draw(t, "len")}
		}), 0, 12).Draw(t, "spans")
		checkKernels(t, buf, spans)
	})
}

// Property: batches of many more messages than the widest kernel has lanes (so that lanes take
// new messages while others run, and run down at the end), of lengths 0 to 3000 with the edges
// of the padding and of the blocks often (55 bytes is the longest tail of one block, 56 the
// shortest of two, and the same one and two blocks on), hash as crypto/sha256 does with every
// kernel.
func TestSumManyRapidBatches(t *testing.T) {
	edges := []int{0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 183, 184, 300}
	rapid.Check(t, func(t *rapid.T) {
		buf := rapid.SliceOfN(rapid.Byte(), 3000, 3100).Draw(t, "buf")
		spans := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Span {
			n := rapid.IntRange(0, 3000).Draw(t, "len")
			if rapid.IntRange(0, 1).Draw(t, "edge") == 0 {
				n = rapid.SampledFrom(edges).Draw(t, "edgelen")
			}
			return Span{rapid.IntRange(0, len(buf)-n).Draw(t, "off"), n}
		}), 0, 120).Draw(t, "spans")
		checkKernels(t, buf, spans)
	})
}

// checkKernels hashes spans of buf with SumMany on every kernel and fails t unless each digest is
// crypto/sha256's.
func checkKernels(t interface{ Fatalf(string, ...any) }, buf []byte, spans []Span) {
	got := make([][Size]byte, len(spans))
	for _, k := range kernels() {
		sumWith(k, got, buf, spans)
		for i, s := range spans {
			if want := sha256.Sum256(buf[s.Off : s.Off+s.Len]); got[i] != want {
				t.Fatalf("kernel %v, span %d of %d %v: %x, want %x", k, i, len(spans), s, got[i], want)
			}
		}
	}
}

// sumWith is SumMany on kernel k.
func sumWith(k kernel, out [][Size]byte, buf []byte, spans []Span) {
	old := sumKernel
	sumKernel = k
	defer func() { sumKernel = old }()
	ran[k] = true
	SumMany(out, buf, spans)
}

// FuzzSumMany hashes spans of the data, cut where the cut bytes say (two bytes an offset and a
// length, modulo what is left), and compares them with crypto/sha256, on every kernel.
func FuzzSumMany(f *testing.F) {
	f.Add([]byte("hello\nworld\n"), []byte{0, 5, 6, 5})
	f.Add(bytes.Repeat([]byte{0xab}, 300), []byte{0, 255, 1, 56, 2, 64, 3, 119, 4, 120, 0, 0})
	f.Add([]byte{}, []byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		var spans []Span
		for i := 0; i+1 < len(cuts); i += 2 {
			off := int(cuts[i]) * len(data) / 256
			n := 0
			if left := len(data) - off; left > 0 {
				n = int(cuts[i+1]) * 4 % (left + 1)
			}
			spans = append(spans, Span{off, n})
		}
		checkKernels(t, data, spans)
	})
}
