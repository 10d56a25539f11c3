package rtlib

import (
	"fmt"
	"unsafe"

	"github.com/spgo/spgo/rtlib/mhwm"
)

// The DAG as the engine sees it. mhwm.Engine wants the events of one
// root in child-first serial order, strictly nested: a spawned child's
// whole life between the parent's Spawn and the parent's next event.
// The baton gives that order as long as nothing blocks; when a child
// blocks and its parent (or anyone else) runs on, the events of the
// tasks that are not next in that order are buffered in their dnode and
// fed when the order reaches them ("the frontier").
//
// Blocking does not end a strand for the engine: strands of one task
// separated only by blocking operations are in series, and series
// strands are one strand to every water mark. The structure the engine
// sees is the series-parallel relaxation of the run: fork at each spawn,
// join at a Wait that waits for everything the scope has outstanding,
// channel and mutex edges dropped (dropping edges adds schedules: the
// figures are upper bounds). Joins that would not be sound are delayed
// (see join).

// itemKind is one buffered event.
type itemKind uint8

const (
	itSeg        itemKind = iota // allocations and frees: arena[a:b]
	itSpawn                      // the child's events follow
	itReturn                     // the task ended
	itSync                       // join of the top scope's block
	itCall                       // a called function's scope opens
	itCallReturn                 // it closes
	itLimit                      // SetLimit(n) for the top scope's next block
)

type item struct {
	kind  itemKind
	a, b  int32
	n     int
	child *dnode
}

// scope is one engine frame of a task: the task's own (scopes[0]) or a
// called function's that spawns (Enter).
type scope struct {
	site    Site
	level   int32            // its index in the task's scopes
	kids    []*dnode         // spawned in the open block, not yet joined
	escaped bool             // its function returned with kids outstanding
	pending []mhwm.SiteBytes // frees deferred to the block's join
	pendRec []recDeath       // pending's census and strand in a trace being recorded
	limit   int              // errgroup limit for the next block
	lgroup  any              // the group the limit belongs to
	big     int64            // bytes of tracked objects the task allocated while it was the top scope
}

// dnode is one task's part of a root's DAG, from its fork to its end.
type dnode struct {
	root   *proot
	parent *dnode
	jump   *dnode // an ancestor further up, for ancestors in O(log depth) (sched_ancestor.go)
	pscope *scope // the parent's scope the fork happened in
	forkEp int64  // the parent's epoch after the fork
	depth  int32
	site   Site

	group    any   // the WaitGroup or errgroup that waits for it
	doneAt   int64 // epoch at its Done (-1: none)
	finished bool  // its function ended
	escapes  bool  // it ended with descendants not joined inside it
	liveKids int32 // children whose subtree has unfinished dnodes (sched_ancestor.go)
	joined   bool  // joined into parent (engine-level) at parent epoch joinEp
	waited   bool  // a Wait on its group found it complete; the join may be delayed
	joinEp   int64
	detached bool // forced to end at the end of its root
	sub      bool // a parallel subtest's part, ended by SubEnd (dag_window.go)

	epoch  int64 // spawns so far
	scopes []*scope

	// Feeding.
	direct bool // at the frontier: events go to the engine at once
	items  []item
	pos    int
	arena  []mhwm.SiteBytes

	// The open segment: blocks of allocations and of frees, each summed
	// by site (order inside a block does not change any water mark).
	seg      []mhwm.SiteBytes
	segStamp uint32 // block stamp for slot lookups
	segSign  int8

	lastSite  Site   // the last instrumented site it ran (attribution of uninstrumented bytes)
	extSite   Site   // the last external call it marked (At) since the last reading, 0: none
	smallSite Site   // the same since the last census (small objects are read then)
	ranIn     uint32 // the census interval it last ran program code in
	ranEp     int64  // its epoch then (the latest strand that ran)
	bigLive   int64  // bytes of its tracked objects not found dead
	pooled    int64  // bytes of its pool chunks not found dead
	strand    uint64 // strands so far: spawns, joins, its end, and switches away from it
	received  int64  // bytes its joined kids held at their joins, since its last census
	censused  bool   // a census ran while it held the baton
	poolEp    uint32
	spawned   int64      // bytes its go statement allocated that live to its end (descriptor, closure): freeGoroutine
	started   int64      // bytes its go statement allocated that die when it starts (dagStart)
	frame     []frameObj // heap objects that die with a running function's frame (acct_frame.go)
	stack     int64      // its goroutine's starting stack, until freed (acct_stack.go)
	model     int64      // its stack as modelled: stack and the growth seen
	gp        uintptr    // its goroutine's g, from its start
	pLo, pHi  uintptr    // its stack's bounds when last seen
	pSize     uintptr    // its size when last painted
	pTop      uintptr    // the paint is [pLo, pTop)
	pFresh    bool       // nothing but the program's code ran since the paint
	framed    bool       // in mem.framed

	rec *recTask // its strands, when recorded for simulation (rec.go)

	// lift's answer for the census liftGen.
	liftGen uint32
	liftDn  *dnode
	liftEp  int64
}

