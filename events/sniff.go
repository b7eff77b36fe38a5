package events

import (
	"bytes"
	"encoding/json"
)

// Place is where a line that does not decode says it belongs: the envelope fields it still
// shows. A field it does not show is zero.
type Place struct {
	ID, Table, Hand string
	Seq             Seq
	Type            Type
	// JSON is set when the line is JSON text at all: what is wrong with it is then its content,
	// not its syntax (the web answers 422, not 400).
	JSON bool
}

// Sniff reads where a line that Parse refuses says it belongs, for every part of fechado that
// must put such a line somewhere: the recorder refuses the hand it names, the web ingest names it
// in its answer, the auditor and the projector report it (log.schema) at its place. It is the one
// reader of a bad line's place, so that these all agree.
//
// For a valid line, or a JSON object whose envelope ParseLenient reads, it is that envelope (a table, at or type
// it could not read is ""). Otherwise (the line is not JSON, is cut short, is over a limit of the
// decoder, or its id, hand or seq cannot be read) it is what the bytes still show: the first
// "id", "table", "hand" and "type" keys with a plain string value (no escape, at most 64 bytes:
// the longest id the log holds) and the first "seq" key with a number of 1 to 9 digits. Nothing
// is checked beyond that: a place read from the bytes is a guess about a line that is not an
// event, only good for saying where the line was meant to go.
func Sniff(line []byte) Place {
	if e, _ := ParseLenient(line); e != nil {
		return Place{ID: e.ID, Table: e.Table, Hand: e.Hand, Seq: e.Seq, Type: e.Type, JSON: true}
	}
	p := Place{JSON: json.Valid(line)}
	p.ID = sniffString(line, `"id"`)
	p.Table = sniffString(line, `"table"`)
	p.Hand = sniffString(line, `"hand"`)
	if t := Type(sniffString(line, `"type"`)); t.Known() {
		p.Type = t
	}
	p.Seq = sniffSeq(line)
	return p
}

// maxSniffed is the longest string Sniff takes from a line's bytes: 64 bytes, the longest table
// id (a UUID is 36).
const maxSniffed = 64

// sniffValue returns what follows the first occurrence of key (quoted) in line that is followed
// by a colon, after the blanks around the colon; ok is false when there is none. A key whose
// colon is not there is passed over for the next one, so that a value equal to a key's name
// ({"x":"hand","hand":"h"}) does not hide the key.
func sniffValue(line []byte, key string, value func([]byte) bool) {
	for i := 0; ; {
		j := bytes.Index(line[i:], []byte(key))
		if j < 0 {
			return
		}
		rest := trimBlank(line[i+j+len(key):])
		if len(rest) > 0 && rest[0] == ':' && value(trimBlank(rest[1:])) {
			return
		}
		i += j + 1
	}
}

// sniffString returns the string value of the first key (quoted) that has a plain one.
func sniffString(line []byte, key string) (s string) {
	sniffValue(line, key, func(v []byte) bool {
		if len(v) == 0 || v[0] != '"' {
			return false
		}
		end := bytes.IndexAny(v[1:], `"\`)
		if end < 0 || v[1+end] != '"' || end > maxSniffed {
			return false
		}
		s = string(v[1 : 1+end])
		return true
	})
	return s
}

// sniffSeq returns the value of the first "seq" key with a number of 1 to 9 digits (no leading
// zero) that the line does not go on after.
func sniffSeq(line []byte) (seq Seq) {
	sniffValue(line, `"seq"`, func(v []byte) bool {
		n := 0
		for n < len(v) && v[n] >= '0' && v[n] <= '9' {
			n++
		}
		if n == 0 || n > 9 || v[0] == '0' || n < len(v) && isWordByte(v[n]) {
			return false
		}
		for _, c := range v[:n] {
			seq = seq*10 + Seq(c-'0')
		}
		return true
	})
	return seq
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func trimBlank(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}
