//go:build !unix

package idset

import "time"

// cpuTime is 0 where there is no getrusage: the benchmarks then report no CPU per op.
func cpuTime() time.Duration { return 0 }
