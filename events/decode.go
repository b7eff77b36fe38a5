package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events/internal/alias"
	"github.com/fechado/fechado/events/internal/jsonlex"
	"github.com/fechado/fechado/events/internal/textform"
	"github.com/fechado/fechado/internal/multisha"
	"github.com/fechado/fechado/internal/prefetch"
)

// Error is an event that could not be read: it names the file, the line and the field.
type Error struct {
	File  string // "" when the line did not come from a file
	Line  int    // 1-based line number; 0 when unknown
	Field string // the offending field as a path, e.g. "data.seats[1].stack"; "" for the line
	Err   error
}

func (e *Error) Error() string {
	s := e.File
	if e.Line > 0 {
		s += ":" + strconv.Itoa(e.Line)
	}
	if s = strings.TrimPrefix(s, ":"); s != "" {
		s += ": "
	}
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrInvalid is wrapped by every decoding error, so callers can tell bad input from I/O failures.
var ErrInvalid = errors.New("invalid event")

// The input limits of a line (docs/events.md, "Input limits"). The upstream contract states
// none; these bound what one line can cost any reader, and the store takes every line they let
// through.
const (
	// MaxLineSize is the longest line of a log, in bytes without its newline: the store's limit on
	// a message's payload (1 MiB, nats-server's default max_payload). A longer line is refused by
	// Parse and skipped by a Reader, which reads it in bounded memory.
	MaxLineSize = 1 << 20
	// MaxDepth is how deeply the arrays and objects of a line may nest, the envelope's object
	// counted: the contract needs 4; a deeper line is refused.
	MaxDepth = jsonlex.MaxDepth
)

var (
	// ErrLineTooLong is wrapped by the error of a line longer than MaxLineSize.
	ErrLineTooLong = errors.New("line too long")
	// ErrTooDeep is wrapped by the error of a line nested deeper than MaxDepth.
	ErrTooDeep = jsonlex.ErrTooDeep
)

// tooLong is the fault of a line of n bytes, over MaxLineSize.
func tooLong(n int) error {
	return invalid{fmt.Errorf("%w: %d bytes, over the limit of %d", ErrLineTooLong, n, MaxLineSize)}
}

// fieldErr carries the path of the field that failed while decoding.
type fieldErr struct {
	path string
	err  error
}

func (e *fieldErr) Error() string { return e.path + ": " + e.err.Error() }

// at returns err as a fault of the field at path (a name, or "[i]" for a list's element), its
// own path (if any) below it.
func at(path string, err error) error {
	if err == nil {
		return nil
	}
	var fe *fieldErr
	if errors.As(err, &fe) {
		if fe.path != "" && fe.path[0] == '[' {
			return &fieldErr{path + fe.path, fe.err}
		}
		return &fieldErr{path + "." + fe.path, fe.err}
	}
	return &fieldErr{path, err}
}

type invalid struct{ error }

func (invalid) Is(target error) bool { return target == ErrInvalid }

// Unwrap returns the fault, so that errors.Is finds ErrLineTooLong and ErrTooDeep in it.
func (e invalid) Unwrap() error { return e.error }

// Parse decodes one line (without its newline) strictly: unknown types and fields, missing or
// mistyped fields, bad cards, UUIDs and seats are errors that name the field; a line longer than
// MaxLineSize or nested deeper than MaxDepth is refused (ErrLineTooLong, ErrTooDeep). The
// returned event's Raw is line itself (not copied); its strings are copies.
func Parse(line []byte) (*Event, error) {
	var d decoder
	return d.parseLine(line)
}

// A Decoder decodes lines one after the other as a Reader does, each line its own piece of memory
// (a message read from the log): it pools what it hands out, and the strings of its events may
// share the bytes of their lines, so a line it is given must never be written again, by anybody
// (package alias's invariant), nor may the Raw of the events it returns. A Decoder is used by
// one goroutine at a time.
type Decoder struct{ d decoder }

// NewDecoder returns a Decoder.
func NewDecoder() *Decoder { return &Decoder{d: decoder{pool: true}} }

// Parse is package Parse through d: the same event, or the same error, for the same line.
func (d *Decoder) Parse(line []byte) (*Event, error) { return d.d.parseLine(line) }

// decoder decodes events. Parse uses a zero decoder: every string is a copy and every struct its
// own allocation. A Reader's decoder pools (pool is set): the lines it decodes are never written
// again, so strings may alias them, and events, payloads and card lists are carved from slabs
// that are never reused either, so that an event costs well under one allocation and whatever a
// caller receives stays as it is.
type decoder struct {
	pool bool
	// table and hand are the last table and hand ids read: the events of a hand share them. They
	// are copies, so that a caller keeping ids does not keep their lines' chunks alive.
	table, hand string
	// names holds player and preset names, which the auditor keeps across hands: they are copied
	// once, not kept as pieces of a line (which would keep its whole chunk alive).
	names map[string]string
	// times checks the times of the lines, which mostly share their minute with the line before.
	times textform.Times

	events slab[Event]
	// spare holds events the caller gave back (Reader.Recycle), handed out again, cleared,
	// before the slab's.
	spare    []*Event
	payloads payloadSlabs
	seats    slab[Seat]   // the optional seats of deck.shuffled, deck.cut, card.exposed
	ints     slab[int]    // the optional counts of deck.shuffled, cards.discarded
	chips    slab[Chips]  // the optional chips of hand.started's seats and tournament
	strs     slab[string] // the optional previous hand of hand.started
	// cardLists holds the lists of cards.
	cardLists slab[cards.Card]
}

// slabLen is the number of values in a slab's chunk. A chunk is freed when no value carved from
// it is referenced any more; the auditor holds only the events of the hands still open, so a
// modest chunk keeps memory flat.
const slabLen = 128

// slab hands out values carved from chunks, each value once: a chunk is never reused, and the
// garbage collector frees it once no value carved from it is referenced.
type slab[T any] struct {
	chunk []T
	i     int // chunk[i:] is not handed out yet
}

// take returns a zero T: from s when pooling, else a new one.
func take[T any](s *slab[T], pool bool) *T {
	if !pool {
		return new(T)
	}
	if s.i == len(s.chunk) {
		s.refill(slabLen)
	}
	v := &s.chunk[s.i]
	s.i++
	return v
}

// carve returns a copy of v: a piece of s's chunk of n values when pooling (the next chunk when
// the current one is short), else its own allocation. The copy's capacity is its length, so that
// appending to it never writes over a neighbour. Lists longer than n/8 get their own allocation.
func carve[T any](s *slab[T], n int, v []T, pool bool) []T {
	if len(v) == 0 {
		return []T{} // empty, not nil (and allocates nothing)
	}
	if !pool || len(v) > n/8 {
		return append(make([]T, 0, len(v)), v...)
	}
	if len(v) > len(s.chunk)-s.i {
		s.refill(n)
	}
	out := s.chunk[s.i : s.i+len(v) : s.i+len(v)]
	copy(out, v)
	s.i += len(v)
	return out
}

// event returns a zero Event: one given back by the caller (Recycle cleared it) when there is
// one, else take's.
func (d *decoder) event() *Event {
	if n := len(d.spare); n > 0 {
		e := d.spare[n-1]
		d.spare[n-1] = nil
		d.spare = d.spare[:n-1]
		return e
	}
	return take(&d.events, d.pool)
}

// refill replaces the current chunk, finished, with a new one of n values.
func (s *slab[T]) refill(n int) {
	s.chunk, s.i = make([]T, n), 0
}

// own returns b as a string. When pooling the string shares b's bytes (a piece of a line that
// nobody writes again, or the fresh copy of a string with escapes) instead of copying them: the
// invariant of package alias, which the Reader's chunks keep (nextChunk).
func (d *decoder) own(b []byte) string {
	if !d.pool {
		return string(b)
	}
	return alias.String(b)
}

// handID returns b, a hand id: the last hand read when it is that one (a hand.started's previous
// hand usually is), else a copy.
func (d *decoder) handID(b []byte) string {
	if string(b) == d.hand {
		return d.hand
	}
	return string(b)
}

// same returns b as a string, *last when it holds the same text (then nothing is allocated).
func (d *decoder) same(b []byte, last *string) string {
	if !d.pool {
		return string(b)
	}
	if string(b) != *last {
		*last = string(b)
	}
	return *last
}

// name returns b as a string, shared with the earlier names of the same text when pooling.
func (d *decoder) name(b []byte) string {
	if !d.pool {
		return string(b)
	}
	if s, ok := d.names[string(b)]; ok {
		return s
	}
	if d.names == nil || len(d.names) >= 4096 {
		d.names = map[string]string{} // bounded: a long log of many players starts afresh
	}
	s := string(b)
	d.names[s] = s
	return s
}

var bom = []byte("\xef\xbb\xbf")

// parseLine decodes line and wraps a failure in an *Error naming the field.
func (d *decoder) parseLine(line []byte) (*Event, error) {
	if len(line) > MaxLineSize {
		return nil, &Error{Err: tooLong(len(line))}
	}
	l := jsonlex.Lexer{B: line}
	e, err := d.parse(&l)
	if err != nil || l.Wide {
		// The checks of the whole line come first, as if they had been made before decoding
		// (most lines are ASCII: see jsonlex.Lexer.Wide).
		if !utf8.Valid(line) {
			e, err = nil, errors.New("not valid UTF-8")
		} else if err != nil && bytes.HasPrefix(line, bom) {
			err = errors.New("a byte-order mark is not allowed: JSON Lines is plain UTF-8")
		}
	}
	if err != nil {
		if fe, ok := err.(*fieldErr); ok {
			return nil, &Error{Field: fe.path, Err: invalid{fe.err}}
		}
		return nil, &Error{Err: invalid{err}}
	}
	return e, nil
}

// envelope lists the envelope's fields in the catalogue's order. All but prev are required; a
// missing one is reported in this order.
var envelope = jsonlex.NewFieldNames("id", "table", "hand", "seq", "at", "type", "prev", "data")

const (
	envID = iota
	envTable
	envHand
	envSeq
	envAt
	envType
	envPrev
	envData
	envRequired = 1<<(envData+1) - 1 - 1<<envPrev
)

func (d *decoder) parse(l *jsonlex.Lexer) (*Event, error) {
	e := d.event()
	e.Raw = l.B
	if d.fast(l, e) {
		return e, nil
	}
	// Any other layout, or a fault: the general walk decodes the line from the start, and is the
	// one that reports faults.
	*e = Event{Raw: l.B}
	*l = jsonlex.Lexer{B: l.B}
	ti := -1 // e.Type's index in Types, once read
	var data []byte
	var have uint32
	empty, err := l.Open()
	for more := !empty; err == nil && more; more, err = l.Next() {
		var f int
		var k []byte
		if f, k, err = l.Field(envelope, &have); err != nil {
			break
		}
		var s []byte
		switch f {
		case envID:
			s, err = uuid(l)
			e.ID = d.own(s)
		case envTable:
			if s, err = l.Str(); err == nil {
				err = tableID(s)
			}
			if err == nil {
				e.Table = d.same(s, &d.table) // only a valid id becomes the last one (see fast)
			}
		case envHand:
			if s, err = uuid(l); err == nil {
				e.Hand = d.same(s, &d.hand)
			}
		case envSeq:
			var v int64
			v, err = positive(l)
			e.Seq = Seq(v)
		case envAt:
			if s, err = l.Str(); err == nil && !textform.IsTime(s) {
				err = fmt.Errorf("%q is not an RFC 3339 time with offset", s)
			}
			e.At = d.own(s)
		case envType:
			if s, err = l.Str(); err == nil {
				if e.Type, ti = lookupType(s); ti < 0 {
					err = fmt.Errorf("unknown event type %q", s)
				}
			}
		case envPrev:
			e.HasPrev = true
			s, err = hex64(l, true, "a lowercase hex SHA-256")
			e.Prev = d.own(s)
		case envData:
			if ti >= 0 && l.Peek() == '{' {
				// The usual order (type before data): decode in place, one pass.
				e.Data, err = d.data(ti, l)
				break
			}
			// Data before type: checked as JSON now, decoded once the type is known.
			if data, err = l.Skip(); err == nil && data[0] != '{' {
				err = &jsonlex.TypeError{Want: "object", Got: jsonlex.KindOf(data[0])}
			}
		default:
			return nil, &fieldErr{string(k), errors.New("unknown field")}
		}
		if err != nil {
			return nil, at(envelope.Names[f], err)
		}
	}
	if err != nil {
		return nil, err
	}
	if !l.End() {
		return nil, fmt.Errorf("extra text after the event at column %d", l.I+1)
	}
	if m := envRequired &^ have; m != 0 {
		return nil, &fieldErr{envelope.Names[bits.TrailingZeros32(m)], errors.New("missing")}
	}
	if e.Data == nil {
		dl := jsonlex.Lexer{B: data, Depth: 1} // inside the envelope
		d, err := d.data(ti, &dl)
		if err == nil && !dl.End() {
			err = fmt.Errorf("extra text after the data object at column %d", dl.I+1)
		}
		if err != nil {
			return nil, at("data", err)
		}
		e.Data = d
	}
	return e, nil
}

// The pieces of a line as fechado writes it, that fast looks for.
// They are compared as string(jsonlex.Span(b, i, len(c))) == c: with c a constant, the comparison compiles
// to a few loads and compares of immediates (a string that is not a constant would need a call).
const (
	jsID, jsTable, jsHand, jsSeq = `{"id":"`, `","table":"`, `","hand":"`, `","seq":`
	jsAt, jsType, jsPrev, jsData = `,"at":"`, `","type":"`, `","prev":"`, `","data":{`
)

// fast decodes an event written as fechado writes it (Encode): the envelope's fields in the
// catalogue's order, without spaces or escapes, prev present, data after type, nothing after
// data. It checks each field as the general walk does, with fewer steps, and reports false,
// having decoded nothing for good, when the line is written any other way or holds a fault.
func (d *decoder) fast(l *jsonlex.Lexer, e *Event) bool {
	const uuidLen, hashLen = 36, 64
	b := l.B
	// The runs of fixed length between the fields of variable length are seen through arrays of
	// their length: their pieces are at constant places, compared without a bounds check each.
	// {"id":"…","table":"
	const idRun = len(jsID) + uuidLen + len(jsTable)
	if len(b) < idRun {
		return false
	}
	ids := (*[idRun]byte)(b)
	id := ids[len(jsID) : len(jsID)+uuidLen]
	if string(ids[:len(jsID)]) != jsID || string(ids[len(jsID)+uuidLen:]) != jsTable || !textform.IsUUID(id) {
		return false
	}
	i := idRun
	// …","hand":"…","seq": (the table and hand of the line before, or new ones checked)
	table, sameTable := jsonlex.Span(b, i, len(d.table)), false
	if len(d.table) > 0 && string(jsonlex.Span(b, i+len(d.table), len(jsHand))) == jsHand && string(table) == d.table {
		sameTable = true
	} else {
		j := bytes.IndexByte(b[i:min(len(b), i+65)], '"') // a table id has 64 bytes at most
		if j < 0 || !textform.IsTableID(b[i:i+j]) {
			return false
		}
		table = b[i : i+j]
	}
	i += len(table)
	const handRun = len(jsHand) + uuidLen + len(jsSeq)
	if len(b)-i < handRun {
		return false
	}
	hands := (*[handRun]byte)(b[i:])
	hand := hands[len(jsHand) : len(jsHand)+uuidLen]
	if string(hands[:len(jsHand)]) != jsHand || string(hands[len(jsHand)+uuidLen:]) != jsSeq {
		return false
	}
	sameHand := string(hand) == d.hand
	if !sameHand && !textform.IsUUID(hand) {
		return false
	}
	i += handRun
	// …,"at":"
	seq, j := jsonlex.Uint(b, i)
	if seq < 1 || string(jsonlex.Span(b, j, len(jsAt))) != jsAt {
		return false
	}
	i = j + len(jsAt)
	// …","type":" (fechado writes the time to the millisecond, in UTC)
	if j = len("2006-01-02T15:04:05.000Z"); string(jsonlex.Span(b, i+j, len(jsType))) != jsType {
		if j = bytes.IndexByte(b[i:min(len(b), i+40)], '"'); j < 0 || string(jsonlex.Span(b, i+j, len(jsType))) != jsType {
			return false
		}
	}
	at := b[i : i+j]
	if !d.times.Valid(at) {
		return false
	}
	i += j + len(jsType)
	// …","prev":" (half the events are card.dealt: a comparison with a constant first)
	t, ti, j := CardDealtType, tiCardDealt, len(CardDealtType)
	if string(jsonlex.Span(b, i, j+1)) != string(CardDealtType)+`"` {
		if j = bytes.IndexByte(b[i:min(len(b), i+32)], '"'); j < 0 { // 32: longer than any type
			return false
		}
		t, ti = lookupType(b[i : i+j])
	}
	if ti < 0 || string(jsonlex.Span(b, i+j, len(jsPrev))) != jsPrev {
		return false
	}
	i += j + len(jsPrev)
	// …","data":{ (prev is "" or 64 hex digits)
	var prev []byte
	if !jsonlex.HasByte(b, i, '"') {
		const prevRun = hashLen + len(jsData)
		if len(b)-i < prevRun {
			return false
		}
		prevs := (*[prevRun]byte)(b[i:])
		if prev = prevs[:hashLen]; string(prevs[hashLen:]) != jsData || !textform.IsHex64(prev) {
			return false
		}
		i += hashLen
	} else if string(jsonlex.Span(b, i, len(jsData))) != jsData {
		return false
	}
	// …}} and nothing more
	l.I = i + len(jsData) - 1 // at the data object's '{'
	l.Depth = 1               // inside the envelope's
	data, err := d.data(ti, l)
	if err != nil || !jsonlex.HasByte(b, l.I, '}') {
		return false
	}
	if l.I++; l.I != len(b) { // trailing spaces are left to the general walk
		return false
	}
	if d.pool {
		// The events of a hand share its id and its table's.
		if !sameTable {
			d.table = string(table)
		}
		if !sameHand {
			d.hand = string(hand)
		}
		e.Table, e.Hand = d.table, d.hand
	} else {
		e.Table, e.Hand = string(table), string(hand)
	}
	e.ID, e.Seq, e.At, e.Type, e.Prev, e.HasPrev, e.Data = d.own(id), Seq(seq), d.own(at), t, d.own(prev), true, data
	return true
}

// tableID checks a table id given in data (v1.1 from and to).
func tableID(s []byte) error {
	if !textform.IsTableID(s) {
		return fmt.Errorf("%q is not a table id: 1 to 64 of A-Z a-z 0-9 _ -", s)
	}
	return nil
}

// Reader reads the events of a JSON Lines file one at a time, so that memory stays flat however
// long the file. Errors are *Error values naming the file and the line.
//
// It reads the file straight into chunks of lines (a few hundred lines each) and hands the lines
// out from there: a line once returned is not written again, so the events' strings alias it, and
// a chunk is freed once nothing of it is referenced. Only the unfinished last line of a chunk is
// copied, to the start of the next one. (bufio.Reader hands out one line at a time, each to be
// copied on its own, and a line longer than its buffer in pieces: a copy and an allocation per
// line that this buffering saves.)
//
// Nothing it hands out is written again: chunks of lines and slabs of events are never reused,
// so that whatever a caller keeps stays as it was read (line sums are handed out as copies). The
// one exception is the caller's to make: events it gives back with Recycle, and, of a Reader made
// by NewReaderReusing, the lines of those events and the strings that alias them. A
// Reader made by NewReaderBytes reads no file: its one chunk is the bytes it was given.
type Reader struct {
	d    decoder
	name string
	rd   io.Reader
	line int
	err  error // io.EOF, or the *Error of a failed read: returned from then on
	// chunk[:n] is what was read into the current chunk: chunk[:next] the lines returned,
	// chunk[next:n] what is not returned yet, of which chunk[next:scan] holds no newline.
	chunk         []byte
	next, scan, n int
	// rerr is the error of the last Read, returned once the lines read before it are.
	rerr error
	// ls and le delimit the last line returned in chunk (without its newline); lok is set while
	// they do.
	ls, le int
	lok    bool
	// sums[i] is the SHA-256 of the line of chunk at spans[i] (LineSum): the lines of the chunk
	// from one on, hashed at once; si is the first span not yet passed. Both are reused for the
	// next lines: LineSum returns copies.
	spans []multisha.Span
	sums  [][multisha.Size]byte
	si    int
	// done, for a Reader of bytes (NewReaderBytes), is told every doneStep bytes how far the
	// lines have been returned; doneAt is where it is told next.
	done   func(n int)
	doneAt int
	// fetch, for a Reader of bytes (Fetch), is given the bytes ahead of the next line every
	// fetchStep bytes, fetchAhead of them; fetchAt is where it is given them next.
	fetch   func(from, to int)
	fetchAt int
	// long is set when the last line returned was longer than MaxLineSize and was skipped
	// rather than kept (skipLong): longLen is its length, longSum its SHA-256 (LineSum).
	long    bool
	longLen int
	longSum [multisha.Size]byte
	// more, for a Reader of chosen lines (NewReaderLines), gives the next lines to return:
	// queue[qi:] are those not returned yet, numbers their line numbers; sums holds the SHA-256
	// of the lines of queue from sumFrom to sumTo.
	more           func() (spans []multisha.Span, numbers []int)
	queue          []multisha.Span
	numbers        []int
	qi             int
	sumFrom, sumTo int
	// size is the size of a chunk of lines when not bufSize; reuse, for a Reader made by
	// NewReaderReusing, follows the chunks to read into again.
	size  int
	reuse *chunkPool
}

// LineHead is how much of a line longer than MaxLineSize ReadLine returns: its first bytes,
// which hold its envelope (as fechado writes it), to tell which hand it belongs to.
const LineHead = 4 << 10

// errSkipped is readSlice's word that it skipped a line longer than MaxLineSize (skipLong).
var errSkipped = errors.New("line skipped")

const (
	// bufSize is the size of a chunk of lines: a couple of hundred lines of a log. A chunk grows
	// to hold a longer line, up to twice MaxLineSize: a line longer still is read past
	// (skipLong).
	bufSize = 64 << 10
	// maxEmptyReads is how many Reads in a row may return nothing before the Reader gives up
	// with io.ErrNoProgress (as bufio does).
	maxEmptyReads = 100
)

// NewReader returns a Reader of r; name is used in error messages (a file name, or "-").
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{d: decoder{pool: true}, name: name, rd: r}
}

