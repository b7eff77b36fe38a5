package idset

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// refIDHi is the first half of the 32 hex digits refIDKey reads: what idKey returns as hi.
func refIDHi(id string) uint64 {
	k := refIDDigits(id)
	return binary.BigEndian.Uint64(k[:8])
}

// uuidOf is the canonical UUID of the 128 bits hi, lo.
func uuidOf(hi, lo uint64) string {
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// checkIDKey holds idKey, and its two ways, to the reference on id.
func checkIDKey(t *testing.T, id string) {
	t.Helper()
	want, wantHi := refIDKey(id), refIDHi(id)
	if k, hi := idKey(id); k != want || hi != wantHi {
		t.Fatalf("idKey(%q) = %#x, %#x; want %#x, %#x", id, k, hi, want, wantHi)
	}
	if k, hi := idKeyDigits(id); k != want || hi != wantHi {
		t.Fatalf("idKeyDigits(%q) = %#x, %#x; want %#x, %#x", id, k, hi, want, wantHi)
	}
	if len(id) == 36 && id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-' {
		_, _, ok := idKeyUUID(id)
		if wantOK := isCanonicalUUID(id); ok != wantOK {
			t.Fatalf("idKeyUUID(%q) ok = %v, want %v", id, ok, wantOK)
		}
	}
}

// isCanonicalUUID is what idKeyUUID accepts: 8-4-4-4-12 hex digits of either case.
func isCanonicalUUID(id string) bool {
	for i := range len(id) {
		c := id[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !strings.ContainsRune("0123456789abcdefABCDEF", rune(c)) {
			return false
		}
	}
	return len(id) == 36
}

// The word-at-a-time reading of a UUID agrees with the digit-by-digit one, and with the
// reference, for every byte value at every position of UUIDs of each case, and for UUIDs a byte
// short or long.
func TestIDKeyEveryByteEveryPosition(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	bases := []string{
		"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
		"FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "0123456789abcdefABCDEF0123456789abcd",
	}
	for range 6 {
		id := uuidOf(r.Uint64(), r.Uint64())
		mixed := []byte(id)
		for i := range mixed {
			if r.IntN(2) == 0 {
				mixed[i] = strings.ToUpper(string(mixed[i]))[0]
			}
		}
		bases = append(bases, id, strings.ToUpper(id), string(mixed))
	}
	for _, base := range bases {
		b := []byte(base)
		for i := range b {
			for v := range 256 {
				b[i] = byte(v)
				checkIDKey(t, string(b))
			}
			b[i] = base[i]
		}
		checkIDKey(t, base[:35])
		checkIDKey(t, base+"0")
		checkIDKey(t, "0"+base[:35])
	}
	// Two bytes wrong at once, at random: a carry from a byte from 0x80 up must not hide the other.
	b := []byte(bases[4])
	for range 200000 {
		i, j := r.IntN(36), r.IntN(36)
		bi, bj := b[i], b[j]
		b[i], b[j] = byte(r.Uint32()), byte(r.Uint32())
		checkIDKey(t, string(b))
		b[i], b[j] = bi, bj
	}
}

// FuzzIDKey holds idKey to the reference on any string: a UUID in any spelling, or anything else.
func FuzzIDKey(f *testing.F) {
	for _, id := range []string{"", "x", "908b5493-a4e9-4345-9095-d4d497820d56", "908B5493-A4E9-4345-9095-D4D497820D56",
		"{908b5493-a4e9-4345-9095-d4d497820d56}", "908b5493a4e943459095d4d497820d56", "908b5493-a4e9-4345-9095-d4d497820d5g",
		"908b5493-a4e9-4345-9095-d4d497820d5\xff", "é8b5493-a4e9-4345-9095-d4d497820d56", "0000000000000000000000000000000000001",
		"01a2272d-2d7e-7369-b3c8-1a15fe68835d"} {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, id string) { checkIDKey(t, id) })
}

// holds reports whether the set holds the id of fingerprint k and first half hi, without
// adding it; it panics when a filter would hide an id its buckets hold.
func (s *Set) holds(k, hi uint64) bool {
	if !s.made {
		return false
	}
	h := idHash(k, s.seed)
	if t, timed := idTimed(hi); timed {
		segs := slices.Clone(s.closed)
		if s.open != nil {
			segs = append(segs, s.open)
		}
		for _, g := range segs {
			if t >= g.lo && t <= g.hi && g.holds(k, h, s.over[g.gen]) {
				return true
			}
		}
		if s.miscTimed[0]+s.miscTimed[1] == 0 {
			return false
		}
	}
	if s.misc.filter == nil {
		return false
	}
	l := &s.misc.filter[h>>s.misc.lineShift]
	m0, m1, m2, m3 := miscBits(h)
	for i := range s.misc.gens {
		in := s.misc.gens[i].has(k, h>>s.misc.bucketShift)
		if in && l[4*i]&m0 != m0 || in && l[4*i+1]&m1 != m1 || in && l[4*i+2]&m2 != m2 || in && l[4*i+3]&m3 != m3 {
			panic(fmt.Sprintf("misc generation %d holds %#x, but its filter bits are not set", i, k))
		}
		if in {
			return true
		}
	}
	return false
}

