package rtlib

import (
	"reflect"
	"unsafe"
)

// Channels used as free lists (ACCOUNTING.md, "sync.Pool and free
// lists"): a buffered channel of buffers that code receives from without
// waiting, in a select whose default case allocates a new buffer when the
// channel is empty (the rewriter checks), and sends back to. The serial
// run finds the buffer a task sent back; a parallel schedule may find the
// channel empty and allocate another. Such a channel gets sync.Pool's
// model: once instrumented code has received from it so (ChanTry,
// ChanGot), a send of a buffer into it is the buffer's free (poolPut),
// and a receive that takes one back is its allocation at the receive's
// line (poolTake). Buffers are pointers or slices; other element types
// are left alone.

// freeLists is the channels instrumented code received from without
// waiting, by address.
var freeLists = newTable[uintptr, struct{}](poolHash)

// ChanTry is called in the default case of a select that receives from
// c: c is a free list.
func ChanTry[T any](c <-chan T) {
	if c == nil || inBubble() {
		return
	}
	held()
	freeListMark(uintptr(chanPtr(c)))
}

// ChanGot is called first in a select's case that received v from c
// without waiting: c is a free list, and v, if a buffer instrumented
// code sent into one, is allocated at site.
func ChanGot[T any](site Site, c <-chan T, v T) {
	if c == nil || inBubble() {
		return
	}
	held()
	freeListMark(uintptr(chanPtr(c)))
	if k, ok := objWord(v); ok && pools.in.len() > 0 {
		poolTake(site, k, holderDnode(), false)
	}
}

// ChanSent is called first in a select's case that sent v into c
// without waiting: when c is a free list, v goes back into it.
func ChanSent[T any](c chan<- T, v T) {
	if c == nil || freeLists.len() == 0 || inBubble() {
		return
	}
	held()
	chanSent(uintptr(chanPtr(c)), v)
}

// freeListMark adds the channel at k to the free lists.
func freeListMark(k uintptr) {
	if _, ok := freeLists.get(k); !ok {
		heldPut(&freeLists, k, struct{}{})
	}
}

// chanSent charges the free of v, sent into the channel at k, when that
// is a free list and v a buffer.
func chanSent[T any](k uintptr, v T) {
	if _, ok := freeLists.get(k); !ok || !mem.on {
		return
	}
	a, ok := objWord(v)
	if !ok {
		return
	}
	x := any(v)
	if reflect.TypeFor[T]().Kind() == reflect.Slice {
		ownAlloc(int64(unsafe.Sizeof(v))) // the box of x: rtlib's
	}
	poolPut(a, x, false)
}

// chanRecvd is the receive, waiting or not, of v from the channel at k:
// when that is a free list, v, if a buffer put back, is allocated at
// site.
func chanRecvd[T any](site Site, k uintptr, v T) {
	if _, ok := freeLists.get(k); !ok {
		return
	}
	if a, ok := objWord(v); ok {
		poolTake(site, a, holderDnode(), true)
	}
}

// objWord is the address of the buffer v: a pointer's target or a
// slice's backing array; ok is false for other kinds and for nil or
// empty buffers.
func objWord[T any](v T) (uintptr, bool) {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Pointer:
		a := *(*uintptr)(unsafe.Pointer(&v))
		return a, a != 0
	case reflect.Slice:
		h := (*[3]uintptr)(unsafe.Pointer(&v))
		return h[0], h[0] != 0 && h[2] > 0
	}
	return 0, false
}

// ChanRecvd is called first in the case of a select without a default
// case that received v from c: when c is a free list, v, if a buffer put
// back, is allocated at site.
func ChanRecvd[T any](site Site, c <-chan T, v T) {
	if c == nil || freeLists.len() == 0 || pools.in.len() == 0 || inBubble() {
		return
	}
	held()
	chanRecvd(site, uintptr(chanPtr(c)), v)
}