// NewReaderBytes returns a Reader of a whole file held in b. It hands out b's own bytes, copying
// none (the lines, and the strings that alias them, are pieces of b), so b must never be written
// again: a file mapped into memory read-only, for instance (package logfile).
//
// done, when not nil, is called as reading goes, every megabyte and at the end, with the length
// of b's start whose lines have all been returned: the caller may let the memory of that part
// go, as long as it can still be read (logfile gives the pages back to the file they came from).
func NewReaderBytes(b []byte, name string, done func(n int)) *Reader {
	return &Reader{d: decoder{pool: true}, name: name, chunk: b, n: len(b), rerr: io.EOF, done: done, doneAt: doneStep}
}

// Fetch has a Reader of bytes (NewReaderBytes) call fetch with the bytes [from, to) it is about
// to read first, from the start of the next line on, before it reads them: a mapped file may
// copy them in then (logfile.Mapping.Fetch). Only the one reader ahead of every other reader of
// b may be given it.
func (r *Reader) Fetch(fetch func(from, to int)) { r.fetch = fetch }

// fetchStep is how often a Reader of bytes calls its fetch, fetchAhead how far ahead of the next
// line: past what LineSum hashes and asks the processor for ahead of it (sumBytes each).
const (
	fetchStep  = 16 << 10
	fetchAhead = 4 * sumBytes
)

