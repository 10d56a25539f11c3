package rtlib

// Callbacks of a released call. testing.T.Run runs its function on a
// goroutine of the testing package while the caller waits in T.Run; rtlib
// adopts that goroutine at its first hook. An adopted goroutine used to
// have no dnode, so everything it allocated after its first scheduling
// hook went to no root: a subtest that locked a mutex and then built 8
// MiB reported 10 KiB, labelled exact. The callback now shares the
// opener's dnode: its events are those of a called function, in series
// with the opener's strand, which waits in the call meanwhile. Its go
// statements fork from that dnode and its Waits join there, as if
// T.Run(f) were f(t).
//
// That is exact while one callback runs at a time. Two guests of one
// window alive at once (the bodies of B.RunParallel) would put parallel
// work in series: those get no dnode, and the root says its figures may
// be too low.
//
// A subtest that calls t.Parallel outlives its T.Run: it resumes after
// its test function returned. When its function literal carries the
// rewriter's defer rt.SubEnd(rt.SubBegin()), its goroutine gets a dnode
// of its own when T.Run returns, forked there from the opener's (the
// relaxation: it runs beside the rest of the test function, which in
// fact it follows), and the test's root stays open past EndRoot until
// every such subtest's SubEnd (the root lingers). Parallel subtests of
// one test are parallel strands of its root, as they run. A subtest
// function given by name has no SubEnd to wait for: it is detached and
// the root says its figures may be too low.

// windowAdopt gives the guest t, adopted in its window, the opener's
// dnode when that is sound. It runs as t obtains the baton for the first
// time (dagAcquire), sched.mu held.
func windowAdopt(t *Task) {
	w := t.win
	if w == nil || w.opener == nil {
		return
	}
	d := w.opener.dn
	if d == nil || d.detached || d.finished {
		return
	}
	for _, g := range w.guests {
		if g != t && g.dn == d && g.state != stDone {
			d.root.unbounded = true
			d.root.reason("callbacks of one library call ran on several goroutines at once (B.RunParallel): only the first one's allocations are in the figures, which may be too low")
			return
		}
	}
	t.dn = d
}

// windowClosed gives the guests of w that outlive its call a place of
// their own: a forked dnode for a subtest whose end SubEnd reports, none
// for others. The opener holds the baton again (dagReacquire).
func windowClosed(w *window, site Site) {
	d := w.opener.dn
	sched.mu.Lock() // the guests' states
	defer sched.mu.Unlock()
	for _, g := range w.guests {
		if g.state == stDone || g.dn == nil || g.dn != d {
			continue
		}
		g.dn = nil
		if d == nil || d.detached {
			continue
		}
		if g.subHooked {
			c := d.spawnIn(site, nil)
			c.sub = true
			recFork(d, c, site, nil)
			g.dn = c
			d.root.pendingSubs++
			continue
		}
		d.root.unbounded = true
		d.root.reasonAt(site, "a callback of this call went on after the call returned (a subtest function given by name that called t.Parallel runs after its test function returned): what it allocated from then on is not in the figures, which may be too low")
	}
}

// SubBegin is called first in a subtest's function literal: the
// rewriter puts defer rt.SubEnd(rt.SubBegin()) there. It makes the
// subtest's goroutine known to rtlib at once and says that its end will
// be reported.
func SubBegin() *Task {
	if inBubble() {
		return nil
	}
	t := self()
	t.subHooked = true
	return t
}

// SubEnd is deferred by a subtest's function literal. A subtest that
// ran after T.Run returned (t.Parallel) ends its part of the test's
// DAG here; the last one of a test whose function has returned closes
// the test's root. For a subtest that ran within T.Run it does nothing:
// its events were the test's own.
func SubEnd(t *Task) {
	if t == nil || t.kind == kBubble || inBubble() {
		return
	}
	if cur.Load() != t {
		reclaim(t)
	}
	d := t.dn
	if d == nil || !d.sub || d.finished || d.detached {
		return
	}
	endCensus(d) // as a task's Return, then its Finish
	dagReturn(t)
	r := d.root
	r.pendingSubs--
	if r.lingering && r.pendingSubs == 0 && !r.done {
		closeRoot(r.top, false)
		writeAtRootEnd()
	}
	t.dn = nil
	switchTo(nil) // what the testing package does next is no root's
}
