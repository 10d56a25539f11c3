//go:build (amd64 || arm64) && (linux || darwin)

package rtlib

import "unsafe"

// getg returns the runtime's descriptor of the calling goroutine (its g),
// read from thread-local storage or the g register (sched_getg_*.s).
func getg() unsafe.Pointer
