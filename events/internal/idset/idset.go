// Package idset remembers the event ids of a log, to tell when one is used twice
// (events-v1.md §2: an event's id is its de-duplication key). Its memory is bounded: it holds the
// ids of the last one to two windows, and a check costs no trip to memory when the ids come in
// time order, as UUIDv7 ids (which the log format recommends) do.
package idset

import (
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"unsafe"

	"github.com/fechado/fechado/internal/prefetch"
)

// Set holds the two generations of event-id fingerprints: the current one, which takes the new
// ids, and the previous one, dropped when the current one holds the window and a new one starts.
// The zero Set is empty and ready.
//
// A structure hashed on the fingerprint costs a cache miss for every id: nothing large read at
// random stays in the caches while a log streams through them. So the ids of version 7, whose
// first 48 bits are their time in milliseconds, go to segments: up to idSegmentIDs of them,
// consecutive in the log and close in time, with the range of their times, a Bloom filter and
// buckets of fingerprints behind it. An id can only be in a segment whose range holds its time,
// and a new id is looked for in those only: none when the log is in time order; about one a
// generation when the log goes back in time, as a log of tables written one after the other
// does, and then that segment serves many consecutive ids, so its filter stays in cache. An id
// joins the open segment unless its time is far from the segment's (idSegmentJump) or would widen
// it past idSegmentSpan: a new segment then starts. Which closed segments hold a time in their
// range is asked of idCover, which keeps its answer while the times stay between the same ends.
//
// Every other id (not of version 7, or a segment too many) goes to misc, the structure hashed on
// the fingerprint (idMisc), whose filter is asked for an id of version 7 only while misc holds
// some. A generation opens a segment only while it has fewer than one per idSegmentIDs of its ids
// plus idSpareSegments, not at a time already in the range of idMaxCover closed segments (so that
// an id is looked for in a few segments at most, whatever its log: ids of random times end in
// misc), and only within idBudget: segments and misc share it.
//
// Two ids are the same when their fingerprints are equal, except that an id of version 7 is
// compared only with the ids of the segments whose range holds its time and, when it holds some,
// misc's: the same id has the same time, so a duplicate is always found; two distinct ids
// colliding on the fingerprint (2^-64 a pair) are flagged more rarely.
type Set struct {
	seed uint64 // mixed into every fingerprint before it is hashed, drawn when the set is made
	cur  int    // the current generation, 0 or 1
	n    [2]int // ids in each generation
	open *idSegment
	// closed holds the closed segments of both generations, free those of dropped generations,
	// for the next segments.
	closed, free []*idSegment
	segments     [2]int                 // segments of each generation, the open one included
	over         [2]map[uint64]struct{} // ids of each generation whose segment bucket was full
	cover        idCover
	misc         idMisc
	miscTimed    [2]int // ids of version 7 in misc, by generation
	made         bool
}

const (
	// idSegmentIDs is the capacity of a segment (smaller for a window smaller than it).
	idSegmentIDs = 4096
	// idSegmentBucketLines is the number of lines of a segment's filter that share a bucket: 2,
	// for 128 ids a bucket on average when the segment is full. A bucket holds 1.5 times as many,
	// 5.6 standard deviations above: a full bucket sends the rest to over, which random ids
	// reach once in ≈ 18,000 generations (with one line a bucket, once in 7).
	idSegmentBucketLines = 2
	// idSegmentJump is how far in time (ms) an id may be from the range of the open segment and
	// still join it; idSegmentSpan is how wide (ms) a segment's range may grow. A log of tables
	// one after the other goes back in time days at a table's start; a simulated hand spans
	// minutes, a segment (≈ 150 hands) hours.
	idSegmentJump = 1 << 22 // 70 minutes
	idSegmentSpan = 1 << 25 // 9.3 hours
	// idMaxCover is how many closed segments may cover the time of an id before it goes to misc
	// rather than start another segment; idSpareSegments is how many segments a generation may
	// have more than its ids fill.
	idMaxCover      = 4
	idSpareSegments = 4
)

// idSegment is a run of ids of version 7 of one generation, consecutive in the log and close in
// time: a Bloom filter of 512-bit lines, and a bucket of up to per fingerprints behind every
// idSegmentBucketLines of them.
type idSegment struct {
	lo, hi uint64 // the range of the times of its ids
	n, ids int    // ids held, and capacity
	gen    int
	// lineShift and bucketShift take the line and the bucket of an id from the top bits of its
	// hash: 64 - log2(len(filter)), 64 - log2(len(count)).
	lineShift, bucketShift uint
	per                    int
	filter                 []idLine
	count                  []uint8
	keys                   []uint64 // bucket i is keys[i*per : i*per+count[i]]
}

