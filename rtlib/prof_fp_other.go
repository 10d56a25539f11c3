//go:build !amd64

package rtlib

import "runtime"

// callers fills buf with the return addresses of the calling goroutine's
// frames, starting with the one into callers' caller (runtime.Callers
// here; frame pointers on amd64).
//
//go:noinline
func callers(buf []uintptr) int { return runtime.Callers(2, buf) }
