// Package race tells a test whether its binary was built with the race detector, whose
// instrumentation allocates: the tests that count allocations skip themselves under it.
//
// The answer is a constant set by build tags (race_on.go, race_off.go), as the standard library's
// own internal/race does, so no test reads the build information at run time.
package race
