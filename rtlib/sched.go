package rtlib

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// This file is the baton scheduler: which instrumented goroutine runs,
// and in what order the others get their turn. The package documentation
// (doc.go, "Execution model") describes the rules; the comments here say
// how they are kept.
//
// All scheduler state is guarded by sched.mu, except cur (the baton
// holder, an atomic so that hooks can read it without the lock), hb (the
// watchdog's heartbeat) and a few atomic mirrors used to skip the lock on
// fast paths.

// tstate is where a task is with respect to the baton.
type tstate uint8

const (
	stIdle     tstate = iota // forked and not yet resumed
	stRunning                // holds the baton (cur == t)
	stReady                  // in the ready queue, waiting for the baton
	stForkWait               // a parent suspended in Resume
	stParked                 // registered on objects (waitqs), waiting to be woken
	stAck                    // an external-mode operation answered a cancel request
	stOut                    // outside rtlib: sleeping, in a Release window, in a blocking library call, stolen by the watchdog, or in an external-mode operation
	stDone                   // ended (Finish, EndRoot, a retired guest)
)

// outKind says how a task in stOut is counted.
type outKind uint8

const (
	outNone  outKind = iota
	outPlain         // sched.nout: sleeping, released, blocking library call, stolen
	outExt           // the external-mode list: a Send or Recv running for real
	outSel           // sched.nsel: a select running for real
	outWG            // a WaitGroup.Wait running for real, still registered on the WaitGroup
)

// taskKind says how rtlib learnt about a goroutine.
type taskKind uint8

const (
	kForked taskKind = iota // a go statement, WaitGroup.Go or errgroup Go (Fork)
	kRoot                   // a root that began on a goroutine rtlib did not hold (BeginRoot)
	kGuest                  // a goroutine adopted at its first hook
	kInit                   // the main goroutine, adopted by a hook of package initialisation
	kBubble                 // bubbleTask: a go statement in a synctest bubble
)

// mode is what a task must do next in a blocking operation.
type mode uint8

const (
	mAttempt   mode = iota // it holds the baton: try the operation without blocking
	mInitiator             // it holds the baton and granted a parked partner: do the blocking operation
	mGranted               // it was granted by the holder: do the blocking operation now, then wait for the baton (it is already in the ready queue)
	mExternal              // nothing can run: do the blocking operation without the baton, then come back
)

// parkKind is what a parked task waits for; it decides how quiescence
// treats the task.
type parkKind uint8

const (
	pkChan   parkKind = iota // Send, Recv, Recv2: cancellable blocking operation in external mode
	pkSelect                 // a select: its blocking form is user code, not cancellable
	pkLock                   // Mutex, RWMutex, a Locker with TryLock
	pkCond                   // Cond.Wait: only Signal and Broadcast wake it
	pkWG                     // WaitGroup.Wait
	pkGroup                  // errgroup Wait, or Go on a full group
)

var (
	// cur is the baton holder, nil when the baton is free.
	cur atomic.Pointer[Task]
	// checking is set while hooks must verify who calls them (see self).
	checking atomic.Bool
	// nparkedA mirrors sched.nparked so that fast paths skip the lock
	// when nobody waits.
	nparkedA atomic.Int32
	// danceA mirrors sched.danceHolder for settle's fast path.
	danceA atomic.Pointer[Task]
	// stolenA mirrors sched.stolen for held.
	stolenA atomic.Int32
	// forceCheck is SPGO_CHECK=1: verify the caller of every scheduling
	// hook for the whole run.
	forceCheck = envCheck()
)

