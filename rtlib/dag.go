package rtlib

import "unsafe"

// The DAG events. The scheduler calls these at every point where the
// series-parallel DAG (and its non-SP channel edges) changes; they feed
// the dnodes of dag_node.go and the accounting of acct.go. Every call but
// dagAcquire and dagBlock is made by the baton holder (or by a goroutine
// about to take the baton), so the events arrive in the baton's serial
// order. Calls marked "sched.mu held" are made with the scheduler's lock
// held: they must not call back into the scheduler.

// dagFork: parent spawns child at site into group g (nil: not known
// yet). sched.mu held. mhwm: Spawn.
func dagFork(parent, child *Task, site Site, g any) {
	if parent == nil || parent.dn == nil || parent.dn.detached {
		return
	}
	// The runtime's descriptor of the new goroutine and the go
	// statement's closures, allocated by the go statement in the parent;
	// freed at the child's start or join (dagStart, freeGoroutine). The
	// closures are small allocations runtime/metrics counts too: hooked,
	// they are not read again as uninstrumented bytes.
	closure, args, wrapper := siteClosures(site)
	hook(closure+args, false)
	mem.own += wrapper - closure - args
	// Explained (lagDue) and modelled to their deaths: no census needed.
	mem.since += closure + args
	mem.proven += closure + args
	n := goroutineBytes + closure + args
	parent.dn.add(site, n)
	parent.dn.root.siteAlloc(site, n)
	stack := stackFork(parent.dn)
	child.dn = parent.dn.spawnIn(site, g)
	child.dn.spawned, child.dn.started = goroutineBytes+closure, args
	stackForked(child.dn, stack)
	recFork(parent.dn, child.dn, site, g)
}

// goroutineBytes is the heap bytes the runtime allocates for a goroutine:
// its descriptor (runtime.g, from runtime.malg), which the runtime keeps
// after the goroutine ended and gives to the next one, so that its live
// heap grows by goroutineBytes for every goroutine alive at once.
// TestGoroutineBytes checks it against the running Go.
const goroutineBytes = 480

// freeGoroutine: the goroutine of d ends (or, forked by a TryGo that
// failed, never starts). Its descriptor is free only once the goroutine
// has exited, which may be after a Wait saw its Done: the free is placed
// at the join of d, in the parent, as a death found after d ended.
//
// Unless no Wait can join d any more: its parent ended before it and
// joined it at its end (d.joined; parent.finished implies it). Nothing
// reads the parent's scopes then, and a free deferred there was lost:
// in a chain of goroutines each spawned by the one before (a pool whose
// finished task submits the next), every link kept its descriptor to
// the end of the root (pond: 48 MB of 97.6 MiB at 100 000 tasks). The
// free is then the child's own last act, in its last strand: the
// goroutine exits right after it with no program code in between, and
// a strand that follows its end through an edge the DAG drops (a
// channel, a foreign Wait) is parallel to it, so every order of the two
// is among the schedules MHWM_p covers.
func freeGoroutine(d *dnode) {
	if d.parent == nil || d.finished || d.detached {
		return
	}
	n := d.spawned + d.started // started: it never ran (a TryGo that failed)
	if n == 0 {
		return // no go statement made it (a parallel subtest's part)
	}
	now := d.joined || d.parent.finished
	if now {
		d.add(d.site, -n)
	} else {
		d.pscope.deferFree(d, d.site, n, -1, -1)
	}
	stackFree(d, now)
}

// dagUnfork: a task forked by GroupTryGo was not started after all: it
// ends at once, empty. sched.mu held.
func dagUnfork(t *Task) {
	if t.dn != nil {
		freeGoroutine(t.dn)
		t.dn.ret()
	}
}

// dagStart: the child runs for the first time (Start, holding the baton).
// The go statement's closure of the function value and the arguments is
// dead once the call starts: its death is the child's first act.
func dagStart(t *Task) {
	if t.dn != nil {
		stackStarted(t.dn)
	}
	if d := t.dn; d != nil && d.started > 0 && !d.detached && mem.holder == d {
		d.add(d.site, -d.started)
		d.started = 0
	}
}

// dagReturn: the child ends (Finish), holding the baton. sched.mu held.
// mhwm: Return. What uninstrumented code allocated since the last
// reading is the child's: it is read before the Return, which closes the
// child's part of the DAG (the switch that follows would charge it too
// late, to a task the engine no longer sees).
func dagReturn(t *Task) {
	if d := t.dn; d != nil {
		stackSeen(d) // before rtlib's reading grows it
		if mem.on && mem.holder == d && !d.finished {
			chargeUninstrumented(d)
		}
		if len(d.frame) > 0 {
			dropFrame(d, 0, 0) // its function returned: every frame is gone
		}
		freeGoroutine(d)
		recReturn(d)
		d.ret()
	}
}

// dagDone: t calls Done on wg: wg's Wait waits for it.
func dagDone(t *Task, wg any) {
	d := t.dn
	if d != nil && d.rec != nil {
		recDone(d, wg)
	}
	if d == nil || d.detached || d.parent == nil {
		return
	}
	if d.group == nil {
		d.group = wg
		d.root.member(wg, d.parent)
	}
	if d.group == wg {
		d.doneAt = d.epoch
	}
}