// dnodeBytes is what newDnode allocates (the dnode, its scope and the
// scope list), rtlib's own memory, not the program's.
var dnodeBytes = roundSize(int64(unsafe.Sizeof(dnode{}))) + roundSize(int64(unsafe.Sizeof(scope{}))) + 8

func newDnode(r *proot, parent *dnode, site Site) *dnode {
	mem.own += dnodeBytes
	d := &dnode{root: r, parent: parent, site: site, doneAt: -1, lastSite: site}
	d.scopes = []*scope{{site: site}}
	d.newBlock()
	if parent != nil {
		d.depth = parent.depth + 1
		d.jump = jumpFor(parent)
		d.pscope = parent.top()
		parent.epoch++
		d.forkEp = parent.epoch
		parent.liveKids++
		d.pscope.kids = ownAppend(d.pscope.kids, d)
	}
	return d
}

func (d *dnode) top() *scope { return d.scopes[len(d.scopes)-1] }

// newBlock starts a new block of the open segment.
func (d *dnode) newBlock() {
	mem.stamp++
	d.segStamp = mem.stamp
	d.segSign = 0
}

// add records n bytes (negative: a free) at site in the open segment.
func (d *dnode) add(site Site, n int64) {
	if n == 0 {
		return
	}
	if d.rec != nil && site != stackSite {
		recAdd(d, site, n)
	}
	sign := int8(1)
	if n < 0 {
		sign = -1
	}
	if sign != d.segSign {
		if d.segSign != 0 {
			d.newBlock()
		}
		d.segSign = sign
	}
	if int(site) < len(mem.slots) {
		s := &mem.slots[site]
		if s.stamp == d.segStamp && int(s.idx) < len(d.seg) && d.seg[s.idx].Site == mhwm.Site(site) {
			d.seg[s.idx].Bytes += n
			return
		}
		s.stamp, s.idx = d.segStamp, int32(len(d.seg))
	}
	if d.direct && len(d.seg) >= segFeed {
		// At the frontier the engine takes the segment as it comes: a
		// strand that alternates allocations and frees (one census after
		// another) would otherwise hold rtlib memory that grows with its
		// length, read as the program's at the next census.
		d.root.feedSeg(d.seg)
		clear(d.seg)
		d.seg = d.seg[:0]
		d.newBlock()
		d.segSign = sign
	}
	d.seg = ownAppend(d.seg, mhwm.SiteBytes{Site: mhwm.Site(site), Bytes: n})
}

// segFeed is how many entries the open segment of a task at the frontier
// holds before they go to the engine.
const segFeed = 256

