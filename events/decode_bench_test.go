package events

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"testing"
)

// readAll reads every event of r and returns how many there were; a decoding error fails b.
func readAll(b *testing.B, r io.Reader, name string) int {
	rd := NewReader(r, name)
	n := 0
	for {
		_, err := rd.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

// BenchmarkReaderFile reads every event of the file named by FECHADO_BENCH_FILE (the path of
// fechado audit FILE: bufio, ReadLine, decode). It reports MB/s and events/s.
func BenchmarkReaderFile(b *testing.B) {
	path := os.Getenv("FECHADO_BENCH_FILE")
	if path == "" {
		b.Skip("FECHADO_BENCH_FILE is not set")
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	total := 0
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		total += readAll(b, f, path)
		f.Close()
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total), "ns/event")
}

// vectorLines returns the events of the example vectors, one line each.
func vectorLines(b testing.TB) [][]byte {
	var lines [][]byte
	for _, f := range vectorFiles(b) {
		sc := bufio.NewScanner(bytes.NewReader(f.data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) > 0 {
				lines = append(lines, bytes.Clone(sc.Bytes()))
			}
		}
	}
	if len(lines) == 0 {
		b.Fatal("no vectors")
	}
	return lines
}

// BenchmarkReaderVectors reads the example vectors from memory (every preset and event type), 20
// copies in a row so that the Reader's start-up is amortised. It needs no file.
func BenchmarkReaderVectors(b *testing.B) {
	lines := vectorLines(b)
	var buf bytes.Buffer
	for range 20 {
		for _, l := range lines {
			buf.Write(l)
			buf.WriteByte('\n')
		}
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	total := 0
	for b.Loop() {
		total += readAll(b, bytes.NewReader(data), "vectors")
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total), "ns/event")
}

// BenchmarkParseVectors decodes each line of the example vectors with Parse (strings copied).
func BenchmarkParseVectors(b *testing.B) {
	decodeEach(b, vectorLines(b), func() parseFunc { return Parse })
}

// BenchmarkDecodeLines decodes lines held in memory as the Reader does (strings alias the lines,
// structs from slabs), without reading: the lines of FECHADO_BENCH_FILE (its first MiB), or the
// example vectors when it is unset. 1 MiB of lines: they stay in the cache, so this measures the
// decoder's own work.
func BenchmarkDecodeLines(b *testing.B) {
	decodeEach(b, benchLines(b), func() parseFunc {
		d := decoder{pool: true}
		return d.parseLine
	})
}