// idLine is a line of a Bloom filter: 512 bits, a cache line.
type idLine [8]uint64

// idHash spreads k, mixed with a set's seed, over the whole word (the finaliser of MurmurHash3, a
// bijection): ids that differ in a few digits (sequential test ids) land in unrelated lines and
// buckets. The top bits pick a line, the low 36 the filter bits.
func idHash(k, seed uint64) uint64 {
	h := k ^ seed
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// idTimed reports whether hi, the first 64 bits of a UUID, is of version 7, and its time.
func idTimed(hi uint64) (t uint64, ok bool) { return hi >> 16, hi>>12&0xf == 7 }

// seen reports whether the set holds the id of fingerprint k and first 64 bits hi and, if it
// does not, adds it to the current generation, which turns over first when it holds window ids.
func (s *Set) seen(k, hi uint64, window int) bool {
	if !s.made {
		s.made, s.seed = true, rand.Uint64()
		s.misc.seed = s.seed
	}
	h := idHash(k, s.seed)
	t, timed := idTimed(hi)
	if timed {
		if o := s.open; o != nil && t >= o.lo && t <= o.hi && o.has(k, h, s.over[o.gen]) {
			return true
		}
		for _, g := range s.cover.at(t, s.closed) {
			if g.has(k, h, s.over[g.gen]) {
				return true
			}
		}
		if s.miscTimed[0]+s.miscTimed[1] > 0 && s.misc.has(k, h) {
			return true
		}
	} else if s.misc.gens[0].n+s.misc.gens[1].n > 0 && s.misc.has(k, h) {
		return true
	}
	if s.n[s.cur] >= window {
		s.turn()
		s.trim(window)
	}
	s.n[s.cur]++
	if timed {
		if s.addTimed(k, h, t, window) {
			return false
		}
		s.miscTimed[s.cur]++
	}
	c := s.misc.capacity
	if s.misc.add(k, h, window); s.misc.capacity != c {
		s.trim(window)
	}
	return false
}

// trim lets go of the free segments past the budget of window (misc grew, or a generation of
// segments was dropped while misc holds the room).
func (s *Set) trim(window int) {
	for len(s.free) > 0 && s.bytes() > idBudget(window) {
		s.free[len(s.free)-1] = nil
		s.free = s.free[:len(s.free)-1]
	}
}

// bytes is the memory the set holds: its segments (free ones too) and misc.
func (s *Set) bytes() int {
	n := s.segmentsBytes(s.closed) + s.segmentsBytes(s.free) + s.misc.bytes()
	if s.open != nil {
		n += segmentBytes(len(s.open.filter), len(s.open.count), s.open.per)
	}
	return n
}

// segmentsBytes is the memory of the segments.
func (s *Set) segmentsBytes(segments []*idSegment) int {
	n := 0
	for _, g := range segments {
		n += segmentBytes(len(g.filter), len(g.count), g.per)
	}
	return n
}

// addTimed adds an id of version 7 and time t to the open segment, or to a new one; false when
// it goes to misc.
func (s *Set) addTimed(k, h, t uint64, window int) bool {
	if o := s.open; o != nil {
		lo, hi := min(o.lo, t), max(o.hi, t)
		if o.n < o.ids && hi-lo <= idSegmentSpan && t+idSegmentJump >= o.lo && t <= o.hi+idSegmentJump {
			o.lo, o.hi = lo, hi
			o.add(k, h, s)
			return true
		}
		s.closed = append(s.closed, o)
		s.open = nil
		s.cover.ok = false
	}
	ids := min(idSegmentIDs, idFullCapacity(window))
	if s.segments[s.cur] >= s.n[s.cur]/ids+idSpareSegments || len(s.cover.at(t, s.closed)) >= idMaxCover {
		return false
	}
	o := s.newSegment(ids, window)
	if o == nil {
		return false
	}
	o.lo, o.hi = t, t
	o.add(k, h, s)
	return true
}

// newSegment returns an empty segment of the current generation, of capacity ids, or nil when
// making one would take the set past idBudget.
func (s *Set) newSegment(ids, window int) *idSegment {
	var o *idSegment
	for len(s.free) > 0 && o == nil {
		o = s.free[len(s.free)-1]
		s.free[len(s.free)-1] = nil
		s.free = s.free[:len(s.free)-1]
		if o.ids != ids {
			o = nil // made for another window
		}
	}
	if o == nil {
		lines := max(ids*8/512, 1)
		buckets := max(lines/idSegmentBucketLines, 1)
		per := ids * 3 / 2 / buckets // at most 192: a uint8 counts it
		if s.bytes()+segmentBytes(lines, buckets, per) > idBudget(window) {
			return nil
		}
		o = &idSegment{ids: ids, filter: make([]idLine, lines), count: make([]uint8, buckets), per: per}
		o.lineShift = uint(64 - bits.Len(uint(lines-1)))
		o.bucketShift = uint(64 - bits.Len(uint(buckets-1)))
		o.keys = make([]uint64, buckets*per)
	} else {
		clear(o.filter)
		clear(o.count)
	}
	o.n, o.gen = 0, s.cur
	s.segments[s.cur]++
	s.open = o
	return o
}

// segmentBits are the 4 bits an id of hash h sets in its line of a segment's filter: 9 bits of
// h each, the word and the bit in it.
func segmentBits(h uint64) (b0, b1, b2, b3 uint64) {
	return h & 511, h >> 9 & 511, h >> 18 & 511, h >> 27 & 511
}

// has reports whether the segment holds k, of hash h; over is its generation's.
func (o *idSegment) has(k, h uint64, over map[uint64]struct{}) bool {
	l := &o.filter[h>>o.lineShift]
	b0, b1, b2, b3 := segmentBits(h)
	if l[b0>>6]>>(b0&63)&(l[b1>>6]>>(b1&63))&(l[b2>>6]>>(b2&63))&(l[b3>>6]>>(b3&63))&1 == 0 {
		return false
	}
	i := h >> o.bucketShift
	n := int(o.count[i])
	for _, x := range o.keys[int(i)*o.per:][:n] {
		if x == k {
			return true
		}
	}
	if n == o.per {
		_, ok := over[k]
		return ok
	}
	return false
}

// add puts k, of hash h, in the segment (its bucket, or over when the bucket is full).
func (o *idSegment) add(k, h uint64, s *Set) {
	o.n++
	l := &o.filter[h>>o.lineShift]
	b0, b1, b2, b3 := segmentBits(h)
	l[b0>>6] |= 1 << (b0 & 63)
	l[b1>>6] |= 1 << (b1 & 63)
	l[b2>>6] |= 1 << (b2 & 63)
	l[b3>>6] |= 1 << (b3 & 63)
	i := h >> o.bucketShift
	if n := int(o.count[i]); n < o.per {
		o.keys[int(i)*o.per+n] = k
		o.count[i]++
		return
	}
	if s.over[o.gen] == nil {
		s.over[o.gen] = map[uint64]struct{}{}
	}
	s.over[o.gen][k] = struct{}{}
}

// turn starts a new generation: the previous one is dropped, its segments freed for the next.
func (s *Set) turn() {
	if s.open != nil {
		s.closed = append(s.closed, s.open)
		s.open = nil
	}
	s.cur = 1 - s.cur
	kept := s.closed[:0]
	for _, g := range s.closed {
		if g.gen == s.cur {
			s.free = append(s.free, g)
		} else {
			kept = append(kept, g)
		}
	}
	clear(s.closed[len(kept):])
	s.closed = kept
	s.cover.ok = false
	s.n[s.cur], s.segments[s.cur], s.miscTimed[s.cur] = 0, 0, 0
	clear(s.over[s.cur])
	s.misc.turn(s.cur)
}

// idCover answers which closed segments have a time in their range, and remembers the answer
// for the times between the same ends of ranges: consecutive ids, close in time, mostly ask
// about times in the same interval.
type idCover struct {
	lo, hi   uint64 // the times the answer holds for
	segments []*idSegment
	ok       bool // false when closed changed since
}

// at returns the segments of closed whose range holds t.
func (c *idCover) at(t uint64, closed []*idSegment) []*idSegment {
	if c.ok && t >= c.lo && t <= c.hi {
		return c.segments
	}
	c.lo, c.hi, c.segments, c.ok = 0, math.MaxUint64, c.segments[:0], true
	for _, g := range closed {
		switch {
		case t < g.lo:
			c.hi = min(c.hi, g.lo-1)
		case t > g.hi:
			c.lo = max(c.lo, g.hi+1)
		default:
			c.segments = append(c.segments, g)
			c.lo, c.hi = max(c.lo, g.lo), min(c.hi, g.hi)
		}
	}
	return c.segments
}

// idMisc holds the ids that are not in segments, both generations, hashed on their fingerprint:
// a blocked Bloom filter answers for most ids, one cache line (filter[i], 64 bytes) per
// fingerprint, whose first half holds generation 0's bits and the second generation 1's, so that
// both generations are asked, and the current one told, with one line — 8 bits a fingerprint at
// full size, 4 set, one in each word of the half: a full generation lets ≈ 2.7% of new ids
// through, the current one 0.7% on average. Behind it, each generation keeps its fingerprints in
// buckets, one for every idBucketLines lines of the filter, of capacity idBucketCap; the
// fingerprints a full bucket cannot take go to the map over of the generation, which random ids
// do not reach (the seed keeps ids from being chosen to).
//
// It is made for the first id it takes, small, and grows fourfold (4 filter lines, then 16, …)
// each time the current generation fills its capacity, past 8,192 to a generation of the window
// (the power of two at or above it, 131,072 by default: 256 KB of filter, 2 × 1.5 MB of buckets).
type idMisc struct {
	filter []idLine
	gens   [2]idGen
	cur    int    // the current generation: its bits are filter[i][4*cur : 4*cur+4]
	seed   uint64 // the set's
	// lineShift and bucketShift take a filter line and a bucket from the top bits of the hash.
	lineShift, bucketShift uint
	capacity               int // fingerprints a generation holds before the set grows
}

// idGen is a generation of fingerprints of idMisc, in buckets of capacity per.
type idGen struct {
	keys  []uint64 // bucket b is keys[b*per : b*per+count[b]]
	count []uint16
	per   int
	n     int                 // fingerprints held
	over  map[uint64]struct{} // fingerprints of full buckets
}

const (
	// idLineKeys is the number of fingerprints of a generation per filter line of idMisc at
	// capacity: 256 bits of the line for 32 of them, 8 bits each.
	idLineKeys = 32
	// idBucketLines is the number of filter lines that share a bucket.
	idBucketLines = 4
	// idBucketCap is the capacity of a bucket: 1.5 times the fingerprints it holds on average
	// when the generation is at capacity (128 by default; 192 is 5.6 standard deviations above).
	idBucketCap = 3 * idLineKeys * idBucketLines / 2
	// idMinCapacity is the capacity of a new idMisc (4 filter lines).
	idMinCapacity = 4 * idLineKeys
)

// miscBits are the 4 bits an id of hash h sets in the half of its line of idMisc's filter, one
// in each word.
func miscBits(h uint64) (m0, m1, m2, m3 uint64) {
	return 1 << (h & 63), 1 << (h >> 6 & 63), 1 << (h >> 12 & 63), 1 << (h >> 18 & 63)
}

// has reports whether either generation holds k, of hash h.
func (m *idMisc) has(k, h uint64) bool {
	if m.filter == nil {
		return false
	}
	m0, m1, m2, m3 := miscBits(h)
	l := &m.filter[h>>m.lineShift]
	b := h >> m.bucketShift
	// A generation may hold k when its 4 bits are all set.
	return ^l[0]&m0|^l[1]&m1|^l[2]&m2|^l[3]&m3 == 0 && m.gens[0].has(k, b) ||
		^l[4]&m0|^l[5]&m1|^l[6]&m2|^l[7]&m3 == 0 && m.gens[1].has(k, b)
}

// add puts k, of hash h, which it does not hold, in the current generation, growing first when
// the generation is at capacity and smaller than one of window ids.
func (m *idMisc) add(k, h uint64, window int) {
	if m.filter == nil {
		m.alloc(min(idMinCapacity, idFullCapacity(window)))
	}
	if g := &m.gens[m.cur]; g.n >= m.capacity && m.capacity < idFullCapacity(window) {
		m.grow(window)
	}
	m.put(m.cur, k, h)
}

// put adds k, of hash h, to generation i, in its bucket and the filter.
func (m *idMisc) put(i int, k, h uint64) {
	m0, m1, m2, m3 := miscBits(h)
	c := i & 1 * 4
	l := &m.filter[h>>m.lineShift]
	l[c] |= m0
	l[c+1] |= m1
	l[c+2] |= m2
	l[c+3] |= m3
	m.gens[i].add(k, h>>m.bucketShift)
}

// has reports whether the generation holds k, whose bucket is b.
func (g *idGen) has(k, b uint64) bool {
	start := int(b) * g.per
	n := int(g.count[b])
	for _, x := range g.keys[start : start+n] {
		if x == k {
			return true
		}
	}
	if n == g.per && g.over != nil {
		_, ok := g.over[k]
		return ok
	}
	return false
}

// add puts k, which the generation does not hold, in its bucket b.
func (g *idGen) add(k, b uint64) {
	g.n++
	if n := int(g.count[b]); n < g.per {
		g.keys[int(b)*g.per+n] = k
		g.count[b]++
		return
	}
	if g.over == nil {
		g.over = map[uint64]struct{}{}
	}
	g.over[k] = struct{}{}
}

// turn makes generation cur the current one, empty: the one it held is dropped, its memory kept.
func (m *idMisc) turn(cur int) {
	m.cur = cur
	if m.filter == nil {
		return
	}
	g := &m.gens[cur]
	clear(g.count)
	clear(g.over)
	g.n = 0
	c := cur * 4
	for i := range m.filter {
		m.filter[i][c], m.filter[i][c+1], m.filter[i][c+2], m.filter[i][c+3] = 0, 0, 0, 0
	}
}

// idFullCapacity is the capacity of a generation of window fingerprints: a power of two, at
// least one filter line.
func idFullCapacity(window int) int {
	return max(1<<bits.Len(uint(window-1)), idLineKeys)
}

// idBudget is the memory the set may take for a window: as much as the two hashed tables it
// replaces took, 2 × (2 slots of 8 bytes, and 1 byte of filter, an id) a generation at full size
// (4,456,448 bytes by default).
func idBudget(window int) int { return 34 * idFullCapacity(window) }

// segmentBytes is the memory of a segment of lines filter lines and buckets of per ids.
func segmentBytes(lines, buckets, per int) int { return 64*lines + buckets*(1+8*per) }

// bytes is the memory of idMisc's filter and buckets.
func (m *idMisc) bytes() int {
	return 64*len(m.filter) + 2*(8*len(m.gens[0].keys)+2*len(m.gens[0].count))
}

// alloc gives idMisc the filter and buckets of capacity fingerprints a generation (a power of
// two), empty.
func (m *idMisc) alloc(capacity int) {
	lines := capacity / idLineKeys
	buckets := max(lines/idBucketLines, 1)
	m.capacity = capacity
	m.filter = make([]idLine, lines)
	m.lineShift = uint(64 - bits.Len(uint(lines-1)))
	m.bucketShift = uint(64 - bits.Len(uint(buckets-1)))
	per := min(3*capacity/buckets/2, math.MaxUint16)
	for i := range m.gens {
		m.gens[i] = idGen{keys: make([]uint64, buckets*per), count: make([]uint16, buckets), per: per}
	}
}

// grow makes idMisc four times larger up to a capacity of 8,192, then as large as a generation
// of window ids needs, and adds the fingerprints of both generations again.
func (m *idMisc) grow(window int) {
	old := m.gens
	capacity := 4 * m.capacity
	if capacity > 1<<13 {
		capacity = idFullCapacity(window)
	}
	m.alloc(min(capacity, idFullCapacity(window)))
	for i := range old {
		for b, n := range old[i].count {
			for _, k := range old[i].keys[b*old[i].per:][:n] {
				m.put(i, k, idHash(k, m.seed))
			}
		}
		for k := range old[i].over {
			m.put(i, k, idHash(k, m.seed))
		}
	}
}

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

// Seen reports whether the set holds id and, if it does not, adds it. window is the size of a
// generation: the set remembers the last window to 2×window ids (at least 1).
func (s *Set) Seen(id string, window int) bool {
	k, hi := idKey(id)
	return s.seen(k, hi, max(window, 1))
}

// idKey folds a UUID's 32 hex digits (either case) into a 64-bit fingerprint k: the two halves of
// its 128 bits XORed. Two distinct ids share a fingerprint with probability about 2^-64 per pair.
// hi is the first half, whose version and time (of a UUIDv7) place the id in the set. A
// canonical UUID (8-4-4-4-12 hex digits) is read eight digits at a time (idKeyUUID); anything
// else takes its first 32 hex digits, skipping other bytes (idKeyDigits), which gives a UUID the
// same fingerprint either way.
func idKey(id string) (k, hi uint64) {
	if len(id) == 36 && id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-' {
		if k, hi, ok := idKeyUUID(id); ok {
			return k, hi
		}
	}
	return idKeyDigits(id)
}