// holds is has, checking that the filter lets through what the buckets hold.
func (o *idSegment) holds(k, h uint64, over map[uint64]struct{}) bool {
	i := h >> o.bucketShift
	in := slices.Contains(o.keys[int(i)*o.per:][:o.count[i]], k)
	if !in && int(o.count[i]) == o.per {
		_, in = over[k]
	}
	if in && !o.has(k, h, over) {
		panic(fmt.Sprintf("a segment holds %#x, but its filter bits are not set", k))
	}
	return in
}

// checkIDSet checks the invariants of s: each generation counts the ids its segments and misc
// hold; a segment has at most its capacity, each id in the bucket of its hash or, when that is
// full, in over, the filter has exactly its bucket's bits; segments are of one generation, the
// open one of the current, no more than the ids fill plus the spares; misc's buckets and filter
// agree the same way; the cover of times answers as a search of every closed segment does.
func checkIDSet(t *testing.T, s *Set, window int) {
	t.Helper()
	if !s.made {
		return
	}
	var inSegments [2]int
	segments := slices.Clone(s.closed)
	if s.open != nil {
		segments = append(segments, s.open)
		if s.open.gen != s.cur {
			t.Fatalf("the open segment is of generation %d, the current is %d", s.open.gen, s.cur)
		}
	}
	var count [2]int
	least := [2]int{idSegmentIDs, idSegmentIDs} // the smallest capacity of a segment of each generation
	for _, g := range segments {
		count[g.gen]++
		least[g.gen] = min(least[g.gen], g.ids)
		inSegments[g.gen] += g.n
		held := 0
		filter := make([]idLine, len(g.filter))
		for i, c := range g.count {
			held += int(c)
			for _, k := range g.keys[i*g.per:][:c] {
				h := idHash(k, s.seed)
				if h>>g.bucketShift != uint64(i) {
					t.Fatalf("%#x in bucket %d of a segment, not %d", k, i, h>>g.bucketShift)
				}
				b0, b1, b2, b3 := segmentBits(h)
				for _, b := range []uint64{b0, b1, b2, b3} {
					filter[h>>g.lineShift][b>>6] |= 1 << (b & 63)
				}
			}
		}
		if g.n > g.ids || g.lo > g.hi || g.hi-g.lo > idSegmentSpan || held > g.n || held < g.n && len(s.over[g.gen]) == 0 {
			t.Fatalf("a segment of %d ids (capacity %d, %d in buckets), times %d to %d", g.n, g.ids, held, g.lo, g.hi)
		}
		if held == g.n && !reflect.DeepEqual(filter, g.filter) {
			t.Fatal("a segment's filter holds other bits than its ids'")
		}
	}
	inMisc := [2]int{s.misc.gens[0].n, s.misc.gens[1].n}
	for i := range 2 {
		if count[i] != s.segments[i] || inSegments[i]+inMisc[i] != s.n[i] || s.n[i] > window ||
			s.segments[i] > s.n[i]/least[i]+idSpareSegments || s.miscTimed[i] > inMisc[i] {
			t.Fatalf("generation %d: %d segments (counted %d) with %d ids, %d in misc (%d timed), %d counted, window %d",
				i, count[i], s.segments[i], inSegments[i], inMisc[i], s.miscTimed[i], s.n[i], window)
		}
	}
	if s.cover.ok {
		for _, at := range []uint64{s.cover.lo, s.cover.hi, s.cover.lo + (s.cover.hi-s.cover.lo)/2} {
			var want []*idSegment
			for _, g := range s.closed {
				if at >= g.lo && at <= g.hi {
					want = append(want, g)
				}
			}
			if !slices.Equal(want, s.cover.segments) {
				t.Fatalf("the cover of %d to %d holds %d segments, %d have %d in their range", s.cover.lo, s.cover.hi, len(s.cover.segments), len(want), at)
			}
		}
	}
	checkIDMisc(t, &s.misc, window)
}