var sched struct {
	mu sync.Mutex

	// The ready queue: tasks that wait for the baton, first in first
	// out. Every insertion happens while the baton is held (or, in
	// quiescence, in park order), so the order is a function of the
	// program's own execution.
	readyHead, readyTail *Task
	nready               int

	// The park list: every parked task, in the order it parked.
	parkHead, parkTail *Task
	nparked            int
	nretry             int // parked tasks a retry round may retry (all but Cond waiters)

	// External mode: cancellable operations (Send, Recv) running for
	// real without the baton, in park order.
	extHead, extTail *Task
	nsel             int // selects running for real without the baton
	nout             int // tasks sleeping, released, in blocking library calls or stolen

	// The holder that cancels external-mode operations waits for this
	// many answers before it runs (settle).
	danceHolder *Task
	dancePend   int
	gatherUntil time.Time

	// After an errgroup task failed, retry rounds wait for its group to
	// cancel its context (sched_grace.go).
	graceCtxs  []context.Context // contexts of failed groups, not yet seen cancelled
	graceCap   time.Time         // the latest moment to wait for graceCtxs
	graceUntil time.Time         // the wait for a group whose context rtlib did not see
	graceArmed bool              // graceWait is running

	waitqs table[unsafe.Pointer, *waitq] // channels, mutexes, conds, lockers
	freeQs []*waitq
	wgs    table[*sync.WaitGroup, *wgState]
	groups table[Group, *groupState]
	goids  table[uint64, *Task]
	free   []*Task // recycled forked tasks
	freeWG []*wgState
	freeGS []*groupState

	nextID      uint64
	parkSeq     uint64
	progress    uint64 // successful operations seen while tasks were parked
	roundAt     uint64 // progress at the last retry round
	emptyYields uint64 // yields that found nobody ready (sched_poll.go)
	flushAt     uint64 // progress at the last flush for a possible deadlock
	flushed     bool

	windows       []*window
	stolen        int
	guestsOutside int
	rooted        bool // a root has begun

	flushing bool // the holder flushes the profile in releaseLocked

	// A yield's retry round of the parked tasks ran (sched_poll.go), at
	// progress pollRoundAt.
	pollRound   bool
	pollRoundAt uint64

	// A warning the watchdog prints at the next progress, unless
	// probeTask comes back first.
	probe     bool
	probeTask *Task
	probeSite Site
	probeIdle time.Duration

	switches uint64 // baton hand-overs, for the watchdog
	wdIdle   bool   // the watchdog waits for wdWake
	wdGone   bool   // the watchdog ended (mainGone): wakeWatchdogLocked starts another
	mainGone bool   // main.main called runtime.Goexit
}

// traceBaton, if set (tests only), is called with sched.mu held each time
// a task obtains the baton.
var traceBaton func(t *Task)

func init() {
	sched.waitqs = newTable[unsafe.Pointer, *waitq](addrHash)
	sched.wgs = newTable[*sync.WaitGroup, *wgState](ptrHash)
	sched.groups = newTable[Group, *groupState](ifaceHash)
	sched.goids = newTable[uint64, *Task](idHash)
	updateCheckingLocked()
}

func updateCheckingLocked() {
	checking.Store(forceCheck || sched.stolen > 0 || sched.guestsOutside > 0)
	stolenA.Store(int32(sched.stolen))
}

// beat tells the watchdog that the holder passed an instrumented
// operation; it is the only cost the watchdog adds to a hook. A hook
// beats last, after its last access to rtlib's state: the watchdog swaps
// hb at least once after that store and before it takes the baton from
// a holder stuck beyond the hook, so the hook's accesses happen before
// the watchdog's and the next holder's, for the race detector as in
// fact. (A hook that may block without passing the baton on beats first
// too, so that a warning names it.)
//
// When the watchdog asks for it (at most once a blockTick), a beat also
// counts the goroutines out of Go (holderWaits).
func beat(site Site) {
	stackBeat()
	hb.Store(int32(site))
	if outsideWanted.Load() {
		sampleOutside()
	}
}

// held makes sure that the caller of a hook that takes it to be the
// holder without asking (allocation hooks, At, Enter, Leave) holds the
// baton: while the watchdog keeps the baton from a goroutine, that
// goroutine may come back through such a hook, and it queues for the
// baton first. Otherwise it costs one atomic load.
func held() {
	if stolenA.Load() != 0 {
		self()
	}
}

// poke wakes t if it waits on its semaphore; t always re-checks its state,
// so a spare poke is harmless and none is ever lost.
func poke(t *Task) {
	select {
	case t.sig <- struct{}{}:
	default:
	}
}

// newTaskLocked returns a fresh task with the next id.
// taskBytes is what a new Task costs on the heap: the Task and its
// semaphore channel (a channel header; struct{} elements take no room).
var taskBytes = roundSize(int64(unsafe.Sizeof(Task{}))) + roundSize(chanHeader)

