package rtlib

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Task is one spawned goroutine, from its Fork in the parent to its
// Finish in the child. rtlib also makes a Task, internally, for each
// goroutine it adopts (roots begun on a goroutine that did not hold the
// baton, and goroutines of uninstrumented code that call a hook).
type Task struct {
	site      Site
	returned  bool
	placed    bool // a guest's place in the DAG was chosen (windowAdopt)
	subHooked bool // a subtest's goroutine whose SubEnd will be called

	id      uint64 // creation order, deterministic
	gen     uint32 // incarnation, for references that outlive a recycling
	goid    uint64 // the goroutine's id, 0 until needed
	kind    taskKind
	state   tstate
	sig     chan struct{}  // the task's private semaphore (see poke)
	parent  *Task          // the forking task
	resumer *Task          // the parent suspended in Resume until this task first gives up the baton
	refs    int8           // parent's Resume + child's Finish, for recycling
	group   Group          // errgroup the task was spawned into
	dn      *dnode         // its part of the DAG (nil outside roots)
	dstack  []*dnode       // dnodes of outer roots it runs (nested roots)
	win     *window        // the Release window a guest was adopted in
	stolen  bool           // the watchdog took the baton from it
	inWait  atomic.Bool    // in waitBaton or settle: the watchdog leaves it the baton
	gp      atomic.Uintptr // its goroutine's g, from Start (stackBeat)
	failed  bool           // an errgroup task whose function returned an error
	polls   int            // fruitless polls since it last gave up the baton (sched_poll.go)
	locks   int            // locks taken since it last gave up the baton (sched_poll.go)

	rnext *Task // ready queue

	// Parking.
	ws           []*waiter // registrations, reused
	nws          int
	pprev, pnext *Task // park list
	pk           parkKind
	pseq         uint64 // park order
	opSeq        uint64 // the park order parkLocked gives t next, if not 0 (chanBlock)
	wake         mode   // how it was woken
	cancelReq    bool   // external mode: stop the blocking operation (the holder settles)
	acked        bool   // external mode: the operation completed before the cancel
	out          outKind
	xprev, xnext *Task

	// Rendezvous: a granted partner knows its initiator, and the other
	// way round, so that either can cancel the other's blocking
	// operation when its own select fired another case.
	grantK     int
	partner    *Task
	partnerGen uint32
	rvCancel   bool // the partner asks to stop the blocking operation

	keys []unsafe.Pointer // a select's channels
	caps []int

	// WGGo and GroupGo run the task's function through these, bound
	// once per (recycled) Task so that a spawn allocates no closure.
	wg      *sync.WaitGroup
	fn      func()
	gfn     func() error
	wgBody  func()
	grpBody func() error
}

// Fork is called by the parent at a go statement, after the operands of
// the call are evaluated and before the go statement runs.
func Fork(site Site) *Task { return forkIn(site, nil) }

// forkIn is Fork for a goroutine known to join group g (WaitGroup.Go,
// errgroup).
func forkIn(site Site, g any) *Task {
	if inBubble() {
		return bubbleTask
	}
	beat(site)
	p := self()
	if p.dn != nil {
		// The go statement is the last site the parent ran, from before
		// the census a spawn may call for: the runtime's and rtlib's
		// allocations for goroutines (a parked one's sudog, a descriptor
		// the model does not subtract) read at a census go to it rather
		// than to the allocation before it, often a WaitGroup's.
		p.dn.lastSite = site
	}
	censusAt(p.dn, forkDue)
	sched.mu.Lock()
	t := newTaskLocked(kForked)
	t.site = site
	t.parent = p
	t.refs = 2
	if forkedLive++; forkedLive > forkedHigh {
		forkedHigh = forkedLive
		mem.own += goroutineBytes
	}
	dagFork(p, t, site, g)
	sched.mu.Unlock()
	return t
}

