//go:build !unix

package rtlib

import "time"

// cpuTime is the CPU time the process used, or -1 where it is not known.
func cpuTime() time.Duration { return -1 }
