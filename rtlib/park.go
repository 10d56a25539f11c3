package rtlib

import "unsafe"

// A waiter registers a parked task on one object (a channel, a mutex, a
// Cond, a WaitGroup, an errgroup); a select has one per case. Waiters of
// an object are kept in the order they parked.
type waiter struct {
	t          *Task
	q          *waitq
	kind       wkind
	dir        byte // channel: 'r' or 's'
	k          int  // the case index, for a select
	prev, next *waiter
}

// wkind says what a waiter waits for on its object.
type wkind uint8

const (
	wkChan    wkind = iota
	wkMutex         // Mutex.Lock, a Locker with TryLock
	wkRWW           // RWMutex.Lock
	wkRWR           // RWMutex.RLock
	wkCond          // Cond.Wait
	wkWG            // WaitGroup.Wait
	wkGroupW        // errgroup Wait
	wkGroupGo       // errgroup Go on a full group
)

type waitq struct {
	key        unsafe.Pointer // nil when the queue belongs to a wgState or groupState
	head, tail *waiter
}

// queueLocked returns the wait queue of the object at key, creating it.
func queueLocked(key unsafe.Pointer) *waitq {
	if q := sched.waitqs.at(key); q != nil {
		return q
	}
	var q *waitq
	if n := len(sched.freeQs); n > 0 {
		q = sched.freeQs[n-1]
		sched.freeQs = sched.freeQs[:n-1]
	} else {
		q = new(waitq)
	}
	q.key = key
	sched.waitqs.put(key, q)
	return q
}

// linkLocked registers t on q; t parks after all its registrations.
func linkLocked(t *Task, q *waitq, kind wkind, dir byte, k int) {
	if t.nws == len(t.ws) {
		t.ws = append(t.ws, new(waiter))
	}
	w := t.ws[t.nws]
	t.nws++
	*w = waiter{t: t, q: q, kind: kind, dir: dir, k: k, prev: q.tail}
	if q.tail == nil {
		q.head = w
	} else {
		q.tail.next = w
	}
	q.tail = w
}

func unlinkLocked(w *waiter) {
	q := w.q
	unlink(w, &q.head, &q.tail, waiterLinks)
	if q.head == nil && q.key != nil {
		sched.waitqs.del(q.key)
		q.key = nil
		sched.freeQs = append(sched.freeQs, q)
	}
	w.t, w.q = nil, nil
}

func parkLinks(t *Task) (prev, next **Task) { return &t.pprev, &t.pnext }

func waiterLinks(w *waiter) (prev, next **waiter) { return &w.prev, &w.next }

// unlink takes x off the doubly linked list whose ends are *head and
// *tail; links returns the addresses of an element's links. The park
// list, the wait queues and the list of external operations are such
// lists, each through links of its own.
func unlink[T any](x *T, head, tail **T, links func(*T) (prev, next **T)) {
	prev, next := links(x)
	if *prev == nil {
		*head = *next
	} else {
		_, pn := links(*prev)
		*pn = *next
	}
	if *next == nil {
		*tail = *prev
	} else {
		np, _ := links(*next)
		*np = *prev
	}
	*prev, *next = nil, nil
}

// parkLocked parks the holder t, whose registrations are linked, passes
// the baton on and waits until t is woken. It is called with sched.mu
// held and returns without it, with the mode t was woken with (holding
// the baton if mAttempt).
func parkLocked(t *Task, pk parkKind) mode {
	if t.stolen {
		if pk != pkCond {
			return retryLocked(t)
		}
		// A Cond waiter is woken only by Signal and Broadcast: it
		// parks, registered before it unlocked c.L.
		unstealLocked(t)
		leaveOutLocked(t)
	}
	t.state = stParked
	t.pk = pk
	sched.parkSeq++
	t.pseq = sched.parkSeq
	t.pprev, t.pnext = sched.parkTail, nil
	if sched.parkTail == nil {
		sched.parkHead = t
	} else {
		sched.parkTail.pnext = t
	}
	sched.parkTail = t
	sched.nparked++
	if pk != pkCond {
		sched.nretry++
	}
	syncAttnLocked()
	dagBlock(t)
	releaseLocked(t)
	wakeWatchdogLocked()
	return waitWoken(t)
}

// unparkLocked removes the parked task t from its objects and from the
// park list.
func unparkLocked(t *Task) {
	for i := 0; i < t.nws; i++ {
		unlinkLocked(t.ws[i])
	}
	t.nws = 0
	offParkListLocked(t)
}

// offParkListLocked takes the parked task t off the park list and its
// counts, leaving its registrations.
func offParkListLocked(t *Task) {
	unlink(t, &sched.parkHead, &sched.parkTail, parkLinks)
	sched.nparked--
	if t.pk != pkCond {
		sched.nretry--
	}
	syncAttnLocked()
}

// wakeLocked makes the parked task p ready with mode m. A WaitGroup
// waiter waiting for real (outWG) takes its place in the ready queue
// now, and waits for the baton once its wg.Wait has returned (wgBack).
func wakeLocked(p *Task, m mode) {
	if p.out == outWG {
		for i := 0; i < p.nws; i++ {
			unlinkLocked(p.ws[i])
		}
		p.nws = 0
		p.out = outNone
		p.wake = m
		pushReadyLocked(p)
		return
	}
	unparkLocked(p)
	p.wake = m
	pushReadyLocked(p)
	poke(p)
}

// firstLocked returns the first waiter of q of kind, and of direction dir
// if dir is not 0.
func (q *waitq) firstLocked(kind wkind, dir byte) *waiter {
	for w := q.head; w != nil; w = w.next {
		if w.kind == kind && (dir == 0 || w.dir == dir) {
			return w
		}
	}
	return nil
}

// wakeFirstLocked wakes the first waiter of kind (and dir) on the object
// at key; it reports whether there was one.
func wakeFirstLocked(key unsafe.Pointer, kind wkind, dir byte) bool {
	q := sched.waitqs.at(key)
	if q == nil {
		return false
	}
	if w := q.firstLocked(kind, dir); w != nil {
		wakeLocked(w.t, mAttempt)
		return true
	}
	return false
}

// wakeAllLocked wakes every waiter of q of kind (any kind if kind is
// wkAny), in park order.
func wakeAllLocked(q *waitq, kind wkind) {
	var prev *waiter // the last waiter kept
	for {
		w := q.head
		if prev != nil {
			w = prev.next
		}
		for w != nil && kind != wkAny && w.kind != kind {
			prev, w = w, w.next
		}
		if w == nil {
			return
		}
		wakeLocked(w.t, mAttempt)
		if prev != nil && prev.t == nil {
			prev = nil // it was the woken task's too: start again
		}
	}
}

const wkAny wkind = 255

// parkOn parks the holder t on the object at key until it is woken, and
// returns holding the baton. It is the slow path of Lock and friends.
func parkOn(t *Task, key unsafe.Pointer, kind wkind, pk parkKind) {
	sched.mu.Lock()
	t.nws = 0
	linkLocked(t, queueLocked(key), kind, 0, 0)
	parkLocked(t, pk)
}