// dagJoin: t completed a Wait or GroupWait on group g at site: it joins
// the children spawned into that group. mhwm: Sync.
func dagJoin(t *Task, g any, site Site) {
	if t.dn != nil {
		// What the strand before the Wait dropped is found in it, not
		// after the join.
		censusAt(t.dn, joinDue)
		recJoin(t.dn, g)
		t.dn.join(g, site)
		joinSeen(t.dn, g)
		if atBoundaries() {
			census(t.dn, 0)
		}
	}
}

// dagLimit: errgroup SetLimit(n) on g by the holder. sched.mu held.
// mhwm: SetLimit.
func dagLimit(g Group, n int) {
	d := holderDnode()
	if d == nil {
		return
	}
	if n > 0 {
		d.root.limits.put(g, n)
	} else {
		d.root.limits.del(g)
	}
}

// dagEnter, dagLeave: the scope of a function that spawns (Enter, Leave).
// mhwm: Call, CallReturn.
func dagEnter(site Site) {
	if d := holderDnode(); d != nil {
		d.enter(site)
	}
}

func dagLeave(site Site) {
	if d := holderDnode(); d != nil {
		censusAt(d, leaveDue)
		d.leave(site)
	}
}

// dagRootBegin: t begins the root at site, holding the baton.
func dagRootBegin(t *Task, site Site) { beginRoot(t, site) }

// dagRootEnd: t ends the root at site, holding the baton; the goroutines
// spawned in it and never joined are joined here; partial says the
// program will not end normally (main called runtime.Goexit). mhwm: Exit.
func dagRootEnd(t *Task, site Site, partial bool) {
	if debugStats {
		rootEndTimed(t, partial)
		return
	}
	endRoot(t, partial)
	writeAtRootEnd()
}

// dagAdopt: a goroutine rtlib did not create (a callback of uninstrumented
// code) becomes task t. sched.mu held. Adopted in a Release window whose
// opener is in a root, it is a callback of the released call (the
// subtest of testing.T.Run): from its first dagAcquire it runs as if the
// call were the callback's body, its events the opener's, on the
// opener's dnode (see dag_window.go). Elsewhere its allocations are
// nobody's until it begins a root.
func dagAdopt(t *Task) {}

// dagBlock: t gives up the baton in a blocking operation, a Sleep, a
// Release or because the watchdog took it. sched.mu held. Blocking does
// not end a strand for the engine (see dag_node.go).
func dagBlock(t *Task) {}

// dagAcquire: t obtains the baton: allocations are t's from here on.
// sched.mu held.
func dagAcquire(t *Task) {
	if t.kind == kGuest && !t.placed {
		t.placed = true
		windowAdopt(t) // here, not at adoption: the root is the holder's to change
	}
	switchTo(t.dn)
}

// dagComm: a rendezvous between the holder h and the parked task p on an
// unbuffered channel. sched.mu held.
func dagComm(h, p *Task) {}

// dagRelease, dagReacquire: t runs a library call that starts other roots
// or callbacks (testing.T.Run and friends) between the two. dagRelease is
// called with sched.mu held.
func dagRelease(t *Task, site Site)              {}
func dagReacquire(t *Task, w *window, site Site) { windowClosed(w, site) }

// commOp records a channel, mutex or Cond operation at site by the
// holder: synchronisation between goroutines that the series-parallel
// DAG does not have. The figures stay sound (the relaxation drops the
// edge, which only adds schedules; frees through it wait for the join)
// but are no longer exact.
func commOp(site Site, what string) {
	d := holderDnode()
	if d == nil || d.detached {
		return
	}
	recCommCensus(d)
	r := d.root
	if r.commSeen || r.top.liveKids == 0 {
		return // no other goroutine of the root is running: nothing to synchronise with
	}
	r.commSeen = true
	r.reasonAt(site, what+" between goroutines: not series-parallel. The figures are the upper bound of the series-parallel relaxation (the edge dropped; memory passed through it is charged until the join)")
}

// siteClosures returns the heap bytes of the closures the go statement
// at site allocates in the original program (SiteInfo.Closure and
// ArgsClosure, each rounded to its size class) and in the instrumented
// one (Wrapper). For WaitGroup.Go and errgroup's Go, Closure and Wrapper
// are the function literal's given to them, 0 for a function value made
// elsewhere.
func siteClosures(site Site) (closure, args, wrapper int64) {
	rec, ok := Lookup(site)
	if !ok || rec.Op != OpGo && rec.Op != OpWGGo && rec.Op != OpGroupGo {
		return 0, 0, 0
	}
	round := func(n int32) int64 {
		if n <= 0 {
			return 0
		}
		return roundSize(int64(n))
	}
	closure = round(rec.Closure)
	if rec.Op == OpWGGo {
		// sync.WaitGroup.Go's own go statement: a closure of wg and f,
		// alive until the goroutine ends, which the instrumented call
		// (rtlib's WGGo) does not allocate: modelled, not hooked.
		closure += wgGoBytes
	}
	return closure, round(rec.ArgsClosure), round(rec.Wrapper)
}

// wgGoBytes is the closure sync.WaitGroup.Go allocates for its goroutine
// (the code pointer, wg and f), rounded to its size class.
// TestWGGoBytes checks it against the running Go.
var wgGoBytes = roundSize(3 * int64(unsafe.Sizeof(uintptr(0))))