// NewReaderLines returns a Reader of chosen lines of a whole file held in b, as NewReaderBytes
// reads them all: the lines of one table, say, when the tables of a log are read by several
// readers at once. more gives the next lines each time those it gave before are all returned:
// their spans in b (without their newline), in order, and each line's number in the file, for
// Line and the errors. When it gives none, Next returns io.EOF, and reading may go on once more
// has lines again. Blank lines are skipped as Next skips them. The lines of a list are hashed
// some sixty at a time when LineSum is asked for one of them (sumBytes), so a list is best a few
// hundred lines long or more.
func NewReaderLines(b []byte, name string, more func() (spans []multisha.Span, numbers []int)) *Reader {
	return &Reader{d: decoder{pool: true}, name: name, chunk: b, n: len(b), rerr: io.EOF, more: more}
}

// readQueued is ReadLine for a Reader of chosen lines (NewReaderLines).
func (r *Reader) readQueued() ([]byte, error) {
	if r.qi == len(r.queue) {
		r.queue, r.numbers = r.more()
		r.qi, r.sumFrom, r.sumTo, r.lok = 0, 0, 0, false
		if len(r.queue) == 0 {
			return nil, io.EOF // until more has lines again
		}
	}
	sp := r.queue[r.qi]
	r.line = r.numbers[r.qi]
	if j := r.qi + prefetchAhead; j < len(r.queue) {
		// A line of the next groups queuedSum hashes, brought into the caches as this one is
		// decoded.
		next := r.queue[j]
		prefetch.Bytes(r.chunk[next.Off : next.Off+min(next.Len, prefetchMax)])
	}
	r.qi++
	end := sp.Off + sp.Len
	line := r.chunk[sp.Off:end:end]
	r.ls, r.le, r.lok = sp.Off, end, true
	if len(line) > MaxLineSize {
		return line[:LineHead:LineHead], &Error{File: r.name, Line: r.line, Err: tooLong(len(line))}
	}
	return line, nil
}

