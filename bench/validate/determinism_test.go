package main

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/spgo/spgo/bench/internal/harness"
)

// TestRunToRun runs every benchmark program instrumented twice and
// compares MHWM_p for p = 1..8 and the census counts: the same program on
// the same input must give the same figures, to the byte (ACCOUNTING.md,
// "Determinism", says what made them differ before).
func TestRunToRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the benchmark programs")
	}
	root, err := harness.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	progs, err := harness.Programs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	b, err := harness.NewBuilder(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, prog := range progs {
		inst, err := b.Instrumented(prog)
		if err != nil {
			t.Fatal(err)
		}
		var runs [2]harness.Root
		for i := range runs {
			prof := filepath.Join(dir, prog+strconv.Itoa(i)+".json")
			if err := harness.Sh("", []string{"SPGO_PMAX=8", "SPGO_PROFILE=" + prof}, inst, harness.Sizes[prog]...); err != nil {
				t.Fatal(err)
			}
			if runs[i], err = harness.ReadRoot(prof); err != nil {
				t.Fatal(err)
			}
		}
		a, c := runs[0], runs[1]
		if len(a.MHWM) != len(c.MHWM) || a.Censuses != c.Censuses {
			t.Errorf("%s: %d figures and %d censuses, then %d and %d", prog, len(a.MHWM), a.Censuses, len(c.MHWM), c.Censuses)
			continue
		}
		for i := range a.MHWM {
			x, y := a.MHWM[i], c.MHWM[i]
			if x.P != y.P || x.Bytes != y.Bytes {
				t.Errorf("%s: MHWM_%d = %d B, then MHWM_%d = %d B (%+d B)", prog, x.P, x.Bytes, y.P, y.Bytes, y.Bytes-x.Bytes)
			}
		}
		t.Logf("%s: MHWM_1 = %d B, %d censuses (first run)", prog, a.MHWM[0].Bytes, a.Censuses)
	}
}
