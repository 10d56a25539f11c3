package rtlib

import "unsafe"

// Slice records a slice allocated at site (make, a literal, a conversion)
// and returns it.
func Slice[S ~[]E, E any](site Site, s S) S {
	var e E
	allocp(site, int64(cap(s))*int64(unsafe.Sizeof(e)), unsafe.Pointer(unsafe.SliceData(s)))
	return s
}

// SmallSlice records a slice whose make the compiler keeps on the stack
// when it fits a 32-byte buffer and allocates on the heap otherwise
// (make([]T, n) with n not constant, that does not escape). A heap slice
// of at least SPGO_TRACK bytes is tracked like any other (its death is
// found by the census after it), without making the slice escape: the
// address goes through a uintptr, and the caller keeps the slice alive
// during the call. (A compiler told to keep larger variable-sized makes
// on the stack, -gcflags=-d=variablemakethreshold=N with N ≥ SPGO_TRACK,
// is not supported.)
func SmallSlice[S ~[]E, E any](site Site, s S) S {
	var e E
	if n := int64(cap(s)) * int64(unsafe.Sizeof(e)); n > variableMakeStack {
		var p unsafe.Pointer
		if n >= cfg.track {
			p = heapAddr(uintptr(unsafe.Pointer(unsafe.SliceData(s))))
		}
		allocp(site, n, p)
	}
	return s
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
	var e E
	allocp(site, chanHeader+int64(cap(c))*int64(unsafe.Sizeof(e)), *(*unsafe.Pointer)(unsafe.Pointer(&c)))
	return c
}

// String records a string built at site (concatenation, conversion) and
// returns it.
func String(site Site, s string) string {
	allocp(site, int64(len(s)), unsafe.Pointer(unsafe.StringData(s)))
	return s
}

// Append is append(s, xs...), recording the new backing array when it
// grows.
func Append[S ~[]E, E any](site Site, s S, xs ...E) S {
	c := cap(s)
	s = append(s, xs...)
	if cap(s) != c {
		var e E
		allocp(site, int64(cap(s))*int64(unsafe.Sizeof(e)), unsafe.Pointer(unsafe.SliceData(s)))
	}
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
