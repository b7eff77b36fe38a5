// Package idset remembers the event ids of a log, to tell when one is used twice
// (events-v1.md §2: an event's id is its de-duplication key). Its memory is bounded: it holds the
// ids of the last one to two windows, in one table whose check of an id reads one cache line,
// which a caller that knows the id a little ahead asks for beforehand (Prefetch, SeenKeys).
package idset

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"unsafe"

	"github.com/fechado/fechado/internal/prefetch"
)

// Set holds the fingerprints of the ids of two generations: the current one, which takes the new
// ids, and the previous one, dropped when the current one holds the window and a new one starts.
// The zero Set is empty and ready.
//
// The fingerprints are in one table of cache lines (idLine): an id's line is the top bits of its
// fingerprint hashed with the set's seed, drawn when the set is made, so that the ids of a log,
// random, sequential or chosen, spread evenly over the lines, and no one who does not know the
// seed can aim ids at a line. A line holds idLineSlots fingerprints and, in its last word, the
// generation of each (its epoch, 0 for a free slot) and the epoch of the last time an id of the
// line, or of the other line of its pair of 128 bytes (its buddy), did not find room in it. An
// id whose line is full goes to its buddy, which the processor most often brings with the line,
// and when that is full too to over, the map of its generation, both lines then marked: a check
// reads the line, the buddy only when the line is marked with a generation still held, and over
// only when both are. The table holds at most 2 × capacity fingerprints in capacity/2 lines (a
// load of 4/7): with two full generations about one line in twenty overflows into its buddy and
// one fingerprint in 400 goes to over, and chosen ids cannot make it more.
//
// A generation is dropped by counting on: its epoch is no longer one the set holds, so its slots
// are free for the next fingerprints, without a pass over the table. Epochs count generations
// modulo 255; every idSweepTurns turns, the slots of the generations dropped since are emptied,
// long before their epoch comes round again.
//
// The table is made small for the first id and grows fourfold (64 lines, then 256, …) each time
// the current generation fills its capacity, up to a generation of the window: the power of two
// at or above it, 131,072 by default, 4 MB of lines.
type Set struct {
	seed uint64 // mixed into every fingerprint before it is hashed, drawn when the set is made
	made bool
	gen  uint64 // the current generation (the previous is gen-1), from 1
	// cur and prev are the epochs of the current and the previous generation.
	cur, prev uint64
	n         [2]int // fingerprints of the current and previous generations, by generation parity
	lines     []idLine
	// lineShift takes a line from the top bits of the hash: 64 - log2(len(lines)).
	lineShift uint
	capacity  int                    // fingerprints a generation holds before the table grows
	over      [2]map[uint64]struct{} // fingerprints that found their line full, by generation parity
	// ahead holds the last two ids Prefetch was given, and their fingerprints, the older at
	// next: a reader asks for the line of the next id before it checks the current one, whose
	// line it asked for the time before, and Seen then does not read its 32 digits again.
	ahead [2]aheadID
	next  int
}

// aheadID is an id Prefetch was given, and its fingerprint.
type aheadID struct {
	id [36]byte
	k  uint64
	ok bool
}

// idLine is a cache line of the table (64 bytes): idLineSlots fingerprints, then the epochs of
// their generations, one a byte, and in the top byte the epoch of the last overflow.
type idLine [idLineSlots + 1]uint64

const (
	// idLineSlots is the number of fingerprints a line holds.
	idLineSlots = 7
	// idMinCapacity is the capacity of a new table (64 lines).
	idMinCapacity = 128
	// idOverMin is the least room an over map is made with.
	idOverMin = 64
	// idSweepTurns is how often (in turns) the slots of dropped generations are emptied: well
	// within the 253 turns after which an epoch would be met again.
	idSweepTurns = 128
)