// emit hands ev to the engine if d is at the frontier, else buffers it;
// the open segment goes first.
func (d *dnode) emit(ev item) {
	if d.detached {
		return
	}
	switch ev.kind {
	case itSpawn, itSync, itReturn:
		// Work of other tasks may run between the strands on either
		// side (Call, CallReturn and SetLimit are series boundaries: a
		// free moved across one is as late as one inside a strand).
		carry(d)
		d.strand++
	}
	r := d.root
	if d.direct {
		r.feedSeg(d.seg)
		d.seg = d.seg[:0]
		d.newBlock()
		r.apply(d, ev)
		return
	}
	if len(d.seg) > 0 {
		a := int32(len(d.arena))
		d.arena = ownAppend(d.arena, d.seg...)
		d.items = ownAppend(d.items, item{kind: itSeg, a: a, b: int32(len(d.arena))})
		d.seg = d.seg[:0]
	}
	d.newBlock()
	d.items = ownAppend(d.items, ev)
}

// apply feeds one event of d, which is at the frontier, to the engine
// and moves the frontier.
func (r *proot) apply(d *dnode, ev item) {
	switch ev.kind {
	case itSpawn:
		r.both((*mhwm.Engine).Spawn)
		d.direct = false
		r.drain(ev.child)
	case itReturn:
		r.both((*mhwm.Engine).Return)
		d.direct = false
		r.drain(d.parent)
	default:
		r.feed(d, ev)
	}
}

// feed gives the engine an event that does not move the frontier.
func (r *proot) feed(d *dnode, ev item) {
	switch ev.kind {
	case itSeg:
		r.feedSeg(d.arena[ev.a:ev.b])
	case itSync:
		r.both((*mhwm.Engine).Sync)
	case itCall:
		r.both((*mhwm.Engine).Call)
	case itCallReturn:
		r.both((*mhwm.Engine).CallReturn)
	case itLimit:
		r.both(func(e *mhwm.Engine) error { return e.SetLimit(ev.n) })
	}
}

// drain feeds the buffered events of x and, through its spawns and
// returns, of whatever follows in serial order, until it reaches a task
// whose next events have not happened yet: that one becomes the
// frontier.
func (r *proot) drain(x *dnode) {
	for x != nil {
		if x.pos < len(x.items) {
			ev := x.items[x.pos]
			x.pos++
			switch ev.kind {
			case itSpawn:
				r.both((*mhwm.Engine).Spawn)
				x = ev.child
			case itReturn:
				r.both((*mhwm.Engine).Return)
				x.items, x.arena = nil, nil
				x = x.parent
			default:
				r.feed(x, ev)
			}
			continue
		}
		x.items, x.pos, x.arena = x.items[:0], 0, x.arena[:0]
		x.direct = true
		r.front = x
		return
	}
}

// both gives event to the heap engine and to the total, if any.
func (r *proot) both(event func(*mhwm.Engine) error) {
	r.check(event(r.eng))
	if r.tot != nil {
		r.check(event(r.tot))
	}
}

// feedSeg gives the engines one segment's allocations and frees: the
// heap engine all but the stacks', the total all.
func (r *proot) feedSeg(seg []mhwm.SiteBytes) {
	for _, e := range seg {
		if e.Bytes > 0 {
			if e.Site != mhwm.Site(stackSite) {
				r.check(r.eng.Alloc(e.Site, e.Bytes))
			}
			if r.tot != nil {
				r.check(r.tot.Alloc(e.Site, e.Bytes))
			}
		} else if e.Bytes < 0 {
			if e.Site != mhwm.Site(stackSite) {
				r.check(r.eng.Free(e.Site, -e.Bytes))
			}
			if r.tot != nil {
				r.check(r.tot.Free(e.Site, -e.Bytes))
			}
		}
	}
}

// check keeps the engine's first error: it means spgo's own bookkeeping
// is wrong, and the root's figures are not to be trusted.
func (r *proot) check(err error) {
	if err != nil && r.engErr == nil {
		r.engErr = err
		r.unbounded = true
		r.reason(fmt.Sprintf("spgo internal error, figures unreliable: %v", err))
	}
}

