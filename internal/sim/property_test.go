package sim

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/spgo/spgo/rtlib/trace"
)

var search = flag.Bool("search", false, "report the smallest programs on which DF, BF and Go exceed MHWM_p")

// propConfigs are the random program families of the property test: with
// and without the downset property, with real and with zero work (zero
// work makes every strand instantaneous, so only the tie rules order
// things), deep and flat.
var propConfigs = []genConfig{
	{maxOps: 5, maxDepth: 3, maxSpawns: 5, downset: true, maxAlloc: 8, maxWork: 5, sites: 3},
	{maxOps: 5, maxDepth: 3, maxSpawns: 5, downset: false, maxAlloc: 8, maxWork: 5, sites: 3},
	{maxOps: 6, maxDepth: 2, maxSpawns: 6, downset: true, maxAlloc: 10, maxWork: 0, sites: 2},
	{maxOps: 4, maxDepth: 4, maxSpawns: 4, downset: true, maxAlloc: 6, maxWork: 100, sites: 4},
}

const maxPropStrands = 25

// propPrograms returns the property test's programs: fixed seeds, at most
// 25 strands each.
func propPrograms(t testing.TB, count int) [][]op {
	var progs [][]op
	for seed := uint64(1); len(progs) < count; seed++ {
		cfg := propConfigs[seed%uint64(len(propConfigs))]
		prog := genProgram(rand.New(rand.NewPCG(seed, 7)), cfg)
		if g, _ := build(t, prog, 1); len(g.Strands) <= maxPropStrands {
			progs = append(progs, prog)
		}
	}
	return progs
}

// counterexample is a program on which a policy exceeded MHWM_p.
type counterexample struct {
	prog       []op
	p          int
	peak, mhwm int64
	strands    int
}

// TestPropertySP checks, on random series-parallel programs, the
// relations of simulated peaks to MHWM (docs/algorithms.md, "Busy leaves"):
//
//   - work stealing stays within MHWM_p for every seed (its schedules are
//     among Oracle C's, whose maximum is MHWM_p);
//   - every policy stays within MHWM_∞ (any schedule's state is a downset
//     plus an antichain of running strands, which busy leaves at p = ∞
//     can only raise);
//   - DF on one processor is the serial child-first execution: its order
//     is the strands' ID order and its peak the engine's SerialPeak.
//
// DF, BF and Go may exceed MHWM_p for p > 1 (BF and Go even for p = 1):
// they can leave a started component with no running strand, which busy
// leaves forbids. With -search the test reports the smallest such
// programs; the regression tests in counterexample_test.go are those.
func TestPropertySP(t *testing.T) {
	count := 3000
	if testing.Short() {
		count = 500
	}
	if os.Getenv("SPGO_LONG") != "" {
		count *= 10
	}
	exceed := map[Policy]counterexample{}
	// Go runs twice: with a 20 ns slice (strands take up to 100 ns, so
	// preemption happens) and without preemption.
	type variant struct {
		pol Policy
		opt Options
	}
	var variants []variant
	for _, pol := range Policies() {
		variants = append(variants, variant{pol, Options{Seeds: 5, TimeSlice: 20}})
	}
	variants = append(variants, variant{Go, Options{Seeds: 5, TimeSlice: -1}})
	for i, prog := range propPrograms(t, count) {
		g, res := build(t, prog, maxPropStrands)
		n := len(g.Strands)
		inf := res.MHWM[maxPropStrands]
		pr, err := newPrep(g)
		if err != nil {
			t.Fatal(err)
		}
		for j, u := range pr.dfOrder {
			if int(u) != j {
				t.Fatalf("program %d: depth-first order %v is not the serial order\n%s", i, pr.dfOrder, progString(prog))
			}
		}
		for _, p := range []int{1, 2, 3, 4} {
			mp := res.MHWM[p]
			for _, v := range variants {
				pol := v.pol
				r, err := simulate(pr, pol, p, v.opt)
				if err != nil {
					t.Fatal(err)
				}
				checkResult(t, g, r)
				where := fmt.Sprintf("program %d (%d strands), %v p=%d", i, n, pol, p)
				if r.PeakBytes > inf {
					t.Fatalf("%s: peak %d > MHWM_∞ %d\n%s", where, r.PeakBytes, inf, progString(prog))
				}
				if pol == WS && r.Seeds.Max > mp {
					t.Fatalf("%s: peak %d (seed %d) > MHWM_p %d\n%s", where, r.Seeds.Max, r.Seeds.MaxSeed, mp, progString(prog))
				}
				if pol == DF && p == 1 && r.PeakBytes != res.SerialPeak {
					t.Fatalf("%s: peak %d, serial peak %d\n%s", where, r.PeakBytes, res.SerialPeak, progString(prog))
				}
				if r.PeakBytes > mp {
					c, seen := exceed[pol]
					size := progSize(prog)
					if !seen || n < c.strands || n == c.strands && size < progSize(c.prog) {
						exceed[pol] = counterexample{prog, p, r.PeakBytes, mp, n}
					}
				}
			}
		}
	}
	for _, pol := range []Policy{DF, BF, Go} {
		c, ok := exceed[pol]
		if !ok {
			t.Logf("%v never exceeded MHWM_p", pol)
			continue
		}
		if *search {
			fmt.Fprintf(os.Stderr, "%v: %d strands, p=%d: peak %d > MHWM_p %d\n\t%s\n", pol, c.strands, c.p, c.peak, c.mhwm, progString(c.prog))
		}
	}
}

