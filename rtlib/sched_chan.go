package rtlib

import (
	"reflect"
	"unsafe"

	"github.com/spgo/spgo/rtlib/trace"
)

// Channel operations are first attempted without blocking, by the holder.
// When the attempt fails, a complementary operation parked on the same
// channel is granted (a rendezvous: both do the real blocking operation,
// the holder keeps the baton, the partner waits for it in the ready
// queue); otherwise the task parks. A successful operation on a buffered
// channel wakes the first task parked on it in the other direction;
// close wakes all of them.

// chanPtr is the identity of a channel, whatever its direction.
func chanPtr[C any](c C) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&c)) }

// chanOf is chanPtr and cap for a channel held in an interface (a select's
// operand); nil for a nil channel.
func chanOf(c any) (unsafe.Pointer, int) {
	v := reflect.ValueOf(c)
	if !v.IsValid() || v.Kind() != reflect.Chan || v.IsNil() {
		return nil, 0
	}
	return v.UnsafePointer(), v.Cap()
}

func otherDir(d byte) byte {
	if d == 's' {
		return 'r'
	}
	return 's'
}

// Send is ch <- v.
func Send[T any](site Site, ch chan<- T, v T) {
	send(site, ch, v)
	if freeLists.len() > 0 && !inBubble() {
		held()
		chanSent(uintptr(chanPtr(ch)), v) // a buffer back into a free list (acct_freelist.go)
	}
}

// send is Send but for free lists.
func send[T any](site Site, ch chan<- T, v T) {
	if inBubble() {
		ch <- v
		return
	}
	t := self()
	commOp(site, "channel communication")
	if key := chanPtr(ch); !pendingAhead(key, 's') {
		select {
		case ch <- v:
			chanDone(key, cap(ch), 's')
			sliced(t)
			beat(site) // last: see beat
			return
		default:
		}
	}
	beat(site) // a warning about a blocking operation names it
	sendSlow(t, ch, v)
	beat(site) // last: see beat
}

// sendSlow and recvSlow are one protocol written twice: the attempts,
// the rendezvous and the external mode of a blocking channel operation
// (chanBlock). Only the select statements differ, and a select cannot be
// generic over the direction of its case: reflect.Select could, at an
// allocation and a reflective call per attempt on the hottest path of a
// pipeline. What they share beyond the selects is in chanBlock,
// extAnswer, rvCancelled, waitBaton and holdAgain.
func sendSlow[T any](t *Task, ch chan<- T, v T) {
	key := chanPtr(ch)
	var seq uint64 // the operation's park order (opSeqLocked)
	m := chanBlock(t, key, 's', &seq)
	for {
		switch m {
		case mAttempt:
			select {
			case ch <- v:
				chanTried(t)
				chanDone(key, cap(ch), 's')
				return
			default:
			}
			m = chanBlock(t, key, 's', &seq)
		case mInitiator, mGranted:
			ok := false
		loop:
			for {
				select {
				case ch <- v:
					ok = true
					break loop
				case <-t.sig:
					if rvCancelled(t) {
						break loop
					}
				}
			}
			if m == mGranted {
				waitBaton(t)
			} else {
				holdAgain(t)
			}
			if ok {
				chanDone(key, cap(ch), 's')
				return
			}
			m = mAttempt
		case mExternal:
			select {
			case ch <- v:
				extAnswer(t, true)
				chanDone(key, cap(ch), 's')
				return
			case <-t.sig:
				if m2, ok := extAnswer(t, false); ok {
					m = m2
				}
			}
		}
	}
}

// Recv is <-ch.
func Recv[T any](site Site, ch <-chan T) T {
	v, _ := Recv2(site, ch)
	return v
}

// Recv2 is v, ok := <-ch, and one iteration of a range over ch.
func Recv2[T any](site Site, ch <-chan T) (v T, ok bool) {
	v, ok = recv2(site, ch)
	if ok && freeLists.len() > 0 && pools.in.len() > 0 && !inBubble() {
		held()
		chanRecvd(site, uintptr(chanPtr(ch)), v) // a buffer out of a free list (acct_freelist.go)
	}
	return v, ok
}

// recv2 is Recv2 but for free lists.
func recv2[T any](site Site, ch <-chan T) (v T, ok bool) {
	if inBubble() {
		v, ok = <-ch
		return v, ok
	}
	t := self()
	commOp(site, "channel communication")
	if key := chanPtr(ch); !pendingAhead(key, 'r') {
		select {
		case v, ok = <-ch:
			recvDone(key, cap(ch), ok)
			sliced(t)
			beat(site) // last: see beat
			return v, ok
		default:
		}
	}
	beat(site) // a warning about a blocking operation names it
	v, ok = recvSlow(t, ch)
	beat(site) // last: see beat
	return v, ok
}