// Start is the first thing the child goroutine does: it waits until
// Resume hands it the baton.
func (t *Task) Start() {
	if t.kind == kBubble {
		return
	}
	acct.Add(1)
	t.gp.Store(uintptr(getg()))
	waitBaton(t)
	dagStart(t)
	outsideWanted.Store(true) // a new task may block before its next hook
	beat(t.site)
}

// Return is called by the child when its function returned normally.
func (t *Task) Return() {
	if t.kind == kBubble {
		return
	}
	if cur.Load() != t {
		reclaim(t) // the watchdog took the baton meanwhile
	}
	beat(t.site)
	t.returned = true
	endCensus(t.dn)
}

// endCensus is the census a task's end may call for: a task that holds
// much at its end has its garbage found now, so that a death is never
// late by more than one task (see acct_census.go). After a census here
// the task runs no more program code: it drops out of the new interval.
// Without one, it ran program code in this interval and stays in it.
func endCensus(d *dnode) {
	if d != nil && mem.holder == d {
		before := mem.interval
		defer func() {
			if mem.interval != before {
				d.ranIn = mem.interval - 1
				mem.endSeen = seenNow(d)
			}
		}()
	}
	censusAt(d, endDue)
}

// Finish is deferred by the child; it ends the task and passes the baton
// on. Without a Return before it the goroutine is panicking or exiting
// through runtime.Goexit, and the profile is flushed.
func (t *Task) Finish() {
	if t.kind == kBubble {
		return
	}
	if cur.Load() != t {
		reclaim(t)
	}
	if !t.returned {
		Flush()
	}
	holdLocked(t)
	if t.failed {
		// errgroup cancels the group's context after the function
		// returned, outside rtlib: tasks waiting on the context are
		// retried after that (sched_grace.go).
		graceFailLocked(t.group)
	}
	dagReturn(t)
	if t.kind == kForked {
		forkedLive--
	}
	if t.group != nil {
		groupFinishedLocked(t.group)
	}
	if t.goid != 0 && sched.goids.at(t.goid) == t {
		sched.goids.del(t.goid)
	}
	releaseLocked(t)
	t.state = stDone
	recycleLocked(t)
	sched.mu.Unlock()
}

// Resume is called by the parent right after the go statement: the child
// runs first, and Resume returns when it has ended or blocked.
func (t *Task) Resume() {
	if t.kind == kBubble {
		return
	}
	p := t.parent
	site := t.site
	holdLocked(p) // p may have lost the baton in the go statement
	p.state = stForkWait
	t.resumer = p
	giveLocked(t)
	wakeWatchdogLocked()
	sched.mu.Unlock()
	// From here on t may be recycled: releaseLocked drops the parent's
	// reference when it hands the baton back. The parent's count of
	// fruitless polls survives its child's run (waitBaton restarts it):
	// a spin loop that starts a goroutine each turn (a cache whose
	// writes each schedule a drain on a goroutine of its own, in a loop
	// until another goroutine sets a flag) must still yield, or the
	// goroutine that sets the flag never runs.
	polls, locks := p.polls, p.locks
	waitBaton(p)
	p.polls, p.locks = polls, locks
	beat(site)
}

// unfork forgets a task that was forked but never started (TryGo failed).
func unfork(t *Task) {
	sched.mu.Lock()
	dagUnfork(t)
	t.refs = 1
	recycleLocked(t)
	sched.mu.Unlock()
}

// reclaim brings t, which does not hold the baton (the watchdog took it,
// or it was adopted while out), back to the baton.
func reclaim(t *Task) {
	sched.mu.Lock()
	if cur.Load() == t {
		sched.mu.Unlock()
		return
	}
	arriveLocked(t)
	sched.mu.Unlock()
	waitBaton(t)
	settle(t)
}

// Frame is an open function scope.
type Frame struct{ site Site }

// Enter opens the scope of a function that spawns goroutines; it is
// deferred-closed with Leave:
//
//	defer rtlib.Leave(rtlib.Enter(site))
func Enter(site Site) Frame {
	if inBubble() {
		return Frame{}
	}
	held()
	dagEnter(site)
	beat(site)
	return Frame{site}
}