// checkResult checks the invariants of any Result of g.
func checkResult(t testing.TB, g *trace.Graph, r Result) {
	t.Helper()
	var sum int64
	for _, s := range r.Sites {
		sum += s.Bytes
		if s.Bytes == 0 {
			t.Fatalf("%s p=%d: zero site entry", r.Policy, r.P)
		}
	}
	if sum != r.PeakBytes {
		t.Fatalf("%s p=%d: sites sum to %d, peak %d", r.Policy, r.P, sum, r.PeakBytes)
	}
	var mem int64
	running := 0
	for i, st := range r.Status {
		switch st {
		case Completed:
			mem += g.Strands[i].Net
		case Started:
			mem += g.Strands[i].Peak
			running++
		}
	}
	if mem != r.PeakBytes {
		t.Fatalf("%s p=%d: statuses give %d, peak %d", r.Policy, r.P, mem, r.PeakBytes)
	}
	if running > r.P && r.Policy != "go" {
		t.Fatalf("%s p=%d: %d strands running at the peak", r.Policy, r.P, running)
	}
	if r.PeakAt > r.Makespan {
		t.Fatalf("%s p=%d: peak at %d after the end %d", r.Policy, r.P, r.PeakAt, r.Makespan)
	}
	if len(r.Curve) > 0 && !slices.Contains(r.Curve, Point{r.PeakAt, r.PeakBytes}) {
		t.Fatalf("%s p=%d: curve %v misses the peak (%d, %d)", r.Policy, r.P, r.Curve, r.PeakAt, r.PeakBytes)
	}
}

// TestSerialPeakWithWork checks DF p=1 against the engine's serial peak
// and makespan = total work for programs with real work.
func TestSerialPeakWithWork(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		prog := genProgram(rand.New(rand.NewPCG(seed, 9)), genConfig{maxOps: 8, maxDepth: 4, maxSpawns: 20, downset: true, maxAlloc: 100, maxWork: 1000, sites: 5})
		g, res := build(t, prog, 1)
		for _, pol := range Policies() {
			r, err := Simulate(g, pol, 1, Options{TimeSlice: -1, CurvePoints: 16})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, g, r)
			if r.Makespan != res.WorkTime {
				t.Fatalf("seed %d %v: makespan %d, work %d", seed, pol, r.Makespan, res.WorkTime)
			}
			if pol == DF && r.PeakBytes != res.SerialPeak {
				t.Fatalf("seed %d: DF p=1 peak %d, serial %d", seed, r.PeakBytes, res.SerialPeak)
			}
		}
	}
}
