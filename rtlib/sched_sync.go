package rtlib

import (
	"reflect"
	"sync"
	"time"
	"unsafe"

	"github.com/spgo/spgo/rtlib/trace"
)

// Locks are taken with TryLock by the holder; when that fails the task
// parks on the lock and an unlock through rtlib wakes the first parked
// locker (all of them for RWMutex.Unlock, the first writer for RUnlock).
// A woken locker tries again when it gets the baton.

// Lock is sync.Mutex.Lock.
func Lock(site Site, mu *sync.Mutex) {
	if inBubble() {
		mu.Lock()
		return
	}
	lockOn(site, unsafe.Pointer(mu), wkMutex, mu.TryLock)
}

// Unlock is sync.Mutex.Unlock.
func Unlock(mu *sync.Mutex) {
	if inBubble() {
		mu.Unlock()
		return
	}
	unlockOn(unsafe.Pointer(mu), wkMutex, mu.Unlock)
}

// RWLock is sync.RWMutex.Lock.
func RWLock(site Site, mu *sync.RWMutex) {
	if inBubble() {
		mu.Lock()
		return
	}
	lockOn(site, unsafe.Pointer(mu), wkRWW, mu.TryLock)
}

// RWUnlock is sync.RWMutex.Unlock.
func RWUnlock(mu *sync.RWMutex) {
	if inBubble() {
		mu.Unlock()
		return
	}
	unlockOn(unsafe.Pointer(mu), wkRWW, mu.Unlock)
}

// RLock is sync.RWMutex.RLock.
func RLock(site Site, mu *sync.RWMutex) {
	if inBubble() {
		mu.RLock()
		return
	}
	lockOn(site, unsafe.Pointer(mu), wkRWR, mu.TryRLock)
}

// RUnlock is sync.RWMutex.RUnlock.
func RUnlock(mu *sync.RWMutex) {
	if inBubble() {
		mu.RUnlock()
		return
	}
	unlockOn(unsafe.Pointer(mu), wkRWR, mu.RUnlock)
}

// lockOn takes the lock at key, of kind wkMutex, wkRWW (a writer) or
// wkRWR (a reader), with try, the lock's TryLock or TryRLock: the holder
// parks on the lock while try fails. The method values do not escape:
// the three hooks allocate nothing.
func lockOn(site Site, key unsafe.Pointer, kind wkind, try func() bool) {
	t := self()
	sliced(t)
	commOp(site, "a mutex")
	for !try() {
		parkOn(t, key, kind, pkLock)
	}
	recLock(key, kind != wkRWR)
	beat(site) // last: see beat
}

// unlockOn releases the lock at key, held as kind (see lockOn), with
// unlock, and wakes whom the release may let in: the first locker of a
// Mutex, every waiter of an RWMutex a writer released, the first writer
// when a reader leaves.
func unlockOn(key unsafe.Pointer, kind wkind, unlock func()) {
	self()
	unlock()
	recUnlock(key, kind != wkRWR)
	switch kind {
	case wkMutex:
		unlocked(key, wkMutex, false)
	case wkRWW:
		unlocked(key, wkAny, true)
	default:
		unlocked(key, wkRWW, false)
	}
	beat(-1) // last: see beat
}

// unlocked wakes the first task parked on the lock at key with kind (all
// tasks parked on it if all).
func unlocked(key unsafe.Pointer, kind wkind, all bool) {
	if nparkedA.Load() == 0 {
		return
	}
	sched.mu.Lock()
	noteProgressLocked()
	if all {
		if q := sched.waitqs.at(key); q != nil {
			wakeAllLocked(q, wkAny)
		}
	} else {
		wakeFirstLocked(key, kind, 0)
	}
	sched.mu.Unlock()
}

// CondWait is sync.Cond.Wait. rtlib keeps its own first-in first-out list
// of waiters per Cond: the task registers, unlocks c.L through rtlib,
// parks until Signal or Broadcast wakes it, and locks c.L again through
// rtlib.
func CondWait(site Site, c *sync.Cond) {
	if inBubble() {
		c.Wait()
		return
	}
	t := self()
	commOp(site, "a sync.Cond")
	sched.mu.Lock()
	t.nws = 0
	linkLocked(t, queueLocked(unsafe.Pointer(c)), wkCond, 0, 0)
	sched.mu.Unlock()
	unlockLocker(c.L)
	sched.mu.Lock()
	parkLocked(t, pkCond)
	recRelay(rec.signals, unsafe.Pointer(c), false, trace.Cond)
	lockLocker(site, t, c.L)
	beat(site) // last: see beat
}

// Signal is sync.Cond.Signal: it wakes the first rtlib waiter of c, and a
// waiter of uninstrumented code if there is one.
func Signal(c *sync.Cond) { signal(c, false) }

// signal is Signal; foreign says the caller may be a goroutine rtlib has
// not seen (SignalFunc): it is identified, never taken for the holder.
func signal(c *sync.Cond, foreign bool) {
	if inBubble() {
		c.Signal()
		return
	}
	selfMaybeForeign(foreign)
	recRelay(rec.signals, unsafe.Pointer(c), true, trace.Cond)
	if nparkedA.Load() > 0 {
		sched.mu.Lock()
		noteProgressLocked()
		wakeFirstLocked(unsafe.Pointer(c), wkCond, 0)
		sched.mu.Unlock()
	}
	c.Signal()
	beat(-1) // last: see beat
}

// Broadcast is sync.Cond.Broadcast.
func Broadcast(c *sync.Cond) { broadcast(c, false) }

