package events

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// idKeysID draws an event id for the property below, from a small pool of times and random
// parts so that ids recur: a UUIDv7 whose time drifts (forward, or back as a log of tables one
// after the other goes), a UUIDv4, the same in capitals or without dashes (the same id to
// IDs), or a string that is not a UUID (its hex digits are its fingerprint).
func idKeysID(t *rapid.T, at *uint64) string {
	lo := rapid.Uint64Range(0, 40).Draw(t, "lo")
	switch rapid.IntRange(0, 9).Draw(t, "kind") {
	case 0, 1, 2, 3:
		*at += rapid.Uint64Range(0, 3_000).Draw(t, "step")
		if rapid.IntRange(0, 19).Draw(t, "back") == 0 {
			*at -= min(*at, rapid.Uint64Range(0, 1<<26).Draw(t, "jump")) // further than a segment spans
		}
		return idKeysUUID(*at<<16|0x7000|lo&0xfff, lo)
	case 4, 5:
		return idKeysUUID(0x4000|lo<<20, lo)
	case 6:
		return strings.ToUpper(idKeysUUID(*at<<16|0x7000, lo))
	case 7:
		return strings.ReplaceAll(idKeysUUID(*at<<16|0x7000, lo), "-", "")
	default:
		return rapid.SampledFrom([]string{"", "x", "not-a-uuid", "0123", "abc-def", "zz0f"}).Draw(t, "odd")
	}
}

// idKeysRun draws a run of up to 200 ids (idKeysID) and their IDKeys, each added as a string
// (Add) or as bytes (AddBytes), which must give the same key.
func idKeysRun(t *rapid.T, at *uint64) ([]string, IDKeys) {
	ids := make([]string, rapid.IntRange(0, 200).Draw(t, "ids"))
	var ks IDKeys
	for i := range ids {
		ids[i] = idKeysID(t, at)
		if rapid.Bool().Draw(t, "bytes") {
			ks.AddBytes([]byte(ids[i]))
		} else {
			ks.Add(ids[i])
		}
	}
	return ids, ks
}

// idKeysUUID writes the UUID of first half hi and second half lo (its variant bits set).
func idKeysUUID(hi, lo uint64) string {
	lo = lo&^(3<<62) | 2<<62
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// TestSeenKeysSaysWhatSeenStringSays holds the check a spread audit's deliverer makes of a file's
// fingerprints (IDs.SeenKeys, the prefetching pipeline) to the check of the ids' strings one
// after the other (IDs.SeenString), run by run as files come: the first id seen before is the
// same one in every run, under windows small enough that the generations turn over, segments
// close and ids go to misc many times. A SeenKeys that says "not seen" where SeenString says
// "seen" would let a spread audit deliver a file whose ids were used before (a wrong report);
// both sets are fed the same ids, up to the first seen of each run, so they must agree on every
// run after it too.
func TestSeenKeysSaysWhatSeenStringSays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		window := rapid.IntRange(1, 300).Draw(t, "window")
		strs, keys := IDs{Window: window}, IDs{Window: window}
		at := uint64(0x01a2272d2600)
		for run := range rapid.IntRange(1, 30).Draw(t, "runs") {
			ids, ks := idKeysRun(t, &at)
			if ks.Len() != len(ids) {
				t.Fatalf("run %d: %d keys of %d ids", run, ks.Len(), len(ids))
			}
			want := len(ids)
			for i, id := range ids {
				if strs.SeenString(id) {
					want = i
					break
				}
			}
			got, seen := keys.SeenKeys(&ks)
			if got != want || seen != (want < len(ids)) {
				t.Fatalf("run %d of %d ids, window %d: SeenKeys says %d (seen %v), SeenString the id at %d", run, len(ids), window, got, seen, want)
			}
		}
	})
}

// TestSeenKeysFromFindsEverySeenID proves that SeenKeysFrom, called again after each id it
// finds (the spread's reader at the end of a round), finds exactly the ids SeenString says were
// seen, in order.
func TestSeenKeysFromFindsEverySeenID(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		window := rapid.IntRange(1, 300).Draw(t, "window")
		strs, keys := IDs{Window: window}, IDs{Window: window}
		at := uint64(0x01a2272d2600)
		for run := range rapid.IntRange(1, 20).Draw(t, "runs") {
			ids, ks := idKeysRun(t, &at)
			var want, got []int
			for i, id := range ids {
				if strs.SeenString(id) {
					want = append(want, i)
				}
			}
			for from := 0; ; {
				i, seen := keys.SeenKeysFrom(&ks, from)
				if !seen {
					if i != len(ids) {
						t.Fatalf("run %d: SeenKeysFrom(%d) = %d, false; want %d", run, from, i, len(ids))
					}
					break
				}
				got = append(got, i)
				from = i + 1
			}
			if !slices.Equal(got, want) {
				t.Fatalf("run %d of %d ids, window %d: SeenKeysFrom found %v, SeenString %v", run, len(ids), window, got, want)
			}
		}
	})
}

// TestIDKeysResetKeepsNothing proves that a reused IDKeys (a spread's worker takes back the
// ones the deliverer is done with) checks only the ids added since Reset.
func TestIDKeysResetKeepsNothing(t *testing.T) {
	var ids IDs
	var ks IDKeys
	a := idKeysUUID(0x01a2272d2600<<16|0x7000, 1)
	b := idKeysUUID(0x01a2272d2601<<16|0x7000, 2)
	ks.Add(a)
	if i, seen := ids.SeenKeys(&ks); seen || i != 1 {
		t.Fatalf("a first id: SeenKeys = %d, %v; want 1, false", i, seen)
	}
	ks.Reset()
	ks.Add(b)
	if i, seen := ids.SeenKeys(&ks); seen || i != 1 {
		t.Fatalf("after Reset: SeenKeys = %d, %v; want 1, false (a checked again?)", i, seen)
	}
	ks.Reset()
	ks.Add(b)
	ks.Add(a)
	if i, seen := ids.SeenKeys(&ks); !seen || i != 0 {
		t.Fatalf("ids used before: SeenKeys = %d, %v; want 0, true", i, seen)
	}
}
