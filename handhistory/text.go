package handhistory

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// textLines decodes a text hand-history file to lines without line ends. Rooms write UTF-8
// (with or without a byte-order mark) or, like Full Tilt, UTF-16 (little- or big-endian, with a
// byte-order mark or without one); lines end in CRLF or LF. Files are often concatenated
// (`cat *.txt`), so a byte-order mark may also stand where a later file begins: in the middle of
// the text, right after the last line of a file that did not end in a newline. A byte-order mark
// therefore ends the line it stands in and is dropped, wherever it is. Bytes that are not UTF-8
// become U+FFFD, so that a line can still be reported.
func textLines(data []byte) []string {
	s := decodeText(data)
	raw := strings.Split(s, "\n")
	lines := make([]string, 0, len(raw))
	for _, l := range raw {
		l = strings.TrimRight(l, "\r")
		for {
			i := strings.IndexRune(l, '\uFEFF')
			if i < 0 {
				break
			}
			if i > 0 {
				lines = append(lines, strings.TrimRight(l[:i], "\r"))
			}
			l = l[i+len("\uFEFF"):]
		}
		lines = append(lines, l)
	}
	return lines
}

// decodeText returns data as a UTF-8 string, decoding UTF-16 when data is UTF-16.
func decodeText(data []byte) string {
	if le, ok := utf16Order(data); ok {
		if len(data)%2 == 1 {
			data = data[:len(data)-1]
		}
		u := make([]uint16, len(data)/2)
		for i := range u {
			if le {
				u[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
			} else {
				u[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
			}
		}
		return string(utf16.Decode(u))
	}
	if !utf8.Valid(data) {
		return strings.ToValidUTF8(string(data), "\uFFFD")
	}
	return string(data)
}

// utf16Order tells whether data is UTF-16 and in which byte order: by its byte-order mark, or,
// without one, by the zero bytes that the ASCII text of a hand history leaves in every other
// byte (more than a third of the first kilobyte's even or odd bytes).
func utf16Order(data []byte) (littleEndian, ok bool) {
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		return true, true
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return false, true
	}
	head := data[:min(len(data), 1024)]
	if len(head) < 4 {
		return false, false
	}
	var even, odd int
	for i, b := range head {
		if b == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	half := len(head) / 2
	switch {
	case odd*3 > half && even == 0:
		return true, true
	case even*3 > half && odd == 0:
		return false, true
	}
	return false, false
}
