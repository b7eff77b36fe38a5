package handhistory_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/handhistory"
)

// FuzzPokerStars feeds arbitrary bytes to the PokerStars reader: it must not panic or hang, every
// hand it imports must be valid version 1 events, and the same bytes must give the same events.
func FuzzPokerStars(f *testing.F) {
	files, _ := filepath.Glob("testdata/pokerstars/*.txt")
	real := realFiles(f)
	for _, p := range append(files, real...) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("PokerStars Game #1:  5 Card Draw Limit ($0.10/$0.20 USD) - 2011/07/04 21:56:59 ET\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a := handhistory.ImportPokerStars("fuzz.txt", data)
		for _, h := range a.Hands {
			fuzzCheck(t, h)
		}
		b := handhistory.ImportPokerStars("fuzz.txt", data)
		if len(a.Hands) != len(b.Hands) || len(a.Skipped) != len(b.Skipped) {
			t.Fatal("not deterministic")
		}
	})
}

// FuzzPHH does the same for the PHH reader.
func FuzzPHH(f *testing.F) {
	files, _ := filepath.Glob("testdata/phh/*")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	// Nesting at and over MaxDepth, and brackets in strings (docs/security.md, "Input limits").
	f.Add([]byte("variant = \"F5CD\"\nx = " + strings.Repeat("[", 65) + strings.Repeat("]", 65) + "\n"))
	f.Add([]byte("variant = \"F5CD\"\nx = " + strings.Repeat("{a=", 64) + "1" + strings.Repeat("}", 64) + "\n"))
	f.Add([]byte("variant = \"F5CD\"\ns = \"\"\"\n" + strings.Repeat("[", 100) + "\\\"\"\"\"\nt = '[['\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, h := range handhistory.ImportPHH("fuzz.phh", data).Hands {
			fuzzCheck(t, h)
		}
	})
}

func fuzzCheck(t *testing.T, h handhistory.Hand) {
	t.Helper()
	chain := events.NewChain()
	var in, out events.Chips
	for _, e := range h.Events {
		got, err := events.Parse(e.Raw)
		if err != nil {
			t.Fatalf("invalid event: %v\n%s", err, e.Raw)
		}
		if !bytes.Equal(events.Encode(got), e.Raw) {
			t.Fatalf("event does not re-encode to itself: %s", e.Raw)
		}
		if ps := chain.Check(got); len(ps) > 0 {
			t.Fatalf("chain: %v", ps)
		}
		switch d := got.Data.(type) {
		case *events.AntePosted:
			in += d.Amount
		case *events.BlindPosted:
			in += d.Amount
		case *events.PlayerActed:
			in += d.Amount
		case *events.BetReturned:
			in -= d.Amount
		case *events.PotAwarded:
			out += d.Amount
		case *events.PotRaked:
			out += d.Amount
		}
	}
	if in != out {
		t.Fatalf("hand %s: %d chips in the pot, %d paid out or raked", h.Source, in, out)
	}
}

// BenchmarkImportPokerStars measures the PokerStars reader on the test files.
func BenchmarkImportPokerStars(b *testing.B) {
	files, _ := filepath.Glob("testdata/pokerstars/*.txt")
	files = append(files, realFiles(b)...)
	var all [][]byte
	var size int64
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, data)
		size += int64(len(data))
	}
	b.SetBytes(size)
	hands := 0
	for b.Loop() {
		for _, d := range all {
			hands += len(handhistory.ImportPokerStars("bench.txt", d).Hands)
		}
	}
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
}

// FuzzRooms does the same for the readers of the other rooms, through --format auto's Detect:
// Full Tilt (UTF-16), OnGame, Boss and Merge (XML).
func FuzzRooms(f *testing.F) {
	for _, pat := range []string{"fulltilt/*", "ongame/*", "boss/*", "merge/*"} {
		for _, p := range testfilesGlob(f, pat) {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	// XML nested at and over MaxDepth (docs/security.md, "Input limits").
	for _, n := range []int{62, 63, 1000} {
		data, _ := deepBoss(f, n)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := handhistory.Import(handhistory.Auto, "fuzz", data)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range a.Hands {
			fuzzCheck(t, h)
		}
		b, _ := handhistory.Import(handhistory.Auto, "fuzz", data)
		if len(a.Hands) != len(b.Hands) || len(a.Skipped) != len(b.Skipped) {
			t.Fatal("not deterministic")
		}
	})
}
