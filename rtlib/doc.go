// Package rtlib is the runtime linked into programs instrumented by spgo.
// Instrumented code (the output of package rewrite) calls it at goroutine
// spawns and joins, at blocking operations and at heap allocation sites;
// it runs the program serially and deterministically and computes the
// p-processor memory high-water mark with package mhwm.
//
// rtlib depends on the standard library only: spbuild injects it into
// arbitrary user modules. Its exported names are the contract with the
// rewriter (rewrite/README.md has the table of constructs); they are not
// meant to be called by hand.
//
// # Sites
//
// Every instrumented operation names a static site: a file registers its
// table once (Register) and passes base+k, an int32, to the hooks, so a
// hook's cost does not depend on how much it knows about its site.
//
// # Goroutines
//
// A go statement becomes
//
//	t := rtlib.Fork(site)
//	go func() {
//		defer t.Finish()
//		t.Start()
//		f(x, y)
//		t.Return()
//	}()
//	t.Resume()
//
// with f's operands evaluated before Fork. Finish without Return means
// the goroutine is panicking or calling runtime.Goexit.
//
// # Blocking operations
//
// Channel operations, locks, Cond waits, group waits and sleeps go
// through rtlib so that a goroutine that must wait gives up the baton.
// A select statement that may block becomes a loop that rtlib drives: an
// attempt with a default case, or, when rtlib says so, the blocking
// select, until one case has fired:
//
//	w := rtlib.Select(site, "rs")  // one letter per case: r(eceive), s(end)
//	for w.Next(i, c0, c1) {
//		if w.Blocking() {
//			select { case r0 = <-c0: i = 0; case c1 <- v1: i = 1 }
//		} else {
//			select { case r0 = <-c0: i = 0; case c1 <- v1: i = 1; default: }
//		}
//	}
//
// # Execution model: the baton
//
// Exactly one instrumented goroutine, the holder, runs instrumented code
// at a time; it holds the baton until it ends, blocks or sleeps. rtlib
// calls every goroutine it knows a task (type Task): one per go
// statement, plus one per goroutine it adopts (below). Each task waits
// for the baton on a private semaphore; the scheduler's state is guarded
// by one mutex, and the holder is an atomic pointer, so that a hook that
// does not block costs a few atomic operations.
//
// The hand-off is a synchronisation the race detector sees: the giver
// prepares everything the new holder reads (the accounting's switch to
// it included) before it stores the new holder, and the new holder's
// load of it is the acquire. rtlib's own state is therefore handed over
// with the baton, and a run under -race (spbuild run -race) reports the
// program's races only, never rtlib's. Every hook stores the watchdog's
// heartbeat last, after its last access to that state, so that the
// watchdog, taking the baton from a holder stuck beyond the hook,
// follows the hook too.
//
// Spawns run the child first, as in Cilk's serial elision. Fork (in the
// parent) creates the task; Resume hands the baton to the child, whose
// Start waits for it, and suspends the parent; the parent gets the baton
// back as soon as the child first gives it up, by blocking or by ending
// (Finish). Nested spawns make a chain of suspended parents, resumed
// innermost first.
//
// Go at GOMAXPROCS=1 runs the other way: the parent goes on and the new
// goroutine runs when the parent blocks. The order stays child-first, for
// four reasons. The serial peak is then the program's peak with every
// go statement a plain call (the serial elision), the figure Cilkmem's
// bounds compare with. The engine takes a root's events in child-first
// order (dag_node.go): a parent that ran on would have its events buffered
// until its children end, memory in proportion to the spawns outstanding
// (a loop spawning 10^5 goroutines). And the tests it changes are few,
// and depend on scheduling Go does not promise: of the 1 289 tests that
// pass plain in the twelve real suites of BENCHMARKS.md ("Real test
// suites"), two fail for it, pond's TestResultPoolSubmitContextCanceled (the new
// worker runs the cancelling task before the test's next Submit) and
// clockwork's TestFakeTicker_DeliveryOrder (the new goroutine advances
// the fake clock before the test waits on the ticker); both pass under
// Go at GOMAXPROCS=1, where the parent runs on. Last, the accounting
// places deaths by that order. A prototype that let the parent run on
// and put the new task at the head of the ready queue (Go's runnext)
// broke it, measured on 2026-11-26: TestAccuracy's finegrain gave
// 55.9 MB against a true 0.02 MB, the simulated work-stealing schedules
// of errlimit peaked above MHWM_8 (5.58 MB against 5.27 MB), and the
// intervals of 9 of TestOracleRandom's 200 programs missed the truth. Polling loops, which
// would starve under child-first order, yield instead (sched_poll.go).
//
// # The ready order
//
// When the holder gives the baton up and it has no suspended parent, the
// next holder is the head of the ready queue, a first-in first-out queue
// of the tasks that wait for the baton. A task enters it when it becomes
// runnable: it is woken by an operation of the holder (a send, a close,
// an unlock, a Done, a Signal, the end of a group's task, a rendezvous
// grant), or it comes back from outside rtlib (Sleep, a Release window,
// an external wait, below). Every insertion but the last kind is made by
// the holder, in an order fixed by the program's own execution, so the
// sequence of holders never depends on OS timing. Tasks that become
// ready together (a close, a Broadcast, a retry round, the settling of
// external waits) enter in the order in which they parked. In short: the
// suspended parent first, then first come, first served, with "come"
// defined by the serial execution itself.
//
// # Parking and rendezvous
//
// Every instrumented channel operation is first attempted without
// blocking (a select with a default case) by the holder. If it fails the
// holder looks, on the same channel, for a parked task waiting in the
// other direction. If there is one, rtlib arranges a real rendezvous: it
// takes the partner out of its queues, puts it in the ready queue (its
// place is fixed now), and tells it to do the real blocking operation
// (SelectState.Blocking reports true); the holder does its own blocking
// operation, and the two meet in the Go channel. The holder keeps the
// baton; the partner waits for it once its operation completed. Should
// the partner's select (or the holder's) fire another case instead, made
// ready by code rtlib does not see, it asks the other side to stop (only
// Send and Recv can be interrupted; a select cannot) and that side tries
// again.
//
// Without a partner the holder parks: it is registered on its channels
// (one registration per case of a select), with the direction, and the
// baton passes on. A successful operation on a buffered channel wakes
// the first task parked on it in the other direction, close wakes all of
// them; a woken task tries its operation again when it gets the baton.
// On an unbuffered channel, a parked task is only ever released by a
// rendezvous.
//
// Locks are taken with TryLock; a failing locker parks on the lock, and
// Unlock through rtlib wakes the first one (RWMutex.Unlock wakes them
// all, RUnlock the first writer). Cond.Wait registers the task on
// rtlib's own first-in first-out list for the Cond, unlocks c.L through
// rtlib, parks, and locks c.L again through rtlib when Signal or
// Broadcast woke it (a Locker without TryLock is locked without the
// baton). rtlib mirrors the counter of each WaitGroup (Add, Done, WGGo)
// and the number of running tasks of each errgroup (GroupGo, GroupTryGo):
// Wait and GroupWait park while it is not zero and are woken by the Done
// or the end of task that makes it zero. GroupGo tries TryGo first; when
// the group is full (with the limit rtlib saw in GroupSetLimit) it parks
// until one of the group's tasks ends, then calls Go, which returns as
// soon as that task's slot is given back (the ending goroutine needs no
// baton for that); with a limit rtlib did not see, Go runs without the
// baton. Sleep gives the baton up, really sleeps, and queues again.
//
// A holder that polls (a select whose default case runs, a failed
// TryLock or TryRLock) pollYield times in a row, or calls
// runtime.Gosched, yields: it queues behind the tasks that are ready and
// the baton passes on, so that the goroutine it waits for runs (sched_poll.go).
// A loop spinning on atomic loads passes no hook at all: the watchdog
// takes the baton from it, as from a holder busy in uninstrumented code.
//
// # Quiescence and external waits
//
// When nobody is ready, every parked task (but Cond waiters, which only
// Signal and Broadcast wake) is first made ready once more, in park
// order: a retry round, cheap and deterministic, which finds state that
// changed behind rtlib's back (a context cancelled by errgroup, a channel
// filled by an uninstrumented goroutine). Another round happens only
// after some operation succeeded. After an errgroup task failed, the
// round waits until the group cancelled its context (errgroup does it
// after the task's function returned, outside rtlib); rtlib knows the
// context from GroupContext, which wraps every errgroup.WithContext
// call. The wait is bounded by 1 s, and by 2 ms for a group whose
// context rtlib did not see (created by uninstrumented code).
//
// If the round changes nothing, the program waits for something
// external: a timer (time.After, a context deadline), an uninstrumented
// goroutine, I/O. The parked Send, Recv, select and WaitGroup.Wait
// operations then run their real blocking operation without the baton
// (external mode), and the baton is free. The first task to come back
// (from such an operation, a Sleep or a Release) takes the baton, stops
// the interruptible external operations and waits for their answers,
// waits up to 250 µs for selects completing at the same time (all woken
// by one close, say), then queues all of them and itself in park order,
// those whose operation did not complete to retry it; from there on the
// order is deterministic again. A program whose behaviour depends on
// timing is therefore deterministic only up to its own timing: which
// timer fires first, when an uninstrumented sender sends.
//
// A WaitGroup whose Done rtlib does not see (wg.Done as a function
// value: time.AfterFunc(d, wg.Done), done := wg.Done; go done(),
// reflect; a dependency that calls Done) keeps rtlib's mirror of its
// counter above zero; its waiters return as the original's do, through
// that real Wait. A waiter woken by a Done through rtlib while it waits
// for real keeps the place in the ready queue that Done gave it. A Cond
// has no such real wait: the rewriter turns its Signal and Broadcast used
// as values (time.AfterFunc(d, c.Broadcast), reflect, a stored method
// value or expression) into SignalFunc, BroadcastFunc or the hooks
// themselves; only a dependency that calls Signal or Broadcast on a Cond
// passed to it still wakes nobody, and the program stops with "all
// goroutines are asleep".
//
// If nothing can ever happen, every goroutine ends up asleep in a Go
// primitive (rtlib's own goroutines wait on channels without timers at
// that point) and the Go runtime itself stops the process with "fatal
// error: all goroutines are asleep - deadlock!" and exit status 2, as it
// would stop the original program; rtlib writes the profile first (when
// nothing outside rtlib is pending it cannot know whether a timer will
// fire, so it writes whenever the run reaches that state after some
// progress). That write leaves the open roots open: most such waits are
// for a timer, a deadline or a time.AfterFunc callback, and the run goes
// on; if the process dies instead, the profile names the roots that had
// not ended. Where the original would hang instead (pending timers,
// go test's alarm, goroutines blocked in system calls), so does the
// instrumented program. When the baton is free and tasks are parked on
// locks, WaitGroups or groups, the watchdog also retries them 1, 4, 16,
// 64 and 256 ms later, in case uninstrumented code unlocked them.
//
// When main.main calls runtime.Goexit, its root ends there and the baton
// passes on: the other goroutines run to their end, and the Go runtime
// stops the process with "fatal error: no goroutines (main called
// runtime.Goexit) - deadlock!" (or "all goroutines are asleep" if some
// are blocked for ever) and exit status 2, as it stops the original. From
// then on the watchdog's goroutine ends whenever it would wait without a
// timer, so as not to count as a goroutine blocked for ever.
//
// # The watchdog
//
// A holder that runs uninstrumented code which blocks (a read nobody
// answers, a library's own wait, a dependency's send on a channel whose
// receiver is parked in rtlib) would hang the run. Every hook stores its
// site in an atomic heartbeat; a watchdog goroutine, which runs only
// while there is a holder and some task waits (ready or parked), reads
// and clears it four times per period (SPGO_WATCHDOG, default 1s, at
// least 10 ms, 0 to disable: a shorter period cannot tell a holder
// blocked in uninstrumented code from one that the Go scheduler or the
// operating system has not run yet). When the holder neither passed a
// hook nor gave up the baton for a whole period while others are ready,
// and the process used less than a tenth of a CPU meanwhile (a busy
// holder gets ten periods), the watchdog prints one warning to standard
// error naming the last site the holder passed (file:line and function),
// and passes the baton on as if the holder had blocked. When only parked
// tasks wait, a blocked holder loses the baton without a word (the
// parked tasks retry, and run their channel operations for real, since
// the holder may be blocked on one of them), and the warning comes only
// if some task makes progress before the holder is back: a holder in
// slow I/O while workers idle changes nothing. When the holder comes
// back to rtlib it queues for the baton again. After a warning the run
// is no longer serial or deterministic, and says so: every root open
// meanwhile gives the reason and no interval.
//
// A holder that waits in the Go runtime itself (a channel, lock or
// network-poller read of uninstrumented code: an io.Pipe, a dependency's
// worker hand-off) is found sooner: the watchdog also looks every 4 ms,
// and when on two looks in a row no goroutine but itself is running or
// runnable and none is in a system call or in C (runtime/metrics; the
// process runs on one P) beyond those a hook last counted there while it
// ran in Go (a CPU profile's writer, os/signal's loop), the holder is
// blocked, and the baton passes on
// at once, without a warning. Not during rtlib's own collections (a
// census), where the holder waits for the collector. Once woken, such a
// goroutine runs beside the next holder until its next hook: the roots
// open meanwhile say so and give no interval.
//
// The watchdog never takes the baton from a task that waits for it (one
// it was given and that the Go scheduler has not run yet): that task is
// not stuck. A task that lost the baton while inside rtlib (just before
// it began to wait for the baton, during the blocking operation of a
// rendezvous, between a failed attempt and its park) comes back for it,
// and one that was about to park tries its operation again: what it was
// about to wait for may have happened while others ran. Allocation
// hooks, At, Enter and Leave, which take their caller to be the holder,
// make sure of it while some goroutine's baton is taken.
//
// # Identity and adoption
//
// Most hooks do not say which goroutine calls them: while nothing
// suggests otherwise, rtlib takes the caller to be the holder, which
// costs a few atomic loads. Hooks that carry a task (Task methods,
// EndRoot, Reacquire) know it. The caller is identified by its goroutine
// id (parsed from runtime.Stack, microseconds, until the first calls of
// four goroutines have shown where the runtime's descriptor of a
// goroutine holds it; from then on, on amd64 and arm64 under Linux and
// macOS, read from there: see goid) when a hook is
// called while the baton is free, while a goroutine the watchdog took
// the baton from has not come back, after a goroutine was adopted
// outside a Release window, with SPGO_CHECK=1, and inside a Release
// window while some goroutine created since the window opened is not
// accounted for (the runtime's /sched/goroutines-created metric against
// the tasks started and goroutines adopted meanwhile; without the metric,
// Go before 1.26, throughout the window). Inside a window every hook also
// compares the caller's id with the holder's: the goroutine that opened
// it may call hooks itself, without the baton, when the released call
// runs instrumented code (semaphore.Weighted.Acquire with x/sync
// instrumented). A caller that is not the holder is adopted if rtlib
// does not know it (it becomes a task), or comes back if it does, and
// waits for the baton.
//
// BeginRoot adopts the goroutine that runs a root (main.main, a test
// function) and waits for the baton; EndRoot passes it on (at the end of
// main.main it keeps it: the process exits). Release gives the baton up
// around a library call that runs other roots or callbacks
// (testing.T.Run, M.Run, B.RunParallel) and opens a window; Reacquire
// closes it, retires the goroutines adopted in it that still hold the
// baton (their callbacks returned with the call) and queues for the
// baton. A root begun by the goroutine that released the baton (an
// example run by M.Run on the main goroutine) gives it back at EndRoot.
// An adopted goroutine rtlib cannot see leave: one that keeps the baton
// without a hook for 5 ms while others wait, in a window or while
// identities are checked, is presumed gone and loses the baton silently.
//
// A goroutine adopted in a window opened by a task of a root is a
// callback of the released call (the subtest of T.Run): it shares the
// opener's part of the DAG, as if the call were the callback's body
// (dag_window.go). The rewriter releases the baton around T.Parallel
// too, which blocks until the parent test's function returns. A subtest
// that goes on after its T.Run returned gets a part of the DAG of its
// own, forked at the return, and the parent's root stays open until its
// last such subtest ends (SubEnd, which the rewriter defers first in
// every function literal given to T.Run); a subtest function given by
// name has no SubEnd, and the parent's root says that its figures may be
// too low.
//
// A testing/synctest bubble is left to Go's scheduler (sched_bubble.go): its
// goroutines may not touch rtlib's channels, and its fake clock moves
// only when they all block on the bubble's own objects. The caller of
// synctest.Test goes out of rtlib for the call (BubbleOpen, BubbleClose),
// and while a bubble is open every hook looks at its caller's goroutine
// header: in a bubble it does the plain operation and nothing else. The
// roots open meanwhile give a reason and no interval.
//
// # What stays nondeterministic
//
// The sequence of holders is a function of the program's execution, so
// two runs of the same program on the same input hand the baton over in
// the same order, whatever GOMAXPROCS, except where the program itself
// asks Go for a choice rtlib cannot make:
//
//   - a select whose attempt finds several cases ready (two buffered
//     channels with data, a closed done channel and data): Go picks one
//     at random, and the select statement is user code;
//   - two blocking selects that meet on more than one channel pair in a
//     rendezvous: Go pairs them at random;
//   - timing: timers, Sleep, uninstrumented goroutines, I/O, and the
//     errgroup grace (a context cancelled later than 1 s after the
//     failing task ended, or 2 ms for a group made by uninstrumented
//     code, is found in external mode);
//   - goroutines rtlib adopts (callbacks of uninstrumented code), and a
//     run the watchdog had to rescue.
//
// The bytes are read from the runtime, which has its own timing: the
// process runs on one P (sched_procs.go), collects only at censuses (acct_gc.go),
// grows the runtime's timer heap before the first root, and keeps its
// per-object state in tables whose memory does not depend on a hash
// seed (table.go). That leaves the runtime's own objects allocated at
// timing-dependent moments (a thread started during a system call) to
// vary a long run's figures by a few bytes; ACCOUNTING.md has the
// figures.
//
// # The DAG
//
// dag.go lists the points where the series-parallel DAG changes (fork,
// child start and return, joins, roots, strand switches, channel edges).
// dag_node.go turns them into the engine's events (package mhwm) in the
// canonical child-first order: a task that is not yet next in that order
// is buffered; a Wait becomes a sync only when every child outstanding in
// the scope belongs to the waited group and has finished with its whole
// subtree, otherwise the join is delayed (sound) and the reason recorded.
// Channel communication, mutexes and Cond waits between tasks of a root
// are not series-parallel: the root's figures are then marked inexact.
//
// # Allocations
//
// Allocation hooks take the freshly allocated value and return it; they
// read only its size. They are placed only at sites the compiler's escape
// analysis puts on the heap, so a hook never moves a value to the heap.
// Allocations by uninstrumented code are read from runtime/metrics (large
// objects at every baton switch and at the end of every task, small ones
// after a census's collection, when their count is exact), and charged
// to the call site that caused them: the rewriter calls At(site) before every
// statement that calls uninstrumented code, and the bytes of an interval
// go to the last such site, else to the last hooked site. Deaths
// are found by censuses (runtime.GC): after a budget of allocation, at
// strand boundaries and before large allocations; big objects are
// tracked with weak pointers. A death found after the strand that may
// have caused it counts in the root's late bytes, which mark the root
// inexact past 3 % + 256 KiB. ACCOUNTING.md has the mechanisms
// measured, the choice, and what the figures are checked against.
//
// # Profile and environment
//
// An instrumented program writes a spgo.profile/v1 file (package
// rtlib/profile) at the end of every root and when it exits, panics,
// calls log.Fatal (then marked partial), and when every goroutine waits
// (a possible deadlock: the open roots are written as not ended), always
// atomically.
// It reads:
//
//	SPGO_PROFILE       profile path (default spgo-profile.json, and then the
//	                   first write says where on stderr; "off": none, and
//	                   no attribution trace is kept)
//	SPGO_PMAX          largest processor count computed (default 64)
//	SPGO_THRESHOLD     bytes M: answer "MHWM_pmax ≥ M?" (threshold mode)
//	SPGO_CENSUS        census policy: bounded (default), strand, off, oracle
//	SPGO_CENSUS_ERROR  E of the bounded rule (default 0.03)
//	SPGO_CENSUS_MIN    smallest census budget in bytes (default 65536)
//	SPGO_TRACK         objects this big or bigger are tracked (default 4096)
//	SPGO_SOURCE_ROOT   files under this directory are named relative to it
//	SPGO_ATTRIBUTE     most processor counts given per-line figures per
//	                   root (default 32; 1, the powers of two, pmax and
//	                   where the curve stops growing always are)
//	SPGO_TRACE_LIMIT   most bytes a root's attribution trace may hold
//	                   (default 1073741824, 1 GiB; 0: no limit): past it the
//	                   per-line figures of that root are dropped, with a
//	                   warning; its MHWM figures are not affected
//	SPGO_STACKS        off: no goroutine stacks beside the heap (no second
//	                   engine, no stack looks: cheaper on fine-grained
//	                   programs); on (default)
//	SPGO_WATCHDOG      watchdog period (default 1s, at least 10ms; 0 disables)
//	SPGO_CHECK         1: verify the caller of every scheduling hook (slower;
//	                   0 or unset: not)
//	SPGO_DEBUG_CENSUS  non-empty: one line of statistics per census on stderr
//	SPGO_DEBUG_STATS   non-empty: one line per root end on stderr (strands,
//	                   spawns, the bytes of the attribution traces and
//	                   rtlib's tables, the time the root end took;
//	                   prof_stats.go)
//	SPGO_TRACE         path: record each root's strands (not those of a
//	                   root begun inside another), with channel, mutex and
//	                   errgroup-limit edges, for schedule simulation
//	                   (rec.go, package sim; spgo.trace/v1); the
//	                   recorder's own small allocations then count as the
//	                   program's, but for its task records and lists. Deaths the accounting defers to a join
//	                   are left to the trace's reader to place (free
//	                   records), and a task that holds as much as gets a
//	                   census at its end gets one before a channel or lock
//	                   operation too when half that much was allocated
//	                   since the last census, so that its deaths are
//	                   placed before the synchronisation: the recorded
//	                   roots' figures may then have a smaller census error
//
// A bad value is reported on standard error when the program starts (and
// among the profile's warnings), and the default is used.
package rtlib
