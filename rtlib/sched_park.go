package rtlib

import (
	"sync/atomic"
	"unsafe"
)

// A waiter registers a parked task on one object (a channel, a mutex, a
// Cond, a WaitGroup, an errgroup); a select has one per case. Waiters of
// an object are kept in the order they parked.
type waiter struct {
	t    *Task
	q    *waitq
	kind wkind
	dir  byte // channel: 'r' or 's'
	k    int  // the case index, for a select
	// pending marks the waiter of a Send or Recv woken to try again
	// (wakeFirstLocked) that keeps its place until it has: see
	// chanWakeLocked.
	pending    bool
	seq        uint64 // its task's park order (opSeqLocked); waiters are in seq order
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

// linkLocked registers t on q, last; t parks after all its
// registrations.
func linkLocked(t *Task, q *waitq, kind wkind, dir byte, k int) {
	linkAtLocked(t, q, kind, dir, k, ^uint64(0))
}

// opSeqLocked returns *seq, the park order of a blocking channel
// operation, giving it the next one first if it is 0. The operation
// keeps it through its attempts: a task that a retry round woke and
// whose attempt failed waits again where it waited, in the channel's
// queue (linkAtLocked) and in the park list (parkLocked). Go serves a
// channel's blocked senders, and its blocked receivers, in the order
// they came, and programs count on it (a test that starts goroutines
// one after another and reads their replies in that order).
func opSeqLocked(seq *uint64) uint64 {
	if *seq == 0 {
		sched.parkSeq++
		*seq = sched.parkSeq
	}
	return *seq
}

// maxPlaceWalk bounds the walks back from the tail that put a retried
// operation in its old place (linkAtLocked, parkLocked): the common cases
// are short walks (retries come back in their old order, new waiters
// come last), and a place farther back than this, among thousands of
// waiters, is given up for the tail rather than paid for at every retry.
const maxPlaceWalk = 256

// waiterBytes is what a registration allocates.
var waiterBytes = roundSize(int64(unsafe.Sizeof(waiter{})))

// linkAtLocked registers t on q behind the waiters whose seq is not
// larger than seq (or last, if that place is more than maxPlaceWalk
// waiters back).
func linkAtLocked(t *Task, q *waitq, kind wkind, dir byte, k int, seq uint64) {
	if t.nws == len(t.ws) {
		// rtlib's, not the program's: a task keeps its registrations
		// for its next park (read at the next census, as Tasks are).
		t.ws = lockedAppend(t.ws, new(waiter))
		ownTasks.Add(waiterBytes)
	}
	w := t.ws[t.nws]
	t.nws++
	*w = waiter{t: t, q: q, kind: kind, dir: dir, k: k, seq: seq}
	insertBySeq(w, &q.head, &q.tail, waiterLinks, waiterSeq)
}

func waiterSeq(w *waiter) uint64 { return w.seq }

func taskSeq(t *Task) uint64 { return t.pseq }

func unlinkLocked(w *waiter) {
	if w.pending {
		w.pending = false
		npendingA.Add(-1)
	}
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

// insertBySeq links x into such a list, kept in the order of seq: behind
// the last element whose seq is not larger than x's. The walk goes back
// from the tail, at most maxPlaceWalk elements: a place farther back is
// given up for the tail.
func insertBySeq[T any](x *T, head, tail **T, links func(*T) (prev, next **T), seq func(*T) uint64) {
	s := seq(x)
	after := *tail
	for n := 0; after != nil && seq(after) > s; n++ {
		if n == maxPlaceWalk {
			after = *tail // far back: last
			break
		}
		p, _ := links(after)
		after = *p
	}
	xp, xn := links(x)
	*xp = after
	if after == nil {
		*xn, *head = *head, x
	} else {
		_, an := links(after)
		*xn, *an = *an, x
	}
	if *xn == nil {
		*tail = x
	} else {
		np, _ := links(*xn)
		*np = x
	}
}

// parkLocked parks the holder t, whose registrations are linked, passes
// the baton on and waits until t is woken. It is called with sched.mu
// held and returns without it, with the mode t was woken with (holding
// the baton if mAttempt).
func parkLocked(t *Task, pk parkKind) mode {
	seq := t.opSeq
	t.opSeq = 0
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
	if seq != 0 {
		t.pseq = seq
	} else {
		sched.parkSeq++
		t.pseq = sched.parkSeq
	}
	// In park order: behind the tasks that parked before t's
	// operation first did (a retry keeps its place; see chanBlock).
	insertBySeq(t, &sched.parkHead, &sched.parkTail, parkLinks, taskSeq)
	sched.nparked++
	if pk != pkCond {
		sched.nretry++
	}
	syncAttnLocked()
	stackSeen(t.dn)
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
	for w := q.head; w != nil; w = w.next {
		if w.kind != kind || dir != 0 && w.dir != dir || w.pending {
			continue
		}
		if kind == wkChan && w.t.pk == pkChan {
			chanWakeLocked(w)
		} else {
			wakeLocked(w.t, mAttempt)
		}
		return true
	}
	return false
}

// chanWakeLocked wakes the task of w, a Send or Recv parked on a
// buffered channel that an operation made ready for it, to try again.
// Unlike wakeLocked, it leaves w in the channel's queue, pending, until
// the task has tried: until then no complementary operation may pass it
// by a rendezvous with a waiter behind it (chanBlock), and if the try
// fails the task waits again in its old place. Go serves a channel's
// blocked senders, and its blocked receivers, first come, first served:
// when a receive frees a slot of a full channel, the first blocked
// sender's value goes in at once. Selects neither wait pending nor look
// for pending waiters: a select's attempt may still pass one.
func chanWakeLocked(w *waiter) {
	p := w.t
	offParkListLocked(p)
	w.pending = true
	npendingA.Add(1)
	p.wake = mAttempt
	pushReadyLocked(p)
	poke(p)
}

// npendingA counts the pending waiters, so that channel operations look
// for one only while there may be one.
var npendingA atomic.Int32

// pendingAhead reports whether a waiter in direction dir is pending on
// the channel at key: its operation is as good as done (a buffered value
// in Go's channel), and one in the same direction must not pass it.
func pendingAhead(key unsafe.Pointer, dir byte) bool {
	if npendingA.Load() == 0 || key == nil {
		return false
	}
	sched.mu.Lock()
	defer sched.mu.Unlock()
	return pendingInLocked(sched.waitqs.at(key), dir)
}

func pendingInLocked(q *waitq, dir byte) bool {
	if q == nil || npendingA.Load() == 0 {
		return false // no walk of the queue at every block
	}
	for w := q.head; w != nil; w = w.next {
		if w.pending && w.dir == dir {
			return true
		}
	}
	return false
}

// keepPendingLocked is called by the holder t as it blocks on the channel
// at key in direction dir (dir 0: a select) or completes an operation.
// It returns t's pending waiter (chanWakeLocked) if it is the one of
// this operation, no longer pending, so that t waits again in its place;
// a pending waiter of anything else is dropped.
func keepPendingLocked(t *Task, key unsafe.Pointer, dir byte) *waiter {
	if t.nws == 0 {
		return nil
	}
	w := t.ws[0]
	if t.nws == 1 && w.pending && dir != 0 && w.q.key == key && w.dir == dir {
		w.pending = false
		npendingA.Add(-1)
		return w
	}
	for i := 0; i < t.nws; i++ {
		unlinkLocked(t.ws[i])
	}
	t.nws = 0
	return nil
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
		for w != nil && (kind != wkAny && w.kind != kind || w.pending) {
			// A pending waiter's task is ready already.
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
	stackSeen(t.dn) // before the registration's tables may grow the stack
	sched.mu.Lock()
	t.nws = 0
	linkLocked(t, queueLocked(key), kind, 0, 0)
	parkLocked(t, pk)
}
