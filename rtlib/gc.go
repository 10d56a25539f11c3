package rtlib

import (
	"runtime/debug"
	"runtime/metrics"
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
