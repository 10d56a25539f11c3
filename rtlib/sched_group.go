package rtlib

import (
	"context"
	"sync"
)

// rtlib mirrors the counter of every WaitGroup it sees through Add, Done
// and WGGo, and the number of running tasks of every errgroup it sees
// through GroupGo and GroupTryGo, so that a Wait parks (giving up the
// baton) exactly while the group is not done, and is woken by the Done or
// the end of task that completes it.

// wgState is the mirror of a WaitGroup with a non-zero counter or waiters.
type wgState struct {
	n int64
	q waitq
}

// Add is sync.WaitGroup.Add. The mirror comes first, as in Done.
func Add(site Site, wg *sync.WaitGroup, delta int) {
	if inBubble() {
		wg.Add(delta)
		return
	}
	beat(site)
	self()
	wgAdd(wg, int64(delta))
	wg.Add(delta)
}

// Done is sync.WaitGroup.Done; it ties the calling goroutine to wg.
// The mirror comes first: a waiter that waits for real (wgBack) must
// have its place in the ready queue before wg.Done lets it go.
func Done(wg *sync.WaitGroup) {
	if inBubble() {
		wg.Done()
		return
	}
	beat(-1)
	t := self()
	dagDone(t, wg)
	wgAdd(wg, -1)
	wg.Done()
}

func wgAdd(wg *sync.WaitGroup, d int64) {
	sched.mu.Lock()
	st := sched.wgs.at(wg)
	if st == nil {
		if n := len(sched.freeWG); n > 0 {
			st = sched.freeWG[n-1]
			sched.freeWG = sched.freeWG[:n-1]
		} else {
			st = new(wgState)
		}
		sched.wgs.put(wg, st)
	}
	st.n += d
	if sched.probe {
		noteProgressLocked()
	}
	if st.n <= 0 {
		wgZeroLocked(wg, st)
	}
	sched.mu.Unlock()
}

// wgZeroLocked wakes the waiters of wg, whose counter is zero, and
// forgets its mirror st.
func wgZeroLocked(wg *sync.WaitGroup, st *wgState) {
	if st.q.head != nil {
		noteProgressLocked()
		wakeAllLocked(&st.q, wkWG)
	}
	sched.wgs.del(wg)
	*st = wgState{}
	sched.freeWG = append(sched.freeWG, st)
}

// Wait is sync.WaitGroup.Wait: a join, and a blocking operation.
func Wait(site Site, wg *sync.WaitGroup) {
	if inBubble() {
		wg.Wait()
		return
	}
	beat(site)
	t := self()
	for {
		sched.mu.Lock()
		st := sched.wgs.at(wg)
		if st == nil || st.n <= 0 {
			sched.mu.Unlock()
			break
		}
		t.nws = 0
		linkLocked(t, &st.q, wkWG, 0, 0)
		if parkLocked(t, pkWG) == mExternal {
			// Nothing rtlib knows of can run (externalLocked).
			wg.Wait()
			wgBack(t, wg)
			break
		}
	}
	// The counter is zero as far as rtlib knows: Wait returns at once
	// (unless uninstrumented code added to it, which the watchdog
	// reports if it hangs).
	wg.Wait()
	holdAgain(t)
	dagJoin(t, wg, site)
	beat(site) // last: see beat
}

// wgBack is called by t, whose wg.Wait without the baton returned. If a
// Done through rtlib emptied the counter, t has its place in the ready
// queue already. Otherwise a Done rtlib did not see did it: the mirror
// was wrong, it is zero now (the other waiters go on too), and t comes
// back as from any operation outside rtlib.
func wgBack(t *Task, wg *sync.WaitGroup) {
	sched.mu.Lock()
	if t.out == outWG {
		for i := 0; i < t.nws; i++ {
			unlinkLocked(t.ws[i])
		}
		t.nws = 0
		if st := sched.wgs.at(wg); st != nil {
			st.n = 0
			wgZeroLocked(wg, st)
		}
		arriveLocked(t)
	}
	sched.mu.Unlock()
	waitBaton(t)
	settle(t)
}

// WGGo is sync.WaitGroup.Go (Go 1.25), implemented here so that it works
// with older toolchains too: Add(1), then f in a new goroutine that calls
// Done when f returns.
func WGGo(site Site, wg *sync.WaitGroup, f func()) {
	if inBubble() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
		return
	}
	Add(site, wg, 1)
	t := forkIn(site, wg)
	t.wg, t.fn = wg, f
	if t.wgBody == nil {
		t.wgBody = t.runWG
	}
	go t.wgBody()
	t.Resume()
}

// runWG is the body of a WGGo goroutine.
func (t *Task) runWG() {
	defer t.Finish()
	defer Done(t.wg) // before Finish: while the task holds the baton
	t.Start()
	// The task's function, and what it captured, must not outlive its
	// call through the Task: its end's census would find it live.
	fn := t.fn
	t.fn = nil
	fn()
	t.Return()
}

// runGroup is the function GroupGo and GroupTryGo give errgroup.
func (t *Task) runGroup() error {
	defer t.Finish()
	t.Start()
	fn := t.gfn
	t.gfn = nil // as in runWG
	err := fn()
	t.failed = err != nil
	t.Return()
	return err
}

// groupBody returns t.runGroup, bound once per Task.
func (t *Task) groupBody(f func() error) func() error {
	t.gfn = f
	if t.grpBody == nil {
		t.grpBody = t.runGroup
	}
	return t.grpBody
}