// idKeyUUID is idKey of a UUID, given the dashes are where they belong: the 32 digits as four
// words of eight bytes (the groups 4-4 read as one), each checked and turned into nibbles with
// word arithmetic; ok is false when one is not a hex digit.
func idKeyUUID(id string) (k, hi uint64, ok bool) {
	le := binary.LittleEndian
	a := le.Uint64([]byte(id[:8]))                                                      // digits 0-7
	b := uint64(le.Uint32([]byte(id[9:13]))) | uint64(le.Uint32([]byte(id[14:18])))<<32 // 8-15
	c := uint64(le.Uint32([]byte(id[19:23]))) | uint64(le.Uint32([]byte(id[24:28])))<<32
	d := le.Uint64([]byte(id[28:36]))
	if idNotHex(a)|idNotHex(b)|idNotHex(c)|idNotHex(d) != 0 {
		return 0, 0, false
	}
	hi = idPack8(idNibbles(a))<<32 | idPack8(idNibbles(b))
	return hi ^ (idPack8(idNibbles(c))<<32 | idPack8(idNibbles(d))), hi, true
}

// idKeyDigits is idKey digit by digit: the first 32 hex digits of id, other bytes skipped.
func idKeyDigits(id string) (k, hi uint64) {
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
	hi = binary.BigEndian.Uint64(b[:8])
	return hi ^ binary.BigEndian.Uint64(b[8:]), hi
}