// forkedLive counts the forked tasks that have not finished, and
// forkedHigh the most there were at once. The runtime keeps the
// descriptor of an exited goroutine for the next one, so it allocates a
// new one only when more goroutines are alive than ever before: at
// least each time forkedLive passes forkedHigh (the goroutine of a
// finished task may not have exited yet, so the runtime may allocate
// more, never fewer). Those descriptors are rtlib's own bytes to the
// reading of runtime/metrics: the model charges goroutineBytes to the go
// statement itself (dagFork).
var forkedLive, forkedHigh int

func newTaskLocked(kind taskKind) *Task {
	var t *Task
	if kind == kForked && len(sched.free) > 0 {
		t = sched.free[len(sched.free)-1]
		sched.free = sched.free[:len(sched.free)-1]
	} else {
		t = &Task{sig: make(chan struct{}, 1)}
		ownTasks.Add(taskBytes) // rtlib's, not the program's (read at the next census)
	}
	sched.nextID++
	t.id = sched.nextID
	t.kind = kind
	t.state = stIdle
	return t
}

// recycleLocked puts a finished forked task back in the pool once neither
// its parent nor its goroutine can touch it.
func recycleLocked(t *Task) {
	t.refs--
	if t.refs > 0 || t.kind != kForked {
		return
	}
	clear(t.keys) // channels of its last select: not to be kept alive by rtlib
	sig, ws, keys, caps, gen := t.sig, t.ws, t.keys[:0], t.caps[:0], t.gen+1
	wgBody, grpBody := t.wgBody, t.grpBody
	*t = Task{sig: sig, ws: ws, keys: keys, caps: caps, gen: gen, wgBody: wgBody, grpBody: grpBody}
	select { // drop a spare poke
	case <-sig:
	default:
	}
	sched.free = lockedAppend(sched.free, t)
}

// giveLocked makes t the holder. The accounting switches to t before
// cur says so: t may be running already, waiting in waitBaton for cur,
// and from the moment it sees itself there it reads and writes that
// state without the lock. The store to cur is the hand-off's release,
// the holder's load in waitBaton its acquire.
func giveLocked(t *Task) {
	t.state = stRunning
	sched.switches++
	dagAcquire(t)
	if traceBaton != nil {
		traceBaton(t)
	}
	cur.Store(t)
	poke(t)
}

// waitBaton blocks until t holds the baton. While identities are
// checked, a task learns its goroutine id when it gets the baton, so
// that the holder is always known by its id (see self).
//
// While t waits the watchdog leaves it the baton (inWait): a task that
// was given the baton but that the Go scheduler has not run yet is not
// stuck. Should the watchdog take the baton from t all the same (it
// decided just before t began to wait, or t was given the baton while
// it did the blocking operation of a rendezvous), stealLocked pokes t
// and t comes back for the baton, as from uninstrumented code: nothing
// else would ever give it back.
func waitBaton(t *Task) {
	t.polls, t.locks = 0, 0
	t.inWait.Store(true)
	back := false
	for cur.Load() != t {
		if stolenA.Load() != 0 && comeBack(t) {
			back = true
			continue
		}
		<-t.sig
	}
	t.inWait.Store(false)
	if checking.Load() || inWindow.Load() {
		learnGoid(t)
	}
	if back {
		settle(t)
	}
}

// comeBack queues t for the baton again if the watchdog took it from t;
// it reports whether it did.
func comeBack(t *Task) bool {
	sched.mu.Lock()
	back := t.stolen && cur.Load() != t
	if back {
		arriveLocked(t)
	}
	sched.mu.Unlock()
	return back
}

// holdLocked locks sched.mu for t, which must hold the baton to do what
// it does next under the lock: if the watchdog took the baton from t
// since t last looked, t comes back for it first.
func holdLocked(t *Task) {
	sched.mu.Lock()
	for cur.Load() != t {
		sched.mu.Unlock()
		reclaim(t)
		sched.mu.Lock()
	}
}

// retryLocked is called with sched.mu held by a task t about to park
// whose baton the watchdog took after t's attempt failed: what t waits
// for may have happened while others ran, so t drops its registrations,
// comes back for the baton and tries again. It returns without the lock,
// holding the baton, with mode mAttempt.
func retryLocked(t *Task) mode {
	for i := 0; i < t.nws; i++ {
		unlinkLocked(t.ws[i])
	}
	t.nws = 0
	arriveLocked(t)
	sched.mu.Unlock()
	waitBaton(t)
	settle(t)
	return mAttempt
}

