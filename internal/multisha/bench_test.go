package multisha

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/fechado/fechado/internal/cputime"
)

// benchChunk returns a chunk of about 64 KB of lines as the events.Reader hands out: the start of
// $FECHADO_BENCH_FILE when it is set, else lines of 250 to 350 random bytes (a log's are ≈300).
func benchChunk(b *testing.B) []byte {
	if name := os.Getenv("FECHADO_BENCH_FILE"); name != "" {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		buf := make([]byte, 64<<10)
		n, _ := f.Read(buf)
		for n > 0 && buf[n-1] != '\n' {
			n--
		}
		return buf[:n]
	}
	r := rand.New(rand.NewPCG(1, 1))
	var chunk []byte
	for len(chunk) < 64<<10-400 {
		for range 250 + r.IntN(101) {
			chunk = append(chunk, 'a'+byte(r.IntN(26)))
		}
		chunk = append(chunk, '\n')
	}
	return chunk
}

// BenchmarkSumMany hashes every line of a 64 KB chunk, as the hash chain does: in one SumMany
// call with the kernel it chooses, with each kernel the CPU has (kernel=NAME; go is the fallback,
// sha256.Sum256 a line), and one sha256.Sum256 call a line. ns/line is the time of one line,
// cpu-ns/line the CPU time of the process a line: on a shared machine, the figure to compare
// (run with GOMAXPROCS=1, so that the process's CPU is the benchmark's).
//
//	GOMAXPROCS=1 go test ./multisha -run '^$' -bench SumMany -benchmem
func BenchmarkSumMany(b *testing.B) {
	chunk := benchChunk(b)
	spans := AppendLines(nil, chunk)
	out := make([][Size]byte, len(spans))
	// run measures op as sub-benchmark name; a loop over b.N rather than b.Loop, which runs its
	// ramp-up within one call, so that the CPU time measured is that of the b.N ops.
	run := func(name string, k kernel, op func()) {
		b.Run(name, func(b *testing.B) {
			setKernel(b, k)
			b.ReportAllocs()
			b.SetBytes(int64(len(chunk)))
			cpu0 := cputime.Process()
			b.ResetTimer()
			for range b.N {
				op()
			}
			b.StopTimer()
			lines := float64(b.N * len(spans))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/lines, "ns/line")
			b.ReportMetric(float64(cputime.Process()-cpu0)/lines, "cpu-ns/line")
		})
	}
	sumMany := func() { SumMany(out, chunk, spans) }
	run("SumMany", sumKernel, sumMany)
	for _, k := range kernels() {
		run("kernel="+k.String(), k, sumMany)
	}
	run("Sum256", sumKernel, func() {
		for i, s := range spans {
			out[i] = sha256.Sum256(chunk[s.Off : s.Off+s.Len])
		}
	})
	run("AppendLines+SumMany", sumKernel, func() {
		spans = AppendLines(spans[:0], chunk)
		SumMany(out, chunk, spans)
	})
}

// BenchmarkHMACCounter computes the 13 blocks of a 52-card shuffle (51 words, four a block) with
// a new key, in one HMACCounter call (and its fallback), and with crypto/hmac.
func BenchmarkHMACCounter(b *testing.B) {
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i)
	}
	var out [13][Size]byte
	b.Run("HMACCounter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			HMACCounter(out[:], key, 0)
		}
	})
	b.Run("HMACCounterFallback", func(b *testing.B) {
		setKernel(b, kernelGo)
		b.ReportAllocs()
		for b.Loop() {
			HMACCounter(out[:], key, 0)
		}
	})
	b.Run("crypto/hmac", func(b *testing.B) {
		b.ReportAllocs()
		var msg [8]byte
		for b.Loop() {
			m := hmac.New(sha256.New, key)
			for k := range out {
				binary.BigEndian.PutUint64(msg[:], uint64(k))
				m.Reset()
				m.Write(msg[:])
				m.Sum(out[k][:0])
			}
		}
	})
}
