package main

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/spgo/spgo/bench/internal/harness"
)

// spread is how far apart two instrumented runs' MHWM figures may be:
// the runtime's own small objects (ACCOUNTING.md, "Determinism"). Before
// the instrumented process ran on one P and collected only at censuses,
// runs differed by up to 17 KiB.
const spread = 256

// TestRunToRun runs every benchmark program instrumented twice and
// compares MHWM_p for p = 1..8 and the census counts: the same program on
// the same input must give the same figures, up to spread bytes. It logs
// the programs whose figures were identical.
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
	same := 0
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
		identical := true
		for i := range a.MHWM {
			x, y := a.MHWM[i].Bytes, c.MHWM[i].Bytes
			identical = identical && x == y
			if d := x - y; d > spread || d < -spread {
				t.Errorf("%s: MHWM_%d = %d, then %d", prog, a.MHWM[i].P, x, y)
			}
		}
		if identical {
			same++
		}
		t.Logf("%s: MHWM_1 %d and %d, identical: %v", prog, a.MHWM[0].Bytes, c.MHWM[0].Bytes, identical)
	}
	t.Logf("%d of %d programs gave identical figures", same, len(progs))
}
