package rtlib

import (
	"sync"
	"unsafe"
)

// sync.Pool. A Get that the serial run serves with an object a task put
// back may, in a parallel schedule, find the pool empty and allocate
// another: p tasks in progress can hold p objects where the serial run
// held one. rtlib does not model that yet (ACCOUNTING.md, "Known
// limits"); it notices it, so that no figure claims what it cannot: the
// first Get in a root that reuses an object put back by instrumented code
// while other goroutines of the root may run gives the root a reason and
// no interval (the figures may be too low).

// pools holds the objects instrumented code put into a sync.Pool and no
// Get has taken back, by the address the interface holds (its data
// word); an address reused by another object after a collection can only
// give a reason too many.
var pools struct {
	put table[uintptr, struct{}]
}

func init() {
	pools.put = newTable[uintptr, struct{}](func(a uintptr) uintptr { return a >> 4 })
}

// PoolGet is p.Get() at site.
func PoolGet(site Site, p *sync.Pool) any {
	x := p.Get()
	if x == nil || inBubble() {
		return x
	}
	held()
	k := dataWord(x)
	if _, ok := pools.put.get(k); !ok {
		return x // made by New, or put back by uninstrumented code
	}
	pools.put.del(k)
	d := holderDnode()
	if d == nil || d.detached {
		return x
	}
	if r := d.root; !r.poolSeen && (d != r.top || r.top.liveKids > 0) {
		r.poolSeen, r.unbounded = true, true
		r.reasonAt(site, "sync.Pool.Get reused an object a goroutine put back; in a parallel schedule it can find the pool empty and allocate another (one per task in progress), which the figures do not count: they may be too low")
	}
	return x
}

// PoolPut is p.Put(x).
func PoolPut(p *sync.Pool, x any) {
	if x != nil && !inBubble() {
		held()
		if mem.on {
			heldPut(&pools.put, dataWord(x), struct{}{})
		}
	}
	p.Put(x)
}

// dataWord is the data word of the interface value x: the address of the
// object it holds (or of its box).
func dataWord(x any) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1])
}