// recvDone is chanDone for a receive, which found the channel closed
// unless ok.
func recvDone(key unsafe.Pointer, c int, ok bool) {
	if ok {
		chanDone(key, c, 'r')
	} else {
		recRelay(rec.closes, key, false, trace.Chan)
	}
}

func recvSlow[T any](t *Task, ch <-chan T) (T, bool) {
	key := chanPtr(ch)
	var seq uint64 // the operation's park order (opSeqLocked)
	m := chanBlock(t, key, 'r', &seq)
	for {
		switch m {
		case mAttempt:
			select {
			case v, ok := <-ch:
				chanTried(t)
				recvDone(key, cap(ch), ok)
				return v, ok
			default:
			}
			m = chanBlock(t, key, 'r', &seq)
		case mInitiator, mGranted:
			var v T
			ok, got := false, false
		loop:
			for {
				select {
				case v, ok = <-ch:
					got = true
					break loop
				case <-t.sig:
					if rvCancelled(t) {
						break loop
					}
				}
			}
			if m == mGranted {
				waitBaton(t)
			} else {
				holdAgain(t)
			}
			if got {
				recvDone(key, cap(ch), ok)
				return v, ok
			}
			m = mAttempt
		case mExternal:
			select {
			case v, ok := <-ch:
				extAnswer(t, true)
				recvDone(key, cap(ch), ok)
				return v, ok
			case <-t.sig:
				if m2, ok := extAnswer(t, false); ok {
					m = m2
				}
			}
		}
	}
}

// Close is close(ch).
func Close[T any](ch chan<- T) {
	if inBubble() {
		close(ch)
		return
	}
	self()
	close(ch)
	recRelay(rec.closes, chanPtr(ch), true, trace.Chan)
	if nparkedA.Load() != 0 {
		key := chanPtr(ch)
		sched.mu.Lock()
		noteProgressLocked()
		if q := sched.waitqs.at(key); q != nil {
			wakeAllLocked(q, wkChan)
		}
		sched.mu.Unlock()
	}
	beat(-1) // last: see beat
}

// Elem returns the zero value of ch's element type; the rewriter declares
// a select's receive temporaries with it, so it never has to name a type.
func Elem[T any](ch <-chan T) T {
	var zero T
	return zero
}

// chanDone is called by the holder after a successful operation on the
// channel at key: on a buffered channel, a value or a free slot may let
// the first task parked in the other direction go on.
func chanDone(key unsafe.Pointer, c int, dir byte) {
	recChan(key, c, dir)
	if nparkedA.Load() == 0 {
		return
	}
	sched.mu.Lock()
	noteProgressLocked()
	if c > 0 && key != nil {
		wakeFirstLocked(key, wkChan, otherDir(dir))
	}
	sched.mu.Unlock()
}

// chanBlock is called by the holder t after an attempt on the channel at
// key failed: it grants the first complementary parked operation
// (mInitiator) or parks t.
func chanBlock(t *Task, key unsafe.Pointer, dir byte, seq *uint64) mode {
	stackSeen(t.dn) // before the registration's tables may grow the stack
	sched.mu.Lock()
	kept := keepPendingLocked(t, key, dir)
	if t.stolen {
		return retryLocked(t)
	}
	if key != nil {
		// A pending waiter goes first, of either direction: t waits
		// behind it.
		if q := sched.waitqs.at(key); q != nil && !pendingInLocked(q, dir) {
			if w := q.firstLocked(wkChan, otherDir(dir)); w != nil && !w.pending {
				if kept != nil {
					unlinkLocked(kept)
					t.nws = 0
				}
				grantLocked(w, t, -1)
				sched.mu.Unlock()
				return mInitiator
			}
		}
	}
	t.opSeq = opSeqLocked(seq)
	if kept == nil {
		t.nws = 0
		if key != nil {
			linkAtLocked(t, queueLocked(key), wkChan, dir, 0, t.opSeq)
		}
	}
	return parkLocked(t, pkChan)
}

// chanTried is called by a Send or Recv whose retry succeeded: its
// waiter, pending in the channel's queue, goes, and the next waiter in
// its direction, which waited behind it (chanBlock), tries in turn: the
// buffer may hold more for it (if not, it waits again in its place).
func chanTried(t *Task) {
	if t.nws == 0 { // only t changes its registrations while it runs
		return
	}
	sched.mu.Lock()
	w := t.ws[0]
	q, dir := w.q, w.dir
	pending := t.nws == 1 && w.pending
	keepPendingLocked(t, nil, 0)
	if pending && q.key != nil { // q was not freed
		wakeFirstLocked(q.key, wkChan, dir)
	}
	sched.mu.Unlock()
}