// queuedSum is LineSum for a Reader of chosen lines: the line and the next ones of the list being
// read, up to queuedSums of them and sumBytes of their bytes, are hashed together, while they are
// still in the processor's caches.
func (r *Reader) queuedSum() (sum [multisha.Size]byte, ok bool) {
	i := r.qi - 1
	if !r.lok || i < 0 {
		return sum, false
	}
	if i < r.sumFrom || i >= r.sumTo {
		j, n := i, 0
		for j < len(r.queue) && j-i < queuedSums && (j == i || n+r.queue[j].Len <= sumBytes) {
			n += r.queue[j].Len
			j++
		}
		r.sumFrom, r.sumTo = i, j
		if cap(r.sums) < queuedSums {
			r.sums = make([][multisha.Size]byte, queuedSums)
		}
		r.sums = r.sums[:r.sumTo-r.sumFrom]
		multisha.SumMany(r.sums, r.chunk, r.queue[r.sumFrom:r.sumTo])
	}
	return r.sums[i-r.sumFrom], true
}

// prefetchMax is how much of a line readQueued brings into the caches ahead: an event's line is
// a few hundred bytes; one of megabytes is rare and would only take the caches from the others.
const prefetchMax = 4096

// queuedSums is how many lines a Reader of chosen lines hashes at a time at most (sumBytes
// bounds them first).
const queuedSums = 256

