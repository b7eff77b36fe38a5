package lang

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// readMessages reads a translators' file in the canonical form TestLocales keeps it in (the
// one lang/internal/msgfile writes): comment lines, then one table per message, ["id"] or [id],
// of description, hash and forms, each a one-line basic string. That subset is read here in one
// pass over the embedded bytes, its texts sharing their memory, because every fechado process
// reads the four files at start: go-i18n's parser, through a general TOML decoder, a generic map
// and reflection, took about 0.05 s of CPU and 15 MB for them. ok is false at anything outside
// the subset (a multi-line or literal string, a dotted key, a key go-i18n reads otherwise, a
// repeated table, CRLF): the caller reads the file with go-i18n's parser then, which decides
// what it means, so this reader can make a file slower to read but never read it differently
// (TestReadMessagesIsGoI18ns holds it to go-i18n's result on the shipped files).
func readMessages(data string) (msgs map[string]Text, ok bool) {
	if !utf8.ValidString(data) {
		return nil, false
	}
	msgs = make(map[string]Text, strings.Count(data, "\n[")+1)
	var (
		id     string
		fields [len(fieldNames)]string
		seen   [len(fieldNames)]bool
		filled bool // the current table has a field
	)
	flush := func() bool {
		if !filled {
			return id == "" // before the first table; an empty table is go-i18n's to read
		}
		if _, dup := msgs[id]; dup {
			return false
		}
		msgs[id] = Text{Zero: fields[0], One: fields[1], Two: fields[2], Few: fields[3], Many: fields[4], Other: fields[5]}
		return true
	}
	for len(data) > 0 {
		line := data
		if i := strings.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = ""
		}
		line = trimSpace(line)
		switch {
		case line == "":
			continue
		case line[0] == '#':
			if !endOfLine(line) {
				return nil, false
			}
		case line[0] == '[':
			if !flush() {
				return nil, false
			}
			key, rest, ok := readKey(trimSpace(line[1:]))
			if !ok || key == "" || key == "translation" { // go-i18n reads [translation] as a message of v1's format
				return nil, false
			}
			if rest = trimSpace(rest); rest == "" || rest[0] != ']' || !endOfLine(rest[1:]) {
				return nil, false
			}
			id, fields, seen, filled = key, [len(fieldNames)]string{}, [len(fieldNames)]bool{}, false
		default:
			if id == "" {
				return nil, false // a message as a bare key = "text": go-i18n's to read
			}
			name, rest, ok := readKey(line)
			if !ok {
				return nil, false
			}
			f := slices.Index(fieldNames[:], name)
			if f < 0 || seen[f] {
				return nil, false
			}
			if rest = trimSpace(rest); rest == "" || rest[0] != '=' {
				return nil, false
			}
			rest = trimSpace(rest[1:])
			if rest == "" || rest[0] != '"' {
				return nil, false
			}
			s, after, ok := readString(rest)
			if !ok || !endOfLine(after) {
				return nil, false
			}
			fields[f], seen[f], filled = s, true, true
		}
	}
	if !flush() {
		return nil, false
	}
	return msgs, true
}

// fieldNames are the keys of a message's table readMessages reads, the forms in Text's order
// first; description and hash are the translators' (lang reads neither).
var fieldNames = [...]string{"zero", "one", "two", "few", "many", "other", "description", "hash"}

// readKey reads one bare or basic-string key at the start of s and returns what follows it.
func readKey(s string) (key, rest string, ok bool) {
	if s != "" && s[0] == '"' {
		return readString(s)
	}
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] == '_' || s[i] == '-') {
		i++
	}
	return s[:i], s[i:], i > 0
}

// readString reads the basic string that s starts with ("…", on one line) and returns its value
// and what follows it. A string without escapes is s's own memory.
func readString(s string) (val, rest string, ok bool) {
	if len(s) >= 3 && s[:3] == `"""` {
		return "", "", false // multi-line
	}
	var b *strings.Builder
	start := 1
	for i := 1; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			if b == nil {
				return s[1:i], s[i+1:], true
			}
			b.WriteString(s[start:i])
			return b.String(), s[i+1:], true
		case c == '\\':
			if b == nil {
				b = &strings.Builder{}
				b.Grow(len(s))
			}
			b.WriteString(s[start:i])
			r, n := unescape(s[i:])
			if n == 0 {
				return "", "", false
			}
			b.WriteRune(r)
			i += n
			start = i
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", "", false // a control character TOML forbids in a string
		default:
			i++
		}
	}
	return "", "", false // unterminated
}

// unescape reads the escape sequence s starts with and returns its rune and length, or 0 for
// one TOML 1.0 does not have.
func unescape(s string) (rune, int) {
	if len(s) < 2 {
		return 0, 0
	}
	switch s[1] {
	case 'b':
		return '\b', 2
	case 't':
		return '\t', 2
	case 'n':
		return '\n', 2
	case 'f':
		return '\f', 2
	case 'r':
		return '\r', 2
	case '"':
		return '"', 2
	case '\\':
		return '\\', 2
	case 'u', 'U':
		n := 4
		if s[1] == 'U' {
			n = 8
		}
		if len(s) < 2+n {
			return 0, 0
		}
		v, err := strconv.ParseUint(s[2:2+n], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return 0, 0
		}
		return rune(v), 2 + n
	}
	return 0, 0
}

// endOfLine reports whether s, what follows a value, is only blanks and a comment (with no
// control character but tab, as TOML has it).
func endOfLine(s string) bool {
	s = trimSpace(s)
	if s == "" {
		return true
	}
	if s[0] != '#' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// trimSpace trims TOML's whitespace, space and tab (a \r is not: CRLF is left to go-i18n).
func trimSpace(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}