func learnGoid(t *Task) {
	sched.mu.Lock()
	need := t.goid == 0
	sched.mu.Unlock()
	if !need {
		return
	}
	id := goid()
	sched.mu.Lock()
	if t.goid == 0 {
		t.goid = id
		if sched.goids.at(id) == nil {
			sched.goids.put(id, t)
		}
	}
	sched.mu.Unlock()
}

func pushReadyLocked(t *Task) {
	t.state = stReady
	t.rnext = nil
	if sched.readyTail == nil {
		sched.readyHead = t
	} else {
		sched.readyTail.rnext = t
	}
	sched.readyTail = t
	sched.nready++
	wakeWatchdogLocked()
}

func popReadyLocked() *Task {
	t := sched.readyHead
	if t == nil {
		return nil
	}
	sched.readyHead = t.rnext
	if sched.readyHead == nil {
		sched.readyTail = nil
	}
	t.rnext = nil
	sched.nready--
	return t
}

// releaseLocked passes the baton on from h, which is giving it up
// (blocking, ending, sleeping, released or stolen). The next holder is,
// in order: the parent suspended in Resume for h (child first, then the
// continuation); the head of the ready queue; a task of a retry round;
// otherwise nobody (the baton is free and parked channel operations run
// for real: external mode). The lock may be dropped while the profile is
// flushed for a possible deadlock; callers do nothing after it but unlock.
func releaseLocked(h *Task) {
	if cur.Load() != h {
		return
	}
	if r := h.resumer; r != nil {
		h.resumer = nil
		h.refs-- // the parent's reference: it does not touch h again
		giveLocked(r)
		return
	}
	if n := popReadyLocked(); n != nil {
		giveLocked(n)
		return
	}
	force := false
	if sched.graceUntil != (time.Time{}) || len(sched.graceCtxs) > 0 {
		if d, ctx, ok := graceLocked(); ok && sched.nretry > 0 {
			// An errgroup task failed: its group cancels its context
			// in a moment, outside rtlib. Retry the parked tasks then
			// rather than now.
			cur.Store(nil)
			sched.switches++
			armGraceLocked(ctx, d)
			return
		}
		// The contexts were cancelled (by now): tasks parked on them
		// may go on, though nothing rtlib saw succeeded.
		endGraceLocked()
		force = true
	}
	if n := retryRoundLocked(force); n != nil {
		giveLocked(n)
		return
	}
	if sched.nout == 0 && sched.nsel == 0 && sched.extHead == nil && (!sched.flushed || sched.flushAt != sched.progress) {
		// Nothing outside rtlib can make progress that rtlib knows of:
		// this may be a deadlock, which the Go runtime reports by
		// ending the process. Write the profile first, while h still
		// holds the baton so that nothing else runs meanwhile.
		sched.flushed, sched.flushAt = true, sched.progress
		sched.flushing = true
		sched.mu.Unlock()
		flushForDeadlock()
		sched.mu.Lock()
		sched.flushing = false
		if cur.Load() != h {
			return
		}
		if n := popReadyLocked(); n != nil {
			giveLocked(n)
			return
		}
	}
	externalLocked()
	cur.Store(nil)
	sched.switches++
	wakeWatchdogLocked() // it may have to poll parked tasks
}

// flushes counts the flushes for a possible deadlock (tests).
var flushes atomic.Int32

func flushForDeadlock() {
	flushes.Add(1)
	flushWaiting()
}

// retryRoundLocked lets every parked task (but Cond waiters) retry once,
// in park order, when something succeeded since the last round (or when
// forced); it returns the first of them.
func retryRoundLocked(force bool) *Task {
	if sched.nretry == 0 || (!force && sched.progress == sched.roundAt) {
		return nil
	}
	sched.roundAt = sched.progress
	retryParkedLocked(false)
	return popReadyLocked()
}

// retryParkedLocked wakes every parked task but Cond waiters (only those
// parked on channels if chans), in park order, to try its operation
// again.
func retryParkedLocked(chans bool) {
	for p := sched.parkHead; p != nil; {
		next := p.pnext
		if chans && (p.pk == pkChan || p.pk == pkSelect) || !chans && p.pk != pkCond {
			wakeLocked(p, mAttempt)
		}
		p = next
	}
}

