//go:build amd64

package rtlib

import (
	"runtime"
	"unsafe"
)

// framePointer returns its caller's frame pointer (prof_fp_amd64.s).
func framePointer() unsafe.Pointer

// callers fills buf with the return addresses of the calling goroutine's
// frames, starting with the one into callers' caller, by following the
// frame pointers, as Go's execution tracer does: tens of nanoseconds
// where runtime.Callers, which decodes every frame's tables, takes
// microseconds (an allocation hook reads its path on every allocation).
// The addresses are those of the physical frames; framesOf expands the
// calls inlined at each. It stops at the goroutine's first frame, whose
// saved frame pointer is 0, where the chain does not go up the stack, or
// where it leaves the goroutine's stack (a cgo callback's C frames, which
// need not keep frame pointers): only that stack is read. Without the
// goroutine's descriptor (getg, Linux and macOS), runtime.Callers.
//
//go:noinline
func callers(buf []uintptr) int {
	g := getg()
	if g == nil {
		return runtime.Callers(2, buf)
	}
	lo, hi := stackBounds(g)
	fp := framePointer()
	n := 0
	for n < len(buf) && uintptr(fp) >= lo && uintptr(fp)+2*unsafe.Sizeof(uintptr(0)) <= hi {
		buf[n] = *(*uintptr)(unsafe.Add(fp, unsafe.Sizeof(uintptr(0))))
		n++
		next := *(*unsafe.Pointer)(fp)
		if uintptr(next) <= uintptr(fp) {
			break
		}
		fp = next
	}
	return n
}
