// Package multisha computes SHA-256 and HMAC-SHA-256 of many independent messages in one call,
// faster than one message at a time.
//
// One SHA-256 stream is bound by the latency of its rounds, even with the SHA extensions of x86,
// and crypto/sha256 hashes one message at a time. Up to four messages hashed at once, their rounds
// interleaved, share those waits (shani_amd64.c says why); but on the CPUs that have both, the
// extensions' unit then bounds them, and sixteen messages hashed at once in the lanes of AVX-512
// registers, with plain vector instructions, go about 1.7 times as fast again
// (avx512_amd64.c). The audit hashes every line of a log for the hash chain, and a chunk of
// lines can be hashed in one call (AppendLines, then SumMany); the hmac-sha256-fy-v1 shuffle
// needs thirteen independent HMAC blocks a 52-card deck (HMACCounter). BenchmarkSumMany and
// BenchmarkHMACCounter compare them with the standard library, and BENCHMARKS.md has their
// figures.
//
// The kernels are C (cgo) for amd64, each chosen at run time where the CPU and the OS support
// it: SumMany takes AVX-512 (F, BW and VL, the ZMM state enabled by the OS) where there is, its
// batch's last few messages finished with the SHA extensions where there are, else the SHA
// extensions alone; HMACCounter, whose thirteen blocks would leave most of sixteen lanes idle,
// the SHA extensions. Elsewhere, or built without cgo, the same functions run on crypto/sha256,
// with the same results. SumMany and HMACCounter allocate nothing.
package multisha

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"fmt"
	"hash"
	"sync"
)

// Size is the size in bytes of a SHA-256 digest and of an HMAC-SHA-256 block.
const Size = sha256.Size

// Span is one message within a buffer: buf[Off : Off+Len].
type Span struct {
	Off, Len int
}

// kernel is a way SumMany hashes its messages.
type kernel int

const (
	kernelGo     kernel = iota // crypto/sha256, one message at a time
	kernelSHANI                // the SHA extensions, four messages interleaved (shani_amd64.c)
	kernelAVX512               // AVX-512, sixteen messages in the lanes of a register (avx512_amd64.c)
	// kernelAVX512SHANI is kernelAVX512 with the batch's last few messages, when sixteen lanes
	// would mostly idle, finished on the SHA extensions.
	kernelAVX512SHANI
)

var kernelNames = [...]string{
	kernelGo: "go", kernelSHANI: "shani", kernelAVX512: "avx512", kernelAVX512SHANI: "avx512+shani",
}

func (k kernel) String() string { return kernelNames[k] }

// kernels returns the kernels this CPU (and this build) can run, the fallback first.
func kernels() []kernel {
	ks := []kernel{kernelGo}
	if haveSHANI {
		ks = append(ks, kernelSHANI)
	}
	if haveAVX512 {
		ks = append(ks, kernelAVX512)
		if haveSHANI {
			ks = append(ks, kernelAVX512SHANI)
		}
	}
	return ks
}

// bestKernel is the fastest kernel of this CPU: see BENCHMARKS.md for the figures.
func bestKernel() kernel {
	switch {
	case haveAVX512 && haveSHANI:
		return kernelAVX512SHANI
	case haveAVX512:
		return kernelAVX512
	case haveSHANI:
		return kernelSHANI
	}
	return kernelGo
}

// sumKernel is the kernel SumMany uses; tests set it to run each one this CPU has. HMACCounter
// uses the SHA extensions where the CPU has them, unless sumKernel is kernelGo.
var sumKernel = bestKernel()

// maxAVX512Len bounds the messages the AVX-512 kernel takes: it counts a lane's blocks in 32 bits
// (one register of sixteen counts), and an idle lane's count, which starts at 2^32-1, must not
// reach 0 while the longest message runs. A batch with a longer one (64 GiB) goes to the others.
const maxAVX512Len = 1 << 36

// handoff is how few lanes of kernelAVX512SHANI are left to the SHA extensions at a batch's end.
const handoff = 4

// Accelerated reports whether SumMany and HMACCounter hash several messages at once here (cgo on
// an amd64 CPU with the SHA extensions or AVX-512) rather than one at a time with crypto/sha256.
func Accelerated() bool { return sumKernel != kernelGo }

// AppendLines appends to spans the lines of chunk, each without its "\n", and returns the
// extended slice: line i of the chunk is at index len(spans)+i of it. Text after the last newline,
// when there is any, is a last line. The spans are those of the lines as events.Reader's
// ReadLine returns them, whose SHA-256 the hash chain checks.
func AppendLines(spans []Span, chunk []byte) []Span {
	for off := 0; off < len(chunk); {
		n := bytes.IndexByte(chunk[off:], '\n')
		if n < 0 {
			return append(spans, Span{off, len(chunk) - off})
		}
		spans = append(spans, Span{off, n})
		off += n + 1
	}
	return spans
}