// idHash spreads k, mixed with a set's seed, over the whole word (the finaliser of MurmurHash3, a
// bijection): ids that differ in a few digits (sequential test ids) land in unrelated lines. The
// top bits pick a line.
func idHash(k, seed uint64) uint64 {
	h := k ^ seed
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// epoch is the byte that marks the slots of generation g: 1 to 255, never 0 (a free slot).
func epoch(g uint64) uint64 { return g%255 + 1 }

// seen reports whether the set holds the id of fingerprint k and, if it does not, adds it to the
// current generation, which turns over first when it holds window ids.
func (s *Set) seen(k uint64, window int) bool {
	if !s.made {
		s.made, s.seed = true, rand.Uint64()
		s.setGen(1)
	}
	if s.lines == nil {
		s.alloc(min(idMinCapacity, idFullCapacity(window)))
	}
	h := idHash(k, s.seed)
	l := &s.lines[h>>s.lineShift]
	cur, prev := s.cur, s.prev
	if l.has(k, cur, prev) {
		return true
	}
	if e := l[idLineSlots] >> 56; e == cur || e == prev {
		// The line overflowed in a generation held: k may be in its buddy, or, when that is
		// marked too, in over.
		b := s.buddy(h)
		if b.has(k, cur, prev) {
			return true
		}
		if e := b[idLineSlots] >> 56; (e == cur || e == prev) && len(s.over[0])+len(s.over[1]) > 0 && s.inOver(k) {
			return true
		}
	}
	if s.n[s.gen&1] >= window {
		s.turn()
		cur, prev = s.cur, s.prev
	}
	if s.n[s.gen&1] >= s.capacity && s.capacity < idFullCapacity(window) {
		s.grow(window)
		l = &s.lines[h>>s.lineShift]
	}
	s.n[s.gen&1]++
	s.put(l, k, h, cur, prev, s.gen&1)
	return false
}

// has reports whether the line holds k in a slot of epoch cur or prev.
func (l *idLine) has(k, cur, prev uint64) bool {
	for i := range idLineSlots {
		if l[i] == k {
			if e := l[idLineSlots] >> (8 * i) & 0xff; e == cur || e == prev {
				return true
			}
		}
	}
	return false
}

// ones, high and low7 are words of eight bytes: 0x01, 0x80 and 0x7f in each; slotsHigh is high
// in the bytes of a line's epochs of slots.
const (
	ones      = 0x0101010101010101
	high      = 0x8080808080808080
	low7      = 0x7f7f7f7f7f7f7f7f
	slotsHigh = high >> 8
)

// bytesEqual has the high bit of each byte of x equal to b set, and no other bit: a byte of
// x^b·ones is zero exactly when its low 7 bits plus 0x7f do not carry into its high bit (and
// cannot carry further) and its high bit is clear.
func bytesEqual(x, b uint64) uint64 {
	x ^= b * ones
	return ^(x&low7 + low7 | x | low7)
}

// buddy is the other line of the pair of 128 bytes that holds the line of hash h: the line an id
// goes to when its own is full, which the processor most often brings with it.
func (s *Set) buddy(h uint64) *idLine { return &s.lines[h>>s.lineShift^1] }

// inOver reports whether the over map of either generation holds k.
func (s *Set) inOver(k uint64) bool {
	for _, m := range s.over {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// put adds k, of hash h, with epoch e to its line l, in a slot of no generation held (cur or
// prev); when the line has none, it marks the line as overflowed in e and puts k in its buddy,
// or, when that has none either, marks the buddy too and puts k in the over map of parity p. A
// check looks in over only for a line whose buddy is marked as well: most lines that overflow
// find room in their buddy, and their ids are not looked up in a map.
func (s *Set) put(l *idLine, k, h, e, prev, p uint64) {
	cur := s.cur
	if l.take(k, e, cur, prev) {
		return
	}
	l.mark(e, cur, prev)
	b := s.buddy(h)
	if b.take(k, e, cur, prev) {
		return
	}
	b.mark(e, cur, prev)
	if s.over[p] == nil {
		// Sized for what random ids send there at full load, so that it does not grow again
		// (a small table's lines overflow more often: at least idOverMin).
		s.over[p] = make(map[uint64]struct{}, max(s.capacity/64, idOverMin))
	}
	s.over[p][k] = struct{}{}
}

// mark marks l as overflowed in epoch e: the mark keeps the newer of its epoch and e while it is
// held (cur or prev).
func (l *idLine) mark(e, cur, prev uint64) {
	if x := l[idLineSlots] >> 56; x != cur && x != prev || e == cur {
		l[idLineSlots] = l[idLineSlots]&(1<<56-1) | e<<56
	}
}

// take puts k with epoch e in the first slot of l of no generation held (cur or prev), and
// reports whether it had one. The slot is found with word arithmetic on the epochs, without a
// branch that a random line would mispredict.
func (l *idLine) take(k, e, cur, prev uint64) bool {
	meta := l[idLineSlots]
	free := slotsHigh &^ (bytesEqual(meta, cur) | bytesEqual(meta, prev))
	if free == 0 {
		return false
	}
	b := uint(bits.TrailingZeros64(free)) &^ 7 // the bit its epoch starts at
	l[b/8&7] = k
	l[idLineSlots] = meta&^(0xff<<b) | e<<b
	return true
}

// setGen makes g the current generation, with its epochs.
func (s *Set) setGen(g uint64) { s.gen, s.cur, s.prev = g, epoch(g), epoch(g-1) }

// turn starts a new generation: the previous one is dropped, its slots free by their epoch.
func (s *Set) turn() {
	s.setGen(s.gen + 1)
	s.n[s.gen&1] = 0
	clear(s.over[s.gen&1])
	if s.gen%idSweepTurns == 0 {
		s.sweep()
	}
}

// sweep empties the slots, and the overflow marks, of the generations no longer held.
func (s *Set) sweep() {
	cur, prev := s.cur, s.prev
	for i := range s.lines {
		meta := s.lines[i][idLineSlots]
		for b := 0; b < 64; b += 8 {
			if e := meta >> b & 0xff; e != cur && e != prev {
				meta &^= 0xff << b
			}
		}
		s.lines[i][idLineSlots] = meta
	}
}

// alloc gives the set an empty table of capacity fingerprints a generation (a power of two).
func (s *Set) alloc(capacity int) {
	lines := max(capacity/2, 1)
	s.capacity = capacity
	s.lines = makeLines(lines)
	s.lineShift = uint(64 - bits.Len(uint(lines-1)))
}

// Expect makes the table, when the set has none yet, at the size n ids of the window would grow it
// to: a caller that knows its log is long (from the file's size) spares the set the copies of its
// fingerprints into each larger table, and the fresh memory of the tables left behind. More ids
// than n grow the table as before; n of 0 or less changes nothing.
func (s *Set) Expect(n, window int) {
	if s.lines != nil || n <= 0 {
		return
	}
	s.alloc(idFullCapacity(min(n, max(window, 1))))
}

// grow makes the table four times larger, up to the size a generation of window ids needs, and
// puts the fingerprints of both generations in it again, with their epochs.
func (s *Set) grow(window int) {
	old, over := s.lines, s.over
	s.alloc(min(4*s.capacity, idFullCapacity(window)))
	s.over = [2]map[uint64]struct{}{}
	cur, prev := s.cur, s.prev
	add := func(k, e uint64) {
		p := s.gen & 1
		if e == prev {
			p ^= 1
		}
		h := idHash(k, s.seed)
		s.put(&s.lines[h>>s.lineShift], k, h, e, prev, p)
	}
	for i := range old {
		meta := old[i][idLineSlots]
		for j := range idLineSlots {
			if e := meta >> (8 * j) & 0xff; e == cur || e == prev {
				add(old[i][j], e)
			}
		}
	}
	for k := range over[s.gen&1] {
		add(k, cur)
	}
	for k := range over[s.gen&1^1] {
		add(k, prev)
	}
}

// idFullCapacity is the capacity of a generation of window fingerprints: a power of two, at
// least idMinCapacity.
func idFullCapacity(window int) int {
	return max(1<<bits.Len(uint(window-1)), idMinCapacity)
}

// idBudget is the memory the set may take for a window: as much as the two hashed tables the
// first set was, 2 × (2 slots of 8 bytes, and 1 byte of filter, an id) a generation at full size
// (4,456,448 bytes by default). The table takes 32 bytes an id of a generation.
func idBudget(window int) int { return 34 * idFullCapacity(window) }

// bytes is the memory the table holds (the over maps, for ids crowding into a line, are not
// counted: random ids do not reach them).
func (s *Set) bytes() int { return 64 * len(s.lines) }

// idDigit is the value of each hex digit (either case), 0xff for any other byte.
var idDigit = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
		t[c-'a'+'A'] = byte(c-'a') + 10
	}
	return t
}()

// idKey folds a UUID's 32 hex digits (either case) into a 64-bit fingerprint: the two halves of
// its 128 bits XORed. Two distinct ids share a fingerprint with probability about 2^-64 per pair.
// A canonical UUID (8-4-4-4-12 hex digits) is read eight digits at a time (idKeyUUID); anything
// else takes its first 32 hex digits, skipping other bytes (idKeyDigits), which gives a UUID the
// same fingerprint either way.
func idKey(id string) uint64 {
	if len(id) == 36 && id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-' {
		if k, ok := idKeyUUID(id); ok {
			return k
		}
	}
	return idKeyDigits(id)
}

