//go:build unix

package recorder_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process (the recorder and its embedded server) has used so far: on
// a loaded machine a steadier measure of a benchmark's cost than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
