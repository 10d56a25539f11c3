package rtlib

import (
	"runtime"
	"unsafe"
)

// Slice records a slice allocated at site (make, a literal, a conversion)
// and returns it.
func Slice[S ~[]E, E any](site Site, s S) S {
	allocp(site, arrayBytes[E](cap(s)), unsafe.Pointer(unsafe.SliceData(s)))
	return s
}

// SmallSlice records a slice whose make the compiler keeps on the stack
// when it fits a 32-byte buffer and allocates on the heap otherwise
// (make([]T, n) with n not constant, that does not escape). A heap slice
// dies with the frame of the function that made it: the rewriter puts
// Mark and Drop around that function, and its death is charged at the
// return (acct_frame.go). The address goes through a uintptr, so that the
// hook does not make the slice escape; the caller keeps the slice alive
// during the call. (A compiler told to keep larger variable-sized makes
// on the stack, -gcflags=-d=variablemakethreshold=N with N > 32, is not
// supported.)
func SmallSlice[S ~[]E, E any](site Site, s S) S {
	if n := arrayBytes[E](cap(s)); n > variableMakeStack {
		allocFrame(site, n, uintptr(unsafe.Pointer(unsafe.SliceData(s))), 0, 0, Scratch{})
	}
	return s
}

// SmallSliceTurn is SmallSlice for a make in a loop's body whose
// variable, declared in the body, is the only reference to the array
// (rewrite's turnScratch): the array the site made in the turn before
// died with its turn's variable, and its death is charged first, with
// no census.
func SmallSliceTurn[S ~[]E, E any](fr Scratch, site Site, s S) S {
	if n := arrayBytes[E](cap(s)); n > variableMakeStack {
		allocFrame(site, n, uintptr(unsafe.Pointer(unsafe.SliceData(s))), 0, 0, fr)
	}
	return s
}

// arrayBytes is the size of n elements of E: what a backing array of
// capacity n takes before rounding.
func arrayBytes[E any](n int) int64 {
	var e E
	return int64(n) * int64(unsafe.Sizeof(e))
}

// variableMakeStack is the compiler's limit for keeping a variable-sized
// make on the stack (cmd/compile's variablemakethreshold).
const variableMakeStack = 32

// heapAddr turns the address of a heap object its caller keeps alive
// back into a pointer; the round trip through a uintptr hides the
// pointer from escape analysis.
//
//go:noinline
func heapAddr(addr uintptr) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&addr))
}

// New records the value p points to, allocated at site by new(T) or
// &T{...}, and returns p.
func New[T any](site Site, p *T) *T {
	allocp(site, int64(unsafe.Sizeof(*p)), unsafe.Pointer(p))
	return p
}

// Var records a variable the compiler moved to the heap, declared at
// site.
func Var[T any](site Site, p *T) {
	allocp(site, int64(unsafe.Sizeof(*p)), unsafe.Pointer(p))
}

// mapHeader is the size of a map's header; its buckets are found by the
// census.
const mapHeader = 48

// Map records a map allocated at site and returns it.
func Map[M ~map[K]V, K comparable, V any](site Site, m M) M {
	allocp(site, mapHeader, nil) // its buckets: uninstrumented allocations
	return m
}

// chanHeader is the size of a channel's header.
const chanHeader = 96

// Chan records a channel allocated at site and returns it.
func Chan[C ~chan E, E any](site Site, c C) C {
	allocp(site, chanHeader+arrayBytes[E](cap(c)), *(*unsafe.Pointer)(unsafe.Pointer(&c)))
	return c
}

// String records a string built at site (concatenation, conversion) and
// returns it.
func String(site Site, s string) string {
	allocp(site, int64(len(s)), unsafe.Pointer(unsafe.StringData(s)))
	return s
}

// Append is append(s, xs...), recording the new backing array when it
// grows. The old array is kept alive until the new one is charged: during
// the growth both are live (a census before the charge would otherwise
// find the old one dead and count only the new one), and the old one is
// seen live right after it (grown).
func Append[S ~[]E, E any](site Site, s S, xs ...E) S {
	c := cap(s)
	old := unsafe.SliceData(s)
	s = append(s, xs...)
	if cap(s) != c {
		allocp(site, arrayBytes[E](cap(s)), unsafe.Pointer(unsafe.SliceData(s)))
		if c > 0 {
			grown(unsafe.Pointer(old))
		}
	}
	return s
}

// AppendFrame is append(s, xs...) for a slice that does not escape its
// function: a new backing array past the 32-byte stack buffer dies with
// the function's frame, as SmallSlice's. The old one stays live until
// then: another variable may still refer to it.
func AppendFrame[S ~[]E, E any](site Site, s S, xs ...E) S {
	c := cap(s)
	s = append(s, xs...)
	if cap(s) != c {
		if n := arrayBytes[E](cap(s)); n > variableMakeStack {
			allocFrame(site, n, uintptr(unsafe.Pointer(unsafe.SliceData(s))), 0, 0, Scratch{})
		}
	}
	return s
}

// AppendOwned is AppendFrame for the append x = append(x, ...) whose
// variable x alone refers to its backing array (the rewriter checks every
// use of x in its function, rewrite/owned.go): the old array, if the
// frame m marks allocated it, dies at the growth, after the new one is
// charged.
func AppendOwned[S ~[]E, E any](m Scratch, site Site, s S, xs ...E) S {
	c := cap(s)
	old := unsafe.SliceData(s)
	s = append(s, xs...)
	if cap(s) != c {
		prev := uintptr(unsafe.Pointer(old))
		if n := arrayBytes[E](cap(s)); n > variableMakeStack {
			allocFrame(site, n, uintptr(unsafe.Pointer(unsafe.SliceData(s))), prev, 0, Scratch{})
		}
		if c > 0 {
			frameOld(m, prev)
		}
	}
	runtime.KeepAlive(old) // live until its death is charged: a census in allocFrame must see it
	return s
}

// AppendString is append(s, str...).
func AppendString[S ~[]byte](site Site, s S, str string) S {
	c := cap(s)
	s = append(s, str...)
	if cap(s) != c {
		allocp(site, int64(cap(s)), unsafe.Pointer(unsafe.SliceData(s)))
	}
	return s
}