// prefetchAhead is how many lines ahead of the one it returns readQueued brings a line into the
// caches: a group that queuedSum hashes is about sixty lines of a log (sumBytes), read by the
// time the line is hashed.
const prefetchAhead = 64

// sumBytes is how many bytes of lines a Reader hashes in one call of multisha.SumMany at most
// (a longer line alone). The call is into C, and while it runs the Go scheduler counts its
// thread as in a system call: one that lasts across two of the scheduler's monitor's checks
// (sysmon, every 20 µs when it is busy) has its processor taken and handed to another thread,
// and the monitor then checks every 20 µs again, for a millisecond at least. On two cores with
// two workers busy, each of those checks takes a core from a worker. 16 KB are hashed in about
// 10 µs; the 64 KB (256 lines) hashed at once before took 50 µs (BENCHMARKS.md, twenty-first
// session).
const sumBytes = 16 << 10

// doneStep is how many bytes a Reader of bytes returns between two calls of its done function.
const doneStep = 1 << 20

// Recycle gives r back events that the caller holds no more in any way (neither the events nor
// pointers to them), each once: r clears them and hands them out again as later events. Only the Event
// values are reused, not what they point to: their strings, lines, payloads and card lists are
// never written again, so whatever the caller kept of them stays as it was read. An auditor that
// keeps nothing of an audited hand but what it copied gives the hand's events back, so that a
// long log allocates events only for the hands open at once (audit.AuditReader).
func (r *Reader) Recycle(evs []*Event) {
	if !r.d.pool {
		return
	}
	// Cleared now, not when handed out again, so that an event waiting here keeps nothing alive:
	// a Reader past its end still holds its last events given back, and an auditor of many files
	// holds every file's Reader (with what they pointed to, 60 MB at a million hands).
	if r.reuse != nil {
		for _, e := range evs {
			r.reuse.give(e.Raw)
		}
	}
	for _, e := range evs {
		*e = Event{}
	}
	r.d.spare = append(r.d.spare, evs...)
}

// Offset returns where the last line read begins, for a Reader of bytes (NewReaderBytes): its
// offset in the bytes given. (Of a Reader of an io.Reader, the offset in a chunk of its own.)
func (r *Reader) Offset() int { return r.ls }

// Line returns the line number of the last line read.
func (r *Reader) Line() int { return r.line }

// Name returns the name given to NewReader.
func (r *Reader) Name() string { return r.name }

// Next returns the next event, or io.EOF at the end. Blank lines are skipped. A line that fails
// to decode returns an *Error; reading may go on with the next line after it. The event's Raw is
// the line as ReadLine returns it, and its strings may share the line's bytes.
func (r *Reader) Next() (*Event, error) {
	e, _, err := r.nextLine()
	return e, err
}