// broadcast is Broadcast; foreign as for signal.
func broadcast(c *sync.Cond, foreign bool) {
	if inBubble() {
		c.Broadcast()
		return
	}
	selfMaybeForeign(foreign)
	recRelay(rec.signals, unsafe.Pointer(c), true, trace.Cond)
	if nparkedA.Load() > 0 {
		sched.mu.Lock()
		noteProgressLocked()
		if q := sched.waitqs.at(unsafe.Pointer(c)); q != nil {
			wakeAllLocked(q, wkCond)
		}
		sched.mu.Unlock()
	}
	c.Broadcast()
	beat(-1) // last: see beat
}

// SignalFunc is the method value c.Signal: code rtlib does not see
// (time.AfterFunc, reflect, a dependency) calls it and rtlib's waiters
// wake.
func SignalFunc(c *sync.Cond) func() { return func() { signal(c, true) } }

// BroadcastFunc is the method value c.Broadcast (see SignalFunc).
func BroadcastFunc(c *sync.Cond) func() { return func() { broadcast(c, true) } }

// LockerLock is sync.Locker.Lock, a lock through the interface (a
// sync.Cond's L): by the dynamic type, a Mutex or RWMutex (or its
// RLocker) is locked as by its own hook, a Locker with TryLock parks
// while it fails, and any other is locked holding the baton.
func LockerLock(site Site, l sync.Locker) {
	if inBubble() {
		l.Lock()
		return
	}
	t := self()
	commOp(site, "a mutex")
	lockLocker(site, t, l)
	beat(site) // last: see beat
}

// LockerUnlock is sync.Locker.Unlock (see LockerLock).
func LockerUnlock(l sync.Locker) {
	if inBubble() {
		l.Unlock()
		return
	}
	self()
	unlockLocker(l)
	beat(-1) // last: see beat
}

var rlockerType = reflect.TypeOf(new(sync.RWMutex).RLocker())

// lockerKey is the identity of a Locker held in an interface.
func lockerKey(l sync.Locker) unsafe.Pointer {
	v := reflect.ValueOf(l)
	if v.Kind() == reflect.Pointer {
		return v.UnsafePointer()
	}
	return nil
}

// lockLocker locks c.L for CondWait, through rtlib when it can.
func lockLocker(site Site, t *Task, l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		Lock(site, m)
	case *sync.RWMutex:
		RWLock(site, m)
	default:
		if reflect.TypeOf(l) == rlockerType {
			RLock(site, (*sync.RWMutex)(lockerKey(l)))
			return
		}
		if tl, ok := l.(interface{ TryLock() bool }); ok {
			for !tl.TryLock() {
				parkOn(t, lockerKey(l), wkMutex, pkLock)
			}
			return
		}
		// A Locker rtlib cannot try: lock it holding the baton. Its
		// Lock may be instrumented code (a spin lock that calls
		// runtime.Gosched), whose hooks need the baton; an
		// uninstrumented one that blocks in the Go runtime loses the
		// baton to the watchdog's blocked-holder rule.
		l.Lock()
	}
}

// unlockLocker unlocks c.L for CondWait.
func unlockLocker(l sync.Locker) {
	switch m := l.(type) {
	case *sync.Mutex:
		Unlock(m)
	case *sync.RWMutex:
		RWUnlock(m)
	default:
		if reflect.TypeOf(l) == rlockerType {
			RUnlock((*sync.RWMutex)(lockerKey(l)))
			return
		}
		l.Unlock()
		if k := lockerKey(l); k != nil {
			unlocked(k, wkMutex, false)
		}
	}
}

// Sleep is time.Sleep: the baton passes on for the duration, and the task
// queues for it again when it wakes.
func Sleep(site Site, d time.Duration) {
	if inBubble() {
		time.Sleep(d) // the bubble's clock
		return
	}
	beat(site)
	t := self()
	goOut(t)
	time.Sleep(d)
	arrive(t)
	beat(site)
}

// Token is a released baton, to be taken back with Reacquire.
type Token struct {
	site Site
	t    *Task
	w    *window
}

// window is the span of a Release: goroutines that call hooks meanwhile
// are adopted in it, and identities are checked until it closes.
type window struct {
	opener *Task
	guests []*Task
}

// Release gives up the baton before a library call that blocks while
// other instrumented goroutines run (testing.T.Run and friends). The
// rewriter turns x.Run(args) into
//
//	rtlib.Reacquire(rtlib.Release(site), x.Run(args))
//
// so that the call runs between the two.
func Release(site Site) Token {
	if inBubble() {
		return Token{}
	}
	beat(site)
	t := self()
	if t.goid == 0 {
		// Callbacks of the call may run on this goroutine: know it.
		id := goid()
		sched.mu.Lock()
		t.goid = id
		sched.goids.put(id, t)
		sched.mu.Unlock()
	}
	w := &window{opener: t}
	sched.mu.Lock()
	openWindowLocked(w)
	dagRelease(t, site)
	sched.mu.Unlock()
	goOut(t)
	return Token{site: site, t: t, w: w}
}

// Reacquire takes the baton back and returns v.
func Reacquire[T any](t Token, v T) T {
	Reacquired(t)
	return v
}

// Reacquired takes the baton back after a call without results. The
// goroutines adopted during the call that still hold the baton are done
// with it (the call returned, so its callbacks did): they are retired.
func Reacquired(t Token) {
	tok := t
	task, w := tok.t, tok.w
	if task == nil {
		return
	}
	sched.mu.Lock()
	closeWindowLocked(w)
	for _, g := range w.guests {
		if g.state == stRunning || g.stolen {
			retireLocked(g)
		}
	}
	arriveLocked(task)
	sched.mu.Unlock()
	waitBaton(task)
	settle(task)
	dagReacquire(task, w, tok.site)
	beat(tok.site)
}
