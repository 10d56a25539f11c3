package rtlib

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// The watchdog turns a baton holder stuck in uninstrumented code into a
// warning instead of a hang. Every hook stores its site in hb (one atomic
// store); the watchdog swaps hb with 0 every quarter period, so a holder
// that neither passed a hook nor gave up the baton for a whole period
// while other tasks wait for the baton is stuck (or computing without
// hooks). If the process used less than a tenth of a CPU meanwhile the
// holder is taken to be blocked: the watchdog prints one warning naming the last
// site the holder passed, and passes the baton on as if the holder had
// blocked. A busy holder gets ten periods. The holder, when it comes back
// to rtlib, queues for the baton again (identities are checked until it
// does). Adopted goroutines (see self) get a short leash and no warning
// while identities are checked: rtlib cannot see them leave. A holder
// waiting in the Go runtime (holderWaits) loses the baton within two
// ticks of blockTick, without a warning.
//
// Whenever there is no holder or nobody waits, the watchdog waits on a
// channel, and after wdLinger (20 ms) it ends: it keeps the Go runtime
// from reporting a deadlock no longer than that, and a program that
// lists its goroutines (goleak) does not find it; the next task that
// waits starts another. When the baton is free and tasks are parked on
// locks, WaitGroups or groups, it also polls them a few times (1, 4, 16,
// 64 and 256 ms later) in case uninstrumented code changed their state.

var (
	// hb is the heartbeat: the last site a hook passed (-1 for hooks
	// without a site), reset to 0 by the watchdog.
	hb atomic.Int32

	wdPeriod atomic.Int64 // time.Duration; <= 0: disabled
	wdOnce   sync.Once
	wdWake   = make(chan struct{}, 1)
	wdTimer  *time.Timer // the watchdog's, made once (startWatchdog)

	// warnOut receives the watchdog's warnings (tests replace it).
	warnOut io.Writer = os.Stderr
	warnMu  sync.Mutex
)

// guestLeash is how long an adopted goroutine may hold the baton without
// a hook while others wait, when identities are checked.
const guestLeash = 5 * time.Millisecond

// maxPoll is the last delay of the polls of parked tasks when the baton
// is free (1, 4, 16, 64, 256 ms).
const maxPoll = 256 * time.Millisecond

// minWatchdog is the shortest period SPGO_WATCHDOG accepts. Below the
// Go scheduler's time slice (10 ms) and the operating system's delays
// on a loaded machine, a holder that has not reached a hook for a period
// may simply not have been run: the watchdog would take the baton from
// goroutines that are not stuck, and the run would be neither serial nor
// deterministic for nothing.
const minWatchdog = 10 * time.Millisecond

// watchdogPeriod reads SPGO_WATCHDOG: a duration of at least minWatchdog
// (default 1s), 0 to disable the watchdog.
func watchdogPeriod() time.Duration {
	s := os.Getenv("SPGO_WATCHDOG")
	if s == "" {
		return time.Second
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		envProblem(fmt.Sprintf("SPGO_WATCHDOG=%q: want a duration such as 1s or 250ms, or 0 to disable the watchdog; using 1s", s))
	case d == 0:
		return 0
	case d < minWatchdog:
		envProblem(fmt.Sprintf("SPGO_WATCHDOG=%q: the shortest period is %v (a shorter one cannot tell a goroutine blocked in uninstrumented code from one the scheduler has not run yet), 0 disables the watchdog; using 1s", s, minWatchdog))
	default:
		return d
	}
	return time.Second
}

func init() { wdPeriod.Store(int64(watchdogPeriod())) }

func startWatchdog() {
	if wdPeriod.Load() > 0 {
		wdOnce.Do(func() {
			// The watchdog's timer is made here, at a point of the
			// program's run that does not depend on timing: a first
			// time.Sleep would allocate it whenever the watchdog first
			// waits, in a census interval that changes from run to run.
			t := time.NewTimer(time.Hour)
			t.Stop()
			wdTimer = t
			own.Add(1)
			go watchdog(t)
		})
	}
}

// wakeWatchdogLocked wakes the watchdog if it sleeps without a timer, or
// starts it again if it ended (after main called runtime.Goexit).
func wakeWatchdogLocked() {
	if sched.wdGone {
		sched.wdGone = false
		own.Add(1)
		go watchdog(wdTimer)
		return
	}
	if sched.wdIdle {
		sched.wdIdle = false
		select {
		case wdWake <- struct{}{}:
		default:
		}
	}
}