// spawn: d forks child at site.
func (d *dnode) spawn(site Site) *dnode {
	c := newDnode(d.root, d, site)
	c.direct = false
	d.emit(item{kind: itSpawn, child: c})
	return c
}

// ret: d's function ended. Its scopes close (a called function's scope
// left open because goroutines it spawned outlived it, and the task's
// own block): the engine joins every child of a task at its end. That is
// sound because the parent's join of d waits until d's subtree is
// complete, and d is marked as escaping when it leaves children behind.
func (d *dnode) ret() {
	if d.finished || d.detached {
		return
	}
	for i := len(d.scopes) - 1; i >= 0; i-- {
		s := d.scopes[i]
		if len(s.kids) > 0 {
			for _, k := range s.kids {
				if !k.waited && !k.completeFor(k.group) || k.group == nil {
					d.escapes = true
				}
			}
			d.emit(item{kind: itSync})
			d.joinKids(s)
		}
		if i > 0 {
			d.emit(item{kind: itCallReturn})
		}
		if len(s.pending) > 0 && d.parent != nil {
			d.pscope.pending = ownAppend(d.pscope.pending, s.pending...)
			d.pscope.pendRec = ownAppend(d.pscope.pendRec, s.pendRec...)
			s.pending, s.pendRec = nil, nil
		}
	}
	if len(d.frame) > 0 {
		orphanFrame(d) // its functions still run: the root ended first
	}
	clear(d.scopes[1:]) // the scopes are garbage now: not reachable through the list
	d.scopes = d.scopes[:1]
	d.finished = true
	d.settled()
	if d.parent == nil {
		return // the root: Exit, not Return
	}
	d.emit(item{kind: itReturn})
	d.seg = nil // emitted with the Return, and nothing is added to a finished task
}

// joinKids records that s's open block was joined: its kids' objects
// are the task's from now on.
func (d *dnode) joinKids(s *scope) {
	for _, k := range s.kids {
		k.joined, k.joinEp = true, d.epoch
		d.received += k.bigLive + k.pooled
	}
	clear(s.kids) // a joined kid is reached through the objects it owns, if any (where)
	s.kids = s.kids[:0]
	s.limit = 0 // the engine's limit governed that block only
	recd := len(s.pendRec) == len(s.pending) && recOpenOf(d) != nil
	for i, f := range s.pending {
		// The trace may place the death itself (a free record), perhaps
		// earlier than this join: then it is not one of the strand's.
		rec.mute = recd && Site(f.Site) != stackSite && recFree(d, Site(f.Site), f.Bytes, s.pendRec[i])
		d.add(Site(f.Site), -f.Bytes)
		rec.mute = false
	}
	s.pending, s.pendRec = s.pending[:0], s.pendRec[:0]
}

// complete reports whether k can be joined by a Wait on g: k waits for
// g's Wait (its group), its whole subtree has ended, nothing of it
// escaped, and it spawned nothing after its Done.
func (k *dnode) completeFor(g any) bool {
	return k.group == g && k.subtreeDone() && !k.escapes && (k.doneAt < 0 || k.doneAt == k.epoch)
}

// join: d completed a Wait on group g at site. The engine joins the top
// scope's block when every child outstanding in it is complete for g;
// scopes of functions that returned while their goroutines ran on close
// then too. A Wait that leaves some child outstanding (another group,
// a goroutine that runs on after Done, one never joined) is delayed to
// the next join that covers everything: a sound upper bound, inexact.
func (d *dnode) join(g any, site Site) {
	if d.detached {
		return
	}
	some := false
	for _, s := range d.scopes {
		for _, k := range s.kids {
			if k.group == g {
				some = true
			}
		}
	}
	if !some {
		if d.root.hasForeignMembers(d, g) {
			d.root.reasonAt(site, "a Wait joins goroutines another goroutine spawned; they are joined at the end of the root")
		}
		return
	}
	d.settle(g, site)
}

