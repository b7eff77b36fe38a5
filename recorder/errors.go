package recorder

import (
	"errors"
	"strconv"
	"strings"

	"github.com/fechado/fechado/events"
)

// Errors callers branch on, matched with errors.Is.
var (
	// ErrSequenceConflict means the store refused an append because its hand already holds
	// something else at that place: another writer appended first, or the event's id is already
	// stored with different bytes. Nothing was forked; reload the hand and decide again.
	ErrSequenceConflict = errors.New("sequence conflict")
	// ErrHandNotFound means no event of the hand is stored.
	ErrHandNotFound = errors.New("hand not found")
	// ErrAmbiguousHand means the hand id is stored under more than one table; name the table.
	ErrAmbiguousHand = errors.New("hand id stored at more than one table")
	// ErrDataDirInUse means another process runs an embedded server on the data folder.
	ErrDataDirInUse = errors.New("data folder in use by another fechado process")
)

// HandError is an event of a hand that was not appended, with the hand, the event and where the
// event came from. Err wraps ErrSequenceConflict when the store refused it, or events.ErrInvalid
// when the event itself is wrong (bad JSON, a seq gap, a prev that does not chain).
type HandError struct {
	Table string
	Hand  string
	Seq   events.Seq // the event that failed; 0 when not known
	File  string     // where the event came from; "" when it did not come from a file
	Line  int        // 1-based line in File; 0 when unknown
	Err   error
}

func (e *HandError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Line))
		}
		b.WriteString(": ")
	}
	if e.Hand != "" {
		b.WriteString("hand ")
		b.WriteString(e.Hand)
		if e.Table != "" {
			b.WriteString(" (table ")
			b.WriteString(e.Table)
			b.WriteByte(')')
		}
		if e.Seq > 0 {
			b.WriteString(" seq ")
			b.WriteString(e.Seq.String())
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (e *HandError) Unwrap() error { return e.Err }

// invalidErr is an envelope fault found by the recorder; it matches events.ErrInvalid.
type invalidErr struct{ msg string }

func (e *invalidErr) Error() string        { return e.msg }
func (e *invalidErr) Is(target error) bool { return target == events.ErrInvalid }

func invalid(msg string) error { return &invalidErr{msg} }

// conflictErr is a refusal by the store; it matches ErrSequenceConflict.
type conflictErr struct{ msg string }

func (e *conflictErr) Error() string        { return "sequence conflict: " + e.msg }
func (e *conflictErr) Is(target error) bool { return target == ErrSequenceConflict }

func conflict(msg string) error { return &conflictErr{msg} }
