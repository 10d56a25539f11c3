package rtlib

import (
	"reflect"
	"unsafe"
)

// poolSize returns the heap bytes of the object a sync.Pool holds as x:
// what a Get that found the pool empty would have had New allocate
// again, as far as the object's own pointers and slices reach (each
// allocation rounded to its size class, each counted once). ok is false
// when x reaches something whose size rtlib cannot read (a map, a
// channel, a function, an unsafe pointer) or more than poolSizeMax
// allocations: the figures are then no bound.
// boxed says a value that is not a pointer counts its interface box.
func poolSize(x any, boxed bool) (n int64, ok bool) {
	w := sizeWalk{seen: poolSeen[:0]}
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan, reflect.Func:
		// The interface holds the pointer itself.
	default:
		// A value boxed in the interface: the box, then what it reaches.
		if boxed {
			w.n += roundSize(int64(v.Type().Size()))
		}
	}
	w.value(v)
	poolSeen = w.seen // the caller may read the addresses (poolPut)
	return w.n, w.ok()
}

// poolSizeMax is the most allocations poolSize follows.
const poolSizeMax = 1 << 12

// poolSeen is the list of the allocations poolSize last counted, by
// address; its array is reused.
var poolSeen []uintptr

// sizeWalk sums the allocations a value reaches.
type sizeWalk struct {
	n       int64
	seen    []uintptr
	unknown bool
}

func (w *sizeWalk) ok() bool { return !w.unknown && len(w.seen) <= poolSizeMax }

// first reports whether the allocation at p is counted for the first time.
func (w *sizeWalk) first(p uintptr) bool {
	for _, q := range w.seen {
		if q == p {
			return false
		}
	}
	w.seen = ownAppend(w.seen, p)
	return true
}

// value adds what v (stored inline where it is) reaches.
func (w *sizeWalk) value(v reflect.Value) {
	if !w.ok() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || !w.first(v.Pointer()) {
			return
		}
		e := v.Elem()
		w.n += roundSize(int64(e.Type().Size()))
		w.value(e)
	case reflect.Slice:
		if v.Cap() == 0 || !w.first(uintptr(v.UnsafePointer())) {
			return
		}
		w.n += roundSize(int64(v.Cap()) * int64(v.Type().Elem().Size()))
		if hasPointers(v.Type().Elem()) {
			for i := range v.Len() {
				w.value(v.Index(i))
			}
		}
	case reflect.String:
		if v.Len() > 0 && w.first(uintptr(unsafe.Pointer(unsafe.StringData(v.String())))) {
			w.n += roundSize(int64(v.Len()))
		}
	case reflect.Array:
		if hasPointers(v.Type().Elem()) {
			for i := range v.Len() {
				w.value(v.Index(i))
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			w.value(v.Field(i))
		}
	case reflect.Interface:
		if !v.IsNil() {
			e := v.Elem()
			if k := e.Kind(); k != reflect.Pointer && k != reflect.Map && k != reflect.Chan && k != reflect.Func && k != reflect.UnsafePointer {
				w.n += roundSize(int64(e.Type().Size())) // its box
			}
			w.value(e)
		}
	case reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		if !v.IsNil() {
			w.unknown = true
		}
	}
}

// hasPointers reports whether values of t can reach other allocations.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.String, reflect.Interface, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