// checkIDMisc checks that each generation of m holds n fingerprints, each in its bucket or, when
// that is full, in over, and that the filter has exactly their bits.
func checkIDMisc(t *testing.T, m *idMisc, window int) {
	t.Helper()
	if m.filter == nil {
		if m.gens[0].n+m.gens[1].n != 0 {
			t.Fatal("misc counts ids without a filter")
		}
		return
	}
	if m.capacity > idFullCapacity(window) || len(m.filter)*idLineKeys != m.capacity {
		t.Fatalf("misc: capacity %d, %d filter lines, for a window of %d", m.capacity, len(m.filter), window)
	}
	filter := make([]idLine, len(m.filter))
	set := func(i int, k uint64) {
		h := idHash(k, m.seed)
		m0, m1, m2, m3 := miscBits(h)
		l := &filter[h>>m.lineShift]
		l[4*i] |= m0
		l[4*i+1] |= m1
		l[4*i+2] |= m2
		l[4*i+3] |= m3
	}
	for i := range m.gens {
		g := &m.gens[i]
		n := len(g.over)
		for b, c := range g.count {
			n += int(c)
			for _, k := range g.keys[b*g.per:][:c] {
				if h := idHash(k, m.seed); h>>m.bucketShift != uint64(b) {
					t.Fatalf("misc generation %d: %#x in bucket %d, not %d", i, k, b, h>>m.bucketShift)
				}
				set(i, k)
			}
		}
		for k := range g.over {
			if b := idHash(k, m.seed) >> m.bucketShift; int(g.count[b]) != g.per {
				t.Fatalf("misc generation %d: %#x in over while its bucket %d holds %d of %d", i, k, b, g.count[b], g.per)
			}
			set(i, k)
		}
		if n != g.n || n > window {
			t.Fatalf("misc generation %d holds %d fingerprints, counts %d, window %d", i, n, g.n, window)
		}
	}
	if !reflect.DeepEqual(filter, m.filter) {
		t.Fatal("misc's filter holds other bits than the fingerprints'")
	}
}

// untimedHi is a first half of a UUID of version 4 (not timed), from x.
func untimedHi(x uint64) uint64 { return x&^0xf000 | 0x4000 }

// timedHi is the first half of a UUIDv7 of time t and 12 more bits x.
func timedHi(t, x uint64) uint64 { return t<<16 | 0x7000 | x&0xfff }

// Ids that are not of version 7 go to misc: it holds what was added, the fingerprint 0
// included, while it grows fourfold, then to the size of a generation of the window, and for
// one generation more.
func TestIDSetMisc(t *testing.T) {
	var s Set
	if s.holds(0, 0) || s.holds(1, untimedHi(1)) {
		t.Fatal("an empty set holds something")
	}
	keys := []uint64{0, 1, 1 << 63, 0x9e3779b97f4a7c15, ^uint64(0)}
	for i := range uint64(60000) {
		keys = append(keys, i*0x10000+7, ^i<<20)
	}
	for i, k := range keys {
		hi := untimedHi(k * 3)
		if s.seen(k, hi, defaultWindow) {
			t.Fatalf("%#x held before it is added", k)
		}
		if !s.seen(k, hi, defaultWindow) || !s.holds(k, hi) {
			t.Fatalf("%#x lost at once", k)
		}
		want := idMinCapacity
		for want <= i && want < defaultWindow {
			if want *= 4; want > 1<<13 {
				want = defaultWindow
			}
		}
		if s.misc.capacity != want || s.misc.gens[s.cur].n != i+1 || s.open != nil || len(s.closed) != 0 {
			t.Fatalf("after %d ids: capacity %d, want %d; %d held; segments %v %d", i+1, s.misc.capacity, want, s.misc.gens[s.cur].n, s.open, len(s.closed))
		}
		if i%10007 == 0 {
			checkIDSet(t, &s, defaultWindow)
		}
	}
	checkIDSet(t, &s, defaultWindow)
	for _, k := range keys {
		if !s.holds(k, untimedHi(k*3)) {
			t.Fatalf("%#x lost", k)
		}
	}
	if len(s.misc.filter) != defaultWindow/idLineKeys || len(s.misc.gens[0].keys) != 3*defaultWindow/2 {
		t.Fatalf("%d lines, %d bucket slots: want a full generation's", len(s.misc.filter), len(s.misc.gens[0].keys))
	}
	// The generation fills, turns (its ids are still held, in the previous generation), and the
	// next one fills and turns: then they are forgotten.
	r := rand.New(rand.NewPCG(9, 9))
	for s.n[s.cur] < defaultWindow {
		s.seen(r.Uint64(), untimedHi(r.Uint64()), defaultWindow)
	}
	cur := s.cur
	if !s.seen(keys[0], untimedHi(0), defaultWindow) || s.cur != cur {
		t.Fatal("a full generation loses an id, or a duplicate turns it")
	}
	for turn := range 2 {
		if s.seen(r.Uint64(), untimedHi(r.Uint64()), defaultWindow); s.cur == cur || s.n[s.cur] != 1 {
			t.Fatal("the generation does not turn when full")
		}
		cur = s.cur
		checkIDSet(t, &s, defaultWindow)
		for _, k := range keys {
			if s.holds(k, untimedHi(k*3)) != (turn == 0) {
				t.Fatalf("%#x held = %v after %d turns", k, !(turn == 0), turn+1)
			}
		}
		for s.n[s.cur] < defaultWindow {
			s.seen(r.Uint64(), untimedHi(r.Uint64()), defaultWindow)
		}
	}
}

