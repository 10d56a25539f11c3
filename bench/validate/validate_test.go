package main

import (
	"io"
	"testing"
)

// TestRealPeakBelowMHWM is the validation on two small programs whose
// MHWM grows with p: at GOMAXPROCS = 1, 2, 4 and 8, no uninstrumented
// run's measured live-heap peak is above spgo's MHWM_∞ (Go preempts
// goroutines, so more than p tasks may be in progress at GOMAXPROCS = p
// and MHWM_p itself can be exceeded: the test logs when it is), and at
// p = 1 the measurement is not vacuous (it sees at least half of MHWM_1:
// both programs hold most of it for a while even serially).
func TestRealPeakBelowMHWM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the benchmark programs")
	}
	rows, err := validate(config{runs: 3, gogc: 5, procs: []int{1, 2, 4, 8}}, []string{"tilealign", "strassen"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 8 {
		t.Fatalf("%d rows, want 8", len(rows))
	}
	for _, r := range rows {
		if !r.exact {
			t.Errorf("%s: spgo's figures are not exact", r.prog)
		}
		if len(r.peaks) == 0 {
			t.Errorf("%s at GOMAXPROCS=%d: no run read a collection (%d collections)", r.prog, r.p, r.cycles)
			continue
		}
		if r.sat == 0 {
			t.Errorf("%s: MHWM still grows at pmax: MHWM_∞ unknown", r.prog)
		}
		if m := r.max(); m > r.top {
			t.Errorf("%s at GOMAXPROCS=%d: measured peak %d bytes above MHWM_∞ = %d (runs %v)", r.prog, r.p, m, r.top, r.peaks)
		} else if m > r.mhwm {
			t.Logf("%s at GOMAXPROCS=%d: measured peak %d above MHWM_%d = %d (preemption), below MHWM_∞ = %d", r.prog, r.p, m, r.p, r.mhwm, r.top)
		}
		if r.p == 1 && 2*r.max() < r.mhwm {
			t.Errorf("%s at GOMAXPROCS=1: measured peak %d is under half of MHWM_1 = %d: is the sampler reading?", r.prog, r.max(), r.mhwm)
		}
		t.Logf("%s p=%d: MHWM %d, measured %v", r.prog, r.p, r.mhwm, r.peaks)
	}
}

func TestBound(t *testing.T) {
	for _, c := range []struct {
		m, base int64
		gogc    int
		want    int64
	}{
		{m: 100 << 20, base: 0, gogc: 5, want: 105 << 20},
		{m: 1 << 20, base: 1 << 20, gogc: 10, want: (2<<20)*11/10 - 1<<20},
		{m: 10 << 10, base: 50 << 10, gogc: 5, want: 4<<20/20 - 50<<10}, // the minimum heap goal
	} {
		if got := bound(c.m, c.base, c.gogc); got != c.want {
			t.Errorf("bound(%d, %d, %d) = %d, want %d", c.m, c.base, c.gogc, got, c.want)
		}
	}
}

func TestParseProcs(t *testing.T) {
	if ps, err := parseProcs("1, 2,8"); err != nil || len(ps) != 3 || ps[2] != 8 {
		t.Errorf("parseProcs = %v, %v", ps, err)
	}
	for _, bad := range []string{"", "0", "x", "1,,2", "129"} {
		if _, err := parseProcs(bad); err == nil {
			t.Errorf("parseProcs(%q) accepted", bad)
		}
	}
}
