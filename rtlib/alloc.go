package rtlib

import "unsafe"

// Slice records a slice allocated at site (make, a literal, a conversion)
// and returns it.
func Slice[S ~[]E, E any](site Site, s S) S {
	var e E
	alloc(site, int64(cap(s))*int64(unsafe.Sizeof(e)))
	return s
}

// SmallSlice records a slice whose make the compiler keeps on the stack
// when it fits a 32-byte buffer and allocates on the heap otherwise
// (make([]T, n) with n not constant, that does not escape).
func SmallSlice[S ~[]E, E any](site Site, s S) S {
	var e E
	if n := int64(cap(s)) * int64(unsafe.Sizeof(e)); n > 32 {
		alloc(site, n)
	}
	return s
}

// New records the value p points to, allocated at site by new(T) or
// &T{...}, and returns p.
func New[T any](site Site, p *T) *T {
	alloc(site, int64(unsafe.Sizeof(*p)))
	return p
}

// Var records a variable the compiler moved to the heap, declared at
// site.
func Var[T any](site Site, p *T) {
	alloc(site, int64(unsafe.Sizeof(*p)))
}

// mapHeader is the size of a map's header; its buckets are found by the
// census.
const mapHeader = 48

// Map records a map allocated at site and returns it.
func Map[M ~map[K]V, K comparable, V any](site Site, m M) M {
	alloc(site, mapHeader)
	return m
}

// chanHeader is the size of a channel's header.
const chanHeader = 96

// Chan records a channel allocated at site and returns it.
func Chan[C ~chan E, E any](site Site, c C) C {
	var e E
	alloc(site, chanHeader+int64(cap(c))*int64(unsafe.Sizeof(e)))
	return c
}

// String records a string built at site (concatenation, conversion) and
// returns it.
func String(site Site, s string) string {
	alloc(site, int64(len(s)))
	return s
}

// Append is append(s, xs...), recording the new backing array when it
// grows.
func Append[S ~[]E, E any](site Site, s S, xs ...E) S {
	c := cap(s)
	s = append(s, xs...)
	if cap(s) != c {
		var e E
		alloc(site, int64(cap(s))*int64(unsafe.Sizeof(e)))
	}
	return s
}

// AppendString is append(s, str...).
func AppendString[S ~[]byte](site Site, s S, str string) S {
	c := cap(s)
	s = append(s, str...)
	if cap(s) != c {
		alloc(site, int64(cap(s)))
	}
	return s
}

// alloc charges n bytes to the running strand at site. Its only cost
// today is the watchdog's heartbeat.
func alloc(site Site, n int64) {
	hb.Store(int32(site))
}