// Ids of version 7 in time order go to segments of idSegmentIDs, none to misc; a jump in time
// or a range grown too wide starts a segment; the ids are held for one generation more.
func TestIDSetSegments(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	var s Set
	type id struct{ k, hi uint64 }
	var ids []id
	at := uint64(0x01a2272d2600)
	add := func(n int, step uint64) {
		for range n {
			at += r.Uint64N(step + 1)
			x := id{r.Uint64(), timedHi(at, r.Uint64())}
			if s.seen(x.k, x.hi, defaultWindow) {
				t.Fatalf("%#x held before it is added", x.k)
			}
			ids = append(ids, x)
		}
	}
	add(3*idSegmentIDs+5, 2000)
	if s.segments[s.cur] != 4 || len(s.closed) != 3 || s.open == nil || s.open.n != 5 || s.misc.filter != nil {
		t.Fatalf("%d ids in order: %d segments, %d closed, misc %v", len(ids), s.segments[s.cur], len(s.closed), s.misc.filter != nil)
	}
	at += idSegmentJump + 1 // a jump forward
	add(1, 0)
	at -= 2*idSegmentJump + 2 // and back, into the range of no segment
	add(1, 0)
	if s.segments[s.cur] != 6 || s.open.n != 1 {
		t.Fatalf("jumps: %d segments, %d ids in the open one", s.segments[s.cur], s.open.n)
	}
	add(1024, idSegmentSpan*3/1024) // a segment grows too wide (1.5 spans) before it is full
	if s.segments[s.cur] != 7 || s.open == nil || s.misc.filter != nil {
		t.Fatalf("wide: %d segments, misc %v", s.segments[s.cur], s.misc.filter != nil)
	}
	// The generation may not start a segment more: the next jump goes to misc.
	at += 2 * idSegmentJump
	add(1, 0)
	if s.segments[s.cur] != 7 || s.open != nil || s.miscTimed[s.cur] != 1 {
		t.Fatalf("a jump past the spares: %d segments, %d timed ids in misc", s.segments[s.cur], s.miscTimed[s.cur])
	}
	checkIDSet(t, &s, defaultWindow)
	for _, x := range ids {
		if !s.holds(x.k, x.hi) || !s.seen(x.k, x.hi, defaultWindow) {
			t.Fatalf("%#x lost", x.k)
		}
		// The same fingerprint at a time far from all, or not timed, is another id (but for the
		// last, in misc, which holds fingerprints only).
		if x != ids[len(ids)-1] && (s.holds(x.k, x.hi+1<<56) || s.holds(x.k, untimedHi(x.hi))) {
			t.Fatalf("%#x held at another time", x.k)
		}
	}
	// Two generations on, in order, they are forgotten, and the segments are reused.
	made := len(s.closed) + 1
	add(2*defaultWindow-len(ids)+1, 2000)
	if s.miscTimed[0]+s.miscTimed[1] != 0 || s.segments[0]+s.segments[1] > 2*defaultWindow/idSegmentIDs+2 {
		t.Fatalf("%d and %d segments, %d and %d timed ids in misc", s.segments[0], s.segments[1], s.miscTimed[0], s.miscTimed[1])
	}
	checkIDSet(t, &s, defaultWindow)
	for _, x := range ids[:100] {
		if s.holds(x.k, x.hi) {
			t.Fatalf("%#x held two generations on", x.k)
		}
	}
	if n := len(s.closed) + 1 + len(s.free); n > made+2*defaultWindow/idSegmentIDs {
		t.Fatalf("%d segments made", n)
	}
}

// Ids of version 7 at random times (as ids made to defeat the segments would be) start a few
// segments, then go to misc: a generation never has more segments than its ids fill plus the
// spares, no time is in the range of more than idMaxCover closed segments plus those that grew
// over it, and every id is found.
func TestIDSetRandomTimes(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	var s Set
	const w = 20000
	type id struct{ k, hi uint64 }
	var ids []id
	for i := range 3 * w {
		x := id{r.Uint64(), timedHi(r.Uint64N(1<<48), r.Uint64())}
		if i%3 == 0 && i > 0 {
			x.hi = timedHi(ids[i-1].hi>>16+r.Uint64N(3*idSegmentJump), r.Uint64()) // near the last
		}
		if s.seen(x.k, x.hi, w) {
			t.Fatalf("%#x held before it is added", x.k)
		}
		ids = append(ids, x)
		if i%997 == 0 {
			checkIDSet(t, &s, w)
		}
	}
	checkIDSet(t, &s, w)
	if s.miscTimed[s.cur] == 0 {
		t.Fatal("no id of random time went to misc")
	}
	for _, x := range ids[len(ids)-w-w/2:] {
		if !s.seen(x.k, x.hi, w) {
			t.Fatalf("%#x lost", x.k)
		}
	}
}

