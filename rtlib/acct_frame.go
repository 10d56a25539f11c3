package rtlib

import (
	"unsafe"
	"weak"
)

// Deaths the compiler proves (ACCOUNTING.md, "Compiler-proven deaths").
// A heap object that escape analysis says does not escape its function
// (heap only for its size: a make of non-constant size past the 32-byte
// stack buffer, the growth of a slice that does not escape) is dead when
// the function returns or unwinds. The rewriter brackets every function
// that has such sites with
//
//	spgo_fr := rtlib.Mark()
//	defer rtlib.Drop(spgo_fr)
//
// and the hooks put the objects on the running task's frame list; Drop
// charges their deaths at the return, in the strand that returns, with no
// census. An object of at least SPGO_TRACK bytes, and a loop's (again,
// frameMany), also carries a weak pointer and counts in the census rules
// as a tracked object does (a loop's in the census budget too), so that a census finds it
// dead earlier (a scratch dropped in a loop); any other is left out of
// what a census knows to be live, so that a death before the return can
// only delay other deaths, never invent one (see frameCensus). Proven
// dead by the return is not proven live until it: the deaths Drop
// charges count as late as a census's would (frameFree).

// Scratch is a function's mark on its task's frame list: the task's part
// of the DAG and how many frame objects it had at the function's entry.
type Scratch struct {
	d   *dnode
	n   int32
	lvl int32 // the index of the function's scope at its entry (acct_shared.go)
}

// frameObj is a heap object that dies with the frame that allocated it.
type frameObj struct {
	addr  uintptr            // where it is, to find an append's old array
	wp    weak.Pointer[byte] // set for the objects a census watches (allocFrame)
	bytes int64              // 0: its death was charged
	site  Site
	ep    int64
	seen  seen
	at    int64
	iv    uint32 // the census interval of seen and at (mem.interval)
	rs    int32
	share uint8 // shareLocal, shareGo: it may be referred to outside the frame (acct_shared.go)
}

// Mark opens a function's frame on the running task's list; Drop, deferred
// with its result, charges the deaths of the objects allocated since.
func Mark() Scratch {
	if inBubble() {
		return Scratch{}
	}
	held()
	d := holderDnode()
	if d == nil || d.detached {
		return Scratch{}
	}
	return Scratch{d, int32(len(d.frame)), int32(len(d.scopes) - 1)}
}

// Drop charges the deaths of the objects allocated in the frame Mark
// opened: the function returns, or unwinds in a panic.
func Drop(s Scratch) {
	if s.d == nil || inBubble() {
		return
	}
	held() // before the list is read: the end of a root may orphan it
	if int(s.n) < len(s.d.frame) {
		dropFrame(s.d, int(s.n), int(s.lvl))
	}
}

// dropFrame charges the deaths of d's frame objects from index from on,
// whose frames are gone, and takes them off the list; lvl is the index of
// the scope of the outermost function returning (dropShared).
func dropFrame(d *dnode, from, lvl int) {
	c := holderDnode()
	for i := len(d.frame) - 1; i >= from; i-- {
		if o := &d.frame[i]; o.bytes > 0 {
			if o.share != 0 {
				dropShared(c, d, o, lvl)
				continue
			}
			frameFree(c, d, o, false)
		}
	}
	clear(d.frame[from:])
	d.frame = d.frame[:from]
}

// frameFree charges the death of d's frame object o, dead now, while c
// runs: in c's running strand when d is c (the function returned in it),
// else where a death found now belongs (free). alive says that o was
// live until now (an append's old array, referred to until the growth);
// otherwise the compiler proved only that it is dead by now: it may have
// died at any point since it was last seen live, and the charge counts
// as late as a census's would (lateNow), so that the interval allows for
// it.
func frameFree(c, d *dnode, o *frameObj, alive bool) {
	n := o.bytes
	o.bytes = 0
	frameGone(d, o, n)
	switch {
	case c == nil || c.detached || d.detached || d.finished || !mem.on:
		// Not this root's any more: its bytes went with the root.
	case c == d:
		c.add(o.site, -n)
		switch {
		case alive:
		case o.iv != mem.interval:
			// Last seen live before a census that could not watch it: the
			// strand's bytes since then are no bound on its lateness.
			c.root.late += n
		default:
			lateNow(c, o.seen, o.at, n)
		}
	default:
		free(c, d, o.ep, o.seen, o.at, o.rs, o.site, n, charge{now: true, census: -1})
	}
}

// frameGone takes n bytes of d's frame object o off the totals of live
// frame objects.
func frameGone(d *dnode, o *frameObj, n int64) {
	mem.frameLive -= n
	if o.wp != (weak.Pointer[byte]{}) {
		mem.frameBig -= n
		d.bigLive -= n
	}
}

// orphanFrame gives up d's frame objects when d ends with its functions
// still running (its root ended first): their deaths are not d's root's,
// and their bytes are nobody's from now on.
func orphanFrame(d *dnode) {
	for i := range d.frame {
		if o := &d.frame[i]; o.bytes > 0 {
			frameGone(d, o, o.bytes)
			mem.orphan += o.bytes
			o.bytes = 0
		}
	}
	clear(d.frame)
	d.frame = nil
}

