package mhwm

import "slices"

// Limited blocks: errgroup.SetLimit(L).
//
// A block whose children may be at most L started-and-unfinished at once (a
// child spawned but not yet run holds its slot; Go blocks the parent while L
// children are unfinished, and a blocked parent holds no processor). The
// reachable states of such a block, checked against schedule enumeration in
// oracle_limit_test.go, are the busy-leaves cut states with, for every spawn
// j that happened, at most L−1 unfinished children before j, plus states in
// which the parent is blocked at a fork: its continuations up to c_J done,
// exactly L children unfinished, A_J running. Folding in serial order, the
// state is two-dimensional: k strands running and u children unfinished.
//
//   - pu[k][u]: best prefix contribution to an antichain that goes on in a
//     later component (continuations so far done; each child done, not
//     started, or running).
//   - S[k] / seq[k]: spawn-only antichains whose block tail is being
//     completed, with u ≤ L−1 (they survive later spawns) or u = L (the
//     next fork blocks the parent: they become blocked states).
//   - I[k]: antichains fixed for good: those with a strand in a
//     continuation, those whose tail is not started, and blocked states.
//
// The limit can raise the MHWM above the unlimited one (a blocked parent
// keeps its continuation's memory without a processor) as well as lower it.
// Memory-inactive components cannot be skipped here: an empty child still
// takes a slot. The driver keeps every component under a limited block.

// limitedReset prepares b for a limited block.
func (b *block) limitedReset(limit int) {
	b.lim = limit
	b.pu = append(b.pu[:0], 0) // pu[0][0]; u ≤ min(L, children) so far
	b.seq = append(b.seq[:0], neg)
	b.kids = 0
}

// width returns the number of u values pu holds per k: u never exceeds the
// children folded so far, nor L.
func (b *block) width() int { return min(b.lim, b.kids) + 1 }

// limAP returns the largest k of pu.
func (b *block) limAP() int { return len(b.pu)/b.width() - 1 }

// grow extends s with neg to length n, in at most one new array (whose
// bytes exactAlg.folded reports).
func grow(s []int64, n int) []int64 {
	if n > len(s) {
		s = slices.Grow(s, n-len(s))
		for len(s) < n {
			s = append(s, neg)
		}
	}
	return s
}

func addIf(x *int64, d int64) {
	if *x != neg {
		*x += d
	}
}

func (b *block) limitedContinuation(c comp) {
	aP, aC := b.limAP(), len(c.R)-1
	top := min(b.p, aP+aC)
	// pmax[k] = max over u of pu[k][u].
	pmax := slices.Grow(b.scratch[:0], aP+1)
	w := b.width()
	for k := 0; k <= aP; k++ {
		m := int64(neg)
		for _, v := range b.pu[k*w : k*w+w] {
			m = max(m, v)
		}
		pmax = append(pmax, m)
	}
	b.scratch = pmax
	b.I = grow(b.I, top+1)
	for k := 1; k <= top; k++ {
		best := b.I[k]
		for j := max(1, k-aP); j <= min(k, aC); j++ {
			if pmax[k-j] != neg {
				best = max(best, pmax[k-j]+c.R[j])
			}
		}
		b.I[k] = best
	}
	for k := 1; k < len(b.S); k++ {
		addIf(&b.S[k], c.S)
	}
	for k := 1; k < len(b.seq); k++ {
		addIf(&b.seq[k], c.S)
	}
	for i := range b.pu {
		addIf(&b.pu[i], c.S)
	}
	b.tot += c.S
}

func (b *block) limitedSpawn(a comp) {
	L, ow := b.lim, b.width()
	// A parent that reaches this fork with L children unfinished blocks:
	// the seq states are final.
	b.I = grow(b.I, len(b.seq))
	for k := 1; k < len(b.seq); k++ {
		b.I[k] = max(b.I[k], b.seq[k])
		b.seq[k] = neg
	}
	aP, aA := b.limAP(), len(a.R)-1
	top := min(b.p, aP+aA)
	b.kids++
	w := b.width()
	old := b.pu
	b.pu = grow(b.scratch[:0], (top+1)*w)
	b.scratch = old
	b.S = grow(b.S, top+1)
	b.seq = grow(b.seq, top+1)
	b.I = grow(b.I, top+1)
	for k := 0; k <= top; k++ {
		row := b.pu[k*w : k*w+w]
		var orow []int64 // old pu[k], nil past aP
		if k <= aP {
			orow = old[k*ow : k*ow+ow]
			if k >= 1 {
				addIf(&b.S[k], a.S) // old tails: the child completes too
			}
		}
		sk, seqk, ik := b.S[k], b.seq[k], b.I[k]
		for u := 0; u < w; u++ {
			v := int64(neg)
			if orow != nil {
				if u < ow && u < L && orow[u] != neg { // child done
					v = orow[u] + a.S
				}
				if u >= 1 {
					v = max(v, orow[u-1]) // child spawned, not started
				}
			}
			if u >= 1 { // child running with j ≥ 1 strands
				m := int64(neg)
				for j := max(1, k-aP); j <= min(k, aA); j++ {
					if x := old[(k-j)*ow+u-1]; x != neg {
						m = max(m, x+a.R[j])
					}
				}
				if m != neg {
					v = max(v, m)
					ik = max(ik, m) // the tail is not started
					if u < L {
						sk = max(sk, m)
					} else {
						seqk = max(seqk, m)
					}
				}
			}
			row[u] = v
		}
		b.S[k], b.seq[k], b.I[k] = sk, seqk, ik
	}
	b.tot += a.S
}

// limitedAt returns the best state with exactly k strands running, or ⊥.
func (b *block) limitedAt(k int) int64 {
	v := int64(neg)
	for _, a := range [...][]int64{b.I, b.S, b.seq} {
		if k < len(a) {
			v = max(v, a[k])
		}
	}
	return v
}

// limitedFinish returns the limited block's R array in r (capacity ≥ p+1).
func (b *block) limitedFinish(r []int64) comp {
	a := 0
	for k := 1; k <= b.p; k++ {
		if b.limitedAt(k) != neg {
			a = k
		}
	}
	r = r[:a+1]
	r[0] = max(0, b.tot)
	for k := 1; k <= a; k++ {
		v := b.limitedAt(k)
		if v == neg { // no state with exactly k strands: one with k−1 ≥ 1
			v = r[k-1] // running strands and an idle processor is as good
		}
		r[k] = v
	}
	return comp{R: r, S: b.tot}
}
