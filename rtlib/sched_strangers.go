package rtlib

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Inside a Release window, goroutines rtlib did not start may call hooks
// (the subtest goroutine of testing.T.Run, the bodies of B.RunParallel).
// Identities need to be checked only while one of them may be running
// without being known: rtlib compares the number of goroutines created
// since the window opened (the runtime's /sched/goroutines-created
// metric, Go 1.26) with the number it accounts for in the same time
// (tasks that started, goroutines it adopted, its own helpers). While
// they differ, every scheduling hook identifies its caller; once the
// subtest's goroutine is adopted, hooks are cheap again. Without the
// metric, windows are checked throughout.

var (
	inWindow atomic.Bool  // a Release window is open
	acct     atomic.Int64 // goroutine creations rtlib accounts for

	baseCreated atomic.Uint64 // at the opening of the outermost window
	baseAcct    atomic.Int64

	createdMu     sync.Mutex
	createdSample = []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
)

// goroutinesCreated reads the runtime's count of goroutines created.
func goroutinesCreated() (uint64, bool) {
	createdMu.Lock()
	metrics.Read(createdSample)
	v := createdSample[0].Value
	createdMu.Unlock()
	if v.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return v.Uint64(), true
}

// strangers reports whether a goroutine created since the outermost open
// window may call hooks without rtlib knowing it.
func strangers() bool {
	c, ok := goroutinesCreated()
	if !ok {
		return true
	}
	return int64(c-baseCreated.Load()) > acct.Load()-baseAcct.Load()
}

// openWindowLocked and closeWindowLocked keep the window bases.
func openWindowLocked(w *window) {
	if len(sched.windows) == 0 {
		c, _ := goroutinesCreated()
		baseCreated.Store(c)
		baseAcct.Store(acct.Load())
		inWindow.Store(true)
	}
	sched.windows = append(sched.windows, w)
}

func closeWindowLocked(w *window) {
	for i, x := range sched.windows {
		if x == w {
			sched.windows = append(sched.windows[:i], sched.windows[i+1:]...)
			break
		}
	}
	inWindow.Store(len(sched.windows) > 0)
}

// mustCheck reports whether hooks must identify their caller now.
func mustCheck() bool {
	return checking.Load() || (inWindow.Load() && strangers())
}