// wdLinger is how long the watchdog waits, idle, before it ends.
const wdLinger = 20 * time.Millisecond

// idleWait waits on t for a wake of the idle watchdog, at most
// wdLinger, and reports whether one came.
func idleWait(t *time.Timer) bool {
	t.Reset(wdLinger)
	select {
	case <-wdWake:
		t.Stop()
		return true
	case <-t.C:
		return false
	}
}

// sleep waits d on t, which allocates nothing.
func sleep(t *time.Timer, d time.Duration) {
	t.Reset(d)
	<-t.C
}

func watchdog(timer *time.Timer) {
	acct.Add(1) // a goroutine rtlib accounts for (see strangers)
	defer own.Add(-1)
	var (
		holder   *Task
		switches uint64
		since    time.Time
		site     Site
		cpu0     time.Duration
		poll     = time.Millisecond
		pollAt   uint64
		// blockedTicks counts the ticks in a row that found the
		// holder waiting in the Go runtime (holderWaits).
		blockedTicks int
	)
	for {
		sched.mu.Lock()
		h := cur.Load()
		waiting := h != nil && (sched.nready > 0 || h.resumer != nil || sched.nparked > 0)
		if sched.progress != pollAt {
			poll, pollAt = time.Millisecond, sched.progress
		}
		polling := h == nil && sched.nretry > 0 && poll <= maxPoll
		if !waiting && !polling {
			if sched.mainGone {
				// Waiting here would count as a goroutine blocked
				// for ever (prof_exit.go).
				sched.wdGone = true
				sched.mu.Unlock()
				return
			}
			sched.wdIdle = true
			sched.mu.Unlock()
			if !idleWait(timer) {
				// Idle for wdLinger: end, so that a program that looks
				// at its goroutines (goleak at the end of a test) does
				// not find rtlib's; wakeWatchdogLocked starts another.
				sched.mu.Lock()
				if sched.wdIdle {
					sched.wdIdle, sched.wdGone = false, true
					sched.mu.Unlock()
					return
				}
				sched.mu.Unlock()
				select { // the wake that came meanwhile
				case <-wdWake:
				default:
				}
			}
			holder = nil
			continue
		}
		if !waiting {
			sched.mu.Unlock()
			sleep(timer, poll)
			poll *= 4
			sched.mu.Lock()
			if cur.Load() == nil {
				if n := retryRoundLocked(true); n != nil {
					takeFreeLocked(n)
				}
			}
			sched.mu.Unlock()
			continue
		}
		limit, silent := time.Duration(wdPeriod.Load()), false
		if limit <= 0 {
			limit = time.Hour
		}
		if h.kind == kGuest && (checking.Load() || inWindow.Load()) {
			limit, silent = min(limit, guestLeash), true
		}
		sched.mu.Unlock()

		sleep(timer, min(limit/4, blockTick))
		outsideWanted.Store(true)
		s := Site(hb.Swap(0))
		now := time.Now()
		sched.mu.Lock()
		h = cur.Load()
		if h != holder || sched.switches != switches || s != 0 || h != nil && h.inWait.Load() {
			// Progress, or a holder that has not taken the baton up
			// yet: the Go scheduler has not run it (see waitBaton).
			if h != holder && h != nil {
				site = h.site
			}
			if s > 0 {
				site = s
			}
			holder, switches, since = h, sched.switches, now
			cpu0 = cpuTime()
			blockedTicks = 0
			sched.mu.Unlock()
			continue
		}
		idle := now.Sub(since)
		ready := h != nil && (sched.nready > 0 || h.resumer != nil)
		parked := h != nil && sched.nparked > 0
		if (ready || parked) && !sched.flushing && !collecting.Load() && holderWaits() {
			// Blocked in the Go runtime (a channel, lock or I/O of
			// uninstrumented code: io.Pipe, a dependency's worker):
			// on the second tick in a row, pass the baton on at once,
			// without a warning. (A single tick could catch a holder
			// that waits a moment for a lock of rtlib's.)
			if blockedTicks++; blockedTicks >= 2 {
				blockedTicks = 0
				if h.kind == kGuest && h.goid != 0 && !goroutineAlive(h.goid) {
					// An adopted goroutine whose callback returned
					// (a time.AfterFunc function): it is gone, and
					// nothing it did can be charged late.
					retireLocked(h)
					syncAttnLocked()
					sched.mu.Unlock()
					holder = nil
					continue
				}
				noteBlocked(site)
				stealLocked(h)
				syncAttnLocked()
				sched.mu.Unlock()
				holder = nil
				continue
			}
		} else {
			blockedTicks = 0
		}
		switch {
		case !ready && !parked, sched.flushing, idle < limit:
			sched.mu.Unlock()
			continue
		case !silent && busy(cpu0, idle) && (!ready || idle < 10*limit):
			// A busy holder: others that are ready get the baton
			// after ten periods; parked ones cannot run anyway.
			sched.mu.Unlock()
			continue
		}
		if !silent {
			if ready {
				warn(site, idle)
			} else {
				// Only parked tasks wait: take the baton quietly and
				// warn only if something makes progress while h is
				// away (h was blocked on one of them); if h comes back
				// first, nothing ran meanwhile.
				sched.probe, sched.probeTask = true, h
				sched.probeSite, sched.probeIdle = site, idle
			}
		}
		stealLocked(h)
		syncAttnLocked()
		sched.mu.Unlock()
		holder = nil
	}
}

