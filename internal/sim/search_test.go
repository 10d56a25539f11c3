package sim

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// TestSearchCounterexamples (with -search) runs many small random
// programs and prints, for each policy variant and p, the smallest program
// on which the policy exceeds MHWM_p, and how often WS reaches MHWM_p.
func TestSearchCounterexamples(t *testing.T) {
	if !*search {
		t.Skip("with -search only")
	}
	type variant struct {
		pol   Policy
		slice int64
		name  string
	}
	variants := []variant{{DF, 0, "df"}, {BF, 0, "bf"}, {Go, -1, "go-nopreempt"}, {Go, 20, "go-slice20"}, {WS, 0, "ws"}}
	cfgs := []genConfig{
		{maxOps: 3, maxDepth: 2, maxSpawns: 3, downset: true, maxAlloc: 4, maxWork: 3, sites: 1},
		{maxOps: 4, maxDepth: 3, maxSpawns: 4, downset: true, maxAlloc: 4, maxWork: 3, sites: 1},
		{maxOps: 4, maxDepth: 3, maxSpawns: 4, downset: true, maxAlloc: 4, maxWork: 40, sites: 1},
		{maxOps: 3, maxDepth: 2, maxSpawns: 3, downset: false, maxAlloc: 4, maxWork: 3, sites: 1},
		{maxOps: 4, maxDepth: 3, maxSpawns: 6, downset: true, maxAlloc: 4, maxWork: 20, sites: 1},
		{maxOps: 5, maxDepth: 3, maxSpawns: 6, downset: true, maxAlloc: 4, maxWork: 3, sites: 1},
	}
	best := map[string]counterexample{}
	wsEq, wsTot := 0, 0
	for seed := uint64(1); seed <= 400000; seed++ {
		cfg := cfgs[seed%uint64(len(cfgs))]
		prog := genProgram(rand.New(rand.NewPCG(seed, 11)), cfg)
		g, res := build(t, prog, 32)
		n := len(g.Strands)
		if n > 20 {
			continue
		}
		pr, _ := newPrep(g)
		for _, v := range variants {
			for _, p := range []int{1, 2, 3} {
				r, err := simulate(pr, v.pol, p, Options{Seeds: 5, TimeSlice: v.slice})
				if err != nil {
					t.Fatal(err)
				}
				if v.pol == WS {
					wsTot++
					if r.Seeds.Max == res.MHWM[p] {
						wsEq++
					}
				}
				if r.PeakBytes <= res.MHWM[p] {
					continue
				}
				key := fmt.Sprintf("%s p=%d down=%v", v.name, p, cfg.downset)
				c, seen := best[key]
				if !seen || n < c.strands || n == c.strands && progSize(prog) < progSize(c.prog) {
					best[key] = counterexample{prog, p, r.PeakBytes, res.MHWM[p], n}
				}
			}
		}
	}
	for k, c := range best {
		fmt.Fprintf(os.Stderr, "%s: %d strands: peak %d > MHWM_p %d (MHWM_∞ ...)\n\t%s\n", k, c.strands, c.peak, c.mhwm, progString(c.prog))
	}
	fmt.Fprintf(os.Stderr, "ws reached MHWM_p in %d of %d cases\n", wsEq, wsTot)
}