// idKeyUUID is idKey of a UUID, given the dashes are where they belong: the 32 digits as four
// words of eight bytes (the groups 4-4 read as one), each checked and turned into nibbles with
// word arithmetic; ok is false when one is not a hex digit. Packing the nibbles into bits only
// moves bits, so the halves are XORed as nibbles and packed once.
func idKeyUUID(id string) (k uint64, ok bool) {
	le := binary.LittleEndian
	u := unsafe.Slice(unsafe.StringData(id), 36)
	a := le.Uint64(u[:8])                                             // digits 0-7
	b := uint64(le.Uint32(u[9:13])) | uint64(le.Uint32(u[14:18]))<<32 // 8-15
	c := uint64(le.Uint32(u[19:23])) | uint64(le.Uint32(u[24:28]))<<32
	d := le.Uint64(u[28:36])
	if idNotHex(a)|idNotHex(b)|idNotHex(c)|idNotHex(d) != 0 {
		return 0, false
	}
	return idPack8(idNibbles(a)^idNibbles(c))<<32 | idPack8(idNibbles(b)^idNibbles(d)), true
}

// idKeyDigits is idKey digit by digit: the first 32 hex digits of id, other bytes skipped.
func idKeyDigits(id string) uint64 {
	var b [16]byte
	n := 0
	for i := 0; i < len(id) && n < 32; i++ {
		v := idDigit[id[i]]
		if v == 0xff {
			continue
		}
		b[n/2] |= v << (4 * (1 - n%2))
		n++
	}
	return binary.BigEndian.Uint64(b[:8]) ^ binary.BigEndian.Uint64(b[8:])
}

