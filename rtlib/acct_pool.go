package rtlib

import (
	"fmt"
	"sync"
	"unsafe"
	"weak"
)

// sync.Pool is an allocator (ACCOUNTING.md, "sync.Pool and free lists").
// A Get that the serial run serves with an object a goroutine put back
// may, in a parallel schedule, find the pool empty and make New allocate
// another: p tasks in progress hold p objects where the serial run held
// one. So a Put is the free of the object it puts back, and a Get that reuses one
// is an allocation of it (its size as poolSize reads it) at the Get's
// line, freed again at its next Put. At an object's first Put, the
// records of its parts that rtlib tracks (objects of at least
// SPGO_TRACK bytes, found by address) are freed there and leave the
// census's accounts; while the object is in its pool or out again by a
// reuse, its released bytes are live in the heap but no one's in the
// model (pools.held, which a census subtracts). Parts rtlib does not
// track (small ones, those made by uninstrumented code) stay charged
// where they were made: the root's poolOver bytes, by which the figures
// may be high. An object whose size rtlib cannot read (it reaches a map,
// a channel) leaves the root with no bound when a Get reuses it while
// others may run.
//
// rtlib's collections must not change what the program does: a
// collection moves a pool's objects to its victim cache and drops those
// already there, so the program would call New more often under
// instrumentation than without it. Every census therefore takes the
// objects out of the pools instrumented code used before its collection
// and puts them back after it, in the order Get would have returned them
// (acct_pool_drain.go).

// pools holds, by the address the interface holds (its data word), the
// objects instrumented code put into a sync.Pool (in) and those a Get
// reused, charged as in use until their Put (inUse).
var pools struct {
	in    table[uintptr, poolIn]
	inUse table[uintptr, poolUse]
	held  int64 // released bytes of the objects in in and inUse
}

// poolIn is an object in a pool: its size n (−1: not readable), the
// tracked bytes released at its first Put, and whether it is still
// alive (a census forgets it once it is not: a collection outside
// rtlib's dropped it from its pool, or the program dropped its free
// list).
type poolIn struct {
	n, rel int64
	wp     weak.Pointer[byte]
}

// poolUse is an object a Get reused, charged as allocated by task d in
// epoch ep at site, n bytes; rtlib keeps it alive (obj) so that its
// address is not another object's before its Put.
type poolUse struct {
	obj  unsafe.Pointer
	d    *dnode
	site Site
	ep   int64
	rs   int32
	n    int64
	rel  int64
}

func init() {
	pools.in = newTable[uintptr, poolIn](poolHash)
	pools.inUse = newTable[uintptr, poolUse](poolHash)
	poolsKnown.at = newTable[uintptr, struct{}](poolHash)
}

// poolHash hashes an object's address.
func poolHash(a uintptr) uintptr { return a >> 4 }

// PoolGet is p.Get() at site.
func PoolGet(site Site, p *sync.Pool) any {
	x := p.Get()
	if inBubble() {
		return x
	}
	held()
	poolKnow(p)
	d := holderDnode()
	if d != nil && !d.detached {
		d.root.poolGets++
	}
	if x != nil && poolTake(site, dataWord(x), d, false) && d != nil && !d.detached {
		d.root.poolReused++
	}
	return x
}

// poolTake is a Get (or a receive from a free list, acct_freelist.go)
// that took the object at k while d runs: when instrumented code put it
// back (taken), it is charged to d as allocated at site until its next
// Put. blocking says the receive waited for it (see chanRecvd).
func poolTake(site Site, k uintptr, d *dnode, blocking bool) (taken bool) {
	in, ok := pools.in.get(k)
	if !ok {
		return false // made by New, or put back by uninstrumented code or before the root
	}
	pools.in.del(k)
	if d == nil || d.detached {
		pools.held -= in.rel // out of the pool, no one's
		return true
	}
	stackSeen(d) // before the reasons and tables below may go deep
	defer stackBeat()
	r := d.root
	others := d != r.top || r.top.liveKids > 0
	if in.n < 0 {
		pools.held -= in.rel
		if !r.poolSeen && others {
			r.poolSeen, r.unbounded = true, true
			r.reasonAt(site, "an object put back into a sync.Pool or a free list was reused; in a parallel schedule the Get can find it empty and allocate another, whose size rtlib cannot read (it reaches a map, a channel or a function): the figures may be too low")
		}
		return true
	}
	if blocking && others && !r.freeWaitSeen {
		r.freeWaitSeen = true
		r.reasonAt(site, "a receive that waits took an object from a channel used as a free list (received from without waiting elsewhere): it is charged as allocated until it is sent back, as a receive that does not wait would be, but a schedule holds no more such objects than were made, so the figures may be high")
	}
	site = pathKey(site)
	r.siteAlloc(site, in.n)
	d.add(site, in.n)
	mem.since += in.n
	mem.proven += in.n // its death is its Put
	heldPut(&pools.inUse, k, poolUse{obj: heapAddr(k), d: d, site: site, ep: d.epoch, rs: recStrand(d), n: in.n, rel: in.rel})
	return true
}

