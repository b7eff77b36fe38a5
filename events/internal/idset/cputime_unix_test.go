//go:build unix

package idset

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system: on a machine others share, a
// benchmark's CPU per op moves less than its wall time, which counts the time it waited.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
