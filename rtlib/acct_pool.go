package rtlib

import (
	"fmt"
	"sync"
	"unsafe"
)

// sync.Pool. A Get that the serial run serves with an object a goroutine
// put back may, in a parallel schedule, find the pool empty and make New
// allocate another: p tasks in progress can hold p objects where the
// serial run held one. So a Get that reuses an object while other
// goroutines of the root may run is charged as an allocation of the
// object's size (poolSize) at the Get, and its Put as the free. The
// object itself stays in the heap, charged where New allocated it until
// a census finds it dead: at most one object a pool too many, so the
// figures are upper bounds, and the root says so. An object whose size
// rtlib cannot read (it reaches a map, a channel) leaves the root with no
// bound (its figures may be too low).

// pools holds, by the address the interface holds (its data word), the
// objects instrumented code put into a sync.Pool that no Get has taken
// back (an address reused by another object after a collection can only
// charge an allocation too many), and the objects a Get reused that are
// charged as in use until their Put. A collection moves a pool's objects
// to its victim cache and drops those already there, so the objects put
// back are kept by census interval: those of the current one (put) and
// of the one before (old); a census drops the older ones (poolsAge), and
// the tables stay as large as two intervals' Puts.
var pools struct {
	put, old table[uintptr, struct{}]
	inUse    table[uintptr, poolUse]
}

// poolUse is an object a Get reused, charged as allocated by task d in
// epoch ep at site, n bytes; rtlib keeps it alive (obj) so that its
// address is not another object's before its Put.
type poolUse struct {
	obj  any
	d    *dnode
	site Site
	ep   int64
	seen seen
	at   int64
	rs   int32
	n    int64
}

func init() {
	pools.put, pools.old = newTable[uintptr, struct{}](poolHash), newTable[uintptr, struct{}](poolHash)
	pools.inUse = newTable[uintptr, poolUse](poolHash)
}

// poolHash hashes an object's address.
func poolHash(a uintptr) uintptr { return a >> 4 }

// poolsAge is called by a census after its collection: the objects put
// back before the previous census are out of their pools now.
func poolsAge() {
	if pools.old.n == 0 && pools.put.n == 0 {
		return
	}
	var z tslot[uintptr, struct{}]
	ownGrown(0, int64(len(pools.old.slots))*int64(unsafe.Sizeof(z))) // rtlib's own bytes, given back
	pools.old, pools.put = pools.put, newTable[uintptr, struct{}](poolHash)
}

// PoolGet is p.Get() at site.
func PoolGet(site Site, p *sync.Pool) any {
	x := p.Get()
	if x == nil || inBubble() {
		return x
	}
	held()
	k := dataWord(x)
	_, ok := pools.put.get(k)
	if _, old := pools.old.get(k); old {
		ok = true
		pools.old.del(k)
	}
	if !ok {
		return x // made by New, or put back by uninstrumented code
	}
	pools.put.del(k)
	d := holderDnode()
	if d == nil || d.detached {
		return x
	}
	r := d.root
	if d == r.top && r.top.liveKids == 0 {
		return x // no other goroutine of the root: every schedule reuses it
	}
	n, ok := poolSize(x)
	if !ok {
		if !r.poolSeen {
			r.poolSeen, r.unbounded = true, true
			r.reasonAt(site, "sync.Pool.Get reused an object a goroutine put back; in a parallel schedule it can find the pool empty and allocate another, whose size rtlib cannot read (it reaches a map, a channel or a function): the figures may be too low")
		}
		return x
	}
	if !r.poolSeen {
		r.poolSeen = true
		r.reasonAt(site, fmt.Sprintf("sync.Pool.Get reused an object a goroutine put back (%d bytes); it is charged as a new one until its Put, as a parallel schedule may allocate one per task in progress, while the object itself stays in the heap: the figures are upper bounds", n))
	}
	d.root.siteAlloc(site, n)
	d.add(site, n)
	mem.since += n
	mem.proven += n // its death is its Put
	heldPut(&pools.inUse, k, poolUse{obj: x, d: d, site: site, ep: d.epoch, seen: seenNow(d), at: mem.since, rs: recStrand(d), n: n})
	return x
}

// PoolPut is p.Put(x).
func PoolPut(p *sync.Pool, x any) {
	if x != nil && !inBubble() {
		held()
		k := dataWord(x)
		if u, ok := pools.inUse.get(k); ok {
			pools.inUse.del(k)
			poolFree(holderDnode(), u)
		}
		if mem.on {
			heldPut(&pools.put, k, struct{}{})
		}
	}
	p.Put(x)
}

// poolFree charges the free of the object u a Get reused, put back while
// c runs: in c's strand when c took it, else where a death found now
// belongs (free).
func poolFree(c *dnode, u poolUse) {
	switch {
	case c == nil || c.detached || u.d.detached || u.d.root != c.root:
		// Its root ended: not this root's.
	case c == u.d:
		c.add(u.site, -u.n)
	default:
		free(c, u.d, u.ep, u.seen, u.at, u.rs, u.site, u.n, charge{now: true, census: -1})
	}
}

// dataWord is the data word of the interface value x: the address of the
// object it holds (or of its box).
func dataWord(x any) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1])
}
