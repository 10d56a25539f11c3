//go:build unix

package rtlib

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process used, or -1.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