// seededIDSet returns an empty set of the given seed.
func seededIDSet(seed uint64) Set {
	return Set{made: true, seed: seed, misc: idMisc{seed: seed}}
}

// floodKeys returns n distinct fingerprints that a set of the given seed puts in one bucket of
// misc at every size up to that of a generation of window ids (the bucket is the top bits of
// the hash); each is the first half of a UUID of version 4, so that uuidOf(k, 0) has it as its
// fingerprint.
func floodKeys(seed uint64, window, n int, r *rand.Rand) []uint64 {
	var m idMisc
	m.alloc(idFullCapacity(window))
	target := idHash(r.Uint64(), seed) >> m.bucketShift
	var keys []uint64
	for len(keys) < n {
		if k := untimedHi(r.Uint64()); idHash(k, seed)>>m.bucketShift == target {
			keys = append(keys, k)
		}
	}
	return keys
}

// More fingerprints than a bucket holds, all in one bucket, in misc and in a segment: the rest
// go to over, and are found there; a turn empties it.
func TestIDSetFlood(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	const w = 4096
	s := seededIDSet(r.Uint64())
	keys := floodKeys(s.seed, w, 3*idBucketCap, r)
	for _, k := range keys {
		if s.seen(k, untimedHi(k), w) {
			t.Fatalf("%#x held before it is added", k)
		}
	}
	if g := &s.misc.gens[s.cur]; len(g.over) != len(keys)-idBucketCap {
		t.Fatalf("%d fingerprints in over, want %d", len(g.over), len(keys)-idBucketCap)
	}
	// Twice as many ids of version 7 as a bucket of a segment holds, in one bucket: a segment of a
	// window of 4,096 has 64 lines, 32 buckets of 192.
	var seg []uint64
	for len(seg) < 2*192 {
		if k := r.Uint64(); idHash(k, s.seed)>>59 == 5 {
			seg = append(seg, k)
		}
	}
	at := uint64(0x01a2272d2600)
	for i, k := range seg {
		if s.seen(k, timedHi(at+uint64(i), 0), w) {
			t.Fatalf("%#x held before it is added", k)
		}
	}
	if s.open == nil || len(s.open.filter) != 64 || len(s.open.count) != 32 || s.open.per != 192 || len(s.over[s.cur]) != len(seg)/2 {
		t.Fatalf("%d fingerprints in the segments' over, want %d", len(s.over[s.cur]), len(seg)/2)
	}
	checkIDSet(t, &s, w)
	for _, k := range keys {
		if !s.seen(k, untimedHi(k), w) {
			t.Fatalf("%#x lost", k)
		}
	}
	for i, k := range seg {
		if !s.seen(k, timedHi(at+uint64(i), 0), w) {
			t.Fatalf("%#x lost", k)
		}
	}
	for _, k := range floodKeys(s.seed, w, 50, r) {
		if s.holds(k, untimedHi(k)) && !slices.Contains(keys, k) || s.holds(k, timedHi(at, 0)) && !slices.Contains(seg, k) {
			t.Fatalf("%#x held, never added", k)
		}
	}
	for range 2 * w {
		s.seen(r.Uint64(), untimedHi(r.Uint64()), w)
	}
	checkIDSet(t, &s, w)
	if len(s.misc.gens[0].over)+len(s.misc.gens[1].over)+len(s.over[0])+len(s.over[1]) != 0 {
		t.Fatal("over not emptied when its generation is dropped")
	}
	for _, k := range keys {
		if s.holds(k, untimedHi(k)) {
			t.Fatalf("%#x held two generations on", k)
		}
	}
	for i, k := range seg {
		if s.holds(k, timedHi(at+uint64(i), 0)) {
			t.Fatalf("%#x held two generations on", k)
		}
	}
}

// A full generation turns over, however small the window: the set holds the last window to
// 2×window ids, exactly, timed or not.
func TestIDSetWindows(t *testing.T) {
	for _, w := range []int{1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 127, 128, 129, 300, 4096, 5000} {
		for _, timed := range []bool{false, true} {
			var s Set
			var keys, his []uint64
			for i := range 5*w + 7 {
				k := uint64(i+1) * 0x10001
				hi := untimedHi(k)
				if timed {
					hi = timedHi(0x01a2272d2600+uint64(i)*1000, k)
				}
				if s.seen(k, hi, w) {
					t.Fatalf("window %d: %#x held before it is added", w, k)
				}
				keys, his = append(keys, k), append(his, hi)
				// Generations of w ids: the current one started at the last multiple of w, and
				// the set holds it and the one before.
				start := i / w * w
				check := func(j int) {
					if j < 0 || j > i {
						return
					}
					if want := j >= start-w; s.holds(keys[j], his[j]) != want {
						t.Fatalf("window %d, %d ids (timed %v): holds id %d = %v", w, i+1, timed, j, !want)
					}
				}
				if i%w <= 1 || i%w == w-1 || i%(w/3+1) == 0 {
					for j := range i + 1 {
						check(j)
					}
					checkIDSet(t, &s, w)
				} else {
					for _, j := range []int{0, start - w - 1, start - w, start - 1, start, i} {
						check(j)
					}
				}
			}
		}
	}
}