// busy reports whether the process used at least a tenth of a CPU since
// cpu0 (over idle), or has a thread waiting for a CPU: a holder blocked
// in a system call or a channel operation of uninstrumented code uses
// next to nothing, but so does one starved by a loaded machine.
func busy(cpu0, idle time.Duration) bool {
	c := cpuTime()
	return c >= 0 && cpu0 >= 0 && c-cpu0 >= idle/10 || othersRunnable()
}

// steals counts the times the watchdog took the baton (tests).
var steals atomic.Int32

// stealLocked takes the baton from h, which is stuck outside rtlib.
func stealLocked(h *Task) {
	steals.Add(1)
	h.stolen = true
	sched.stolen++
	stolenTasks = append(stolenTasks, h)
	updateCheckingLocked()
	h.state = stOut
	h.out = outPlain
	sched.nout++
	sched.progress++ // parked tasks retry: h may be blocked on one of them
	dagBlock(h)
	releaseLocked(h)
	poke(h) // if it is waiting for the baton after all, it comes back (waitBaton)
}

func warn(site Site, idle time.Duration) {
	where := "no instrumented operation yet"
	if r, ok := Lookup(site); ok {
		where = fmt.Sprintf("last at %s:%d in %s", r.File, r.Line, r.Func)
	}
	warnMu.Lock()
	defer warnMu.Unlock()
	fmt.Fprintf(warnOut, "spgo: warning: the goroutine holding the baton has not reached an instrumented operation for %v (%s): it is blocked or busy in uninstrumented code while other goroutines wait; running them without it, so this run is no longer serial and deterministic\n", idle.Round(time.Millisecond), where)
	if len(stuck.what) < maxStuck {
		stuck.what = append(stuck.what, fmt.Sprintf("%v, %s", idle.Round(time.Millisecond), where))
	}
	stuck.n.Add(1)
}

// blockTick is how often the watchdog looks at a holder that others
// wait for: a holder blocked in the Go runtime is found within two ticks.
const blockTick = 4 * time.Millisecond

// wdSamples are the watchdog's own runtime/metrics readings (holderWaits).
var wdSamples = []metrics.Sample{
	{Name: "/sched/goroutines/running:goroutines"},
	{Name: "/sched/goroutines/runnable:goroutines"},
	{Name: "/sched/goroutines/not-in-go:goroutines"},
}

// holderWaits reports whether the holder waits in the Go runtime: the
// process runs on one P, and no goroutine but the watchdog is running or
// runnable, and no more are in a system call or in C (where a holder may
// be busy) than the last hook found while it ran in Go (outside). A
// holder computing is running or, preempted for the watchdog, runnable.
// Only the watchdog calls it.
//
// Goroutines out of Go that are not the holder are common: a CPU profile
// (go test -cpuprofile) keeps its writer in a system call, os/signal its
// loop. Counted against the holder, each made a holder blocked in io.Pipe
// wait for the watchdog's period instead (imaging's TestAutoOrientation
// under -cpuprofile: 30 warnings, 31 s against 1.4 s).
func holderWaits() bool {
	metrics.Read(wdSamples)
	for _, s := range wdSamples {
		if s.Value.Kind() != metrics.KindUint64 {
			return false // an older runtime: the period's rule alone
		}
	}
	running, runnable, out := wdSamples[0].Value.Uint64(), wdSamples[1].Value.Uint64(), wdSamples[2].Value.Uint64()
	return running+runnable <= 1 && (out == 0 || int64(out) <= outside.Load()) && runtime.GOMAXPROCS(0) == 1
}

