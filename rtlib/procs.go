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
