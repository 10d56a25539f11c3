package rtlib

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// TestTraceLimit runs one program twice, the second time with a trace
// limit it passes: no per-line figures, no reason more for inexact
// figures, a warning in the profile naming SPGO_TRACE_LIMIT, and the
// traces of roots written to the profile freed. (That the limit leaves
// the figures alone is mhwm's TestTraceLimit: two roots of one process
// do not see the same runtime state.)
func TestTraceLimit(t *testing.T) {
	prog := func() {
		var sink [][]byte
		progFib(12, 0)
		for i := range 64 {
			sink = append(sink, make([]byte, 4096+i))
		}
		_ = sink
	}
	oldPath, oldAnnounce := cfg.path, cfg.announce
	cfg.path, cfg.announce = filepath.Join(t.TempDir(), "p.json"), false // a trace is kept only for a profile
	defer func() { cfg.path, cfg.announce = oldPath, oldAnnounce }()
	runOnce := func(limit int64) *proot {
		old := cfg.traceMax
		cfg.traceMax = limit
		defer func() { cfg.traceMax = old }()
		inRoot(prog)
		prof.mu.Lock()
		defer prof.mu.Unlock()
		return prof.roots[len(prof.roots)-1]
	}
	free, small := runOnce(0), runOnce(4<<10)
	if free.res.TraceDropped != 0 || small.res.TraceDropped == 0 {
		t.Fatalf("dropped after %d strands without a limit, %d with 4 KiB", free.res.TraceDropped, small.res.TraceDropped)
	}

	if err := writeProfile(false); err != nil {
		t.Fatal(err)
	}
	p, err := profile.ReadFile(cfg.path)
	if err != nil {
		t.Fatal(err)
	}
	got, want := p.Roots[len(p.Roots)-1], p.Roots[len(p.Roots)-2]
	if len(got.Attributed) != 0 || len(want.Attributed) == 0 {
		t.Errorf("attributed %v with the limit, %v without", got.Attributed, want.Attributed)
	}
	if len(got.Reasons) != len(want.Reasons) || strings.Contains(strings.Join(got.Reasons, "\n"), "attribution") {
		t.Errorf("reasons %q with the limit, %q without", got.Reasons, want.Reasons)
	}
	// One warning per root whose trace was dropped: this test's, and
	// those of its earlier runs in this process (go test -count).
	var warned, dropped int
	for _, w := range p.Warnings {
		if strings.Contains(w.Message, "SPGO_TRACE_LIMIT") {
			warned++
		}
	}
	prof.mu.Lock()
	for _, r := range prof.roots {
		if r.res != nil && r.res.TraceDropped > 0 {
			dropped++
		}
	}
	prof.mu.Unlock()
	if warned != dropped || dropped == 0 {
		t.Errorf("%d warnings name SPGO_TRACE_LIMIT, for %d roots with a dropped trace: %v", warned, dropped, p.Warnings)
	}
	if _, _, ok := free.res.SerialHeap(2); ok {
		t.Errorf("the trace of a root written to the profile is still held")
	}
}