// settle emits the joins the top scopes allow after a Wait on g (nil:
// only what earlier Waits already allowed).
func (d *dnode) settle(g any, site Site) {
	for len(d.scopes) > 0 {
		s := d.top()
		all := len(s.kids) > 0
		for _, k := range s.kids {
			if !k.completeFor(g) && !k.waited {
				all = false
				break
			}
		}
		if !all && len(s.kids) > 0 {
			for _, k := range s.kids {
				if k.completeFor(g) {
					k.waited = true
				}
			}
			if g != nil {
				d.root.reasonAt(site, d.root.delayReason(s))
			}
			return
		}
		if len(s.kids) > 0 {
			d.emit(item{kind: itSync})
			for _, k := range s.kids {
				d.root.joined(k.group)
			}
			d.joinKids(s)
		}
		if !s.escaped || len(d.scopes) == 1 {
			break
		}
		d.emit(item{kind: itCallReturn})
		d.scopes[len(d.scopes)-1] = nil
		d.scopes = d.scopes[:len(d.scopes)-1]
	}
	// Lower scopes with children this Wait completed: their join waits
	// until the scopes above close.
	if g != nil {
		for _, s := range d.scopes[:len(d.scopes)-1] {
			for _, k := range s.kids {
				if k.completeFor(g) {
					k.waited = true
					d.root.reasonAt(site, "a Wait in a called function joins goroutines its caller spawned; the join is delayed until the function returns")
				}
			}
		}
	}
}

// enter opens a called function's scope.
func (d *dnode) enter(site Site) {
	if d.detached {
		return
	}
	ownAlloc(int64(unsafe.Sizeof(scope{})))
	d.scopes = ownAppend(d.scopes, &scope{site: site, level: int32(len(d.scopes))})
	d.emit(item{kind: itCall})
}

// leave closes the function scope opened by the matching enter. If
// goroutines it spawned are still outstanding, the scope stays open for
// the engine (as if the function's body went on in its caller) until a
// Wait joins them or the task ends.
func (d *dnode) leave(site Site) {
	if d.detached || len(d.scopes) < 2 {
		return
	}
	// The function's scope is the topmost one still open in the source.
	i := len(d.scopes) - 1
	for i > 0 && d.scopes[i].escaped {
		i--
	}
	if i == 0 {
		return
	}
	if i < len(d.scopes)-1 || len(d.scopes[i].kids) > 0 {
		d.scopes[i].escaped = true
		d.settle(nil, site)
		return
	}
	d.emit(item{kind: itCallReturn})
	clear(d.scopes[i:])
	d.scopes = d.scopes[:i]
	d.settle(nil, site)
}

// spawnIn: d forks child at site into group g (nil: not known yet). A
// child of an errgroup with a limit that opens a block gives the block
// the limit; other children in a limited block make it unsound.
func (d *dnode) spawnIn(site Site, g any) *dnode {
	s := d.top()
	r := d.root
	if g != nil {
		if n, ok := r.limits.get(g); ok {
			if len(s.kids) == 0 {
				if n != s.limit {
					d.emit(item{kind: itLimit, n: n})
					s.limit = n
				}
				s.lgroup = g
			} else if s.lgroup != g && n > 0 {
				r.reasonAt(site, "goroutines of a limited errgroup share a block with others; the limit is not modelled for them")
			}
		} else if len(s.kids) > 0 && s.limit > 0 && s.lgroup != g {
			r.reasonAt(site, "goroutines of a limited errgroup share a block with others; the limit may make the figures too low")
			r.unbounded = true
		}
	} else if len(s.kids) > 0 && s.limit > 0 {
		r.reasonAt(site, "goroutines of a limited errgroup share a block with others; the limit may make the figures too low")
		r.unbounded = true
	}
	c := d.spawn(site)
	c.group = g
	if g != nil {
		r.member(g, d)
	}
	return c
}
