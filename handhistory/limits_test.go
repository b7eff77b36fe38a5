package handhistory_test

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/fechado/fechado/handhistory"
)

// The importers' input limits (docs/security.md, "Input limits"): a file over MaxInput bytes, or
// nested deeper than MaxDepth, is refused whole, naming the limit and where, in bounded memory.

// importAlloc imports data as format f and returns the result and the bytes allocated in all
// (runtime.MemStats.TotalAlloc): a bound on how much the heap grew.
func importAlloc(t *testing.T, f handhistory.Format, name string, data []byte) (*handhistory.Result, uint64) {
	t.Helper()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	res, err := handhistory.Import(f, name, data)
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	return res, m1.TotalAlloc - m0.TotalAlloc
}

// refusedWhole checks that res is the one error of kind, at line, and no hand.
func refusedWhole(t *testing.T, res *handhistory.Result, kind error, line int, want string) {
	t.Helper()
	if len(res.Hands) != 0 || len(res.Skipped) != 1 {
		t.Fatalf("%d hands, %d skipped (%v): want the file refused whole", len(res.Hands), len(res.Skipped), res.Skipped)
	}
	e := res.Skipped[0]
	var le *handhistory.LimitError
	if !errors.Is(e, kind) || !errors.As(e, &le) || e.Line != line || e.IsHand() || !strings.Contains(e.Error(), want) {
		t.Fatalf("got %q (line %d), want %v at line %d saying %q", e, e.Line, kind, line, want)
	}
}