// idNotHex has the high bit of each byte of x that is not a hex digit (either case) set, and is 0
// when all eight are. For a byte below 0x80, adding 0x80-c sets its high bit exactly when it is
// at least c, without a carry into the next byte; a byte from 0x80 up is refused by its own high
// bit (whatever its carry does to the next).
func idNotHex(x uint64) uint64 {
	in := func(x uint64, lo, hi byte) uint64 { return (x + ones*uint64(0x80-lo)) &^ (x + ones*uint64(0x80-hi-1)) }
	return (x | ^(in(x, '0', '9') | in(x|ones*0x20, 'a', 'f'))) & high
}

// idNibbles turns eight hex digits into their values, one a byte: a digit's value is its low 4
// bits, plus 9 for a letter (bit 6 set: 'A' and 'a' end in 1).
func idNibbles(x uint64) uint64 {
	return x&(ones*0x0f) + x>>6&ones*9
}

// idPack8 packs the eight nibbles of x (one a byte, the first in the low byte) into 32 bits, the
// first in the high nibble.
func idPack8(x uint64) uint64 {
	x = bits.ReverseBytes64(x)
	x = (x | x>>4) & 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	return (x | x>>16) & 0xffffffff
}

// Prefetch brings into the CPU's caches the line Seen will read for id, without waiting for it:
// a caller that knows the next id a while before it asks Seen (the next line of a file while it
// judges the current one) lets the cache miss of the check overlap that work. A log streamed
// through the caches evicts the table (4 MB at full size): without this, the line an id needs is
// most often a miss (BENCHMARKS.md, eighteenth session). It keeps id's fingerprint for the
// Seen that most often follows, and changes nothing else in the set.
func (s *Set) Prefetch(id string) {
	if !s.made || s.lines == nil {
		return
	}
	k := idKey(id) // a new id: not one of those kept
	if a := &s.ahead[s.next]; len(id) == len(a.id) {
		copy(a.id[:], id)
		a.k, a.ok = k, true
		s.next ^= 1
	}
	s.prefetchKey(k)
}

