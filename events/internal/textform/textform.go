// Package textform checks the fixed textual forms that fechado's logs carry in their strings: UUIDs,
// lowercase hex SHA-256 digests, RFC 3339 times and table ids. It knows nothing of events or of JSON: it
// judges bytes. The checks read 8 bytes at a time as the bytes of a little-endian word (SWAR), so
// that a decoder of millions of lines a second can afford them on every field; those of a
// digest, on every line twice (its check, then its comparison with the line before's hash), 16
// at a time in SSE2 on amd64 (hex_amd64.s), the word versions elsewhere.
package textform

import "encoding/binary"

// The hex digits are checked 8 bytes at a time, as the bytes of a little-endian word: for bytes
// below 0x80, adding 0x80-c to each sets its high bit exactly when it is at least c, and no carry
// crosses from one byte to the next.
const (
	ones = 0x0101010101010101
	high = 0x8080808080808080
)

// inRange has the high bit of each byte of x (all below 0x80) set when it is in lo..hi.
func inRange(x uint64, lo, hi byte) uint64 {
	return (x + ones*uint64(0x80-lo)) &^ (x + ones*uint64(0x80-hi-1))
}

// hexMask has the high bit of each byte of x (all below 0x80) set when it is a hex digit: 0-9
// and a-f, and A-F unless lower. A byte is one when it has reached an odd number of the
// thresholds '0', '9'+1, 'a', 'f'+1 (in this order): the parity of four high bits, three xors,
// fewer operations than two ranges.
func hexMask(x uint64, lower bool) uint64 {
	y := x
	if !lower {
		y |= ones * 0x20 // A-F to a-f, and nothing else into a-f (digits stay digits)
	}
	return (x + ones*(0x80-'0')) ^ (x + ones*(0x80-'9'-1)) ^ (y + ones*(0x80-'a')) ^ (y + ones*(0x80-'f'-1))
}

// IsHex64 reports whether s is 64 lowercase hex digits: a SHA-256 as hex.EncodeToString writes it.
func IsHex64(s []byte) bool { return len(s) == 64 && isHex64(s) }

// hex64 is IsHex64 of 64 bytes, eight at a time as the bytes of words.
func hex64(s []byte) bool {
	// No branch per word: the words are or-ed and and-ed together, then tested once.
	var all, digits uint64 = 0, high
	for i := 0; i < 64; i += 8 {
		x := binary.LittleEndian.Uint64(s[i:])
		all |= x
		digits &= hexMask(x, true)
	}
	// No byte of 0x80 or more (whose carry could fake a digit in the next), and all digits.
	return all&high == 0 && digits&high == high
}

// IsHexOf reports whether s is the lowercase hex of sum, as hex.EncodeToString writes it, without
// encoding sum into memory of its own: what a hash chain compares a line's prev with.
func IsHexOf(s string, sum *[32]byte) bool { return len(s) == 64 && isHexOf(s, sum) }

// hexOf is IsHexOf of 64 bytes: eight digits at a time compared with the hex of four bytes of
// sum, made of four pairs of digits from hexPairs (four loads from a table that stays in the
// first-level cache).
func hexOf(s string, sum *[32]byte) bool {
	var diff uint64
	for i := 0; i < len(sum); i += 4 {
		w := uint64(hexPairs[sum[i]]) | uint64(hexPairs[sum[i+1]])<<16 |
			uint64(hexPairs[sum[i+2]])<<32 | uint64(hexPairs[sum[i+3]])<<48
		diff |= binary.LittleEndian.Uint64([]byte(s[2*i:2*i+8])) ^ w
	}
	return diff == 0
}

// hexPairs holds the two lowercase hex digits of each byte as a little-endian uint16: the first
// digit in the low byte, so that four pairs shifted into a word read as the text does.
var hexPairs = func() (t [256]uint16) {
	const digits = "0123456789abcdef"
	for i := range t {
		t[i] = uint16(digits[i>>4]) | uint16(digits[i&15])<<8
	}
	return t
}()

// IsUUID reports whether s is a UUID in the 8-4-4-4-12 hexadecimal form, in either case.
func IsUUID(s []byte) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	le := binary.LittleEndian
	w0, w3 := le.Uint64(s), le.Uint64(s[28:])
	w1 := uint64(le.Uint32(s[9:])) | uint64(le.Uint32(s[14:]))<<32
	w2 := uint64(le.Uint32(s[19:])) | uint64(le.Uint32(s[24:]))<<32
	return (w0|w1|w2|w3)&high == 0 &&
		hexMask(w0, false)&hexMask(w1, false)&hexMask(w2, false)&hexMask(w3, false)&high == high
}

// num2 returns the two decimal digits at s[i:i+2] as a number, or -1.
func num2(s []byte, i int) int {
	if i+2 > len(s) {
		return -1
	}
	a, b := s[i]-'0', s[i+1]-'0'
	if a > 9 || b > 9 {
		return -1
	}
	return int(a)*10 + int(b)
}

