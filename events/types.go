// Package events is fechado's vocabulary: the event log of events-v1.md as Go types, a strict
// decoder that names file, line and field (and a lenient one that reads what it can of a bad line,
// for the audit of events-v1.md §8), an encoder that writes the catalogue's field order, and
// the SHA-256 chain that links the events of a hand. It keeps every stored line byte for byte. It
// imports neither NATS nor SQLite: the rules, replay and audit run on a file with neither.
package events

import (
	"encoding/json"
	"strconv"
)

// Seat is a seat number, 1..10, increasing clockwise.
type Seat int

// MaxSeat is the highest seat number.
const MaxSeat Seat = 10

// String returns the seat number.
func (s Seat) String() string { return strconv.Itoa(int(s)) }

// Chips is an amount of chips; chips are whole numbers.
type Chips int64

// String returns the amount.
func (c Chips) String() string { return strconv.FormatInt(int64(c), 10) }

// Seq is an event's position in its hand, 1 for hand.started.
type Seq int

// String returns the number.
func (s Seq) String() string { return strconv.Itoa(int(s)) }

// Event is one event of the log: the envelope of events-v1.md §2 and its typed data.
type Event struct {
	ID    string // UUID of the event; the de-duplication key
	Table string // table id
	Hand  string // UUID of the hand
	Seq   Seq    // position in the hand
	At    string // RFC 3339 time with offset, as written
	Type  Type   // the event type
	Prev  string // lowercase hex SHA-256 of the previous stored line; "" for seq 1 or when absent
	// HasPrev reports whether the line carried a prev field at all (it is optional on input).
	HasPrev bool
	// Data is the type's payload: a pointer to the struct of the type (e.g. *PlayerActed).
	Data Data
	// Raw is the line as stored, without the newline. The chain hashes these exact bytes.
	Raw []byte
}

// Data is the payload of an event; each event type has its own struct.
type Data interface {
	// EventType returns the type the payload belongs to.
	EventType() Type
}

// Override is one ruleset parameter set by a hand, kept as its raw JSON value.
type Override struct {
	Key   string
	Value []byte
}

// Rules names a hand's preset and its overrides, in the order written.
type Rules struct {
	Name      string
	Overrides []Override
}

// Button returns the button rule the hand declares (rules.button, events-v1.md §7, 2026-12-05):
// ButtonDead when it declares none. The decoder refuses any value but the two.
func (r Rules) Button() Button {
	var b Button
	if raw, ok := r.Override("button"); ok && json.Unmarshal(raw, &b) == nil && b == ButtonMoving {
		return ButtonMoving
	}
	return ButtonDead
}

// Override returns the raw JSON value of key and whether it is set.
func (r Rules) Override(key string) ([]byte, bool) {
	for _, o := range r.Overrides {
		if o.Key == key {
			return o.Value, true
		}
	}
	return nil, false
}