// key is the fingerprint of id (idKey): the one Prefetch kept when it was given the same id.
func (s *Set) key(id string) uint64 {
	if len(id) == len(s.ahead[0].id) {
		if a := &s.ahead[s.next]; a.ok && a.is(id) {
			return a.k
		}
		if a := &s.ahead[s.next^1]; a.ok && a.is(id) {
			return a.k
		}
	}
	return idKey(id)
}

// is reports whether id, of 36 bytes, is a's: five words compared at once (the last two overlap).
func (a *aheadID) is(id string) bool {
	le := binary.LittleEndian
	u := unsafe.Slice(unsafe.StringData(id), 36)
	return le.Uint64(u[:8])^le.Uint64(a.id[:8])|le.Uint64(u[8:16])^le.Uint64(a.id[8:16])|
		le.Uint64(u[16:24])^le.Uint64(a.id[16:24])|le.Uint64(u[24:32])^le.Uint64(a.id[24:32])|
		le.Uint64(u[28:36])^le.Uint64(a.id[28:36]) == 0
}

// prefetchKey is Prefetch of the id of fingerprint k.
func (s *Set) prefetchKey(k uint64) {
	if s.lines == nil {
		return
	}
	prefetch.Line(unsafe.Pointer(&s.lines[idHash(k, s.seed)>>s.lineShift]))
}

// Seen reports whether the set holds id and, if it does not, adds it. window is the size of a
// generation: the set remembers the last window to 2×window ids (at least 1).
func (s *Set) Seen(id string, window int) bool {
	return s.seen(s.key(id), max(window, 1))
}

// Key is the fingerprint of an id as the set keeps it (idKey): worked out where the id is read,
// it is checked later by SeenKeys without the id's string.
type Key struct{ k uint64 }

// KeyOf returns the Key of id: Seen(id) and SeenKeys of KeyOf(id) say the same.
func KeyOf(id string) Key { return Key{idKey(id)} }

// keysAhead is how many keys ahead of the one it checks SeenKeys asks for the memory of: far
// enough for a miss (≈ 100 ns) to be over by then, near enough for the lines not to be evicted.
const keysAhead = 8

// SeenKeys is Seen of each key in turn, up to and including the first the set holds: it returns
// that key's index, or len(keys) when it holds none (all are then added). While it checks a key,
// it asks for the line the check of the key keysAhead later reads (Prefetch), so that the cache
// misses of a run of ids overlap each other's work instead of following one another.
func (s *Set) SeenKeys(keys []Key, window int) int {
	window = max(window, 1)
	for i, key := range keys {
		if j := i + keysAhead; j < len(keys) && s.made {
			s.prefetchKey(keys[j].k)
		}
		if s.seen(key.k, window) {
			return i
		}
	}
	return len(keys)
}
