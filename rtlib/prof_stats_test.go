package rtlib

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestDebugStats: under SPGO_DEBUG_STATS a root's end prints one line
// with its strand and spawn counts (those of its result) and the
// attribution trace's bytes, which a root whose strands allocate makes
// positive.
func TestDebugStats(t *testing.T) {
	var buf strings.Builder
	old, oldOut := debugStats, statsOut
	debugStats, statsOut = true, &buf
	defer func() { debugStats, statsOut = old, oldOut }()
	oldPath, oldAnnounce := cfg.path, cfg.announce
	cfg.path, cfg.announce = filepath.Join(t.TempDir(), "p.json"), false // a trace is kept only for a profile
	defer func() { cfg.path, cfg.announce = oldPath, oldAnnounce }()
	var got int
	var sink [][]byte
	inRoot(func() {
		got = progFib(10, 0)
		for i := range 64 {
			sink = append(sink, make([]byte, 4096+i))
		}
	})
	if got != 55 {
		t.Fatalf("fib(10) = %d", got)
	}
	var strands, spawns, trace int64
	var finish, write, cpu, writeCPU float64
	line := buf.String()
	if _, err := fmt.Sscanf(line, "spgo stats: strands %d spawns %d trace_bytes %d finish_ms %g write_ms %g cpu_ms %g write_cpu_ms %g\n",
		&strands, &spawns, &trace, &finish, &write, &cpu, &writeCPU); err != nil {
		t.Fatalf("stats line %q: %v", line, err)
	}
	// fib(10) spawns two children at each of its 176 inner calls.
	if spawns != 176 || strands <= spawns || trace <= 0 || finish < 0 || write < 0 || cpu <= 0 || writeCPU < 0 || writeCPU > cpu {
		t.Errorf("stats line %q: want 176 spawns, more strands, a trace", line)
	}
	if strings.Count(line, "\n") != 1 {
		t.Errorf("stats printed %q, want one line", line)
	}
}
