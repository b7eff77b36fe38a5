// Package cputime owns the measure of a benchmark's cost that a shared machine lets one compare:
// the CPU time the process has used, user and system, rather than the wall time, which counts the
// time it waited while other processes ran. Benchmarks report it per operation ("cpu-ns/op")
// beside Go's own ns/op.
package cputime

import "time"

// Process returns the CPU time, user and system, that the process has used so far, or 0 where
// the system does not say (then every difference of two calls is 0 too).
func Process() time.Duration { return process() }
