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
// (make([]T, n) with n not constant, that does not escape).
func SmallSlice[S ~[]E, E any](site Site, s S) S {
	var e E
	if n := int64(cap(s)) * int64(unsafe.Sizeof(e)); n > 32 {
		allocp(site, n, nil) // not tracked: taking its address would move it to the heap
	}
	return s
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