// Group is the method set of *errgroup.Group that spgo uses; rtlib is
// standard-library-only and cannot name the type.
type Group interface {
	Go(f func() error)
	TryGo(f func() error) bool
	Wait() error
	SetLimit(n int)
}

// groupState mirrors an errgroup: its running tasks, its limit, its
// context, the tasks in Wait and those whose Go waits for a slot. It is
// forgotten when the group is idle, or, for a group with a limit or a
// context, when Wait returns.
type groupState struct {
	live  int
	limit int             // < 0: none known
	ctx   context.Context // from errgroup.WithContext (GroupContext); nil: not seen
	waitQ waitq
	goQ   waitq
}

func groupLocked(g Group) *groupState {
	st := sched.groups.at(g)
	if st == nil {
		if n := len(sched.freeGS); n > 0 {
			st = sched.freeGS[n-1]
			sched.freeGS = sched.freeGS[:n-1]
		} else {
			st = new(groupState)
		}
		st.limit = -1
		sched.groups.put(g, st)
	}
	return st
}

// dropGroupLocked forgets the state of g (no task, no waiter).
func dropGroupLocked(g Group, st *groupState) {
	sched.groups.del(g)
	*st = groupState{}
	sched.freeGS = append(sched.freeGS, st)
}

// groupFinishedLocked is called when a task spawned into g ends: Wait may
// return, and a Go waiting for a slot gets one (the task's slot is given
// back by errgroup right after it).
func groupFinishedLocked(g Group) {
	st := sched.groups.at(g)
	if st == nil {
		return
	}
	st.live--
	if sched.probe {
		noteProgressLocked()
	}
	if st.live <= 0 && st.waitQ.head != nil {
		noteProgressLocked()
		wakeAllLocked(&st.waitQ, wkGroupW)
	}
	if w := st.goQ.head; w != nil {
		noteProgressLocked()
		wakeLocked(w.t, mAttempt)
	}
	if st.live <= 0 && st.waitQ.head == nil && st.goQ.head == nil && st.limit < 0 && st.ctx == nil {
		dropGroupLocked(g, st)
	}
}

func groupStarted(g Group, t *Task) {
	sched.mu.Lock()
	groupLocked(g).live++
	sched.mu.Unlock()
}

// GroupGo is errgroup.Group.Go. Under SetLimit, Go blocks while the group
// is full: GroupGo tries TryGo first; when the group is full it parks
// until one of the group's tasks ends, then calls Go, which returns as
// soon as that task's slot is given back (the ending task needs no baton
// for that). With a limit rtlib did not see, Go runs without the baton.
func GroupGo(site Site, g Group, f func() error) {
	if inBubble() {
		g.Go(f)
		return
	}
	beat(site)
	t := forkIn(site, g)
	t.group = g
	run := t.groupBody(f)
	p := t.parent
	for {
		if g.TryGo(run) {
			break
		}
		sched.mu.Lock()
		st := groupLocked(g)
		if st.limit < 0 || st.live < st.limit {
			// A slot is held by a task that ended (it is being given
			// back), or by goroutines rtlib does not know.
			known := st.limit >= 0
			sched.mu.Unlock()
			if known {
				g.Go(run)
				holdAgain(p)
			} else {
				goOut(p)
				g.Go(run)
				arrive(p)
			}
			break
		}
		p.nws = 0
		linkLocked(p, &st.goQ, wkGroupGo, 0, 0)
		parkLocked(p, pkGroup)
	}
	groupStarted(g, t)
	t.Resume()
}

// GroupTryGo is errgroup.Group.TryGo.
func GroupTryGo(site Site, g Group, f func() error) bool {
	if inBubble() {
		return g.TryGo(f)
	}
	beat(site)
	t := forkIn(site, g)
	t.group = g
	ok := g.TryGo(t.groupBody(f))
	if !ok {
		unfork(t)
		return false
	}
	groupStarted(g, t)
	t.Resume()
	return true
}

// GroupWait is errgroup.Group.Wait: a join, and a blocking operation.
func GroupWait(site Site, g Group) error {
	if inBubble() {
		return g.Wait()
	}
	beat(site)
	t := self()
	for {
		sched.mu.Lock()
		st := sched.groups.at(g)
		if st == nil || st.live <= 0 {
			if st != nil && st.goQ.head == nil && st.waitQ.head == nil {
				dropGroupLocked(g, st)
			}
			sched.mu.Unlock()
			break
		}
		t.nws = 0
		linkLocked(t, &st.waitQ, wkGroupW, 0, 0)
		parkLocked(t, pkGroup)
	}
	err := g.Wait()
	holdAgain(t)
	dagJoin(t, g, site)
	beat(site) // last: see beat
	return err
}

// GroupSetLimit is errgroup.Group.SetLimit.
func GroupSetLimit(site Site, g Group, n int) {
	if inBubble() {
		g.SetLimit(n)
		return
	}
	beat(site)
	self()
	g.SetLimit(n)
	sched.mu.Lock()
	st := groupLocked(g)
	st.limit = n
	if n < 0 {
		st.limit = -1
		if st.live <= 0 && st.waitQ.head == nil && st.goQ.head == nil && st.ctx == nil {
			dropGroupLocked(g, st)
		}
	}
	dagLimit(g, n)
	sched.mu.Unlock()
}