// idStream is a log of n event ids for a window of w, of one kind: new random UUIDs (v4, in
// misc), UUIDv7 in time order, of tables written one after the other (each back to the same
// start), interleaved with jitter, or at random times; some repeated at distances around w and
// 2w (the edges of the window) and a few others, in any spelling (upper case, braces, no dashes),
// with ids that are not UUIDs (empty, short, not hex, not ASCII) and, when flood is set, UUIDs
// whose fingerprints share a bucket of misc.
func idStream(r *rand.Rand, kind string, n, w int, flood []uint64) []string {
	return idStreamOf(r, kind, n, w, flood, true)
}

// idStreamOf is idStream, without repeated and odd ids unless mixed.
func idStreamOf(r *rand.Rand, kind string, n, w int, flood []uint64, mixed bool) []string {
	dists := []int{1, 2, 3, 17, w - 2, w - 1, w, w + 1, w + 2, 2*w - 2, 2*w - 1, 2 * w, 2*w + 1, 2*w + 2, 3 * w}
	odd := []string{"", "x", "-", "{", "0", "g0000000-0000-0000-0000-000000000000", "é", "0123456789abcdef0123456789abcdef",
		"00000000-0000-0000-0000-00000000000", "zz" + strings.Repeat("f", 40)}
	ids := make([]string, 0, n)
	const start = 0x01a2272d2600
	at := uint64(start)
	table := max(w/3, 50)
	for len(ids) < n {
		i := len(ids)
		var id string
		x := r.IntN(100)
		if !mixed {
			x = 99
		}
		switch {
		case x < 8 && i > 0:
			d := dists[r.IntN(len(dists))]
			if d < 1 || d > i {
				continue
			}
			id = ids[i-d]
			switch r.IntN(5) {
			case 0:
				id = strings.ToUpper(id)
			case 1:
				id = "{" + id + "}"
			case 2:
				id = strings.ReplaceAll(id, "-", "")
			}
		case x < 10:
			id = odd[r.IntN(len(odd))]
		case x < 40 && len(flood) > 0:
			id = uuidOf(untimedHi(flood[r.IntN(len(flood))]), 0)
		default:
			lo := r.Uint64()&^(3<<62) | 2<<62
			switch kind {
			case "v4":
				id = uuidOf(untimedHi(r.Uint64()), lo)
			case "ordered":
				at += r.Uint64N(3000)
				id = uuidOf(timedHi(at, r.Uint64()), lo)
			case "tables":
				if i%table == 0 {
					at = start + r.Uint64N(1000)
				}
				at += r.Uint64N(3000)
				id = uuidOf(timedHi(at, r.Uint64()), lo)
			case "jitter":
				at += r.Uint64N(100)
				id = uuidOf(timedHi(at-r.Uint64N(2*idSegmentJump), r.Uint64()), lo)
			case "random":
				id = uuidOf(timedHi(r.Uint64N(1<<48), r.Uint64()), lo)
			default:
				panic(kind)
			}
		}
		ids = append(ids, id)
	}
	return ids
}

// refSet is the set as two Go maps of fingerprints, a generation of window each: the reference
// the differential tests hold Set to.
type refSet struct{ cur, older map[uint64]struct{} }

func (r *refSet) seen(id string, window int) bool {
	k := refIDKey(id)
	_, dup := r.cur[k]
	if !dup {
		_, dup = r.older[k]
	}
	if !dup {
		if r.cur == nil || len(r.cur) >= max(window, 1) {
			r.older, r.cur = r.cur, map[uint64]struct{}{}
		}
		r.cur[k] = struct{}{}
	}
	return dup
}

// checkIDStream checks the ids through s and the reference and wants the same answers; window
// gives the window before each id.
func checkIDStream(t *testing.T, s *Set, ids []string, window func(i int) int) (dups int) {
	t.Helper()
	var ref refSet
	most := 1 // the largest window so far, which bounds what the set holds
	for i, id := range ids {
		w := window(i)
		most = max(most, w)
		got, want := s.Seen(id, w), ref.seen(id, w)
		if got != want {
			t.Fatalf("window %d, id %d %q: Seen = %v, want %v", w, i, id, got, want)
		}
		if got {
			dups++
		}
		if i%50021 == 0 {
			checkIDSet(t, s, most)
		}
	}
	checkIDSet(t, s, most)
	return dups
}