// externalLocked puts parked channel operations and selects into external
// mode: they run their blocking operation for real, without the baton, so
// that timers, uninstrumented goroutines and I/O can complete them. Send
// and Recv go to the external list (in park order), selects are counted.
func externalLocked() {
	for p := sched.parkHead; p != nil; {
		next := p.pnext
		switch p.pk {
		case pkChan, pkSelect:
			externals.Add(1)
		}
		switch p.pk {
		case pkChan:
			unparkLocked(p)
			p.state = stOut
			p.wake = mExternal
			p.cancelReq, p.acked = false, false
			insertExtLocked(p)
			poke(p)
		case pkSelect:
			unparkLocked(p)
			p.state = stOut
			p.out = outSel
			p.wake = mExternal
			sched.nsel++
			poke(p)
		case pkWG:
			// The counter may reach zero through a Done rtlib does
			// not see (uninstrumented code, a method value): wait
			// for real. The waiter stays registered, so that a Done
			// through rtlib that empties the counter gives it its
			// place in the ready queue as before (wakeLocked).
			offParkListLocked(p)
			p.state = stOut
			p.out = outWG
			p.wake = mExternal
			poke(p)
		}
		p = next
	}
}

// externals counts the operations externalLocked sent to external mode
// (tests).
var externals atomic.Int32

// insertExtLocked puts t in the external list, which is kept in park
// order.
func insertExtLocked(t *Task) {
	t.out = outExt
	insertBySeq(t, &sched.extHead, &sched.extTail, extLinks, taskSeq)
}

func removeExtLocked(t *Task) {
	unlink(t, &sched.extHead, &sched.extTail, extLinks)
}

func extLinks(t *Task) (prev, next **Task) { return &t.xprev, &t.xnext }

// gatherWindow is how long, at most, the task that takes the free baton
// waits for selects running for real that complete at about the same
// time (all woken by one close, say), so that they queue in park order
// rather than in the order the Go scheduler happened to run them. Where
// it can tell, it waits only while some goroutine is ready to run
// (goroutinesReady): one woken with it is, from the moment it was woken.
// A select woken alone (a ticker's tick) does not wait at all; before,
// every take of the free baton while selects ran for real waited the
// whole window, and dozens of tickers (golang-lru's leaked reapers)
// spent it over and over.
const gatherWindow = 250 * time.Microsecond

// readySamples are goroutinesReady's readings; sched.mu guards them.
var readySamples = []metrics.Sample{
	{Name: "/sched/goroutines/running:goroutines"},
	{Name: "/sched/goroutines/runnable:goroutines"},
}

// goroutinesReady reports whether a goroutine other than the caller is
// running or ready to run (in a run queue): one that a close woke with
// the caller, say. known is false where that cannot be told: without
// the metrics (Go before 1.26), or if uninstrumented code gave the
// process more than one P (running then counts Ps looking for work).
// sched.mu held.
func goroutinesReady() (ready, known bool) {
	if runtime.GOMAXPROCS(0) != 1 {
		return true, false
	}
	metrics.Read(readySamples)
	running, runnable := readySamples[0].Value, readySamples[1].Value
	if running.Kind() != metrics.KindUint64 || runnable.Kind() != metrics.KindUint64 {
		return true, false
	}
	return running.Uint64() > 1 || runnable.Uint64() > 0, true
}

// takeFreeLocked gives the free baton to t, which came back from outside
// rtlib. If external-mode operations are running, t asks the cancellable
// ones to stop and settles them all (settle) before anything runs, so
// that from then on the order is deterministic again.
func takeFreeLocked(t *Task) {
	giveLocked(t)
	n := 0
	for x := sched.extHead; x != nil; x = x.xnext {
		if x != t && !x.cancelReq {
			x.cancelReq = true
			n++
			poke(x)
		}
	}
	if n == 0 && sched.nsel == 0 {
		if t.out == outExt {
			removeExtLocked(t)
			t.out = outNone
		}
		return
	}
	sched.danceHolder = t
	danceA.Store(t)
	sched.dancePend += n
	if sched.nsel > 0 {
		sched.gatherUntil = time.Now().Add(gatherWindow)
		gathers.Add(1)
	}
}

