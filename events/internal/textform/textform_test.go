package textform

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// IsMilliZ accepts exactly the times of its form that IsTime accepts, and Times.Valid judges
// times as IsTime does whatever time it read before.
func TestTimeSameAsIsTime(t *testing.T) {
	samples := []string{"2026-11-29T12:00:01.918Z", "2026-12-31T23:59:60.999Z", "2026-01-01T00:00:00.000Z", "0000-01-31T09:09:09.009Z"}
	var d Times
	check := func(s []byte) {
		t.Helper()
		want := IsTime(s)
		if got := IsMilliZ(s); got && !want || !got && want && len(s) == 24 && s[19] == '.' && s[23] == 'Z' {
			t.Errorf("IsMilliZ(%q) = %v, IsTime %v", s, got, want)
		}
		if got := d.Valid(s); got != want {
			t.Errorf("Times.Valid(%q) after %x = %v, want %v", s, d.minute, got, want)
		}
	}
	for _, v := range samples {
		for _, last := range samples {
			d = Times{}
			d.Valid([]byte(last)) // the minute remembered, or not (another minute)
			check([]byte(v))
			for i := range len(v) {
				for c := range 256 {
					b := []byte(v)
					b[i] = byte(c)
					check(b)
				}
			}
		}
	}
	d = Times{}
	check(make([]byte, 24)) // zeros: the minute of no time read yet
	check(append(make([]byte, 16), ":01.918Z"...))
}

// The checks accept what the patterns of events-v1.md ("Envelope") accept: every byte value at every position of a valid value, and every length
// around it.
func TestValidatorsSameAsPatterns(t *testing.T) {
	const (
		hex   = `[0-9a-fA-F]`
		clock = `([01][0-9]|2[0-3]):[0-5][0-9]`
	)
	pattern := func(re string) func([]byte) bool { return regexp.MustCompile(`^(` + re + `)$`).Match }
	for _, tc := range []struct {
		name      string
		got, want func([]byte) bool
		samples   []string
	}{
		{"IsUUID", IsUUID, pattern(hex + `{8}-` + hex + `{4}-` + hex + `{4}-` + hex + `{4}-` + hex + `{12}`), []string{"908b5493-a4e9-4345-9095-d4d497820d56", "83A3B53A-28D7-4272-B797-1272FE65ECFD"}},
		{"IsHex64", IsHex64, pattern(`[0-9a-f]{64}`), []string{"a31875f3e181e11d7ca81f6a4d4dbbb96be05747298d38935c5a53911fc64f56"}},
		{"hex64", func(s []byte) bool { return len(s) == 64 && hex64(s) }, pattern(`[0-9a-f]{64}`), []string{"a31875f3e181e11d7ca81f6a4d4dbbb96be05747298d38935c5a53911fc64f56", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}},
		{"IsHex64/digits", IsHex64, pattern(`[0-9a-f]{64}`), []string{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", strings.Repeat("f", 64), strings.Repeat("0", 64), strings.Repeat("9a", 32)}},
		{"IsTableID", IsTableID, pattern(`[A-Za-z0-9_-]{1,64}`), []string{"X777", "bench-1", "a", strings.Repeat("Z_9-", 16)}},
		{"IsTime", IsTime, pattern(`[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T` + clock + `:([0-5][0-9]|60)(\.[0-9]+)?(Z|[+-]` + clock + `)`),
			[]string{"2026-11-02T21:00:11.696Z", "2026-11-02T21:00:11Z", "2026-11-02T21:00:11+01:00", "2026-12-31T23:59:60.123456789-23:59"}},
	} {
		check := func(s []byte) {
			if g, w := tc.got(s), tc.want(s); g != w {
				t.Errorf("%s(%q) = %v, want %v", tc.name, s, g, w)
			}
		}
		for _, v := range tc.samples {
			check([]byte(v))
			for i := range len(v) + 1 {
				check([]byte(v[:i]))
				check([]byte(v[:i] + "0" + v[i:]))
				if i < len(v) {
					for c := range 256 {
						b := []byte(v)
						b[i] = byte(c)
						check(b)
					}
				}
			}
		}
	}
}

// IsHexOf, and its word version hexOf, agree with comparing to hex.EncodeToString: every byte
// value in every place of the sum, and every byte value in every place of its hex.
func TestIsHexOfSameAsEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 0
	for i := range 300 {
		var sum [32]byte
		for j := range sum {
			sum[j] = byte(r.Uint32())
		}
		if i < 256 {
			sum[i%32] = byte(i) // every byte value, in each place in turn
		}
		want := hex.EncodeToString(sum[:])
		check := func(s string) {
			t.Helper()
			n++
			if got, got2 := IsHexOf(s, &sum), len(s) == 64 && hexOf(s, &sum); got != (s == want) || got2 != got {
				t.Fatalf("IsHexOf(%q, %x) = %v, hexOf %v", s, sum, got, got2)
			}
		}
		check(want)
		check(want[:63])
		check(want + "0")
		check(strings.ToUpper(want))
		if i < 8 {
			for k := range 64 {
				for c := range 256 {
					b := []byte(want)
					b[k] = byte(c)
					check(string(b))
				}
			}
		} else {
			b := []byte(want)
			b[r.IntN(64)] = byte(r.Uint32())
			check(string(b))
		}
	}
	// The sums of lines, as a chain meets them.
	for i := range 1000 {
		sum := sha256.Sum256([]byte{byte(i), byte(i >> 8)})
		check := hex.EncodeToString(sum[:])
		if !IsHexOf(check, &sum) || IsHexOf(check, &[32]byte{}) {
			t.Fatalf("IsHexOf(%s) of its own sum false, or of zeros true", check)
		}
		n++
	}
	t.Logf("%d comparisons", n)
}

// BenchmarkHex times IsHex64 and IsHexOf on a SHA-256 and its hex, and the word versions they
// replace on amd64.
func BenchmarkHex(b *testing.B) {
	sum := sha256.Sum256([]byte("line"))
	s := hex.EncodeToString(sum[:])
	bs := []byte(s)
	ok := true
	b.Run("IsHex64", func(b *testing.B) {
		for b.Loop() {
			ok = IsHex64(bs) && ok
		}
	})
	b.Run("hex64", func(b *testing.B) {
		for b.Loop() {
			ok = hex64(bs) && ok
		}
	})
	b.Run("IsHexOf", func(b *testing.B) {
		for b.Loop() {
			ok = IsHexOf(s, &sum) && ok
		}
	})
	b.Run("hexOf", func(b *testing.B) {
		for b.Loop() {
			ok = hexOf(s, &sum) && ok
		}
	})
	if !ok {
		b.Fatal("a check refused the hex of a sum")
	}
}
