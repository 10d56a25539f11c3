package rtlib

import (
	"runtime"
	"sync"
	"unsafe"
	"weak"
)

// A collection empties sync.Pools: it moves each pool's objects to its
// victim cache and drops those already there. The program, without
// rtlib's censuses, would have found them on its next Gets, so every
// collection rtlib runs is wrapped in poolsDrain and poolsRefill: the
// objects of every pool instrumented code used are taken out (Get, with
// New unset) before it, held by rtlib through it, and put back after it
// so that Get returns them in the same order. After a collection a
// pool's per-processor cache is gone, and the program's next Put would
// allocate a new one that it would not have without the collection: the
// refill allocates it, with two Puts and Gets of a marker first, and
// those bytes are rtlib's own (measured, runtime.ReadMemStats flushing
// the allocation caches before and after).

// poolsKnown is every pool instrumented code called Get or Put on: by
// address (at) and, weakly, in the order first seen (all).
var poolsKnown struct {
	at  table[uintptr, struct{}]
	all []weak.Pointer[sync.Pool]
}

// poolKnow adds p to the pools a census drains.
func poolKnow(p *sync.Pool) {
	k := uintptr(unsafe.Pointer(p))
	if _, ok := poolsKnown.at.get(k); ok {
		return
	}
	heldPut(&poolsKnown.at, k, struct{}{})
	poolsKnown.all = heldAppend(poolsKnown.all, weak.Make(p))
	mem.own += 16 // the weak handle, as allocp's
}

// poolDrained is a pool and the objects taken out of it, in the order
// Get returned them.
type poolDrained struct {
	p  *sync.Pool
	xs []any
}

// poolsScratch is poolsDrain's result, its arrays reused.
var poolsScratch []poolDrained

// poolMarker is what the refill puts into a pool and takes back to make
// it allocate its per-processor cache.
var poolMarker byte

// poolMem is runtime.ReadMemStats's output (large: not on a stack).
var poolMem [2]runtime.MemStats

// poolsDrain takes the objects out of every live pool instrumented code
// used, and forgets the pools that died.
func poolsDrain() []poolDrained {
	out := poolsScratch[:0]
	live := poolsKnown.all[:0]
	for _, wp := range poolsKnown.all {
		p := wp.Value()
		if p == nil {
			continue // its address may be another pool's by now
		}
		live = append(live, wp)
		i := len(out)
		if i < cap(out) {
			out = out[:i+1]
		} else {
			out = ownAppend(out, poolDrained{})
		}
		out[i].p = p
		xs := out[i].xs[:0]
		newFn := p.New
		p.New = nil
		for {
			x := p.Get()
			if x == nil {
				break
			}
			xs = ownAppend(xs, x)
		}
		p.New = newFn
		out[i].xs = xs
	}
	clear(poolsKnown.all[len(live):])
	poolsKnown.all = live
	poolsScratch = out
	return out
}

// poolsRefill puts the drained objects back, in the order their pools
// would have returned them: Get takes the per-processor private object,
// then the shared list from its head, and Put fills the private slot
// first, then pushes at the head.
func poolsRefill(ds []poolDrained) {
	if len(ds) == 0 {
		return
	}
	runtime.ReadMemStats(&poolMem[0])
	for i := range ds {
		p, xs := ds[i].p, ds[i].xs
		newFn := p.New
		p.New = nil
		p.Put(&poolMarker)
		p.Put(&poolMarker)
		p.Get()
		p.Get()
		p.New = newFn
		if len(xs) > 0 {
			p.Put(xs[0])
			for j := len(xs) - 1; j >= 1; j-- {
				p.Put(xs[j])
			}
		}
		clear(xs)
		ds[i].p = nil
	}
	runtime.ReadMemStats(&poolMem[1])
	mem.own += int64(poolMem[1].TotalAlloc - poolMem[0].TotalAlloc)
}