// gathers counts the takes of the free baton while selects ran for real,
// gatherRounds the rounds the takers let ready goroutines run (tests).
var gathers, gatherRounds atomic.Int64

// leaveOutLocked undoes the counting of a task that was out.
func leaveOutLocked(t *Task) {
	switch t.out {
	case outPlain:
		sched.nout--
	case outSel:
		sched.nsel--
	case outExt:
		if t.cancelReq && t.state != stAck {
			// It was asked to stop and will not answer (its
			// operation panicked): do not keep the holder waiting.
			sched.dancePend--
			if sched.dancePend == 0 && sched.danceHolder != nil {
				poke(sched.danceHolder)
			}
		}
		t.cancelReq = false
		removeExtLocked(t)
	}
	t.out = outNone
}

// arriveLocked: t comes back from outside rtlib and wants the baton.
func arriveLocked(t *Task) {
	unstealLocked(t)
	leaveOutLocked(t)
	if cur.Load() == t || t.state == stReady {
		return // it holds the baton, or waits for it already (a granted partner)
	}
	if cur.Load() == nil {
		takeFreeLocked(t)
	} else {
		pushReadyLocked(t)
	}
}

// unstealLocked forgets that the watchdog took the baton from t, which
// is back in rtlib.
func unstealLocked(t *Task) {
	if t.stolen {
		t.stolen = false
		sched.stolen--
		if sched.probeTask == t {
			// Back before anything reported progress. If another task
			// holds the baton it ran meanwhile (it may not have
			// reported yet: t was blocked on it): warn. Otherwise
			// nothing ran: no warning.
			if c := cur.Load(); c != nil && c != t {
				warn(sched.probeSite, sched.probeIdle)
			}
			sched.probe, sched.probeTask = false, nil
			syncAttnLocked()
		}
		for i, s := range stolenTasks {
			if s == t {
				stolenTasks = append(stolenTasks[:i], stolenTasks[i+1:]...)
				break
			}
		}
		updateCheckingLocked()
	}
}

// arrive is arriveLocked, then waits for the baton.
func arrive(t *Task) {
	sched.mu.Lock()
	arriveLocked(t)
	sched.mu.Unlock()
	waitBaton(t)
	settle(t)
}

// goOut takes the holder t out of rtlib (Sleep, Release, a blocking
// library call): the baton passes on and t will arrive.
func goOut(t *Task) {
	sched.mu.Lock()
	held := cur.Load() == t
	leaveOutLocked(t)
	t.state = stOut
	t.out = outPlain
	sched.nout++
	if held {
		stackSeen(t.dn)
		dagBlock(t)
		releaseLocked(t)
	}
	sched.mu.Unlock()
}

// settle is called by a task t that took the free baton while
// external-mode operations ran: it waits until the cancellable ones have
// answered (and, briefly, for selects completing at the same time), then
// queues all of them with itself in park order (a task that was not
// parked first), completed or not (those that did not complete retry),
// and passes the baton to the head of the ready queue.
func settle(t *Task) {
	if danceA.Load() != t {
		return
	}
	t.inWait.Store(true) // t waits for answers, not stuck: see waitBaton
	sched.mu.Lock()
	for {
		if sched.dancePend > 0 {
			sched.mu.Unlock()
			<-t.sig
			sched.mu.Lock()
			continue
		}
		d := time.Until(sched.gatherUntil)
		if sched.nsel == 0 || d <= 0 {
			break
		}
		ready, known := goroutinesReady()
		if known && !ready {
			break
		}
		sched.mu.Unlock()
		if known {
			// Let the ready ones run (the process has one P): a
			// select among them that completed arrives and queues
			// meanwhile.
			gatherRounds.Add(1)
			runtime.Gosched()
		} else {
			// Cannot tell: wait out the window.
			tm := time.NewTimer(d)
			select {
			case <-t.sig:
			case <-tm.C:
			}
			tm.Stop()
		}
		sched.mu.Lock()
	}
	sched.danceHolder = nil
	danceA.Store(nil)
	t.inWait.Store(false)
	if t.out != outExt {
		pushReadyLocked(t)
	}
	for x := sched.extHead; x != nil; {
		next := x.xnext
		removeExtLocked(x)
		x.out = outNone
		x.cancelReq = false
		x.wake = mAttempt
		pushReadyLocked(x)
		if x != t {
			poke(x)
		}
		x = next
	}
	giveLocked(popReadyLocked())
	sched.mu.Unlock()
	waitBaton(t)
}

