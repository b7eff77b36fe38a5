package events

import "os"

// The sizes of the heavy loops of the package's tests, in one place: the short suite (go test,
// make test) checks a sample of each, FECHADO_LONG=1 (make test-long) all of it.

// long reports whether the long tests run.
var long = os.Getenv("FECHADO_LONG") == "1"

// pick returns full under FECHADO_LONG=1, else short.
func pick(short, full int) int {
	if long {
		return full
	}
	return short
}

var (
	// mutationStride is how many mutations of a line the differential tests take apart: each one
	// under FECHADO_LONG=1, one in mutationStride otherwise (a different one on each line, so that
	// every kind of mutation is still checked on some line).
	mutationStride = pick(5, 1)
)

// sampled returns the elements of xs a run checks: every mutationStride-th, from offset (taken
// modulo the stride).
func sampled[T any](xs []T, offset int) []T {
	if mutationStride == 1 {
		return xs
	}
	var out []T
	for i := offset % mutationStride; i < len(xs); i += mutationStride {
		out = append(out, xs[i])
	}
	return out
}
