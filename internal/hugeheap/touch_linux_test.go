package hugeheap

import (
	"syscall"
	"testing"
)

// BenchmarkFirstWrite measures what Prepare saves: writing each 4 KB page of fresh memory
// for the first time, in 16 MB newly mapped, with pages of 4 KB (small) or with MADV_HUGEPAGE
// (huge; where the kernel has no huge page to give, both cost the same), in ns/page.
func BenchmarkFirstWrite(b *testing.B) {
	const size = 16 << 20
	for _, c := range []struct {
		name string
		huge bool
	}{{"small", false}, {"huge", true}} {
		b.Run(c.name, func(b *testing.B) {
			pages := 0
			for b.Loop() {
				b.StopTimer()
				// One huge page more, so that the advised part holds size bytes whatever
				// the mapping's alignment.
				m, err := syscall.Mmap(-1, 0, size+hugeBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
				if err != nil {
					b.Fatal(err)
				}
				if c.huge {
					advise(m)
				}
				b.StartTimer()
				for i := 0; i < size; i += 4 << 10 {
					m[i] = 1
				}
				pages += size / (4 << 10)
				b.StopTimer()
				if err := syscall.Munmap(m); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pages), "ns/page")
		})
	}
}