// NextLine is Next that returns the event's line too; for a line that does not decode, the line
// with the *Error (only its first LineHead bytes for a line longer than MaxLineSize; a failed
// read returns no line, as the end does).
func (r *Reader) NextLine() (*Event, []byte, error) { return r.nextLine() }

// nextLine is Next, and returns the line of a decoding error too.
func (r *Reader) nextLine() (*Event, []byte, error) {
	for {
		line, err := r.ReadLine()
		if err != nil {
			return nil, line, err // line: the head of a line over MaxLineSize, or nil
		}
		if (len(line) == 0 || line[0] != '{') && len(bytes.TrimSpace(line)) == 0 {
			if r.reuse != nil {
				r.reuse.cur.out-- // skipped: nobody holds it
			}
			continue
		}
		e, err := r.d.parseLine(line)
		if err != nil {
			var ee *Error
			if errors.As(err, &ee) {
				ee.File, ee.Line = r.name, r.line
			}
			return nil, line, err
		}
		return e, line, nil
	}
}

// Ahead returns up to n bytes of the line after the last one returned, when the Reader holds
// them already, else fewer or none: it reads nothing. The bytes are the caller's to read only
// until the next call of the Reader.
func (r *Reader) Ahead(n int) []byte {
	if r.more != nil || r.next >= r.n {
		return nil
	}
	return r.chunk[r.next:min(r.n, r.next+n)]
}

// lineBytesLeast is the fewest bytes LinesLeft counts a line: an event as fechado writes it takes
// 250 or more (its envelope alone, an id, a table, a hand, a time and a prev, about 230).
const lineBytesLeast = 128

// LinesLeft returns about how many lines the Reader has yet to return when it holds the whole
// file (NewReaderBytes): its bytes left over lineBytesLeast, no fewer than the lines unless they
// are shorter than that; 0 when it does not know (a Reader of an io.Reader, or of chosen lines).
// It reads nothing.
func (r *Reader) LinesLeft() int {
	if r.reuse != nil && r.reuse.Size > 0 {
		return LinesOf(max(0, r.reuse.Size-r.reuse.read) + r.n - r.next)
	}
	if r.rd != nil || r.more != nil {
		return 0
	}
	return LinesOf(r.n - r.next)
}

// LinesOf returns about how many lines n bytes of a log hold, as LinesLeft counts them.
func LinesOf(n int) int { return n / lineBytesLeast }

// ReadLine returns the next raw line (without "\n"), or io.EOF at the end. The line is the
// caller's: the Reader never writes its bytes again, though they
// may share a backing array with other lines (its capacity is its length, so appending to it
// copies). A last line without a newline is returned as it is; the decoder then judges whether it
// is complete.
//
// A line longer than MaxLineSize is not returned: ReadLine returns its first LineHead bytes with
// an *Error wrapping ErrInvalid and ErrLineTooLong, and reading goes on with the next line. A
// Reader of an io.Reader does not keep such a line: it reads the rest of it in a chunk's memory,
// only to hash it (LineSum), so that a line of any length costs about 2*MaxLineSize at most.
func (r *Reader) ReadLine() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.more != nil {
		return r.readQueued()
	}
	line, err := r.readSlice()
	if r.reuse != nil && len(line) > 0 && err != errSkipped {
		r.reuse.cur.out++ // a line of the current chunk, out until given back
	}
	if err == errSkipped {
		r.line++
		return line, &Error{File: r.name, Line: r.line, Err: tooLong(r.longLen)}
	}
	if len(line) == 0 && err != nil {
		if err != io.EOF {
			err = &Error{File: r.name, Line: r.line + 1, Err: err}
		}
		r.err = err
		return nil, err
	}
	r.line++
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[: n-1 : n-1]
	} else if err != nil && err != io.EOF {
		r.err = &Error{File: r.name, Line: r.line, Err: err}
		return nil, r.err
	}
	if len(line) > MaxLineSize {
		return line[:LineHead:LineHead], &Error{File: r.name, Line: r.line, Err: tooLong(len(line))}
	}
	return line, nil
}

// readSlice returns the next line with its newline; or, when a Read failed or the file ended,
// what is left before that (maybe nothing) with the error.
func (r *Reader) readSlice() ([]byte, error) {
	r.long = false
	if r.done != nil && (r.next >= r.doneAt || r.next == r.n) {
		r.done(r.next) // at the end too: the whole file is done with
		r.doneAt = r.next + doneStep
	}
	if r.fetch != nil && r.next >= r.fetchAt {
		r.fetch(r.next, min(r.n, r.next+fetchAhead))
		r.fetchAt = r.next + fetchStep
	}
	if r.si < len(r.spans) && r.spans[r.si].Off == r.next {
		// LineSum has found this line already, and the newline that ends it: its spans end
		// where the lines do.
		i := r.next + r.spans[r.si].Len + 1
		line := r.chunk[r.next:i:i]
		r.ls, r.le, r.lok = r.next, i-1, true
		r.next, r.scan = i, i
		return line, nil
	}
	for {
		if k := bytes.IndexByte(r.chunk[r.scan:r.n], '\n'); k >= 0 {
			i := r.scan + k + 1
			line := r.chunk[r.next:i:i]
			r.ls, r.le, r.lok = r.next, i-1, true
			r.next, r.scan = i, i
			return line, nil
		}
		r.scan = r.n
		if err := r.rerr; err != nil {
			line := r.chunk[r.next:r.n:r.n]
			r.ls, r.le, r.lok = r.next, r.n, true
			r.next, r.rerr = r.n, nil
			return line, err
		}
		if r.n-r.next > MaxLineSize {
			return r.skipLong()
		}
		r.fill()
	}
}

