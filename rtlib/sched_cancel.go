package rtlib

// A context's Done channel is closed by its cancel function, in the
// context package, which rtlib does not see: a task parked on it (a
// receive, or a select with a case on it) would wait for a retry round,
// which comes only when the baton is free. The rewriter turns every
// call of a context.CancelFunc or CancelCauseFunc in instrumented code
// into Cancel or CancelCause, which call it and then let every task
// parked on a channel try its operation again, in park order: cancelling
// is an operation of the program, so the schedule stays deterministic.

// Cancel is a call of the context.CancelFunc f.
func Cancel(f func()) {
	f()
	cancelled()
}

// CancelCause is a call of the context.CancelCauseFunc f with cause.
func CancelCause(f func(cause error), cause error) {
	f(cause)
	cancelled()
}

// cancelled wakes the tasks parked on channels (receives, sends,
// selects) to try again; those still blocked park again.
func cancelled() {
	if nparkedA.Load() == 0 || inBubble() {
		return
	}
	sched.mu.Lock()
	noteProgressLocked()
	retryParkedLocked(true)
	sched.mu.Unlock()
}
