package events

import "testing"

// The sizes of the heavy loops of the package's tests, in one place: the short suite (go test
// -short, make test) checks a sample of each, the full one (go test, make test-long) all of it.

// pick returns full without -short, else short.
func pick(short, full int) int {
	if testing.Short() {
		return short
	}
	return full
}

// mutationStride is how many mutations of a line the differential tests take apart: each one
// without -short, one in mutationStride otherwise (a different one on each line, so that every
// kind of mutation is still checked on some line).
func mutationStride() int { return pick(5, 1) }

// sampled returns the elements of xs a run checks: every mutationStride-th, from offset (taken
// modulo the stride).
func sampled[T any](xs []T, offset int) []T {
	stride := mutationStride()
	if stride == 1 {
		return xs
	}
	var out []T
	for i := offset % stride; i < len(xs); i += stride {
		out = append(out, xs[i])
	}
	return out
}