// extAnswer is called by a Send or Recv in external mode whose operation
// completed (done) or that was poked. It returns false for a spurious
// poke (keep waiting). Otherwise it returns holding the baton, with mode
// mAttempt (the caller retries if its operation did not complete).
func extAnswer(t *Task, done bool) (mode, bool) {
	sched.mu.Lock()
	if !done && !t.cancelReq {
		sched.mu.Unlock()
		return 0, false
	}
	if t.cancelReq {
		t.acked = done
		t.state = stAck
		sched.dancePend--
		if sched.dancePend == 0 && sched.danceHolder != nil {
			poke(sched.danceHolder)
		}
		return waitWoken(t), true
	}
	if cur.Load() == nil {
		takeFreeLocked(t) // t stays in the external list, for the order
		sched.mu.Unlock()
		waitBaton(t)
		settle(t)
		return mAttempt, true
	}
	leaveOutLocked(t)
	pushReadyLocked(t)
	sched.mu.Unlock()
	waitBaton(t)
	return mAttempt, true
}

// selectBack is called by a select that ran for real without the baton
// (external mode) once a case fired.
func selectBack(t *Task) {
	sched.mu.Lock()
	leaveOutLocked(t)
	if cur.Load() != nil && sched.danceHolder != nil {
		// Gathered: queued in park order by the settling holder.
		t.state = stAck
		t.acked, t.cancelReq = true, true
		insertExtLocked(t)
		poke(sched.danceHolder)
		waitWoken(t)
		return
	}
	arriveLocked(t)
	sched.mu.Unlock()
	waitBaton(t)
	settle(t)
}

// waitWoken waits, with sched.mu held on entry and released on return,
// until the parked task t is woken; it returns the mode it was woken
// with, holding the baton if that is mAttempt.
func waitWoken(t *Task) mode {
	for t.state == stParked || t.state == stAck {
		sched.mu.Unlock()
		<-t.sig
		sched.mu.Lock()
	}
	m := t.wake
	sched.mu.Unlock()
	if m == mAttempt {
		waitBaton(t)
		settle(t)
	}
	return m
}

// holdAgain is called by a task that did a real blocking operation while
// holding the baton: if the watchdog took the baton meanwhile, it queues
// for it again.
func holdAgain(t *Task) {
	if cur.Load() != t {
		reclaim(t)
	}
}

// self returns the task of the calling goroutine. While nothing suggests
// otherwise the caller of a hook is the baton holder, and that costs a
// few atomic loads. When the baton is free, or while goroutines rtlib
// does not control may call hooks (the watchdog stole the baton, a
// goroutine was adopted outside a window, SPGO_CHECK=1, or a Release
// window is open and a goroutine created since is not accounted for: see
// strangers), the caller is identified by its goroutine id; a caller
// that is not the holder is adopted (or, if rtlib knows it, comes back)
// and waits for the baton.
//
// While a window is open the opener itself may call hooks too, without
// the baton: the call it released the baton for runs instrumented code
// on its goroutine (semaphore.Weighted.Acquire when x/sync is the module
// under test). Release made its id known; a hook compares the caller's
// id with the holder's (a read of the goroutine's descriptor, see goid),
// so that the opener is not taken for the holder.
func self() *Task {
	t := cur.Load()
	if t != nil && !checking.Load() && (!inWindow.Load() || t.goid != 0 && t.goid == goid() && !strangers()) {
		return t
	}
	return selfSlow()
}

// slowSelves counts the callers identified by id (tests).
var slowSelves atomic.Int64

func selfSlow() *Task { return selfID(mustCheck()) }

// selfMaybeForeign is self, or, if foreign, self with the caller always
// identified: a function value rtlib hands to code it does not see (a
// time.AfterFunc callback) runs on a goroutine that may call it while
// the holder runs, and taken for the holder it would change the
// holder's state beside it.
func selfMaybeForeign(foreign bool) *Task {
	if foreign {
		return selfID(true)
	}
	return self()
}

