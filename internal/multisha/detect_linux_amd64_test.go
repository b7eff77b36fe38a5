//go:build amd64 && cgo

package multisha

import (
	"os"
	"regexp"
	"testing"
)

// The C code's CPU checks agree with the kernel's, which lists a feature only if the OS supports
// it too (Linux drops the AVX-512 flags when it does not save the ZMM registers): a detection that
// failed would lose the speed without failing any other test.
func TestDetectKernels(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Fatal(err)
	}
	flags := regexp.MustCompile(`(?m)^flags\s*:.*$`).Find(info)
	if flags == nil {
		t.Fatal("no flags line in /proc/cpuinfo")
	}
	has := func(names ...string) bool {
		for _, f := range names {
			if !regexp.MustCompile(`\b` + f + `\b`).Match(flags) {
				return false
			}
		}
		return true
	}
	shani, avx512 := has("sha_ni", "ssse3", "sse4_1"), has("avx512f", "avx512bw", "avx512vl")
	if haveSHANI != shani || haveAVX512 != avx512 || Accelerated() != (shani || avx512) {
		t.Errorf("haveSHANI %v, haveAVX512 %v, Accelerated %v; /proc/cpuinfo says SHA-NI %v, AVX-512 %v",
			haveSHANI, haveAVX512, Accelerated(), shani, avx512)
	}
	t.Logf("kernels of this CPU: %v; SumMany uses %v", kernels(), sumKernel)
}