// deepBoss is the real Boss file, then a hand holding n nested elements (about 14 MB
// for 2,000,000, as in the security review, which used 380 MB and ended on "bad stakes"): the
// nesting begins on the line after the file's last.
func deepBoss(t testing.TB, n int) ([]byte, int) {
	real, err := os.ReadFile(testfilesGlob(t, "boss/5CD-PL-EUR-0.50-1.00-201307.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(real)
	b.WriteString("\n<HISTORY ID=\"1\" GAME=\"GAME_FCD\">\n")
	line := bytes.Count(b.Bytes(), []byte("\n")) + 1
	b.WriteString(strings.Repeat("<a>", n))
	b.WriteString(strings.Repeat("</a>", n))
	b.WriteString("</HISTORY>\n")
	return b.Bytes(), line
}

// A Boss file nested 2,000,000 deep inside a hand is refused at the 65th level, naming its line,
// with none of the file's hands (the real one before it included), allocating about two copies of
// the text and not the names of 2,000,000 open elements.
func TestBossRefusesDeepXMLInBoundedMemory(t *testing.T) {
	data, line := deepBoss(t, 2_000_000)
	res, alloc := importAlloc(t, handhistory.Boss, "deep.xml", data)
	t.Logf("%d bytes nested 2,000,000 deep: allocated %.1f MiB", len(data), float64(alloc)/(1<<20))
	refusedWhole(t, res, handhistory.ErrTooDeep, line, "nested deeper than 64 levels")
	if bound := 3*uint64(len(data)) + 8<<20; alloc > bound {
		t.Errorf("allocated %d MiB, over %d MiB", alloc>>20, bound>>20)
	}
	// Auto reads it as Boss, and refuses it the same way.
	res, _ = importAlloc(t, handhistory.Auto, "deep.xml", data)
	refusedWhole(t, res, handhistory.ErrTooDeep, line, "nested deeper than 64 levels")
}

// Merge's games are walked the same way, and XML of 64 levels, the limit, still reads.
func TestMergeRefusesDeepXML(t *testing.T) {
	deep := "<description type=\"5-Draw\" stakes=\"Pot Limit ($0.05/$0.10)\"/>\n<game id=\"1\">\n" +
		strings.Repeat("<x>", 100) + strings.Repeat("</x>", 100) + "</game>\n"
	res, _ := importAlloc(t, handhistory.Merge, "deep.xml", []byte(deep))
	refusedWhole(t, res, handhistory.ErrTooDeep, 3, "nested deeper than 64 levels")

	// ROOT and HISTORY are two levels: 62 more are read (the hand is then bad for what it is).
	ok := "<ROOT>\n<HISTORY ID=\"1\" GAME=\"GAME_FCD\">" + strings.Repeat("<x>", 62) + strings.Repeat("</x>", 62) + "</HISTORY></ROOT>\n"
	res, _ = importAlloc(t, handhistory.Boss, "ok.xml", []byte(ok))
	if len(res.Skipped) != 1 || errors.Is(res.Skipped[0], handhistory.ErrTooDeep) || !res.Skipped[0].IsHand() {
		t.Fatalf("64 levels: %v", res.Skipped)
	}
}

// PHH's TOML nested 2,000,000 deep in arrays (it overflowed the Go stack at 1 GB) or 200,000 deep
// in inline tables (it grew past 20 GB) is refused at the 65th level, naming its line, in bounded
// memory; brackets in strings and comments do not count.
func TestPHHRefusesDeepTOMLInBoundedMemory(t *testing.T) {
	head := "# [[[[ a comment\nvariant = \"F5CD\"\nnote = \"]]]] [[[[\"\nother = '''\n[[[[\n'''\n"
	for _, c := range []struct {
		name string
		data string
	}{
		{"arrays", head + "x = " + strings.Repeat("[", 2_000_000) + strings.Repeat("]", 2_000_000) + "\n"},
		{"inline tables", head + "x = " + strings.Repeat("{a=", 200_000) + "1" + strings.Repeat("}", 200_000) + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, alloc := importAlloc(t, handhistory.PHH, "deep.phh", []byte(c.data))
			t.Logf("%d bytes: allocated %.1f MiB", len(c.data), float64(alloc)/(1<<20))
			refusedWhole(t, res, handhistory.ErrTooDeep, 7, "nested deeper than 64 levels")
			if bound := 2*uint64(len(c.data)) + 1<<20; alloc > bound {
				t.Errorf("allocated %d MiB, over %d MiB", alloc>>20, bound>>20)
			}
		})
	}
	// The same text with the brackets in strings, comments and multi-line strings only reads as
	// TOML: what it lacks is a hand, not depth.
	deepText := strings.Repeat("[", 1000)
	src := head + "s = \"" + deepText + "\"\nm = \"\"\"\n" + deepText + "\\\"\"\"\"\"\n# " + deepText + "\n"
	res, _ := importAlloc(t, handhistory.PHH, "strings.phh", []byte(src))
	if len(res.Skipped) != 1 || errors.Is(res.Skipped[0], handhistory.ErrTooDeep) || strings.Contains(res.Skipped[0].Error(), "TOML") {
		t.Fatalf("brackets in strings: %v", res.Skipped)
	}
}

// Data over MaxInput bytes is refused whole, whatever its format, before it is read.
func TestImportRefusesOversizeInput(t *testing.T) {
	real, err := os.ReadFile(realFiles(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	// Blank lines of 64 KiB before the real file's hands, up to one byte over the limit.
	pad := handhistory.MaxInput + 1 - len(real)
	big := append(bytes.Repeat(append(bytes.Repeat([]byte(" "), 64<<10-1), '\n'), pad/(64<<10)+1)[:pad], real...)
	for _, f := range handhistory.Formats {
		res, alloc := importAlloc(t, f, "big.txt", big)
		refusedWhole(t, res, handhistory.ErrTooLarge, 0, "larger than 16777216 bytes")
		if alloc > 1<<20 {
			t.Errorf("%s: allocated %d bytes to refuse it", f, alloc)
		}
	}
	// At the limit, it reads.
	res, _ := importAlloc(t, handhistory.PokerStars, "limit.txt", big[1:])
	if len(res.Hands) == 0 || len(res.Skipped) != 0 {
		t.Fatalf("at MaxInput: %d hands, skipped %v", len(res.Hands), res.Skipped)
	}
}
