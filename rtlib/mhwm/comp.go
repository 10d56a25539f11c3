package mhwm

// comp is the exact summary of a series-parallel component X for a processor
// bound p (docs/algorithms.md, "Exact summaries"): R[k] is the largest water mark of an antichain of exactly
// k strands inside X, for 0 ≤ k ≤ a, where a = len(R)-1 = min(p, the widest
// antichain of X); S is the net bytes of X. R[0] = max(0, S) is the value of
// X when no strand of it runs (it is then either finished or not started).
//
// A Comp with Trivial set stands for a component whose strands all have
// m = s = 0 (docs/algorithms.md, "Skipping memory-inactive components"); combinators skip it, which preserves every prefix
// maximum of R (and so every MHWM_q) but not the individual entries.
type comp struct {
	R       []int64
	S       int64
	Trivial bool
}

// identityR is the R array of every identity component. Nothing writes to
// the R array of a component it did not allocate, so it can be shared.
var identityR = []int64{0}

// identity returns the empty component: the unit of Series.
func identity() comp { return comp{R: identityR[:1:1], Trivial: true} }

// leaf returns the component of one strand with high-water mark m and net
// bytes s (m ≥ max(0, s)).
func leaf(m, s int64) comp {
	return comp{R: []int64{max(0, s), m}, S: s, Trivial: m == 0 && s == 0}
}

// MHWM returns max over 0 ≤ k ≤ q of R[k]: the q-processor memory high-water
// mark of the component taken as a whole program.
func (c comp) MHWM(q int) int64 {
	best := c.R[0]
	for k := 1; k <= q && k < len(c.R); k++ {
		best = max(best, c.R[k])
	}
	return best
}

// series returns X ; Y. It does not modify its arguments.
func series(x, y comp) comp {
	if y.Trivial {
		return x
	}
	if x.Trivial {
		return y
	}
	a := max(len(x.R), len(y.R)) - 1
	r := make([]int64, a+1)
	seriesInto(r, x, y)
	return comp{R: r, S: x.S + y.S}
}

// seriesInto writes the R array of X ; Y into r, which must have length
// max(len(x.R), len(y.R)); r may alias x.R or y.R.
func seriesInto(r []int64, x, y comp) {
	for k := len(r) - 1; k >= 1; k-- {
		switch {
		case k < len(x.R) && k < len(y.R):
			r[k] = max(x.R[k], x.S+y.R[k])
		case k < len(x.R):
			r[k] = x.R[k]
		default:
			r[k] = x.S + y.R[k]
		}
	}
	r[0] = max(0, x.S+y.S)
}

// parallel returns X ‖ Y for processor bound p. It does not modify
// its arguments.
func parallel(x, y comp, p int) comp {
	if y.Trivial {
		return x
	}
	if x.Trivial {
		return y
	}
	ax, ay := len(x.R)-1, len(y.R)-1
	a := min(p, ax+ay)
	r := make([]int64, a+1)
	r[0] = max(0, x.S+y.S)
	for k := 1; k <= a; k++ {
		best := int64(0)
		found := false
		for j := max(0, k-ay); j <= min(k, ax); j++ {
			if v := x.R[j] + y.R[k-j]; !found || v > best {
				best, found = v, true
			}
		}
		r[k] = best
	}
	return comp{R: r, S: x.S + y.S}
}
