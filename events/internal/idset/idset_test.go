package idset

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// uuidOf is the canonical UUID of the 128 bits hi, lo.
func uuidOf(hi, lo uint64) string {
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// checkIDKey holds idKey, and its two ways, to the reference on id.
func checkIDKey(t *testing.T, id string) {
	t.Helper()
	want := refIDKey(id)
	if k := idKey(id); k != want {
		t.Fatalf("idKey(%q) = %#x; want %#x", id, k, want)
	}
	if k := idKeyDigits(id); k != want {
		t.Fatalf("idKeyDigits(%q) = %#x; want %#x", id, k, want)
	}
	if len(id) == 36 && id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-' {
		_, ok := idKeyUUID(id)
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

// holds reports whether the set holds the id of fingerprint k, without adding it: in a slot of
// its line of a generation held or, when the line is marked as overflowed in one, of its buddy, or
// in over; it panics when k is held where its line's mark would not let a check find it.
func (s *Set) holds(k uint64) bool {
	if !s.made || s.lines == nil {
		return false
	}
	h := idHash(k, s.seed)
	l := &s.lines[h>>s.lineShift]
	cur, prev := epoch(s.gen), epoch(s.gen-1)
	for i := range idLineSlots {
		if e := l[idLineSlots] >> (8 * i) & 0xff; l[i] == k && (e == cur || e == prev) {
			return true
		}
	}
	b := &s.lines[h>>s.lineShift^1]
	for i := range idLineSlots {
		if e := b[idLineSlots] >> (8 * i) & 0xff; b[i] == k && (e == cur || e == prev) {
			if e := l[idLineSlots] >> 56; e != cur && e != prev {
				panic(fmt.Sprintf("the buddy line holds %#x, but its line is not marked", k))
			}
			return true
		}
	}
	_, inCur := s.over[s.gen&1][k]
	_, inPrev := s.over[s.gen&1^1][k]
	for _, l := range []*idLine{l, b} {
		if e := l[idLineSlots] >> 56; (inCur || inPrev) && e != cur && e != prev {
			panic(fmt.Sprintf("over holds %#x, but its line or its buddy is not marked", k))
		}
	}
	return inCur || inPrev
}

// checkIDSet checks the invariants of s: each generation counts the fingerprints its slots and
// its over map hold, no more than its capacity and the window; each fingerprint is in its own
// line or, when that is marked as overflowed in a generation held, its buddy, once; a fingerprint
// is in over only when its line is marked;
// no slot has an epoch that could come round again before a sweep; the table is the size of its
// capacity, within the budget of the window.
func checkIDSet(t *testing.T, s *Set, window int) {
	t.Helper()
	if !s.made || s.lines == nil {
		return
	}
	if s.capacity > idFullCapacity(window) || len(s.lines) != s.capacity/2 || s.bytes() > idBudget(window) {
		t.Fatalf("capacity %d, %d lines, %d bytes, for a window of %d", s.capacity, len(s.lines), s.bytes(), window)
	}
	cur, prev := epoch(s.gen), epoch(s.gen-1)
	var n [2]int
	seen := map[uint64]bool{}
	for i := range s.lines {
		l := &s.lines[i]
		for j := range idLineSlots {
			e := l[idLineSlots] >> (8 * j) & 0xff
			if e == 0 {
				continue
			}
			// A slot's generation is one of the last idSweepTurns+1 (the sweep empties older).
			if age := (cur + 255 - e) % 255; age > idSweepTurns+1 {
				t.Fatalf("line %d slot %d: epoch %d, %d generations old, at generation %d", i, j, e, age, s.gen)
			}
			if e != cur && e != prev {
				continue
			}
			k := l[j]
			home := idHash(k, s.seed) >> s.lineShift
			if mark := s.lines[home][idLineSlots] >> 56; home != uint64(i) && (home != uint64(i^1) || mark != cur && mark != prev) || seen[k] {
				t.Fatalf("%#x in line %d (its line %d, marked %d), twice: %v", k, i, home, mark, seen[k])
			}
			seen[k] = true
			p := s.gen & 1
			if e == prev {
				p ^= 1
			}
			n[p]++
		}
	}
	for p, m := range s.over {
		for k := range m {
			home := idHash(k, s.seed) >> s.lineShift
			e, b := s.lines[home][idLineSlots]>>56, s.lines[home^1][idLineSlots]>>56
			if e != cur && e != prev || b != cur && b != prev || seen[k] {
				t.Fatalf("%#x in over, its line marked %d and its buddy %d (held %d, %d), in a slot too: %v", k, e, b, cur, prev, seen[k])
			}
			seen[k] = true
			n[p]++
		}
	}
	for p := range 2 {
		if n[p] != s.n[p] || s.n[p] > max(window, s.capacity) || s.n[p] > s.capacity {
			t.Fatalf("generation parity %d holds %d fingerprints, counts %d; window %d, capacity %d", p, n[p], s.n[p], window, s.capacity)
		}
	}
}

// The table holds what was added, the fingerprint 0 included, while it grows fourfold, then to
// the size of a generation of the window, and for one generation more.
func TestIDSetGrows(t *testing.T) {
	var s Set
	if s.holds(0) || s.holds(1) {
		t.Fatal("an empty set holds something")
	}
	keys := []uint64{0, 1, 1 << 63, 0x9e3779b97f4a7c15, ^uint64(0)}
	for i := range uint64(60000) {
		keys = append(keys, i*0x10000+7, ^i<<20)
	}
	for i, k := range keys {
		if s.seen(k, defaultWindow) {
			t.Fatalf("%#x held before it is added", k)
		}
		if !s.seen(k, defaultWindow) || !s.holds(k) {
			t.Fatalf("%#x lost at once", k)
		}
		want := idMinCapacity
		for want <= i {
			want *= 4
		}
		if s.capacity != min(want, defaultWindow) || s.n[s.gen&1] != i+1 {
			t.Fatalf("after %d ids: capacity %d, want %d; %d held", i+1, s.capacity, want, s.n[s.gen&1])
		}
		if i%10007 == 0 {
			checkIDSet(t, &s, defaultWindow)
		}
	}
	checkIDSet(t, &s, defaultWindow)
	for _, k := range keys {
		if !s.holds(k) {
			t.Fatalf("%#x lost", k)
		}
	}
	if len(s.lines) != defaultWindow/2 || s.bytes() != 4<<20 {
		t.Fatalf("%d lines, %d bytes: want a full generation's", len(s.lines), s.bytes())
	}
	// The generation fills, turns (its ids are still held, in the previous generation), and the
	// next one fills and turns: then they are forgotten.
	r := rand.New(rand.NewPCG(9, 9))
	for s.n[s.gen&1] < defaultWindow {
		s.seen(r.Uint64(), defaultWindow)
	}
	gen := s.gen
	if !s.seen(keys[0], defaultWindow) || s.gen != gen {
		t.Fatal("a full generation loses an id, or a duplicate turns it")
	}
	for turn := range 2 {
		if s.seen(r.Uint64(), defaultWindow); s.gen != gen+1 || s.n[s.gen&1] != 1 {
			t.Fatal("the generation does not turn when full")
		}
		gen = s.gen
		checkIDSet(t, &s, defaultWindow)
		for _, k := range keys {
			if s.holds(k) != (turn == 0) {
				t.Fatalf("%#x held = %v after %d turns", k, !(turn == 0), turn+1)
			}
		}
		for s.n[s.gen&1] < defaultWindow {
			s.seen(r.Uint64(), defaultWindow)
		}
	}
}

// Epochs count generations modulo 255: over a thousand turns of a small window, with the sweep
// every idSweepTurns, an id is held exactly while its generation or the next is current, never
// again when its epoch comes round (ids repeated 254, 255 and 256 generations later), and no slot
// keeps an epoch old enough to come round.
func TestIDSetEpochsComeRound(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	for _, w := range []int{1, 3, 7} {
		var s Set
		var ref refSet
		var ids []uint64
		for i := range 1100 * w {
			k := r.Uint64()
			switch x := r.IntN(10); {
			case x < 3 && i >= 256*w:
				k = ids[i-(254+r.IntN(3))*w-r.IntN(w)]
			case x < 5 && i > 2*w:
				k = ids[i-1-r.IntN(2*w+1)]
			}
			ids = append(ids, k)
			if got, want := s.seen(k, w), ref.seenKey(k, w); got != want {
				t.Fatalf("window %d, id %d (generation %d): seen = %v, want %v", w, i, s.gen, got, want)
			}
			if i%(37*w) == 0 {
				checkIDSet(t, &s, w)
			}
		}
		checkIDSet(t, &s, w)
		if s.gen < 3*idSweepTurns {
			t.Fatalf("window %d: %d generations", w, s.gen)
		}
	}
}

// untimedHi is a first half of a UUID of version 4 (not timed), from x.
func untimedHi(x uint64) uint64 { return x&^0xf000 | 0x4000 }

// timedHi is the first half of a UUIDv7 of time t and 12 more bits x.
func timedHi(t, x uint64) uint64 { return t<<16 | 0x7000 | x&0xfff }

// seededIDSet returns an empty set of the given seed.
func seededIDSet(seed uint64) Set {
	s := Set{made: true, seed: seed}
	s.setGen(1)
	return s
}

// floodKeys returns n distinct fingerprints that a set of the given seed puts in one line at
// every size up to that of a generation of window ids (the line is the top bits of the hash):
// ids chosen by someone who knows the seed.
func floodKeys(seed uint64, window, n int, r *rand.Rand) []uint64 {
	shift := uint(64 - bits.Len(uint(idFullCapacity(window)/2-1)))
	target := idHash(r.Uint64(), seed) >> shift
	var keys []uint64
	for len(keys) < n {
		if k := r.Uint64(); idHash(k, seed)>>shift == target {
			keys = append(keys, k)
		}
	}
	return keys
}

// More fingerprints than a line and its buddy hold, all in one line: the rest go to over, and are
// found there,
// as the table grows too; a turn empties the over map of the generation it drops.
func TestIDSetFlood(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	const w = 4096
	s := seededIDSet(r.Uint64())
	keys := floodKeys(s.seed, w, 3*idLineSlots, r)
	for _, k := range keys {
		if s.seen(k, w) {
			t.Fatalf("%#x held before it is added", k)
		}
	}
	if len(s.over[s.gen&1]) != len(keys)-2*idLineSlots {
		t.Fatalf("%d fingerprints in over, want %d", len(s.over[s.gen&1]), len(keys)-2*idLineSlots)
	}
	checkIDSet(t, &s, w)
	for range w - len(keys) { // the table grows to its full size, the flood kept
		s.seen(r.Uint64(), w)
	}
	checkIDSet(t, &s, w)
	for _, k := range keys {
		if !s.seen(k, w) {
			t.Fatalf("%#x lost", k)
		}
	}
	for _, k := range floodKeys(s.seed, w, 50, r) {
		if s.holds(k) && !slices.Contains(keys, k) {
			t.Fatalf("%#x held, never added", k)
		}
	}
	// The next generation's flood of the same line goes to its own over.
	more := floodKeys(s.seed, w, 2*idLineSlots, r)
	for _, k := range more {
		if s.seen(k, w) && !slices.Contains(keys, k) {
			t.Fatalf("%#x held before it is added", k)
		}
	}
	checkIDSet(t, &s, w)
	for range 2 * w {
		s.seen(r.Uint64(), w)
	}
	checkIDSet(t, &s, w)
	for _, k := range append(keys, more...) {
		_, in0 := s.over[0][k]
		_, in1 := s.over[1][k]
		if s.holds(k) || in0 || in1 {
			t.Fatalf("%#x held two generations on", k)
		}
	}
}

// Ids that are not random (sequential numbers, one digit apart, the same time with a counter)
// spread over the lines as random ones do: the seed's hash leaves no structure for them to crowd
// into, so the over maps stay as small as random ids leave them: with two full generations, a
// line in twenty overflows into its buddy and about one fingerprint in 400 goes to over.
func TestIDSetOrderedIDsSpread(t *testing.T) {
	kinds := map[string]func(i uint64) uint64{
		"counter":     func(i uint64) uint64 { return i },
		"high digits": func(i uint64) uint64 { return i << 40 },
		"spread":      func(i uint64) uint64 { return i * 0x0101010101010101 },
		"v7 same ms":  func(i uint64) uint64 { return timedHi(0x01a2272d2600, 0) ^ i },
		"random":      func(i uint64) uint64 { return idHash(i, 77) },
	}
	for name, key := range kinds {
		var s Set
		n := 2 * defaultWindow
		for i := range uint64(n) {
			if s.seen(key(i), defaultWindow) {
				t.Fatalf("%s: id %d held before it is added", name, i)
			}
		}
		over := len(s.over[0]) + len(s.over[1])
		t.Logf("%s: %d of %d in over", name, over, n)
		if over > n/200 {
			t.Errorf("%s: %d of %d fingerprints in over", name, over, n)
		}
	}
}

// A full generation turns over, however small the window: the set holds the last window to
// 2×window ids, exactly.
func TestIDSetWindows(t *testing.T) {
	for _, w := range []int{1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 127, 128, 129, 300, 4096, 5000} {
		var s Set
		var keys []uint64
		for i := range 5*w + 7 {
			k := uint64(i+1) * 0x10001
			if s.seen(k, w) {
				t.Fatalf("window %d: %#x held before it is added", w, k)
			}
			keys = append(keys, k)
			// Generations of w ids: the current one started at the last multiple of w, and
			// the set holds it and the one before.
			start := i / w * w
			check := func(j int) {
				if j < 0 || j > i {
					return
				}
				if want := j >= start-w; s.holds(keys[j]) != want {
					t.Fatalf("window %d, %d ids: holds id %d = %v", w, i+1, j, !want)
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
			id = uuidOf(flood[r.IntN(len(flood))], 0) // its fingerprint is the first half
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
				id = uuidOf(timedHi(at-r.Uint64N(2<<22), r.Uint64()), lo) // back up to 2.3 hours
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

func (r *refSet) seen(id string, window int) bool { return r.seenKey(refIDKey(id), window) }

// seenKey is seen of the id of fingerprint k.
func (r *refSet) seenKey(k uint64, window int) bool {
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
		s := seededIDSet(r.Uint64()) // a seed known, to aim at a line
		flood := floodKeys(s.seed, w, 4*idLineSlots, r)
		n := 3*w + 1000
		if testing.Short() && w == defaultWindow {
			n = w / 2
		}
		if dups := checkIDStream(t, &s, idStream(r, "ordered", n, w, flood), fixed(w)); dups == 0 {
			t.Fatalf("window %d: no duplicate in the stream", w)
		}
		if len(s.over[0])+len(s.over[1]) == 0 && n > 2*w {
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
		calls, before, after := 0, uint64(0), uint64(0)
		n := testing.AllocsPerRun(1, func() {
			if calls++; calls == 2 {
				before = s.gen
			}
			run(defaultWindow / 2)
			after = s.gen
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per %d ids", kind, n, defaultWindow/2)
		}
		if calls != 2 || before == after {
			t.Fatalf("%s: no turn measured", kind)
		}
	}
}

// The set of a full window holds no more memory than the two hashed tables the first set was (2 ×
// (2^18 slots of 8 bytes + a filter of 1/16 of that), 4,456,448 bytes), whatever its ids: its
// table of 2^16 lines, 4,194,304 bytes (the over maps, for ids crowding into a line, are not
// counted: random ids do not reach them, and they hold about one id in 130 of any log, see
// TestIDSetOrderedIDsSpread). Under -short the kinds are v4, ordered and tables; make test-long
// runs them all.
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
		t.Logf("%s: %d bytes, capacity %d, %d in over", kind, s.bytes(), s.capacity, len(s.over[0])+len(s.over[1]))
		if n := s.bytes(); n > before || n > idBudget(defaultWindow) {
			t.Errorf("%s: the set holds %d bytes, more than %d", kind, n, before)
		}
		if n := len(s.lines) * int(unsafe.Sizeof(idLine{})); n != s.bytes() {
			t.Errorf("%s: the set counts %d bytes, holds %d", kind, s.bytes(), n)
		}
	}
}

// refIDDigits returns the first 32 hex digits of id as 16 bytes, skipping any other byte: the
// plain reading of the id that idKey's fingerprint comes from.
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
		// What Prefetch leaves is the fingerprint of the last id it was given.
		ahead.ahead, ahead.next = [2]aheadID{}, 0
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

// bytesEqual marks exactly the bytes equal to b, for every b and every byte value at every
// position, among neighbours that are equal to b, one off it, or anything.
func TestBytesEqualEveryByte(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	for b := range uint64(256) {
		for pos := range 8 {
			for v := range uint64(256) {
				for _, fill := range []uint64{b, b ^ 1, b + 1, b - 1, r.Uint64()} {
					x := fill & 0xff * ones
					if fill > 0xff {
						x = fill
					}
					x = x&^(0xff<<(8*pos)) | v<<(8*pos)
					var want uint64
					for i := range 8 {
						if x>>(8*i)&0xff == b {
							want |= 0x80 << (8 * i)
						}
					}
					if got := bytesEqual(x, b); got != want {
						t.Fatalf("bytesEqual(%#016x, %#x) = %#016x, want %#016x", x, b, got, want)
					}
				}
			}
		}
	}
}

// A set told beforehand how many ids come (Expect) makes its table once, at the size a set not
// told grows to, and says what the reference says: for fewer ids than expected, as many, and
// more (it then grows as before), and for an expectation past the window. Expect of a set that
// has its table changes nothing.
func TestExpectMakesTheTableOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	const w = 5000
	for _, c := range []struct{ expect, ids int }{{w, 3 * w}, {w / 2, w / 4}, {w / 4, w}, {10 * w, 2 * w}, {1, 600}} {
		ids := idStream(r, "v4", c.ids, w, nil)
		var s Set
		s.Expect(c.expect, w)
		made := s.bytes()
		if want := 32 * idFullCapacity(min(c.expect, w)); made != want {
			t.Fatalf("Expect(%d, %d): a table of %d bytes, want %d", c.expect, w, made, want)
		}
		checkIDStream(t, &s, ids, fixed(w))
		var grown Set
		for _, id := range ids {
			grown.Seen(id, w)
		}
		if want := max(made, grown.bytes()); s.bytes() != want {
			t.Fatalf("expect %d, %d ids: a table of %d bytes at the end, want %d (made %d, grown unexpected %d)", c.expect, c.ids, s.bytes(), want, made, grown.bytes())
		}
		if c.ids <= c.expect && s.bytes() != made {
			t.Fatalf("expect %d, %d ids: the table grew from %d to %d bytes", c.expect, c.ids, made, s.bytes())
		}
		before := s.bytes()
		s.Expect(100*w, w)
		if s.bytes() != before {
			t.Fatalf("Expect of a made set changed its table from %d to %d bytes", before, s.bytes())
		}
	}
}
