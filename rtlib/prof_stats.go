package rtlib

import (
	"fmt"
	"io"
	"os"
	"time"
)

// debugStats (SPGO_DEBUG_STATS) prints one line on stderr at the end of
// every root, for the scale measurements of BENCHMARKS.md: the root's
// strands and spawns, the bytes rtlib's long-lived arrays hold (the
// attribution traces of the roots not yet written, this one's included,
// and the call-path and site tables: ownGrown), and how long the root
// end took, split into finishing the engine (the final census and
// Exit) and writing the profile (attribution, the heap series, the
// file), in wall time and in the process's CPU time (steadier on a
// loaded machine), with the CPU time the process used until then. It
// reads the clocks only when set, and changes no figure.
var debugStats = os.Getenv("SPGO_DEBUG_STATS") != ""

// statsOut is where debugStats writes (a test's buffer in tests).
var statsOut io.Writer = os.Stderr

// rootEndTimed is dagRootEnd under debugStats.
func rootEndTimed(t *Task, partial bool) {
	var r *proot
	if t.dn != nil {
		r = t.dn.root
	}
	began := time.Now()
	endRoot(t, partial)
	ended, cpu1 := time.Now(), cpuTime()
	held := mem.ownHeld // writing frees the trace
	writeAtRootEnd()
	written, cpu2 := time.Now(), cpuTime()
	var strands, spawns int64
	if r != nil && r.res != nil {
		strands, spawns = r.res.Strands, r.res.Spawns
	}
	ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 }
	fmt.Fprintf(statsOut, "spgo stats: strands %d spawns %d trace_bytes %d finish_ms %.3f write_ms %.3f cpu_ms %.3f write_cpu_ms %.3f\n",
		strands, spawns, held, ms(ended.Sub(began)), ms(written.Sub(ended)), ms(cpu2), ms(cpu2-cpu1))
}