// The goroutines out of Go (in system calls or C) that a hook counted,
// -1 before the first count: the hook's caller runs in Go, so they are
// others. The watchdog asks for a count (outsideWanted) every tick it
// watches a holder, and so do a task's Start and BeginRoot (a new task
// may block in uninstrumented code before its next hook); the next beat
// takes it, at about 100 ns.
var (
	outside       atomic.Int64
	outsideWanted atomic.Bool
	outsideMu     sync.Mutex
	outsideSample = []metrics.Sample{{Name: "/sched/goroutines/not-in-go:goroutines"}}
)

func init() {
	outside.Store(-1)
	outsideWanted.Store(true)
}

// sampleOutside counts the goroutines out of Go for outside, if no other
// beat took the watchdog's request.
func sampleOutside() {
	if !outsideWanted.CompareAndSwap(true, false) {
		return
	}
	if n, ok := countOutside(); ok {
		outside.Store(int64(n))
	}
}

// countOutside reads how many goroutines are out of Go; ok is false on a
// runtime without the metric.
func countOutside() (n uint64, ok bool) {
	outsideMu.Lock()
	defer outsideMu.Unlock()
	metrics.Read(outsideSample)
	v := outsideSample[0].Value
	if v.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return v.Uint64(), true
}

// noteBlocked records that the watchdog passed the baton on from a
// holder blocked in the Go runtime after site (see stuckReason).
func noteBlocked(site Site) {
	where := "no instrumented operation yet"
	if r, ok := Lookup(site); ok {
		where = fmt.Sprintf("after %s:%d in %s", r.File, r.Line, r.Func)
	}
	warnMu.Lock()
	if len(stuck.blockedWhat) < maxStuck {
		stuck.blockedWhat = append(stuck.blockedWhat, where)
	}
	warnMu.Unlock()
	stuck.blocked.Add(1)
}

// stuck records the watchdog's warnings, so that the roots open meanwhile
// say that their run was not serial (stuckReason). what (warnMu held)
// keeps the first maxStuck warnings' details.
var stuck struct {
	n    atomic.Int64
	what []string

	// The holders blocked in the Go runtime that the baton left
	// quietly (noteBlocked), and the first maxStuck places.
	blocked     atomic.Int64
	blockedWhat []string
}

const maxStuck = 64

// stuckReason is the reason a root gives for the watchdog's warnings
// number from to to (excluded) of the run, "" if there were none.
func stuckReason(from, to int64) string {
	if to <= from {
		return ""
	}
	return fmt.Sprintf("the watchdog took the baton %d time(s) from a goroutine stuck in uninstrumented code%s: goroutines ran at once from then on, so the run was neither serial nor deterministic, and what they allocated meanwhile may be charged to the wrong strand", to-from, firstEvent(&stuck.what, from, " (the first: stuck for %s)"))
}

// blockedReason is the reason a root gives for the blocked holders number
// from to to (excluded) of the run, "" if there were none.
func blockedReason(from, to int64) string {
	if to <= from {
		return ""
	}
	return fmt.Sprintf("a goroutine blocked in uninstrumented code %d time(s)%s, on a channel, lock or I/O that rtlib does not see: the baton went on without it, and once woken it ran beside the holder until its next instrumented operation, so what it allocated then may be charged to another strand", to-from, firstEvent(&stuck.blockedWhat, from, " (the first %s)"))
}

// firstEvent formats event number from of what (kept under warnMu), ""
// if it was not kept.
func firstEvent(what *[]string, from int64, format string) string {
	warnMu.Lock()
	defer warnMu.Unlock()
	if from >= int64(len(*what)) {
		return ""
	}
	return fmt.Sprintf(format, (*what)[from])
}
