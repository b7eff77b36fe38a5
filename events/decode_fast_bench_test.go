package events

import (
	"bufio"
	"bytes"
	"os"
	"testing"
)

// benchLines returns the lines of FECHADO_BENCH_FILE (its first MiB), or the example vectors when
// it is unset.
func benchLines(b *testing.B) [][]byte {
	path := os.Getenv("FECHADO_BENCH_FILE")
	if path == "" {
		return vectorLines(b)
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var lines [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	size := 0
	for sc.Scan() && size < 1<<20 {
		lines = append(lines, bytes.Clone(sc.Bytes()))
		size += len(sc.Bytes())
	}
	return lines
}

// parseFunc decodes one line, as Parse does.
type parseFunc func(line []byte) (*Event, error)

// decodeEach is the loop of the decoding benchmarks: b.N rounds, each decoding every line with
// the function round returns for it. It reports the bytes of the lines and the time per line.
func decodeEach(b *testing.B, lines [][]byte, round func() parseFunc) {
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		parse := round()
		for _, l := range lines {
			if _, err := parse(l); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(len(lines)*b.N), "ns/event")
}

// BenchmarkDecodePooled decodes lines held in memory as a Reader does: one decoder, whose slabs
// carve the events.
func BenchmarkDecodePooled(b *testing.B) {
	d := decoder{pool: true}
	decodeEach(b, benchLines(b), func() parseFunc { return d.parseLine })
}

// BenchmarkDecodeByType decodes the lines of each type of BenchmarkDecodePooled's that has at
// least 50 of them, as it does: the cost of an event of each type (ns/event).
func BenchmarkDecodeByType(b *testing.B) {
	byType := map[Type][][]byte{}
	for _, l := range benchLines(b) {
		e, err := Parse(l)
		if err != nil {
			b.Fatal(err)
		}
		byType[e.Type] = append(byType[e.Type], l)
	}
	for _, t := range Types {
		lines := byType[t]
		if len(lines) < 50 {
			continue
		}
		b.Run(string(t), func(b *testing.B) {
			d := decoder{pool: true}
			decodeEach(b, lines, func() parseFunc { return d.parseLine })
		})
	}
}
