//go:build !linux

package rtlib

// othersRunnable: no portable way to see runnable threads; the watchdog
// relies on CPU time alone.
func othersRunnable() bool { return false }
