package rtlib

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// From the first root on, the collector runs only at censuses. An
// automatic collection flushes the allocation caches (and so changes what
// runtime/metrics reports as allocated) at a moment that depends on the
// heap's pacing, which varies between runs; censuses come at points of
// the program's own execution. A memory limit stays as the backstop for
// strands that make much garbage in uninstrumented code, where no census
// comes: at each census it is set to twice the memory the runtime then
// uses (at least that plus gcHeadroom), never above the program's own
// limit (GOMEMLIMIT).

// gcHeadroom is the least memory the backstop allows above a census.
const gcHeadroom = 64 << 20

var gcCtl struct {
	on        bool
	userLimit int64
	samples   [2]metrics.Sample
}

// gcOff turns automatic collections off and sets the backstop.
func gcOff() {
	if gcCtl.on {
		return
	}
	gcCtl.on = true
	gcCtl.samples[0].Name = "/memory/classes/total:bytes"
	gcCtl.samples[1].Name = "/memory/classes/heap/released:bytes"
	gcCtl.userLimit = debug.SetMemoryLimit(-1)
	debug.SetGCPercent(-1)
	gcBackstop()
}

// gcBackstop sets the memory limit after a collection.
func gcBackstop() {
	if !gcCtl.on {
		return
	}
	metrics.Read(gcCtl.samples[:])
	used := int64(gcCtl.samples[0].Value.Uint64() - gcCtl.samples[1].Value.Uint64())
	debug.SetMemoryLimit(min(gcCtl.userLimit, used+max(used, gcHeadroom)))
}

// timerSlots is how many timers the P's timer heap holds before it grows.
const timerSlots = 64

// growTimerHeap makes the runtime's timer heap (one, with one P) hold
// timerSlots timers without growing. The heap grows by append when a
// timer is added to a full one, and the scavenger's and the watchdog's
// timers are added at moments that depend on timing: the growth (16 to
// 1024 bytes of the runtime's own) fell in a census interval that
// changed from run to run. Stopped timers leave the heap at the P's next
// scheduling round (the collection that follows); the capacity stays.
func growTimerHeap() {
	var ts [timerSlots]*time.Timer
	for i := range ts {
		ts[i] = time.AfterFunc(time.Hour, func() {})
	}
	for _, t := range ts {
		t.Stop()
	}
}