// SumMany sets out[i] to the SHA-256 of buf[spans[i].Off : spans[i].Off+spans[i].Len] for every
// span; the spans may have any lengths, overlap, and come in any order. It panics if a span is not
// within buf or if out is shorter than spans.
//
// On a CPU with AVX-512 it hashes sixteen messages at once (with the SHA extensions, four), a lane
// that is done taking the next message, in one call into C per batch: pass as many spans as
// there are at hand (a chunk of a few hundred lines, say) rather than a few at a time.
func SumMany(out [][Size]byte, buf []byte, spans []Span) {
	if len(out) < len(spans) {
		panic(fmt.Sprintf("multisha: %d digests for %d spans", len(out), len(spans)))
	}
	longest := 0
	for i, s := range spans {
		if s.Off < 0 || s.Len < 0 || s.Off > len(buf) || s.Len > len(buf)-s.Off {
			panic(fmt.Sprintf("multisha: span %d (%d+%d) outside a buffer of %d bytes", i, s.Off, s.Len, len(buf)))
		}
		longest = max(longest, s.Len)
	}
	if len(spans) == 0 {
		return
	}
	k := sumKernel
	if longest >= maxAVX512Len && (k == kernelAVX512 || k == kernelAVX512SHANI) {
		k = kernelGo
		if haveSHANI {
			k = kernelSHANI
		}
	}
	switch k {
	case kernelSHANI:
		sumManySHANI(out, buf, spans)
		return
	case kernelAVX512:
		sumManyAVX512(out, buf, spans, 0)
		return
	case kernelAVX512SHANI:
		sumManyAVX512(out, buf, spans, handoff)
		return
	}
	for i, s := range spans {
		out[i] = sha256.Sum256(buf[s.Off : s.Off+s.Len])
	}
}

// HMACCounter sets out[i] to HMAC-SHA256(key, from+i as 8 bytes big-endian) for every i, the
// counter wrapping at 2^64: the blocks B_k of the hmac-sha256-fy-v1 shuffle (events-v1.md §3),
// with the seed as key, are HMACCounter(out, seed, 0).
//
// The padded keys are hashed once a call, and four blocks are computed at once on a CPU with the
// SHA extensions: ask for all the blocks needed in one call.
func HMACCounter(out [][Size]byte, key []byte, from uint64) {
	if len(out) == 0 {
		return
	}
	// RFC 2104: a key longer than a block is hashed first; the key is zero-padded to a block.
	var k [sha256.BlockSize]byte
	if len(key) > len(k) {
		sum := sha256.Sum256(key)
		copy(k[:], sum[:])
	} else {
		copy(k[:], key)
	}
	if haveSHANI && sumKernel != kernelGo {
		hmacCounterSHANI(out, &k, from)
		return
	}
	h := hmacPool.Get().(*hmacCounter)
	defer hmacPool.Put(h)
	h.blocks(out, &k, from)
}

// hmacCounter is HMACCounter on a crypto/sha256 digest, for the fallback. It saves the digest's
// states after the inner and the outer padded key once a call, as crypto/hmac does, and each
// block restores them rather than hashing the pads again (two compressions a block, not four);
// but crypto/hmac allocates its digests anew for every key, and these are kept in a pool. The
// buffers live in the struct too: the digest's methods take slices through an interface, so
// slices of a stack array would escape to the heap.
type hmacCounter struct {
	h     hash.Hash
	state digestState
	// inner and outer are the digest's state after the inner and the outer padded key.
	inner, outer       []byte
	innerBuf, outerBuf [stateSize]byte
	pad                [sha256.BlockSize]byte
	msg                [8]byte
	sum, mac           [Size]byte // the inner hash and the block
}

// digestState saves and restores a SHA-256 digest's state; crypto/sha256 documents both for its
// digest.
type digestState interface {
	encoding.BinaryAppender
	encoding.BinaryUnmarshaler
}

// stateSize is the size of a saved SHA-256 state (a 4-byte magic, the chaining value, the block
// buffer and the length), the room kept for one; a larger state would only cost an allocation.
const stateSize = 4 + Size + sha256.BlockSize + 8

var hmacPool = sync.Pool{New: func() any {
	h := &hmacCounter{h: sha256.New()}
	h.state = h.h.(digestState)
	return h
}}

// blocks is HMACCounter for a key brought to one block.
func (h *hmacCounter) blocks(out [][Size]byte, key *[sha256.BlockSize]byte, from uint64) {
	for i, b := range key {
		h.pad[i] = b ^ 0x36
	}
	h.h.Reset()
	h.h.Write(h.pad[:])
	h.inner, _ = h.state.AppendBinary(h.innerBuf[:0])
	for i, b := range key {
		h.pad[i] = b ^ 0x5c
	}
	h.h.Reset()
	h.h.Write(h.pad[:])
	h.outer, _ = h.state.AppendBinary(h.outerBuf[:0])
	for i := range out {
		binary.BigEndian.PutUint64(h.msg[:], from+uint64(i))
		h.hash(h.inner, h.msg[:], &h.sum)
		h.hash(h.outer, h.sum[:], &h.mac)
		out[i] = h.mac
	}
}

// hash sets out to the SHA-256 of a padded key, whose digest state is saved in state, followed
// by msg.
func (h *hmacCounter) hash(state, msg []byte, out *[Size]byte) {
	if err := h.state.UnmarshalBinary(state); err != nil {
		panic(err) // a state the digest itself wrote
	}
	h.h.Write(msg)
	h.h.Sum(out[:0])
}
