//go:build amd64 && cgo

package multisha

import (
	"os"
	"regexp"
	"testing"
)

// The C code's CPU check agrees with the kernel's: on a CPU with the SHA extensions (and SSSE3
// and SSE4.1) the interleaved code is used, for a detection that failed would lose the speed
// without failing any other test.
func TestDetectSHANI(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Fatal(err)
	}
	flags := regexp.MustCompile(`(?m)^flags\s*:.*$`).Find(info)
	if flags == nil {
		t.Fatal("no flags line in /proc/cpuinfo")
	}
	want := true
	for _, f := range []string{"sha_ni", "ssse3", "sse4_1"} {
		if !regexp.MustCompile(`\b` + f + `\b`).Match(flags) {
			want = false
		}
	}
	if haveSHANI != want || Accelerated() != want {
		t.Errorf("haveSHANI %v, Accelerated %v; /proc/cpuinfo says %v", haveSHANI, Accelerated(), want)
	}
}
