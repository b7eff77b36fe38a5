package logfile

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkTouchLog touches every cache line of a 64 MB file held by the page cache in pages of
// 4 KB (written 4 KB at a time, as a copy made by cp or rsync is), as the spread's reader does
// when it finds the lines: through its mapping, through the mapping with Fetch copying each
// block ahead (Release behind), and read with pread into one reused buffer (OpenReusing's
// way, for comparison). Each iteration maps the file afresh.
func BenchmarkTouchLog(b *testing.B) {
	const size = 64 << 20
	want := make([]byte, size)
	for i := range want {
		want[i] = byte(i)
	}
	path := filepath.Join(b.TempDir(), "log.jsonl")
	writeInPages(b, path, want)
	touch := func(p []byte) (s byte) {
		for i := 0; i < len(p); i += 64 {
			s += p[i]
		}
		return s
	}
	var touched byte
	for _, mode := range []string{"mapping", "fetched", "pread"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				if mode == "pread" {
					f, err := os.Open(path)
					if err != nil {
						b.Fatal(err)
					}
					buf := make([]byte, 1<<20)
					for off := 0; off < size; off += len(buf) {
						n, err := f.ReadAt(buf, int64(off))
						if n < len(buf) && off+n < size {
							b.Fatal(err)
						}
						touched += touch(buf[:n])
					}
					f.Close()
					continue
				}
				m, ok, err := Map(path)
				if err != nil || !ok {
					b.Fatal(ok, err)
				}
				if mode == "fetched" && m.Fetch == nil {
					b.Skip("Fetch is offered on Linux 6.12 and later only")
				}
				const step = 256 << 10
				for off := 0; off < size; off += step {
					if mode == "fetched" {
						m.Fetch(off, off+step)
					}
					touched += touch(m.Bytes[off : off+step])
					m.Release(off)
				}
				m.Release(size)
			}
		})
	}
	sink = touched
}
