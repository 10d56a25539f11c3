package rtlib

// Callbacks of a released call. testing.T.Run runs its function on a
// goroutine of the testing package while the caller waits in T.Run; rtlib
// adopts that goroutine at its first scheduling hook (a Lock, a channel
// operation, a Wait). Until then its allocations were charged to the
// holder's dnode, the caller's; from then on, before, they were nobody's:
// a subtest that locked a mutex and then built 8 MiB reported 10 KiB,
// labelled exact. The callback now shares the opener's dnode: its
// events are those of a called function, in series with the opener's
// strand, which waits in the call meanwhile. Its go statements fork from
// that dnode and its Waits join there, as if T.Run(f) were f(t).
//
// That is exact while one callback runs at a time. Two guests of one
// window alive at once (the bodies of B.RunParallel) would put parallel
// work in series, and a callback that outlives the call (a subtest that
// called t.Parallel, which resumes after its test function returned and
// its root closed) would charge a closed root: those get no dnode, and
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

// windowClosed detaches the guests of w that outlive its call: what
// they do from now on is not the opener's. The opener holds the baton
// again (dagReacquire).
func windowClosed(w *window, site Site) {
	d := w.opener.dn
	sched.mu.Lock() // the guests' states
	defer sched.mu.Unlock()
	for _, g := range w.guests {
		if g.state == stDone || g.dn == nil || g.dn != d {
			continue
		}
		g.dn = nil
		if d != nil && !d.detached {
			d.root.unbounded = true
			d.root.reasonAt(site, "a callback of this call went on after the call returned (a subtest that called t.Parallel runs after its test function returned): what it allocated from then on is not in the figures, which may be too low")
		}
	}
}
