package rtlib

import (
	"runtime"
	"sync/atomic"
)

// An instrumented program runs on one P. Only the baton holder runs
// program code anyway, and on one P the runtime's per-P state (the
// allocation caches whose flushes runtime/metrics sees, the free lists
// goroutines are recycled from) changes in the same order in every run,
// which is what makes two runs report the same bytes. The program keeps
// seeing the GOMAXPROCS it would have had: the rewriter turns its calls
// of runtime.GOMAXPROCS into calls of GOMAXPROCS. Uninstrumented code
// that asks the runtime sees 1.
var procs atomic.Int64

func init() { procs.Store(int64(runtime.GOMAXPROCS(1))) }

// GOMAXPROCS stands for runtime.GOMAXPROCS in instrumented code: it
// returns the setting the program would have (the environment's, or the
// last one the program made) and, for n ≥ 1, records n as the new one.
// The process itself keeps running on one P.
func GOMAXPROCS(n int) int {
	if n < 1 {
		return int(procs.Load())
	}
	return int(procs.Swap(int64(n)))
}

// own counts rtlib's own goroutines that are alive: the watchdog and the
// grace timer (sched_grace.go). Each is counted from just before its go
// statement until it returns.
var own atomic.Int64

// NumGoroutine stands for runtime.NumGoroutine in instrumented code: the
// runtime's count without rtlib's own goroutines, which the original
// program does not have. The watchdog ends when the run is idle and
// starts again when it is not, so without this a test comparing counts
// before and after (a leak check) would see it come and go. For the
// instant between one of them returning and the runtime retiring it, the
// count is one too high.
func NumGoroutine() int {
	return runtime.NumGoroutine() - int(own.Load())
}
