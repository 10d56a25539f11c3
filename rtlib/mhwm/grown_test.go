package mhwm

import (
	"math/rand/v2"
	"testing"
)

// TestGrown: what Config.Grown reports (arrays allocated less arrays
// replaced or given back) is exactly the trace's storage at the end, on random
// fork-join programs with calls, memory-inactive children (cut and
// merged) and frees.
func TestGrown(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var held, allocs int64
		e, err := New(Config{P: 8, Attribution: true, Grown: func(a, d int64) {
			if a != 0 && a <= d { // a = 0: an array given back
				t.Fatalf("seed %d: a new array of %d bytes replaces one of %d", seed, a, d)
			}
			held += a - d
			allocs++
		}})
		if err != nil {
			t.Fatal(err)
		}
		must := func(err error) {
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		live := int64(0)
		var gen func(depth int)
		gen = func(depth int) {
			spawned := false
			for range 1 + rng.IntN(4) {
				switch k := rng.IntN(6); {
				case k == 0 && depth < 6:
					must(e.Spawn())
					gen(depth + 1)
					must(e.Return())
					spawned = true
				case k == 1 && depth < 6:
					must(e.Call())
					gen(depth + 1)
					must(e.CallReturn())
				case k == 2 && spawned:
					must(e.Sync())
					spawned = false
				case k == 3 && live > 0:
					n := 1 + rng.Int64N(live)
					must(e.Free(Site(rng.IntN(5)), n))
					live -= n
				default:
					n := 1 + rng.Int64N(1000)
					must(e.Alloc(Site(rng.IntN(5)), n))
					live += n
				}
			}
			if spawned {
				must(e.Sync())
			}
		}
		for range 50 {
			gen(0)
		}
		res, err := e.Exit()
		must(err)
		// The recorder's working arrays were given back at Exit.
		tr := res.trace
		want := bytesOf(tr.toks) + bytesOf(tr.strands) + bytesOf(tr.sites) + bytesOf(tr.limits)
		if held != want {
			t.Errorf("seed %d: Grown says %d bytes held, the trace holds %d", seed, held, want)
		}
		if allocs == 0 {
			t.Errorf("seed %d: nothing reported", seed)
		}
	}
}