// timePattern describes 8 bytes of YYYY-MM-DDTHH:MM:SS as a little-endian word: the high bits of
// its digit bytes, and its separators with the mask of their bytes.
type timePattern struct{ digits, sep, sepMask uint64 }

// newTimePattern reads a pattern such as "dddd-dd-": d is a digit, any other byte itself.
func newTimePattern(p string) (t timePattern) {
	for i := range 8 {
		if p[i] == 'd' {
			t.digits |= 0x80 << (8 * i)
		} else {
			t.sep |= uint64(p[i]) << (8 * i)
			t.sepMask |= 0xff << (8 * i)
		}
	}
	return t
}

var (
	timeHead, timeMid = newTimePattern("dddd-dd-"), newTimePattern("ddTdd:dd")
	timeMilliZ        = newTimePattern(":dd.dddZ") // the end of the times fechado writes
)

func (t timePattern) match(w uint64) bool {
	return inRange(w, '0', '9')&t.digits == t.digits && (w^t.sep)&t.sepMask == 0
}

// IsTime accepts RFC 3339 date-times with an offset: YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM).
func IsTime(s []byte) bool {
	if len(s) == 24 && IsMilliZ(s) {
		return true
	}
	if len(s) < 20 {
		return false
	}
	le := binary.LittleEndian
	w0, w1 := le.Uint64(s), le.Uint64(s[8:])
	if (w0|w1)&high != 0 || !timeHead.match(w0) || !timeMid.match(w1) || s[16] != ':' {
		return false
	}
	mo, dd, hh, mi, ss := num2(s, 5), num2(s, 8), num2(s, 11), num2(s, 14), num2(s, 17)
	if mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss < 0 || ss > 60 {
		return false
	}
	i := 19
	if s[i] == '.' {
		i++
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == j {
			return false
		}
	}
	if i >= len(s) {
		return false
	}
	switch s[i] {
	case 'Z':
		return i+1 == len(s)
	case '+', '-':
		oh, om := num2(s, i+1), num2(s, i+4)
		return i+6 == len(s) && s[i+3] == ':' && oh >= 0 && oh <= 23 && om >= 0 && om <= 59
	}
	return false
}

// Times checks a sequence of times, as IsTime does, with fewer steps when they follow each other
// as in a log: the times of a log share their date and minute with the one before as a rule, and
// a time of IsMilliZ's form whose first 16 bytes are those of the last one, checked then, needs
// only its seconds and milliseconds checked. The zero Times has read no time.
type Times struct {
	// minute is the first 16 bytes of the last time of IsMilliZ's form (YYYY-MM-DDTHH:MM, as two
	// little-endian words), or zeros.
	minute [2]uint64
}

// Valid reports whether s is a valid time, as IsTime does.
func (d *Times) Valid(s []byte) bool {
	if len(s) == 24 {
		le := binary.LittleEndian
		w0, w1, w2 := le.Uint64(s), le.Uint64(s[8:]), le.Uint64(s[16:])
		if w0 == d.minute[0] && w1 == d.minute[1] && w0 != 0 { // zero: no time read yet
			if w2&high == 0 && timeMilliZ.match(w2) && uint(s[17]-'0')*10+uint(s[18]-'0') <= 60 {
				return true
			}
		} else if IsMilliZ(s) {
			d.minute = [2]uint64{w0, w1}
			return true
		}
	}
	return IsTime(s)
}

// IsMilliZ reports whether s is a time as fechado writes it, YYYY-MM-DDTHH:MM:SS.mmmZ, valid: the
// three words of the layout are checked at once, then the ranges of the digits (IsTime's
// checks, with fewer steps). A time it refuses may still be valid in another form.
func IsMilliZ(s []byte) bool {
	if len(s) != 24 {
		return false
	}
	le := binary.LittleEndian
	w0, w1, w2 := le.Uint64(s), le.Uint64(s[8:]), le.Uint64(s[16:])
	if (w0|w1|w2)&high != 0 || !timeHead.match(w0) || !timeMid.match(w1) || !timeMilliZ.match(w2) {
		return false
	}
	// The digits are digits: each pair is 10*tens+ones, and one unsigned comparison checks a range.
	two := func(i int) uint { return uint(s[i]-'0')*10 + uint(s[i+1]-'0') }
	return two(5)-1 < 12 && two(8)-1 < 31 && two(11) < 24 && two(14) < 60 && two(17) <= 60
}

// notTableID is 1 for the bytes a table id may not hold.
var notTableID = func() (t [256]byte) {
	for c := range 256 {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			t[c] = 1
		}
	}
	return t
}()

// IsTableID reports whether s is a table id of events-v1.md ("Envelope"): 1 to 64 of A-Z a-z
// 0-9 _ -.
func IsTableID(s []byte) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	var bad byte
	for _, c := range s {
		bad |= notTableID[c]
	}
	return bad == 0
}
