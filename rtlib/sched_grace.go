package rtlib

import (
	"context"
	"time"
)

// An errgroup whose task fails cancels its context after the task's
// function returned, in the task's goroutine, outside rtlib. Tasks parked
// on the context (a select on ctx.Done()) must be retried after that,
// not before: a retry round before it finds them still blocked, and they
// go to external mode, where the order in which they come back is the Go
// scheduler's. So when nobody is ready after a task failed, the baton
// stays free until the failed groups' contexts are cancelled (rtlib sees
// a group's context through GroupContext), at most groupCtxGrace; for a
// group whose context rtlib did not see, for groupGrace.

// groupCtxGrace bounds the wait for a failed group to cancel its
// context: it does so at once, unless the machine stalls.
const groupCtxGrace = time.Second

// groupGrace is how long a retry round waits after a task of a group
// whose context rtlib did not see failed.
const groupGrace = 2 * time.Millisecond

// GroupContext passes errgroup.WithContext's results through, noting
// that g cancels ctx when one of its tasks fails.
func GroupContext[G Group](g G, ctx context.Context) (G, context.Context) {
	if inBubble() {
		return g, ctx
	}
	sched.mu.Lock()
	groupLocked(g).ctx = ctx
	sched.mu.Unlock()
	return g, ctx
}

// graceFailLocked starts or extends the grace for g, one of whose tasks
// failed.
func graceFailLocked(g Group) {
	now := time.Now()
	if st := sched.groups.at(g); st != nil && st.ctx != nil {
		if st.ctx.Err() == nil {
			sched.graceCtxs = append(sched.graceCtxs, st.ctx)
			sched.graceCap = now.Add(groupCtxGrace)
		}
		return
	}
	if u := now.Add(groupGrace); u.After(sched.graceUntil) {
		sched.graceUntil = u
	}
}

// graceLocked reports whether retry rounds must still wait, and if so
// until when at most (d from now) and for which context to be cancelled
// (nil: for d only).
func graceLocked() (d time.Duration, ctx context.Context, ok bool) {
	now := time.Now()
	live := sched.graceCtxs[:0]
	for _, c := range sched.graceCtxs {
		if c.Err() == nil {
			live = append(live, c)
		}
	}
	clear(sched.graceCtxs[len(live):])
	sched.graceCtxs = live
	if len(live) > 0 {
		if c := sched.graceCap.Sub(now); c > 0 {
			d, ctx = c, live[0]
		}
	}
	if u := sched.graceUntil.Sub(now); u > 0 && (d == 0 || u < d) {
		d = u
	}
	return d, ctx, d > 0
}

// endGraceLocked forgets the grace.
func endGraceLocked() {
	clear(sched.graceCtxs)
	sched.graceCtxs = sched.graceCtxs[:0]
	sched.graceCap, sched.graceUntil = time.Time{}, time.Time{}
}

// armGraceLocked starts graceWait unless it runs already (it looks at the
// grace again when it wakes).
func armGraceLocked(ctx context.Context, d time.Duration) {
	if sched.graceArmed {
		return
	}
	sched.graceArmed = true
	acct.Add(1) // a goroutine rtlib accounts for (see strangers)
	own.Add(1)
	go graceWait(ctx, d)
}

// graceWait waits until ctx is cancelled (if not nil) or d passed, then
// runs graceRound.
func graceWait(ctx context.Context, d time.Duration) {
	defer own.Add(-1)
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	tm := time.NewTimer(d)
	select {
	case <-done:
	case <-tm.C:
	}
	tm.Stop()
	graceRound()
}

// graceRound is the retry round the grace delayed, unless the baton was
// taken meanwhile (its holder's release looks at the grace again) or the
// grace goes on (another task failed meanwhile).
func graceRound() {
	sched.mu.Lock()
	defer sched.mu.Unlock()
	sched.graceArmed = false
	if cur.Load() != nil {
		return
	}
	if d, ctx, ok := graceLocked(); ok && sched.nretry > 0 {
		armGraceLocked(ctx, d)
		return
	}
	endGraceLocked()
	if n := popReadyLocked(); n != nil {
		takeFreeLocked(n)
		return
	}
	if n := retryRoundLocked(true); n != nil {
		takeFreeLocked(n)
		return
	}
	externalLocked()
	wakeWatchdogLocked()
}