// skipLong reads past the line that starts at r.next, known to be longer than MaxLineSize, to
// its newline: the chunk's part of it, then the rest in a chunk of bufSize read over and over,
// hashing each piece (longSum) and keeping only its first LineHead bytes, which it returns with
// errSkipped. What follows the newline stays in the chunk, the start of the next lines. A failed
// read returns the error, as readSlice does.
func (r *Reader) skipLong() ([]byte, error) {
	head := bytes.Clone(r.chunk[r.next : r.next+LineHead])
	h := sha256.New()
	h.Write(r.chunk[r.next:r.n])
	size := r.n - r.next
	// A new chunk: the lines of this one before r.next are the caller's, never written again.
	r.startChunk(r.newChunk(r.chunkSize()))
	r.next, r.scan, r.n = 0, 0, 0
	r.lok, r.spans, r.si = false, r.spans[:0], 0
	for {
		if r.rerr != nil {
			if r.rerr != io.EOF {
				return head, r.rerr // ReadLine reports the failed read
			}
			break // the last line, without a newline
		}
		r.fill()
		if k := bytes.IndexByte(r.chunk[:r.n], '\n'); k >= 0 {
			h.Write(r.chunk[:k])
			size += k
			r.next, r.scan = k+1, k+1
			break
		}
		h.Write(r.chunk[:r.n])
		size += r.n
		r.n = 0
	}
	r.long, r.longLen = true, size
	h.Sum(r.longSum[:0])
	return head, errSkipped
}

// fill reads more of the file into the current chunk, after the unfinished line at its end; or
// into the next chunk when this one has little room left.
func (r *Reader) fill() {
	if r.rd == nil { // a Reader of bytes has nothing more to read
		r.rerr = io.EOF
		return
	}
	if len(r.chunk)-r.n < r.chunkSize()/8 {
		// Less than an eighth of a chunk left: the next chunk, so that a Read never asks for
		// only a few bytes.
		r.nextChunk()
	}
	for range maxEmptyReads {
		n, err := r.rd.Read(r.chunk[r.n:])
		r.n += n
		if r.reuse != nil {
			r.reuse.read += n
		}
		if err != nil {
			r.rerr = err
			return
		}
		if n > 0 {
			return
		}
	}
	r.rerr = io.ErrNoProgress
}

// nextChunk starts a chunk with the unfinished line of the current one: a new one of bufSize, or
// twice the line when it is longer than half of that (a long line). The chunk is new memory that
// is read into once and never reused, so the strings own aliases in it stay as they are; unless
// the Reader reuses its chunks (NewReaderReusing), when it is a chunk whose lines all came back.
func (r *Reader) nextChunk() {
	tail := r.chunk[r.next:r.n]
	c := r.newChunk(max(r.chunkSize(), 2*len(tail)))
	copy(c, tail)
	r.startChunk(c)
	r.next, r.scan, r.n = 0, r.scan-r.next, len(tail)
	r.lok, r.spans, r.si = false, r.spans[:0], 0 // they were places in the last chunk
}

// chunkSize is the size of a chunk of lines.
func (r *Reader) chunkSize() int {
	if r.size > 0 {
		return r.size
	}
	return bufSize
}

// newChunk returns a chunk of n bytes or more to read into next; startChunk makes it the
// current one once what is needed of the current one is copied.
func (r *Reader) newChunk(n int) []byte {
	if r.reuse == nil {
		return make([]byte, n)
	}
	return r.reuse.get(n)
}

// startChunk makes c the Reader's chunk. The one before is the pool's to free once its lines
// are all back (NewReaderReusing), and may be written again from then on.
func (r *Reader) startChunk(c []byte) {
	if r.reuse != nil {
		r.reuse.start(c)
	}
	r.chunk = c
}

// LineSum returns the SHA-256 of the last line returned (by Next or ReadLine, without its
// newline: the event's Raw), which the hash chain checks; ok is false when there is none. The sum
// is returned by value, so that the Reader can hash the next chunk's lines into the same memory
// rather than into new memory the collector would free again: an event costs the Reader no
// allocation for its sum, and the caller keeps a copy that nothing writes to.
//
// The lines of a chunk are hashed together the first time one of them is asked for — several
// messages at once go about twice as fast as one at a time (multisha) — so a caller that wants
// the sums should ask for every line's. Nothing is hashed for a caller that never asks.
func (r *Reader) LineSum() (sum [multisha.Size]byte, ok bool) {
	if r.more != nil {
		return r.queuedSum()
	}
	if r.long {
		return r.longSum, true
	}
	if !r.lok {
		return sum, false
	}
	for r.si < len(r.spans) && r.spans[r.si].Off < r.ls {
		r.si++ // lines passed without a sum asked for (blank lines skipped by Next)
	}
	if r.si == len(r.spans) || r.spans[r.si].Off != r.ls {
		// Hash this line and the whole lines after it in the chunk (already read), up to
		// sumBytes of them (a Reader of bytes has the whole file in its one chunk).
		end := r.le
		if k := bytes.LastIndexByte(r.chunk[r.le:min(r.n, r.le+sumBytes)], '\n'); k >= 0 {
			end = r.le + k
		}
		r.spans = multisha.AppendLines(r.spans[:0], r.chunk[r.ls:end])
		// The next group's lines are asked for now, so that they are in the caches when this
		// group is decoded and the next one found and hashed: the file's pages are fresh from
		// memory, and the hardware's own prefetch stops at each 4 KB page.
		prefetch.Bytes(r.chunk[end:min(r.n, end+sumBytes)])
		for i := range r.spans {
			r.spans[i].Off += r.ls
		}
		if len(r.spans) == 0 {
			r.spans = append(r.spans, multisha.Span{Off: r.ls}) // the empty line
		}
		if cap(r.sums) < len(r.spans) {
			r.sums = make([][multisha.Size]byte, len(r.spans))
		}
		r.sums = r.sums[:len(r.spans)]
		multisha.SumMany(r.sums, r.chunk, r.spans)
		r.si = 0
	}
	sum = r.sums[r.si]
	r.si++
	return sum, true
}

// fastCards scans a list of 1 to NumCards cards as Encode writes it (others are left to the
// general walk), carved as cardList's.
func (d *decoder) fastCards(sc *jsonlex.Scan) []cards.Card {
	var buf [cards.NumCards]cards.Card // as cardList's
	n := 0
	sc.OK = sc.Eat('[') && sc.OK
	for more := true; more && sc.OK; more = sc.Eat(',') {
		if n == len(buf) {
			sc.OK = false
			break
		}
		buf[n] = scanCard(sc)
		n++
	}
	if sc.OK = sc.Eat(']') && sc.OK; !sc.OK {
		return nil
	}
	return d.carveCards(buf[:n])
}