// ones and high are words of eight bytes: 0x01 and 0x80 in each.
const (
	ones = 0x0101010101010101
	high = 0x8080808080808080
)

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

// Prefetch brings into the CPU's caches the memory Seen will read for id, without waiting for
// it: a caller that knows the next id a while before it asks Seen (the next line of a file
// while it judges the current one) lets the cache misses of the lookup overlap that work. The
// misc filter is 256 KB at full size, and a log streamed through the caches evicts it: without
// this, the line an id of misc needs is most often a miss (BENCHMARKS.md, eighteenth session).
// It changes nothing in the set.
func (s *Set) Prefetch(id string) {
	if !s.made {
		return
	}
	k, hi := idKey(id)
	s.prefetchKey(k, hi)
}

// prefetchKey is Prefetch of the id of fingerprint k and first 64 bits hi.
func (s *Set) prefetchKey(k, hi uint64) {
	if !s.made {
		return
	}
	h := idHash(k, s.seed)
	if m := &s.misc; m.filter != nil {
		prefetch.Line(unsafe.Pointer(&m.filter[h>>m.lineShift]))
		// The slot of its bucket an add writes to (the counts, 2 KB, stay in the caches).
		g := &m.gens[m.cur]
		b := h >> m.bucketShift
		if n := int(g.count[b]); n < g.per {
			prefetch.Line(unsafe.Pointer(&g.keys[int(b)*g.per+n]))
		}
	}
	if t, timed := idTimed(hi); timed {
		if o := s.open; o != nil && t >= o.lo && t <= o.hi {
			prefetch.Line(unsafe.Pointer(&o.filter[h>>o.lineShift]))
		}
	}
}

// Key is the fingerprint of an id as the set keeps it (idKey): worked out where the id is read,
// it is checked later by SeenKeys without the id's string.
type Key struct{ k, hi uint64 }

// KeyOf returns the Key of id: Seen(id) and SeenKeys of KeyOf(id) say the same.
func KeyOf(id string) Key {
	k, hi := idKey(id)
	return Key{k, hi}
}

// keysAhead is how many keys ahead of the one it checks SeenKeys asks for the memory of: far
// enough for a miss (≈ 100 ns) to be over by then, near enough for the lines not to be evicted.
const keysAhead = 8

// SeenKeys is Seen of each key in turn, up to and including the first the set holds: it returns
// that key's index, or len(keys) when it holds none (all are then added). While it checks a key,
// it asks for the memory the check of the key keysAhead later reads (Prefetch), so that the cache
// misses of a run of ids overlap each other's work instead of following one another.
func (s *Set) SeenKeys(keys []Key, window int) int {
	window = max(window, 1)
	for i, key := range keys {
		if j := i + keysAhead; j < len(keys) {
			s.prefetchKey(keys[j].k, keys[j].hi)
		}
		if s.seen(key.k, key.hi, window) {
			return i
		}
	}
	return len(keys)
}
