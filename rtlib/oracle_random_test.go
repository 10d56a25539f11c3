package rtlib_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// TestOracleRandom is the oracle property test of issue 21: random
// series-parallel programs (testdata/randprog, one per seed: tasks that
// allocate large and small buffers, hand some to their parent across a
// join, drop others between their spawns, and make library garbage) run
// under the default census policy and under the oracle. For p = 1, 2, 4,
// 8, 64 and the serial peak, the default policy's figures are never
// below the oracle's by more than oracleUnder, and a root it reports
// exact is within 3 % + 256 KiB of the oracle. Neither policy's MHWM_64
// may be below the live heap a plain run of the program reached
// (plainBound: measured without spgo). SPGO_LONG=1 runs ten times as
// many seeds.
func TestOracleRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	seeds := 200
	if os.Getenv("SPGO_LONG") != "" {
		seeds = 2000
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	origDir, instDir := buildBoth(t, root, []string{"./rtlib/testdata/randprog"})
	orig, inst := filepath.Join(origDir, "randprog"), filepath.Join(instDir, "randprog")
	exact := 0
	var bounds int64 // the largest plain bound, to show the check bit
	covered := 0     // roots the plain bound applied to (plainCovered)
	for seed := 1; seed <= seeds; seed++ {
		arg := strconv.Itoa(seed)
		want, _ := runArgs(t, orig, "", []string{arg})
		bound := plainBound(t, orig, arg)
		fast := runProfile(t, inst, arg, "bounded", want)
		oracle := runProfile(t, inst, arg, "oracle", want)
		// The independent bound (a plain run's live heap, gctrace): the
		// oracle shares the hooks' blind spots, the plain run does not.
		for _, r := range []struct {
			name string
			root profile.Root
		}{{"bounded", fast}, {"oracle", oracle}} {
			if m, ok := plainCovered(r.root); ok && m < bound {
				t.Errorf("seed %d: %s MHWM_%d = %d, below %d, the live heap of a plain run (gctrace)", seed, r.name, len(r.root.MHWM), m, bound)
			} else if ok {
				covered++
			}
		}
		bounds = max(bounds, bound)
		if fast.Exact {
			exact++
		}
		check := func(what string, got, o int64) {
			if got < o-oracleUnder || fast.Exact && got > o+slack(o) {
				t.Errorf("seed %d: %s = %d, oracle %d (exact %v; reasons %q)", seed, what, got, o, fast.Exact, fast.Reasons)
			}
		}
		for _, q := range []int{1, 2, 4, 8, 64} {
			g, _ := fast.MHWMAt(q)
			o, _ := oracle.MHWMAt(q)
			check(fmt.Sprintf("MHWM_%d", q), g, o)
			lo, hi, _ := fast.IntervalAt(q)
			checkInterval(t, fmt.Sprintf("seed %d: MHWM_%d", seed, q), lo, hi, o, analyticUnder, oracleUnder)
		}
		check("serial peak", fast.SerialPeak, oracle.SerialPeak)
		checkInterval(t, fmt.Sprintf("seed %d: serial peak", seed), fast.SerialLow, fast.SerialHigh, oracle.SerialPeak, analyticUnder, oracleUnder)
	}
	t.Logf("%d random programs, %d reported exact; plain bounds up to %.1f MiB, applied to %d of %d roots", seeds, exact, float64(bounds)/(1<<20), covered, 2*seeds)
	if covered < seeds {
		t.Errorf("the plain bound applied to %d of %d roots: the programs have grown past pmax tasks", covered, 2*seeds)
	}
}

// runProfile runs bin with arg under census policy policy, checks its
// stdout against want and returns its root.
func runProfile(t *testing.T, bin, arg, policy, want string) profile.Root {
	t.Helper()
	pf := filepath.Join(t.TempDir(), policy+".json")
	got, _ := runArgs(t, bin, pf, []string{arg}, "SPGO_CENSUS="+policy)
	if got != want {
		t.Fatalf("seed %s, %s: stdout %q, original %q", arg, policy, got, want)
	}
	p, err := profile.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Roots) != 1 {
		t.Fatalf("seed %s, %s: %d roots", arg, policy, len(p.Roots))
	}
	return p.Roots[0]
}