// Leave closes a scope opened by Enter.
func Leave(f Frame) {
	if inBubble() {
		return
	}
	held()
	dagLeave(f.site)
	beat(f.site)
}

// Root is an open root: main.main or one test, benchmark, fuzz target or
// example.
type Root struct {
	site     Site
	t        *Task
	nested   bool // begun by the goroutine that already held the baton
	reentry  bool // begun by a goroutine in its own Release window (an example run by TestMain's m.Run)
	mainMain bool // main.main
}

// BeginRoot opens a root; the rewriter puts
//
//	defer rtlib.EndRoot(rtlib.BeginRoot(site))
//
// first in the root function. The goroutine that runs a root (the main
// goroutine, the testing package's) is adopted if rtlib does not know it,
// and waits for the baton.
func BeginRoot(site Site) *Root {
	if inBubble() {
		return bubbleRoot // a subtest in a bubble: part of its root
	}
	outsideWanted.Store(true) // a root may block before its next hook
	beat(site)
	id := goid()
	mainMain := false
	if id == 1 {
		rec, _ := Lookup(site)
		mainMain = rec.Func == "main.main"
	}
	sched.mu.Lock()
	sched.rooted = true
	c := cur.Load()
	if c != nil && c.goid == id {
		nested := true
		if c.kind == kGuest || c.kind == kInit {
			// The goroutine was adopted before (package
			// initialisation called a hook): it becomes the root.
			if c.kind == kGuest && c.win == nil {
				sched.guestsOutside--
				updateCheckingLocked()
			}
			c.kind, c.win, nested = kRoot, nil, false
		}
		sched.mu.Unlock()
		dagRootBegin(c, site)
		beat(site) // last: see beat
		return &Root{site: site, t: c, nested: nested, mainMain: mainMain}
	}
	if c != nil && c.kind == kInit {
		// A test's root: the main goroutine is done with package
		// initialisation and waits in the testing package's main.
		retireLocked(c)
	}
	r := &Root{site: site, mainMain: mainMain}
	t := sched.goids.at(id)
	if t != nil {
		r.nested = true
		r.reentry = t.state == stOut && !t.stolen
	} else {
		t = newTaskLocked(kRoot)
		t.site = site
		t.goid = id
		sched.goids.put(id, t)
		acct.Add(1)
	}
	r.t = t
	arriveLocked(t)
	sched.mu.Unlock()
	startWatchdog()
	waitBaton(t)
	settle(t)
	dagRootBegin(t, site)
	beat(site) // last: see beat
	return r
}

// EndRoot closes a root, joins the goroutines spawned in it and never
// joined, and writes the profile. It runs on a normal return and during
// a panic. The baton passes on, except at the end of main.main: the
// process is about to exit, and nothing else runs before it does
// (unless main called runtime.Goexit: then it passes on too). (A
// root nested in another on the same goroutine leaves the baton to the
// outer one; a root run by a library call on the goroutine that released
// the baton for it gives it back.)
func EndRoot(r *Root) {
	if r == bubbleRoot {
		return
	}
	t := r.t
	if cur.Load() != t {
		reclaim(t)
	}
	// When main calls runtime.Goexit, the program goes on with its other
	// goroutines, and the Go runtime ends it when none is left with a
	// fatal error (prof_exit.go): the profile is partial.
	goexit := r.mainMain && !r.nested && goexiting()
	dagRootEnd(t, r.site, goexit)
	if r.reentry {
		goOut(t) // back to the Release window it ran in
		return
	}
	if (r.nested || r.mainMain) && !goexit {
		beat(r.site) // last: see beat
		return
	}
	holdLocked(t)
	sched.mainGone = sched.mainGone || goexit
	if sched.goids.at(t.goid) == t {
		sched.goids.del(t.goid)
	}
	releaseLocked(t)
	t.state = stDone
	sched.mu.Unlock()
}
