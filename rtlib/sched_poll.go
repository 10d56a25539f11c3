package rtlib

import (
	"runtime"
	"sync"
)

// Polling. A goroutine that waits by polling (a select with a default
// case, a TryLock loop, runtime.Gosched, a loop of locks and unlocks)
// makes progress in Go because other goroutines run beside it or preempt
// it. Here they wait for the baton the poller holds: each of its polls
// fails, forever. So a holder
// that polls in vain pollYield times in a row, or calls runtime.Gosched,
// yields: it goes to the back of the ready queue and the baton passes
// on, as when it blocks (its parent, if it is a child that has not given
// up the baton yet, then the ready queue's head); so does one that takes
// lockSlice locks, or completes lockSlice channel operations, without
// blocking. Nobody ready: it goes on, as a Go goroutine on an idle
// machine would.
//
// The count is of operations, not of time, so the schedule stays
// deterministic; but it is no longer depth-first, and the serial peak is
// that of the schedule that ran.

// pollYield is how many fruitless polls in a row make a holder yield: a
// loop that polls between units of work (select { case <-ctx.Done():
// return; default: }) lets the others run once every pollYield units.
const pollYield = 64

// lockSlice is how many locks a holder takes, or channel operations it
// completes, without giving the baton up before it yields: a loop whose
// polls succeed waits, in Go, for another goroutine to change what it
// polls, and that one needs the baton: for sem.TryAcquire(1) {
// sem.Release(1) } (each a lock and an unlock inside); a loop of selects
// on closed channels until a flag another goroutine sets at its end
// (ants's ReleaseContext: the pool's tests timed out). Far more than a
// loop that does real work between operations takes before it blocks in
// the usual program.
const lockSlice = 1024

// sliced counts a lock the holder t is about to take (or a channel
// operation it completed), and yields the baton every lockSlice of them.
func sliced(t *Task) {
	if t.locks++; t.locks >= lockSlice {
		t.locks = 0
		yield(t)
	}
}

// Polled is called at the start of the default case of a select: none
// of its cases was ready.
func Polled(site Site) {
	if inBubble() {
		return
	}
	t := self()
	if t.polls++; t.polls >= pollYield {
		yield(t)
	}
	beat(site) // last: see beat
}

// Gosched is runtime.Gosched: the holder yields the baton to whoever is
// ready, then the Go scheduler runs goroutines rtlib does not control.
func Gosched(site Site) {
	if inBubble() {
		runtime.Gosched()
		return
	}
	t := self()
	yield(t)
	beat(site) // last: see beat
	runtime.Gosched()
}

// TryLock is sync.Mutex.TryLock; a failure is a fruitless poll.
func TryLock(site Site, mu *sync.Mutex) bool {
	return tried(site, mu.TryLock())
}

// RWTryLock is sync.RWMutex.TryLock; a failure is a fruitless poll.
func RWTryLock(site Site, mu *sync.RWMutex) bool {
	return tried(site, mu.TryLock())
}

// TryRLock is sync.RWMutex.TryRLock; a failure is a fruitless poll.
func TryRLock(site Site, mu *sync.RWMutex) bool {
	return tried(site, mu.TryRLock())
}

func tried(site Site, ok bool) bool {
	if ok {
		beat(site) // last: see beat
		return true
	}
	Polled(site)
	return false
}

// yield passes the baton on from the holder t when someone else can run
// (t's parent suspended for it, or a ready task), t queueing behind them.
//
// When nobody can, every retryEvery-th such yield lets the parked tasks
// retry their operations first (a retry round): what they wait for may
// have been done by code rtlib does not see (a context's cancel closing
// its done channel, a timer), and while the holder polls without ever
// blocking the baton is never free for the watchdog's rounds. ants's
// ReleaseContext loops on closed channels until its ticker goroutine,
// parked on a cancelled context, has ended. A round that changed nothing
// is followed by external mode instead of another round: the parked
// channel operations, WaitGroup waits and selects wait for real while
// the holder runs on. A retry and a poll are both non-blocking, so a
// sender parked on an unbuffered channel and a poller's select {
// case <-stop: return; default: } would never meet (a cache's test
// suite hung there); in external mode the sender's real send is ready
// when the poller next looks.
func yield(t *Task) {
	t.polls = 0
	sched.mu.Lock()
	if cur.Load() != t {
		sched.mu.Unlock()
		return
	}
	if t.resumer == nil && sched.readyHead == nil {
		if sched.emptyYields++; sched.emptyYields%retryEvery == 0 {
			if sched.pollRound && sched.pollRoundAt == sched.progress {
				// The last round changed nothing: external mode
				// (above); an operation that completes there
				// queues for the baton.
				externalLocked()
				sched.pollRound = false
			} else {
				retryParkedLocked(false)
				sched.pollRound, sched.pollRoundAt = true, sched.progress
			}
		}
		if sched.readyHead == nil {
			sched.mu.Unlock()
			return
		}
	}
	yields++
	pushReadyLocked(t)
	stackSeen(t.dn)
	releaseLocked(t)
	sched.mu.Unlock()
	waitBaton(t)
}

// yields counts the times a holder yielded (tests). sched.mu held.
var yields int

// retryEvery is how many yields that found nobody ready make a retry
// round of the parked tasks.
const retryEvery = 16