// fixed returns a window function of one window.
func fixed(w int) func(int) int { return func(int) int { return w } }

var idStreamKinds = []string{"v4", "ordered", "tables", "jitter", "random"}

// The set finds the duplicate ids the reference finds, and only those, on id streams of every
// kind with duplicates at every distance around the window's edges, ids in other spellings and
// not UUIDs, for windows from 1 to the default, and when the window changes on the way.
func TestSetMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, kind := range idStreamKinds {
		for _, w := range idWindows() {
			if dups := checkIDStream(t, new(Set), idStream(r, kind, 6*w+200, w, nil), fixed(w)); dups == 0 {
				t.Fatalf("%s, window %d: no duplicate in the stream", kind, w)
			}
		}
		windows := []int{100, 5000, 10, 1, 3, 40000}
		n := idStreamLen()
		checkIDStream(t, new(Set), idStream(r, kind, n, 5000, nil), func(i int) int { return windows[i*len(windows)/n] })
	}
	if testing.Short() {
		return
	}
	for _, kind := range idStreamKinds {
		if dups := checkIDStream(t, new(Set), idStream(r, kind, 4*defaultWindow+defaultWindow/2, defaultWindow, nil), fixed(defaultWindow)); dups < 10000 {
			t.Fatalf("%s, default window: %d duplicates", kind, dups)
		}
	}
}

// A log whose ids crowd into one bucket (more than a bucket holds) is judged as the reference
// judges it.
func TestSetIDFlood(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, w := range []int{4096, defaultWindow} {
		s := seededIDSet(r.Uint64()) // a seed known, to aim at a bucket
		flood := floodKeys(s.seed, w, 4*idBucketCap, r)
		n := 3*w + 1000
		if testing.Short() && w == defaultWindow {
			n = w / 2
		}
		if dups := checkIDStream(t, &s, idStream(r, "ordered", n, w, flood), fixed(w)); dups == 0 {
			t.Fatalf("window %d: no duplicate in the stream", w)
		}
		if len(s.misc.gens[0].over)+len(s.misc.gens[1].over) == 0 && n > 2*w {
			t.Errorf("window %d: the flood did not reach over", w)
		}
	}
}

// Once the id generations have their full size, checking more ids, across turns of the
// generation, allocates nothing, whatever the ids.
func TestSetSteadyStateAllocsDefaultWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, kind := range []string{"v4", "tables"} {
		ids := idStreamOf(r, kind, 3*defaultWindow+3*(defaultWindow/2), defaultWindow, nil, false)
		var s Set
		next := 0
		run := func(n int) {
			for range n {
				if s.Seen(ids[next], defaultWindow) {
					t.Fatalf("id %d held before it is added", next)
				}
				next++
			}
		}
		run(2*defaultWindow + defaultWindow/4) // full size, two turns
		// AllocsPerRun warms up with a first call, then measures the second, which holds the
		// third turn.
		calls, before, after := 0, 0, 0
		n := testing.AllocsPerRun(1, func() {
			if calls++; calls == 2 {
				before = s.cur
			}
			run(defaultWindow / 2)
			after = s.cur
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per %d ids", kind, n, defaultWindow/2)
		}
		if calls != 2 || before == after {
			t.Fatalf("%s: no turn measured", kind)
		}
	}
}

// The set of a full window holds no more memory than the two hashed tables it replaces (2 ×
// (2^18 slots of 8 bytes + a filter of 1/16 of that), 4,456,448 bytes), whatever its ids: a
// segment is made only within that budget (the over maps, for ids crowding into a bucket, are
// not counted: random ids do not reach them). Under -short the kinds are v4 (held in the misc
// table alone), ordered (in segments alone) and tables (in both): jitter and random fill the set
// as tables does, and make test-long runs them.
func TestIDSetMemory(t *testing.T) {
	const before = 2 * (1<<18*8 + 1<<18/16*8)
	r := rand.New(rand.NewPCG(2, 2))
	kinds := idStreamKinds
	if testing.Short() {
		kinds = []string{"v4", "ordered", "tables"}
	}
	for _, kind := range kinds {
		s := new(Set)
		for _, id := range idStreamOf(r, kind, 5*defaultWindow, defaultWindow, nil, false) {
			s.Seen(id, defaultWindow)
		}
		t.Logf("%s: %d bytes, %d segments in use, %d free, misc capacity %d", kind, s.bytes(), len(s.closed), len(s.free), s.misc.capacity)
		if n := s.bytes(); n > before || n > idBudget(defaultWindow) {
			t.Errorf("%s: the set holds %d bytes, more than %d", kind, n, before)
		}
		n := 0
		for _, g := range append(s.closed, s.free...) {
			n += 64*len(g.filter) + len(g.count) + 8*len(g.keys)
		}
		if n += 64*len(s.misc.filter) + 2*(8*len(s.misc.gens[0].keys)+2*len(s.misc.gens[0].count)); s.open != nil {
			n += 64*len(s.open.filter) + len(s.open.count) + 8*len(s.open.keys)
		}
		if n != s.bytes() {
			t.Errorf("%s: the set counts %d bytes, holds %d", kind, s.bytes(), n)
		}
	}
}