// carveCards returns a copy of cs as cardList does.
func (d *decoder) carveCards(cs []cards.Card) []cards.Card {
	return carve(&d.cardLists, 1024, cs, d.pool)
}

// rules reads the rules of hand.started: the preset's name and any overrides, kept raw.
func (d *decoder) rules(l *jsonlex.Lexer, r *Rules) error {
	named := false
	err := l.Object(func(k []byte) error {
		if string(k) == "name" {
			named = true
			s, err := l.Str()
			if err == nil && len(s) == 0 {
				err = errors.New("empty preset name")
			}
			r.Name = d.name(s)
			return at("name", err)
		}
		raw, err := l.Skip()
		if values, fixed := rulesOverrideValues[string(k)]; fixed && err == nil {
			err = fixedValue(raw, values)
		}
		if err == nil {
			r.Overrides = append(r.Overrides, Override{Key: string(k), Value: append([]byte(nil), raw...)})
		}
		return at(string(k), err)
	})
	if err == nil && !named {
		err = &fieldErr{"name", errors.New("missing")}
	}
	return err
}

// fixedValue checks that raw, an override's JSON value, is one of the strings of values.
func fixedValue(raw []byte, values []string) error {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || !slices.Contains(values, s) {
		return fmt.Errorf("%s is not one of %s", raw, strings.Join(values, ", "))
	}
	return nil
}

// uuid reads a UUID.
func uuid(l *jsonlex.Lexer) ([]byte, error) {
	s, ok, err := l.Fixed(36, textform.IsUUID)
	if err == nil && !ok && !textform.IsUUID(s) {
		err = fmt.Errorf("%q is not a UUID", s)
	}
	return s, err
}

// hex64 reads 64 lowercase hex digits, or nothing when empty is set (a prev of seq 1); form names
// them in the message of a fault.
func hex64(l *jsonlex.Lexer, empty bool, form string) ([]byte, error) {
	s, ok, err := l.Fixed(64, textform.IsHex64)
	if err == nil && !ok && !(empty && len(s) == 0) && !textform.IsHex64(s) {
		err = fmt.Errorf("%q is not %s", s, form)
	}
	return s, err
}

// positive reads a whole number from 1.
func positive(l *jsonlex.Lexer) (int64, error) {
	v, err := l.Int()
	if err == nil && v < 1 {
		err = fmt.Errorf("%d is below 1", v)
	}
	return v, err
}

func seatInto(l *jsonlex.Lexer, s *Seat) error {
	v, err := l.Int()
	if err != nil {
		return err
	}
	if v < 1 || v > int64(MaxSeat) {
		return fmt.Errorf("seat %d is outside 1..%d", v, MaxSeat)
	}
	*s = Seat(v)
	return nil
}

func nonNeg(l *jsonlex.Lexer) (int64, error) {
	v, err := l.Int()
	if err == nil && v < 0 {
		err = fmt.Errorf("%d is negative", v)
	}
	return v, err
}

func chipsInto(l *jsonlex.Lexer, c *Chips) error {
	v, err := nonNeg(l)
	*c = Chips(v)
	return err
}

// rankOf and suitOf map a card's characters to its rank (2..14) and suit (1..4, one more than
// cards.Suit); 0 marks any other byte.
var rankOf, suitOf = func() (r, s [256]byte) {
	for i, c := range "23456789TJQKA" {
		r[c] = byte(i + 2)
	}
	for i, c := range "cdhs" {
		s[c] = byte(i + 1)
	}
	return r, s
}()

func cardInto(l *jsonlex.Lexer, c *cards.Card) error {
	sc := jsonlex.Scan{B: l.B, I: l.I, OK: true}
	if *c = scanCard(&sc); sc.OK {
		l.I = sc.I
		return nil
	}
	s, err := l.Str()
	if err != nil {
		return err
	}
	*c, err = cards.Parse(string(s))
	return err
}

// cardList reads a list of cards; the list is never nil.
func (d *decoder) cardList(l *jsonlex.Lexer) ([]cards.Card, error) {
	var buf [cards.NumCards]cards.Card // a reshuffle lists up to a deck
	cs := buf[:0]
	empty, err := l.OpenArray()
	if err != nil {
		return nil, err
	}
	for i, more := 0, !empty; more; i++ {
		var c cards.Card
		if err := cardInto(l, &c); err != nil {
			return nil, at("["+strconv.Itoa(i)+"]", err)
		}
		cs = append(cs, c)
		if more, err = l.NextElem(); err != nil {
			return nil, err
		}
	}
	return d.carveCards(cs), nil
}

// enum reads a string that must be one of allowed, and returns allowed's copy (no allocation).
func enum(l *jsonlex.Lexer, allowed []string) (string, error) {
	s, err := l.Str()
	if err != nil {
		return "", err
	}
	for _, a := range allowed {
		if string(s) == a {
			return a, nil
		}
	}
	return "", fmt.Errorf("%q is not one of %q", s, allowed)
}

// scanSeat reads a seat, 1 to 10 (the byte after it is the scan's next, so it is there).
func scanSeat(s *jsonlex.Scan) Seat {
	b, i := s.B, s.I
	if i+1 >= len(b) || b[i] < '1' || b[i] > '9' {
		s.OK = false
		return 0
	}
	if b[i] == '1' && b[i+1] == '0' {
		s.I += 2
		return 10
	}
	s.I++
	return Seat(b[i] - '0')
}

// scanCard reads a card, "Xy".
func scanCard(s *jsonlex.Scan) cards.Card {
	b, i := s.B, s.I
	s.I += 4
	if i >= 0 && len(b)-i >= 4 && b[i] == '"' && b[i+3] == '"' {
		if r, su := rankOf[b[i+1]], suitOf[b[i+2]]; r != 0 && su != 0 {
			return cards.New(cards.Rank(r), cards.Suit(su-1))
		}
	}
	s.OK = false
	return 0
}