// PoolPut is p.Put(x).
func PoolPut(p *sync.Pool, x any) {
	if x != nil && !inBubble() {
		held()
		poolKnow(p)
		poolPut(dataWord(x), x, true)
	}
	p.Put(x)
}

// poolPut charges the free of x, the object at k, going back into its
// pool or free list; boxed says x's interface box is the program's (a
// sync.Pool's Put of a value that is not a pointer), part of what a
// parallel schedule's New would allocate again.
func poolPut(k uintptr, x any, boxed bool) {
	c := holderDnode()
	if c != nil {
		stackSeen(c) // before poolSize's walk goes deep
		defer stackBeat()
	}
	in := poolIn{n: -1}
	if u, ok := pools.inUse.get(k); ok {
		pools.inUse.del(k)
		poolFree(c, u)
		in = poolIn{n: u.n, rel: u.rel}
	} else if _, ok := pools.in.get(k); ok || !mem.on {
		return // put twice, or no root has begun
	}
	n, ok := poolSize(x, boxed)
	if !ok {
		n = -1
	}
	if n != in.n && c != nil && !c.detached {
		// Its first Put, or it grew while out: free the parts rtlib
		// tracks where they are put back.
		rel := poolRelease(c, poolSeen)
		in.rel += rel
		pools.held += rel
		if n >= 0 {
			c.root.poolOver += max(0, n-max(in.n, 0)-rel)
		}
	}
	poolSeen = poolSeen[:0]
	in.n = n
	in.wp = weak.Make((*byte)(heapAddr(k)))
	mem.own += 16 // the weak handle, as allocp's
	heldPut(&pools.in, k, in)
}

// poolsPrune is called by a census after its collection: it forgets
// the objects put back that died (a collection outside rtlib's dropped
// them from their pool, or the program its free list) and their
// released bytes, which the live heap no longer holds.
func poolsPrune() {
	pruneDead(&pools.in, func(v poolIn) bool { return v.wp.Value() == nil }, func(v poolIn) { pools.held -= v.rel })
}

// pruneDead deletes the entries of t that dead says died, calling drop
// (if not nil) on each first.
func pruneDead[V any](t *table[uintptr, V], dead func(V) bool, drop func(V)) {
	gone := pruneScratch[:0]
	for _, s := range t.slots {
		if s.used && dead(s.val) {
			gone = ownAppend(gone, s.key)
		}
	}
	for _, k := range gone {
		if drop != nil {
			drop(t.at(k))
		}
		t.del(k)
	}
	pruneScratch = gone[:0]
}

// pruneScratch is pruneDead's list of addresses, reused.
var pruneScratch []uintptr

// poolRelease frees, in c, the tracked objects of c's root at the
// addresses of addrs (the parts of an object put back into a pool), and
// returns their bytes.
func poolRelease(c *dnode, addrs []uintptr) (rel int64) {
	keep := mem.objs[:0]
	for _, o := range mem.objs {
		if o.dn.root == c.root && !o.dn.detached && contains(addrs, uintptr(unsafe.Pointer(o.wp.Value()))) {
			rel += o.bytes
			mem.trackLive -= o.bytes
			o.dn.bigLive -= o.bytes
			freeNow(c, o.dn, o.ep, o.rs, o.site, o.bytes)
			continue
		}
		keep = append(keep, o)
	}
	clear(mem.objs[len(keep):])
	mem.objs = keep
	return rel
}

// contains reports whether a is in s.
func contains(s []uintptr, a uintptr) bool {
	for _, b := range s {
		if a == b && a != 0 {
			return true
		}
	}
	return false
}

// poolFree charges the free of the object u a Get reused, put back while
// c runs.
func poolFree(c *dnode, u poolUse) {
	if c == nil || c.detached || u.d.detached || u.d.root != c.root {
		return // its root ended: not this root's
	}
	freeNow(c, u.d, u.ep, u.rs, u.site, u.n)
}

// freeNow charges, while c runs, the death of n bytes that task dn
// allocated at site in epoch ep, known to happen now (not found by a
// census: no lateness): in c's strand when dn's allocation precedes it,
// else at the join where they meet.
func freeNow(c, dn *dnode, ep int64, rs int32, site Site, n int64) {
	now, s, depth := where(c, dn, ep)
	if !now && s == nil {
		return // another root's
	}
	now, s, _ = later(charge{now, s, depth, -1}, charge{now: true, census: -1})
	switch {
	case now:
		c.add(site, -n)
	case s != nil:
		s.deferFree(c, site, n, -1, rs)
		c.root.late += n
	}
}

// poolReason says why r's figures may be high by its poolOver bytes,
// when they are more than the slack of its largest figure top.
func (r *proot) poolReason(top int64) string {
	if r.poolOver <= slackOf(top) {
		return ""
	}
	return fmt.Sprintf("%d bytes of objects put back into a sync.Pool are parts rtlib does not track (small ones, or made by uninstrumented code): they stay charged where they were made while the pool holds them, and a Get that reuses them charges them again, so the figures may be high by that much", r.poolOver)
}

// dataWord is the data word of the interface value x: the address of the
// object it holds (or of its box).
func dataWord(x any) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1])
}
