package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/spgo/spgo/rtlib/trace"
)

// bigProgram returns a random series-parallel program of about n strands:
// nested spawns (up to depth 12) and syncs, allocations freed later by
// the same scope, and random work.
func bigProgram(r *rand.Rand, n int) []op {
	budget := n
	var body func(depth int) []op
	body = func(depth int) []op {
		var ops []op
		var live []int64
		open := false
		for k := 1 + r.IntN(8); k > 0 && budget > 0; k-- {
			switch r.IntN(6) {
			case 0, 1:
				sz := 1 + r.Int64N(1000)
				live = append(live, sz)
				ops = append(ops, op{kind: opAlloc, n: sz, site: int32(1 + r.IntN(20))})
			case 2:
				if len(live) > 0 {
					i := r.IntN(len(live))
					ops = append(ops, op{kind: opFree, n: live[i], site: 0})
					live = append(live[:i], live[i+1:]...)
				}
			case 3, 4:
				if depth < 12 {
					budget -= 2
					ops = append(ops, spawn(body(depth+1)...))
					open = true
				}
			default:
				if open {
					budget--
					ops = append(ops, sync())
					open = false
				}
			}
			ops = append(ops, work(r.Int64N(1000)))
		}
		return ops
	}
	var prog []op
	for budget > 0 {
		prog = append(prog, body(0)...)
	}
	return prog
}

// randomGraph returns the graph of a random program of about n strands.
func randomGraph(tb testing.TB, n int, seed uint64) *trace.Graph {
	g, _ := build(tb, bigProgram(rand.New(rand.NewPCG(seed, 5)), n), 1)
	return g
}

// BenchmarkSimulate runs each policy once (one seed) on a random graph of
// 10^5 strands with 8 processors.
func BenchmarkSimulate(b *testing.B) {
	g := randomGraph(b, 100_000, 1)
	pr, err := newPrep(g)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d strands, %d deps", len(g.Strands), len(g.Deps))
	for _, pol := range Policies() {
		b.Run(pol.String(), func(b *testing.B) {
			for range b.N {
				if _, err := simulate(pr, pol, 8, Options{Seeds: 1, TimeSlice: 2000}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("prepare", func(b *testing.B) {
		for range b.N {
			if _, err := newPrep(g); err != nil {
				b.Fatal(err)
			}
		}
	})
}