// selfID identifies the caller by its goroutine id; check says that
// every caller must be (see mustCheck). (A holder whose id was never
// needed is claimed by the first caller, the holder itself unless the
// holder has not called a hook since identities began to be checked.)
func selfID(check bool) *Task {
	slowSelves.Add(1)
	id := goid()
	sched.mu.Lock()
	c := cur.Load()
	if c != nil && !check && (len(sched.windows) == 0 || c.goid == id || c.goid == 0 && sched.goids.at(id) == nil) {
		if c.goid == 0 && len(sched.windows) > 0 {
			// In a window: the holder's id, so that its next hooks
			// take the fast path.
			c.goid = id
			sched.goids.put(id, c)
		}
		sched.mu.Unlock()
		return c
	}
	if c != nil {
		if c.goid == id {
			sched.mu.Unlock()
			return c
		}
		if c.goid == 0 && sched.goids.at(id) == nil {
			// The holder took the baton before identities were
			// checked; the first caller claims it.
			c.goid = id
			sched.goids.put(id, c)
			sched.mu.Unlock()
			return c
		}
	}
	t := sched.goids.at(id)
	if t == nil && sched.stolen > 0 {
		// A goroutine the watchdog stole the baton from, whose id was
		// never needed, comes back: the oldest such one.
		var best *Task
		for _, s := range stolenTasks {
			if s.stolen && s.goid == 0 && (best == nil || s.id < best.id) {
				best = s
			}
		}
		if best != nil {
			t = best
			t.goid = id
			sched.goids.put(id, t)
		}
	}
	if t == nil {
		t = adoptLocked(id)
	}
	arriveLocked(t)
	sched.mu.Unlock()
	startWatchdog()
	waitBaton(t)
	settle(t)
	return t
}

// stolenTasks are the tasks the watchdog took the baton from.
var stolenTasks []*Task

// adoptLocked makes a task of the goroutine id that rtlib did not know.
//
// A hook called by package initialisation, before any root, adopts the
// main goroutine as the init task: only that goroutine runs
// initialisation, so, unlike a guest, it does not make every hook ask
// who calls it. It becomes main.main's root, or ends when a test's root
// begins on another goroutine (BeginRoot).
func adoptLocked(id uint64) *Task {
	if id == 1 && !sched.rooted && len(sched.windows) == 0 {
		t := newTaskLocked(kInit)
		t.goid = id
		sched.goids.put(id, t)
		acct.Add(1)
		dagAdopt(t)
		return t
	}
	t := newTaskLocked(kGuest)
	t.goid = id
	sched.goids.put(id, t)
	acct.Add(1)
	if n := len(sched.windows); n > 0 {
		w := sched.windows[n-1]
		t.win = w
		w.guests = append(w.guests, t)
	} else {
		sched.guestsOutside++
		updateCheckingLocked()
	}
	dagAdopt(t)
	return t
}

// retireLocked ends a task whose goroutine rtlib will not hear from again
// (an adopted goroutine whose window closed).
func retireLocked(t *Task) {
	if t.state == stDone {
		return
	}
	if t.kind == kGuest && t.win == nil {
		sched.guestsOutside--
		updateCheckingLocked()
	}
	if t.stolen {
		t.stolen = false
		sched.stolen--
		if sched.probeTask == t {
			sched.probe, sched.probeTask = false, nil
			syncAttnLocked()
		}
		updateCheckingLocked()
	}
	leaveOutLocked(t)
	if cur.Load() == t {
		t.state = stDone
		releaseLocked(t)
	}
	t.state = stDone
	if t.goid != 0 && sched.goids.at(t.goid) == t {
		sched.goids.del(t.goid)
	}
}

// noteProgressLocked records that an operation succeeded while tasks
// were parked: a retry round may help again. It also prints the warning
// the watchdog left pending (see sched_watchdog.go).
func noteProgressLocked() {
	sched.progress++
	if sched.probe {
		sched.probe, sched.probeTask = false, nil
		syncAttnLocked()
		warn(sched.probeSite, sched.probeIdle)
	}
}

// syncAttnLocked updates nparkedA, which fast paths read to know whether
// a successful operation must be reported (tasks are parked, or the
// watchdog waits for progress).
func syncAttnLocked() {
	n := int32(sched.nparked)
	if sched.probe {
		n++
	}
	nparkedA.Store(n)
}
