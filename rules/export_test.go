package rules

import "reflect"

// SameState reports whether two hands are in the same state. A slice that is nil in one and
// empty in the other counts as equal: Renew keeps the emptied arrays of the last hand where
// NewHand has none yet.
func SameState(x, y *Hand) bool {
	a, b := *x, *y
	for _, h := range []*Hand{&a, &b} {
		if len(h.Violations) == 0 {
			h.Violations = nil
		}
		if len(h.expected) == 0 {
			h.expected = nil
		}
	}
	return reflect.DeepEqual(a, b)
}
