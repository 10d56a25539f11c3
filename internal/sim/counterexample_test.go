package sim

import "testing"

// TestCounterexamples keeps the smallest programs on which DF, BF or Go
// exceed MHWM_p, as found by go test -search (TestSearchCounterexamples,
// 400,000 random programs of up to 20 strands) and reduced by hand. Each
// exceeds it because the policy leaves a started component with no
// running strand, which the busy-leaves rule behind MHWM_p forbids
// (docs/algorithms.md, "Busy leaves" and "Test oracles"); each stays within
// MHWM_∞, and WS stays within MHWM_p on the same program. Strands are
// named in serial order.
func TestCounterexamples(t *testing.T) {
	tests := []struct {
		name       string
		prog       []op
		pol        Policy
		p          int
		opt        Options
		peak       int64
		mhwm, minf int64 // MHWM_p and MHWM_∞
		strands    int
	}{
		{
			// DF, p = 2 (also BF). Strands: r0 (spawns A), A0 (spawns
			// a), a (alloc 3, free 3), A1 (alloc 5, free 5), r1 (alloc
			// 4, spawns e), e, r2 (free 4); every strand takes no time.
			// At t = 0 the second processor runs r1, the only other
			// ready strand besides A0; then a, A1, e and r2 are ready,
			// and DF prefers A's subtree, earlier in the serial order:
			// a and A1 run together while the root's continuation, half
			// done, holds r1's 4 bytes: 3 + 5 + 4 = 12. Busy leaves
			// needs a running strand in that continuation, so one of a,
			// A1 with e or r2: MHWM_2 = 5 + 4 = 9.
			name:    "df",
			prog:    []op{spawn(spawn(alloc(3), free(3)), alloc(5), free(5)), alloc(4), spawn(), free(4)},
			pol:     DF,
			p:       2,
			peak:    12,
			mhwm:    9,
			minf:    12,
			strands: 7,
		},
		{
			// BF, p = 1. Strands: r0 (spawns A), A0 (alloc 4, spawns
			// e), e, A1 (free 4), r1 (alloc 4, free 4: m = 4, s = 0).
			// The FIFO holds A0, r1; after A0 it holds r1, e, A1: r1
			// runs at its peak beside A0's 4 bytes, which A1 has not
			// freed yet: 8. On one processor busy leaves forbids leaving
			// A half done: MHWM_1 = 4.
			name:    "bf",
			prog:    []op{spawn(alloc(4), spawn(), free(4)), alloc(4), free(4)},
			pol:     BF,
			p:       1,
			peak:    8,
			mhwm:    4,
			minf:    8,
			strands: 5,
		},
		{
			// Go without preemption, p = 1. Strands: r0 (spawns a), a
			// (alloc 2, free 2), r1 (alloc 2, spawns b), b (free 2, the
			// bytes of r1), r2 (spawns c), c, r3. The parent runs on:
			// a goes to runnext, is kicked to the local queue by b, b by
			// c. When the root ends, runnext c runs, then the local
			// queue's head a, at its peak, while b, behind it, has not
			// freed r1's 2 bytes: 4. MHWM_1 = 2: with a running, the
			// component r1; (b ‖ …) is half done.
			name:    "go",
			prog:    []op{spawn(alloc(2), free(2)), alloc(2), spawn(free(2)), spawn()},
			pol:     Go,
			p:       1,
			opt:     Options{TimeSlice: -1},
			peak:    4,
			mhwm:    2,
			minf:    4,
			strands: 7,
		},
		{
			// Go with preemption (20 ns slice), p = 1: the smallest
			// counterexample, 3 strands. r0 spawns a (alloc 1, free 1)
			// into runnext; the root's continuation r1 allocates 4, works
			// 60 ns, frees 4 (m = 4, s = 0). r1 is preempted at 20 ns at
			// its peak and goes to the global queue; the P runs a: 4 + 1
			// = 5, two strands started on one processor. MHWM_1 = 4.
			name:    "go-preempt",
			prog:    []op{spawn(alloc(1), free(1)), alloc(4), work(60), free(4)},
			pol:     Go,
			p:       1,
			opt:     Options{TimeSlice: 20},
			peak:    5,
			mhwm:    4,
			minf:    5,
			strands: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, res := build(t, tc.prog, 64)
			if len(g.Strands) != tc.strands {
				t.Fatalf("%d strands, want %d", len(g.Strands), tc.strands)
			}
			if res.MHWM[tc.p] != tc.mhwm || res.MHWM[64] != tc.minf {
				t.Fatalf("MHWM_%d = %d, MHWM_∞ = %d; want %d, %d", tc.p, res.MHWM[tc.p], res.MHWM[64], tc.mhwm, tc.minf)
			}
			r, err := Simulate(g, tc.pol, tc.p, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, g, r)
			if r.PeakBytes != tc.peak {
				t.Fatalf("%v p=%d: peak %d, want %d", tc.pol, tc.p, r.PeakBytes, tc.peak)
			}
			ws, err := Simulate(g, WS, tc.p, Options{Seeds: 10})
			if err != nil {
				t.Fatal(err)
			}
			if ws.Seeds.Max > tc.mhwm {
				t.Fatalf("ws p=%d: peak %d > MHWM_p %d", tc.p, ws.Seeds.Max, tc.mhwm)
			}
		})
	}
}
