package rtlib

import (
	"bytes"
	"strings"
	"unsafe"
	"weak"
)

// bytes.Buffer and strings.Builder grow inside the standard library: a
// growth allocates a new array while the old one is live and drops the
// old one (unless a String or Bytes result still refers to it). rtlib
// reads large objects by uninstrumented code at baton switches and
// censuses only, so a strand that grew a buffer many times was charged
// the sum of its arrays at once, and a census found the old ones dead
// later, in the same strand: the figures were high by up to the last
// array, and the oracle, blind inside the library, agreed.
//
// The rewriter calls BufSeen or BuilderSeen after every statement that
// may grow a buffer (a method that writes to it, the buffer given to a
// call). When the buffer's array is not the one last seen and is large
// (above maxSmall), rtlib reads the large bytes allocated since the last
// reading: if they hold the new array, they are charged at the
// statement's line as always, and the array's part becomes a tracked
// object (a weak pointer), whose death a census finds; the old array is
// seen live at this point (grown), and a census may run right after, so
// that it finds the old array dead with the new one charged: when the
// budget says so, or the arrays replaced since the last census reach
// 64 KiB or 1/256 of the live bytes (grownCensus). A small
// array (of at least SPGO_TRACK bytes) is charged the same way, as
// hooked bytes that the next census's reading of small objects leaves
// out, when no census ran since the buffer was last seen (one would
// have read it); smaller ones are left to that reading.

// bufs holds, by the buffer's address, the array each buffer had when
// last seen; a census forgets those whose array died.
var bufs = newTable[uintptr, bufState](poolHash)

// bufState is a buffer's array: its address and a weak pointer to it,
// and how many censuses had run when the buffer was last seen.
type bufState struct {
	base   uintptr
	n      int64 // its size, rounded
	wp     weak.Pointer[byte]
	census int64
}

// BufSeen is called after a statement that may have grown b.
func BufSeen(site Site, b *bytes.Buffer) {
	if b == nil {
		return
	}
	c := b.Cap()
	if int64(c) < cfg.track || inBubble() {
		return
	}
	bs := b.Bytes() // b's array from its read offset on
	if cap(bs) == 0 {
		return // all read: the slice's pointer is not the array's
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(bs))) - uintptr(c-cap(bs))
	if onStack(base) {
		return // bytes.NewBuffer of an array the compiler kept on the stack: no weak pointer to it
	}
	bufGrew(site, uintptr(unsafe.Pointer(b)), base, int64(c))
}

// onStack reports whether a is on the running goroutine's stack, or
// whether rtlib cannot tell (no getg on this platform).
func onStack(a uintptr) bool {
	g := getg()
	if g == nil {
		return true
	}
	lo, hi := stackBounds(g)
	return lo <= a && a < hi
}

// BuilderSeen is called after a statement that may have grown b.
func BuilderSeen(site Site, b *strings.Builder) {
	if b == nil {
		return
	}
	c := b.Cap()
	if int64(c) < cfg.track || b.Len() == 0 || inBubble() {
		return
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(b.String()))) // shares b's array
	bufGrew(site, uintptr(unsafe.Pointer(b)), base, int64(c))
}

// bufGrew notes that the buffer at key has the array at base, of n
// bytes, and charges it if it is new (see above).
func bufGrew(site Site, key, base uintptr, n int64) {
	held()
	i := bufs.find(key)
	var st bufState
	if i >= 0 {
		st = bufs.slots[i].val
		if st.base == base {
			bufs.slots[i].val.census = mem.censuses
			return
		}
	}
	wp := weak.Make((*byte)(heapAddr(base)))
	mem.own += 16 // the weak handle, as allocp's
	heldPut(&bufs, key, bufState{base: base, n: roundSize(n), wp: wp, census: mem.censuses})
	d := holderDnode()
	if d == nil || d.detached || cfg.census == censusOff {
		return
	}
	stackSeen(d) // before the reading goes deep
	defer stackBeat()
	n = roundSize(n)
	var at Site
	if n <= maxSmall {
		// Small objects are read at censuses only: one since the buffer
		// was last seen may have read this array already.
		if i < 0 || st.census != mem.censuses {
			return
		}
		at = chargeHooked(d, site, n)
	} else {
		var delta int64
		if at, delta = readLarge(d); delta < n {
			return // read before: charged, as an uninstrumented allocation, then
		}
		unpool(d, at, n)
	}
	trackObj(d, wp, n, at, nil)
	if i >= 0 && grownAt(d, st.base) { // live until the growth
		mem.grown += st.n
	}
	if grownDue() || bigAlloc(d, n) {
		census(d, 0) // the old arrays' deaths, after the new one is charged
	}
}

// unpool takes n bytes out of d's chunk at site in its current strand
// (the chunk a reading just charged): they become a tracked object.
func unpool(d *dnode, site Site, n int64) {
	for i := len(mem.pool) - 1; i >= 0; i-- {
		c := &mem.pool[i]
		if c.dn == d && c.site == site && c.seen == seenNow(d) && c.bytes >= n {
			c.bytes -= n
			d.pooled -= n
			mem.poolLive -= n
			return
		}
	}
}

// grownCensus is how many bytes of arrays replaced by a buffer's growth
// (likely dead, but a String or Bytes result may refer to them) may wait
// for a census, at least: each is found dead late by what was allocated
// after its growth, in its strand, and a census after every growth would
// cost a collection each.
const grownCensus = 64 << 10

// grownDue reports whether a census is due right after a growth (a
// buffer's, a map's): every hook's under the oracle, the budget spent,
// or the replaced arrays waiting past grownCensus.
func grownDue() bool {
	return cfg.census == censusOracle || mem.since-mem.proven >= mem.budget || mem.grown >= max(grownCensus, mem.live/256)
}

// bufsPrune is called by a census after its collection: it forgets the
// buffers whose array died.
func bufsPrune() {
	pruneDead(&bufs, func(v bufState) bool { return v.wp.Value() == nil }, nil)
}

// chargeHooked charges n bytes that uninstrumented code allocated where
// rtlib saw them (a growth) to d at site, as a hook would, without a
// census first (the parts they replace must still count), and returns
// the site with its call path. The next reading of runtime/metrics
// leaves them out.
func chargeHooked(d *dnode, site Site, n int64) Site {
	hook(n, n > maxSmall)
	site = pathKey(site)
	d.root.siteAlloc(site, n)
	d.add(site, n)
	mem.since += n
	return site
}

// chargeGrowth is chargeHooked for the part at p of the map owner,
// tracked when it is large enough.
func chargeGrowth(d *dnode, site Site, n int64, p uintptr, owner *mapState) {
	site = chargeHooked(d, site, n)
	if n < cfg.track {
		d.pool(site, n)
		return
	}
	trackObj(d, weak.Make((*byte)(heapAddr(p))), n, site, owner)
	mem.own += 16
}
