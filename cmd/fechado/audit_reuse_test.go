package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/race"
	"github.com/fechado/fechado/internal/testfiles"
)

// The reports of `audit -v` and `audit --json` on one reader, read into tiny chunks reused
// constantly and filled with junk when freed, are those of the same audit spread over two
// workers, which read the mapped file: over the vectors and the audit's test logs, whole and
// damaged (lines cut short, duplicated, read leniently, hands never ended), from a file and from
// standard input. Nothing the report's callbacks keep of a hand aliases its lines.
func TestAuditReusedChunksReportAsTheMapping(t *testing.T) {
	reuseChunks = events.Reuse{ChunkSize: 1 << 10, Poison: true}
	t.Cleanup(func() { reuseChunks = events.Reuse{} })
	vectors, _ := filepath.Glob(testfiles.Path("vectors", "*.jsonl"))
	own, _ := filepath.Glob(filepath.Join("..", "..", "audit", "testdata", "logs", "*.jsonl"))
	paths := append(vectors, own...)
	if len(paths) < 3 {
		t.Fatalf("only %d logs", len(paths))
	}
	dir := t.TempDir()
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
		variants := map[string][]byte{"whole": b}
		var cut, dup, lenient, unended [][]byte
		for j, l := range lines {
			switch {
			case j%7 == 3:
				cut = append(cut, l[:len(l)/2])
			default:
				cut = append(cut, l)
			}
			dup = append(dup, l)
			if j%13 == 4 {
				dup = append(dup, l)
			}
			if j%17 == 6 && len(l) > 1 {
				lenient = append(lenient, append([]byte(`{"extra":1,`), l[1:]...))
			} else {
				lenient = append(lenient, l)
			}
			if !bytes.Contains(l, []byte(`"hand.ended"`)) {
				unended = append(unended, l)
			}
		}
		for k, ls := range map[string][][]byte{"cut": cut, "dup": dup, "lenient": lenient, "unended": unended} {
			if race.Enabled {
				// One goroutine reads and audits: the detector has nothing to watch, and the
				// damaged logs run without it.
				break
			}
			variants[k] = append(bytes.Join(ls, []byte("\n")), '\n')
		}
		for k, v := range variants {
			name := filepath.Join(dir, filepath.Base(p)+"."+k)
			if err := os.WriteFile(name, v, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, fl := range []string{"-v", "--json"} {
				wc, wout, werr := fechado("", "audit", fl, "--workers", "2", name)
				gc, gout, gerr := fechado("", "audit", fl, "--workers", "1", name)
				if gc != wc || gout != wout || gerr != werr {
					t.Fatalf("log %d %s %s, audit %s: reused chunks exit %d\n%s%s\nthe mapping exit %d\n%s%s", i, p, k, fl, gc, gout, gerr, wc, wout, werr)
				}
				// Standard input is named stdin in the findings of lines that do not decode.
				sc, sout, serr := fechado(string(v), "audit", fl, "-")
				wout, werr = strings.ReplaceAll(wout, name, "stdin"), strings.ReplaceAll(werr, name, "stdin")
				if sc != wc || sout != wout || serr != werr {
					t.Fatalf("log %d %s %s, audit %s -: standard input exit %d\n%s%s\nthe mapping exit %d\n%s%s", i, p, k, fl, sc, sout, serr, wc, wout, werr)
				}
			}
		}
	}
}
