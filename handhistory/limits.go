package handhistory

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
)

// The input limits of the importers (docs/security.md, "Input limits").
//
// Every format is read whole (the hands of a file make its sessions: table ids, hand numbers,
// previous links and rebuys run across them), so the size of one input is bounded; the XML and
// TOML (PHH) of a file are walked with their nesting counted on tokens before anything deeper is
// kept, so a file nested millions deep is refused at its 65th level in bounded memory (it used to
// cost 380 MB for 14 MB of Boss XML, and PHH's TOML parser recursed until the Go stack
// overflowed, or, for inline tables, grew past 20 GB).
const (
	// MaxInput is the most Import reads of one input (a file, or standard input): 16 MiB. A hand
	// takes 1.1 KiB of PokerStars text (the real 30-hand session of testdata/hh: 34,069 bytes),
	// 2 KiB of Boss XML, 2.9 KiB of Full Tilt's UTF-16 and 0.6 KiB of PHH, and a room writes one
	// file per table and day: a table's day of 300 to 1,000 hands is well under 3 MiB, and 16
	// MiB holds 14,000 PokerStars hands (5,600 of Full Tilt), a day of twelve tables
	// concatenated with `cat`. Each file is read on its own, so a larger history still imports
	// as several files. The bound is also one of memory: the events of a file's hands are held
	// until the file is read, some 70 bytes for a byte of text (8 MB of real PokerStars hands:
	// 568 MB resident), so 16 MiB keeps an import near 1 GiB.
	MaxInput = 16 << 20
	// MaxDepth is the deepest nesting read: XML elements (Boss, Merge) or TOML arrays and inline
	// tables (PHH), as events' JSON is bounded (64). Real files nest 4 deep (Boss: ROOT,
	// HISTORY, ACTION, CARD) or less.
	MaxDepth = 64
)

// ErrTooLarge and ErrTooDeep are the limits an *Error may wrap; a file over either is refused
// whole: none of its hands is imported.
var (
	// ErrTooLarge: the input is over MaxInput bytes.
	ErrTooLarge = errors.New("input too large")
	// ErrTooDeep: the input nests deeper than MaxDepth.
	ErrTooDeep = errors.New("input nested too deep")
)

// LimitError says which limit an input went over and where; Error.Err is one.
type LimitError struct {
	Kind   error // ErrTooLarge or ErrTooDeep
	Limit  int   // MaxInput (bytes) or MaxDepth (levels)
	Offset int64 // the byte of the input where the limit was passed (ErrTooDeep), else 0
}

func (e *LimitError) Error() string {
	if e.Kind == ErrTooDeep {
		return fmt.Sprintf("nested deeper than %d levels (at byte %d): the file is refused whole", e.Limit, e.Offset)
	}
	return fmt.Sprintf("larger than %d bytes: the file is refused whole", e.Limit)
}

// Is makes errors.Is(err, ErrTooLarge) (or ErrTooDeep) true.
func (e *LimitError) Is(target error) bool { return target == e.Kind }

// overLimit returns a Result with err alone: a file over a limit gives no hand.
func overLimit(name string, line int, err *LimitError) *Result {
	return &Result{Skipped: []*Error{{File: name, Line: line, Err: err}}}
}

// depthReader hands the tokens of dec to an xml.Decoder made with xml.NewTokenDecoder, and stops
// at an element nested deeper than MaxDepth: dec keeps the names of the open elements (for its
// end-tag checks), so this bounds what it holds to MaxDepth names, however deep the text.
type depthReader struct {
	dec   *xml.Decoder
	depth int
	err   *LimitError // set when the limit was passed
	line  int         // the line of the element that passed it
}

func (r *depthReader) Token() (xml.Token, error) {
	if r.err != nil {
		return nil, r.err
	}
	line, _ := r.dec.InputPos()
	tok, err := r.dec.Token()
	switch tok.(type) {
	case xml.StartElement:
		if r.depth++; r.depth > MaxDepth {
			r.err, r.line = &LimitError{Kind: ErrTooDeep, Limit: MaxDepth, Offset: r.dec.InputOffset()}, line
			return nil, r.err
		}
	case xml.EndElement:
		r.depth--
	}
	return tok, err
}

// tomlTooDeep scans TOML text for arrays and inline tables nested deeper than MaxDepth, skipping
// strings and comments, in one pass and constant memory; it returns the 1-based line and the
// byte offset of the bracket that passes the limit, or ok. A table header ([a] or [[a]]) counts
// as the brackets it is written with. The TOML parser recurses once per level, so this runs first.
func tomlTooDeep(s string) (line, offset int, ok bool) {
	depth := 0
	line = 1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			line++
		case '#':
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			i = skipString(s, i, &line)
		case '[', '{':
			if depth++; depth > MaxDepth {
				return line, i, false
			}
		case ']', '}':
			depth = max(depth-1, 0) // a stray one is the parser's to refuse; it opens no credit
		}
	}
	return 0, 0, true
}

// skipString returns the index of the last byte of the TOML string that starts at s[i] (a quote),
// counting its lines into line: basic strings (double quotes, backslash escapes) or literal ones
// (single quotes), on one line or on several (three quotes). A one-line string not closed ends
// at its line's end.
func skipString(s string, i int, line *int) int {
	c := s[i]
	q := string([]byte{c, c, c})
	multi := strings.HasPrefix(s[i:], q)
	if multi {
		i += 2
	}
	for i++; i < len(s); i++ {
		switch {
		case s[i] == '\\' && c == '"':
			if i+1 < len(s) && s[i+1] == '\n' {
				*line++
			}
			i++
		case s[i] == '\n':
			*line++
			if !multi {
				return i // not closed: the parser will say so
			}
		case !multi && s[i] == c:
			return i
		case multi && strings.HasPrefix(s[i:], q):
			// up to two more quotes may close it ("""a""""" is a and two quotes)
			i += 2
			for k := 0; k < 2 && i+1 < len(s) && s[i+1] == c; k++ {
				i++
			}
			return i
		}
	}
	return i
}