// allocFrame charges n bytes at site, the object at addr, which the
// compiler proved dies with the running function's frame; prev is the
// address of the array the object replaces, if it dies now (an owned
// append's old array), else 0; share is its frame-shared kind
// (acct_shared.go), 0 for none; turn, when set, marks the frame of a
// loop whose turn made the object (SmallSliceTurn): the object the site
// made in the turn before is dead, and is charged so first. It is not
// inlined: pathKey leaves its frame out by position, as allocp's.
//
//go:noinline
func allocFrame(site Site, n int64, addr, prev uintptr, share uint8, turn Scratch) {
	d, n := allocHolder(site, n)
	if d == nil {
		return
	}
	site = pathKey(site) // the site and its call path (prof_paths.go)
	if turn.d != nil && turn.d == d {
		turnOver(d, int(turn.n), site)
	}
	// A loop's objects (the site's last one still on the list, or many
	// objects at once) may die long before the return (a scratch per
	// turn): such an object carries a weak pointer and counts in the
	// census budget and rules, so that censuses find those deaths as they
	// find tracked objects'. Others need no census: their deaths are
	// proven. Deaths of other objects before a large allocation still do
	// (bigAlloc).
	watch := share == 0 && (len(d.frame) >= frameMany || again(d, site, prev))
	if cfg.census == censusOracle || watch && mem.since-mem.proven+n >= mem.budget && cfg.census != censusOff || bigAlloc(d, n) {
		census(d, n)
	}
	d.lastSite = site
	d.root.siteAlloc(site, n)
	d.add(site, n)
	mem.since += n
	if !watch {
		mem.proven += n
	}
	o := frameObj{addr: addr, bytes: n, site: site, ep: d.epoch, seen: seenNow(d), at: mem.since, iv: mem.interval, rs: recStrand(d), share: share}
	if (n >= cfg.track || watch) && cfg.census != censusOff {
		o.wp = weak.Make((*byte)(heapAddr(addr)))
		mem.own += 16
		mem.frameBig += n
		d.bigLive += n
		if !d.framed {
			d.framed = true
			mem.framed = ownAppend(mem.framed, d)
		}
	}
	mem.frameLive += n
	d.frame = ownAppend(d.frame, o)
	hb.Store(int32(site)) // last: see beat
}

// turnOver charges the death of the newest object at site among d's frame
// objects from index from on (of the function whose loop turns), if one
// of the newest frameLook is: its variable went with its turn.
func turnOver(d *dnode, from int, site Site) {
	for i := len(d.frame) - 1; i >= max(from, len(d.frame)-frameLook); i-- {
		if o := &d.frame[i]; o.site == site && o.bytes > 0 {
			frameFree(d, d, o, false)
			break
		}
	}
	// The list keeps no charged-off objects at its end: one per turn
	// would fill it (and make every object after the 64th watched).
	for len(d.frame) > from && d.frame[len(d.frame)-1].bytes == 0 {
		d.frame[len(d.frame)-1] = frameObj{}
		d.frame = d.frame[:len(d.frame)-1]
	}
}

// frameMany is how many objects a task's frame list holds before new ones
// are watched by censuses as well (allocFrame).
const frameMany = 64

// again reports whether one of the newest objects on d's frame list,
// still charged and not at prev, was allocated at site: the site is in a
// loop (or a recursion) of the running function.
func again(d *dnode, site Site, prev uintptr) bool {
	for i := len(d.frame) - 1; i >= max(0, len(d.frame)-frameLook); i-- {
		if o := &d.frame[i]; o.site == site && o.bytes > 0 && o.addr != prev {
			return true
		}
	}
	return false
}

// frameLook is how many of the newest frame objects again looks at.
const frameLook = 8

// frameOld charges the death of the frame object at addr, an append's
// old array that the append's variable alone referred to, among the
// objects of the frame s marks; it is the newest at that address (an
// older one there died before it was allocated).
func frameOld(s Scratch, addr uintptr) {
	d := s.d
	if d == nil || d != holderDnode() {
		return
	}
	for i := len(d.frame) - 1; i >= int(s.n); i-- {
		if o := &d.frame[i]; o.addr == addr {
			if o.bytes > 0 {
				frameFree(d, d, o, true)
			}
			return
		}
	}
}

// frameCensus is a census's look at the frame objects that carry weak
// pointers: a dead one's death is charged as a tracked object's (free),
// a live one is seen live now. It returns the live bytes of c's root.
func frameCensus(c *dnode, pending int64, b charge) (rootLive int64) {
	keep := mem.framed[:0]
	for _, d := range mem.framed {
		big := false
		for i := range d.frame {
			o := &d.frame[i]
			if o.bytes == 0 || o.wp == (weak.Pointer[byte]{}) {
				continue
			}
			if o.wp.Value() != nil {
				o.seen, o.at, o.iv = seenNow(c), pending, mem.interval
				if d.root == c.root {
					rootLive += o.bytes
				}
				big = true
				continue
			}
			n := o.bytes
			o.bytes = 0
			frameGone(d, o, n)
			if !d.detached {
				free(c, d, o.ep, o.seen, o.at, o.rs, o.site, n, b)
			}
		}
		if big {
			keep = append(keep, d)
		} else {
			d.framed = false
		}
	}
	clear(mem.framed[len(keep):])
	mem.framed = keep
	return rootLive
}

// grown sees the old backing array p of a growing append live right
// after the new one was charged: the oracle finds its death no earlier,
// so a census that finds it dead charges it in the strand without
// lateness. The array is among the newest tracked objects when it is
// tracked; older ones are not looked for.
func grown(p unsafe.Pointer) {
	if d := holderDnode(); d != nil {
		grownAt(d, uintptr(p))
	}
}

// grownAt is grown for the object at address a, while d runs; it
// reports whether it found a tracked object there.
func grownAt(d *dnode, a uintptr) bool {
	for i := len(mem.objs) - 1; i >= max(0, len(mem.objs)-grownLook); i-- {
		if o := &mem.objs[i]; uintptr(unsafe.Pointer(o.wp.Value())) == a {
			o.seen, o.at = seenNow(d), mem.since
			return true
		}
	}
	return false
}

// grownLook is how many of the newest tracked objects grown looks at.
const grownLook = 8