// refIDDigits returns the first 32 hex digits of id as 16 bytes, skipping any other byte: the
// plain reading of the id that idKey's fingerprint and its hi half come from.
func refIDDigits(id string) [16]byte {
	var k [16]byte
	n := 0
	for i := 0; i < len(id) && n < 32; i++ {
		c := id[i]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			continue
		}
		k[n/2] |= v << (4 * (1 - n%2))
		n++
	}
	return k
}

func refIDKey(id string) uint64 {
	k := refIDDigits(id)
	return binary.BigEndian.Uint64(k[:8]) ^ binary.BigEndian.Uint64(k[8:])
}

// defaultWindow is the window events.Chain uses (events.DefaultIDWindow).
const defaultWindow = 1 << 17

// The sizes of the heavy loops: without -short (make test-long) the tests check more.

// idStreamLen is the length of TestSetMatchesReference's stream whose window changes.
func idStreamLen() int { return map[bool]int{true: 30000, false: 120000}[testing.Short()] }

// idWindows are the windows TestSetMatchesReference checks streams of.
func idWindows() []int {
	return map[bool][]int{true: {1, 3, 31, 1000, 5000}, false: {1, 2, 3, 10, 31, 100, 1000, 4096, 5000}}[testing.Short()]
}

// Prefetch changes nothing in the set: with the next id prefetched before every Seen (and an id
// prefetched that never comes, and one before the set is made), every answer and the set at the
// end are those of a set of the same seed without it, on streams of every kind.
func TestPrefetchChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	const w = 5000
	for _, kind := range idStreamKinds {
		ids := idStream(r, kind, 6*w+200, w, nil)
		var fresh Set
		fresh.Prefetch(ids[0]) // not made yet: nothing to bring in
		if !reflect.DeepEqual(fresh, Set{}) {
			t.Fatalf("%s: Prefetch on an empty set changed it", kind)
		}
		seed := r.Uint64()
		plain, ahead := seededIDSet(seed), seededIDSet(seed)
		for i, id := range ids {
			if i+1 < len(ids) {
				ahead.Prefetch(ids[i+1])
			}
			ahead.Prefetch("not an id, never seen")
			if got, want := ahead.Seen(id, w), plain.Seen(id, w); got != want {
				t.Fatalf("%s, id %d %q: Seen = %v after Prefetch, %v without", kind, i, id, got, want)
			}
		}
		if !reflect.DeepEqual(ahead, plain) {
			t.Fatalf("%s: the set differs at the end with Prefetch", kind)
		}
	}
}

// SeenKeys of runs of fingerprints says what Seen of the ids one after the other says, and leaves
// the set as they do: on streams of every kind with duplicates at every distance around the
// window's edges, cut into runs of random lengths (a spread audit's files), each run checked again
// from the id after the first one found seen. The prefetches a run asks for ahead change nothing.
func TestSeenKeysMatchesSeen(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	windows := []int{1, 31, 5000}
	if !testing.Short() {
		windows = append(windows, defaultWindow)
	}
	for _, kind := range idStreamKinds {
		for _, w := range windows {
			ids := idStream(r, kind, 4*w+200, w, nil)
			seed := r.Uint64()
			plain, runs := seededIDSet(seed), seededIDSet(seed)
			dups := 0
			for from := 0; from < len(ids); {
				n := min(1+r.IntN(3000), len(ids)-from)
				keys := make([]Key, n)
				for i, id := range ids[from : from+n] {
					keys[i] = KeyOf(id)
				}
				want := n
				for i, id := range ids[from : from+n] {
					if plain.Seen(id, w) {
						want = i
						break
					}
				}
				if got := runs.SeenKeys(keys, w); got != want {
					t.Fatalf("%s, window %d, the run of %d ids at %d: SeenKeys = %d, Seen finds the first seen at %d", kind, w, n, from, got, want)
				}
				if want < n {
					dups++
				}
				from += min(want+1, n)
			}
			if dups == 0 {
				t.Fatalf("%s, window %d: no duplicate in the stream", kind, w)
			}
			if !reflect.DeepEqual(runs, plain) {
				t.Fatalf("%s, window %d: the set differs at the end with SeenKeys", kind, w)
			}
		}
	}
}