// grantLocked wakes the task of the parked waiter w for a rendezvous with
// the holder h (at h's case hk for a select): w's task does its blocking
// operation at once and takes its place in the ready queue now, so that
// the order does not depend on when it comes back.
func grantLocked(w *waiter, h *Task, hk int) {
	p := w.t
	k := w.k
	unparkLocked(p)
	p.wake = mGranted
	p.grantK = k
	p.partner, p.partnerGen, p.rvCancel = h, h.gen, false
	h.partner, h.partnerGen, h.rvCancel = p, p.gen, false
	h.grantK = hk
	noteProgressLocked()
	dagComm(h, p)
	pushReadyLocked(p)
	poke(p)
}

// rvCancelled is called by a task in a rendezvous that was poked; it
// reports whether its partner asked it to stop.
func rvCancelled(t *Task) bool {
	sched.mu.Lock()
	c := t.rvCancel
	t.rvCancel = false
	sched.mu.Unlock()
	return c
}

// rvCancelLocked asks t's rendezvous partner to stop its blocking
// operation: t's own select fired another case, so the partner's
// operation may never complete. Only Send and Recv listen; a select
// cannot be interrupted.
func rvCancelLocked(t *Task) {
	if p := t.partner; p != nil && p.gen == t.partnerGen && p.partner == t {
		p.rvCancel = true
		poke(p)
	}
	t.partner = nil
}

// SelectState drives the loop a blocking select statement becomes (see the
// package documentation).
type SelectState struct {
	site   Site
	dirs   string
	tries  int
	seq    uint64 // the select's park order (opSeqLocked)
	t      *Task
	m      mode
	bubble bool // in a synctest bubble: the select as written
}

// Select starts a select statement with one case per letter of dirs: 'r'
// for a receive, 's' for a send.
func Select(site Site, dirs string) SelectState {
	return SelectState{site: site, dirs: dirs}
}

// Next is called before each attempt with the index of the case that
// fired in the previous attempt (-1 if none, or before the first) and the
// cases' channels in order; it reports whether to attempt again.
func (w *SelectState) Next(fired int, chans ...any) bool {
	if fired >= 0 {
		if !w.bubble {
			w.fired(fired, chans)
		}
		return false
	}
	if w.tries == 0 && inBubble() {
		// The select as written: one blocking attempt.
		w.bubble = true
		w.tries = 1
		w.m = mExternal
		return true
	}
	if w.tries == 0 {
		w.t = self()
		commOp(w.site, "a select")
		beat(w.site) // last: see beat
		w.tries = 1
		w.m = mAttempt
		return true
	}
	w.tries++
	w.m = selectBlock(w.t, w.dirs, chans, &w.seq)
	return true
}

// Blocking reports whether the next attempt must be the blocking select.
func (w *SelectState) Blocking() bool { return w.m != mAttempt }

// selectBlock is chanBlock for a select whose attempt failed.
func selectBlock(t *Task, dirs string, chans []any, seq *uint64) mode {
	stackSeen(t.dn) // before the registrations' tables may grow the stack
	t.keys, t.caps = t.keys[:0], t.caps[:0]
	for _, c := range chans {
		k, n := chanOf(c)
		t.keys = append(t.keys, k)
		t.caps = append(t.caps, n)
	}
	sched.mu.Lock()
	keepPendingLocked(t, nil, 0)
	if t.stolen {
		return retryLocked(t)
	}
	for k, key := range t.keys {
		if key == nil || k >= len(dirs) {
			continue
		}
		if q := sched.waitqs.at(key); q != nil {
			if pw := q.firstLocked(wkChan, otherDir(dirs[k])); pw != nil && !pw.pending {
				grantLocked(pw, t, k)
				sched.mu.Unlock()
				return mInitiator
			}
		}
	}
	t.nws = 0
	t.opSeq = opSeqLocked(seq)
	for k, key := range t.keys {
		if key != nil && k < len(dirs) {
			linkAtLocked(t, queueLocked(key), wkChan, dirs[k], k, t.opSeq)
		}
	}
	return parkLocked(t, pkSelect)
}

// fired ends a select whose case k fired.
func (w *SelectState) fired(k int, chans []any) {
	t := w.t
	if t == nil { // Next(k) without a first Next(-1): nothing to do
		return
	}
	switch w.m {
	case mInitiator, mGranted:
		if k != t.grantK {
			sched.mu.Lock()
			rvCancelLocked(t)
			sched.mu.Unlock()
		}
		if w.m == mGranted {
			waitBaton(t)
		} else {
			holdAgain(t)
		}
	case mExternal:
		selectBack(t)
	}
	if k < len(chans) && k < len(w.dirs) {
		key, n := chanOf(chans[k])
		chanDone(key, n, w.dirs[k])
	}
	if w.m == mAttempt {
		sliced(t) // it did not block
	}
	beat(w.site) // last: see beat
}
