package mhwm

import "math"

// neg marks an entry that no antichain reaches (⊥, "none") in scratch space.
// It is never added to: every code path checks validity by index first.
const neg = math.MinInt64

// block is the exact online state of one open sync block (docs/algorithms.md, "Online sync blocks"): the
// components c0, A1, c1, …, Ak, ck are folded in serial order, each as soon
// as it is complete, in O(p) words.
//
//   - P[k], 0 ≤ k ≤ aP: best prefix contribution to an antichain that will go
//     on with at least one strand in a later component.
//   - S[k], 1 ≤ k ≤ aP: best spawn-only antichain whose block tail after its
//     last used spawn ends up a suspended companion.
//   - I[k], 1 ≤ k < len(I): the same with the tail ignored, and antichains
//     that hold a continuation strand.
//
// S[0] and I[0] are unused.
type block struct {
	p       int
	P, S, I []int64
	tot     int64
	active  bool // some non-trivial component was folded in

	// A limited block (lim > 0, see limit.go) uses pu and seq instead of P.
	lim     int
	kids    int // children folded into a limited block
	pu, seq []int64
	scratch []int64
}

// newBlock returns an empty block for processor bound p ≥ 1.
func newBlock(p int) *block {
	b := &block{p: p}
	b.reset(0)
	return b
}

// newLimitedBlock returns an empty block whose children may be at most
// limit ≥ 1 started-and-unfinished at once (errgroup.SetLimit). Unlike an
// unlimited block it folds memory-inactive components too: an empty child
// still holds a slot.
func newLimitedBlock(p, limit int) *block {
	b := &block{p: p}
	b.reset(limit)
	return b
}

func (b *block) reset(limit int) {
	b.P = append(b.P[:0], 0)
	b.S = append(b.S[:0], neg)
	b.I = append(b.I[:0], neg)
	b.tot = 0
	b.active = false
	b.lim = 0
	if limit > 0 {
		b.limitedReset(limit)
		b.active = true
	}
}

func (b *block) aP() int { return len(b.P) - 1 }

// AddContinuation folds in the continuation component c.
func (b *block) AddContinuation(c comp) {
	if b.lim > 0 {
		b.limitedContinuation(c)
		return
	}
	if c.Trivial {
		return
	}
	b.active = true
	aP, aC := b.aP(), len(c.R)-1
	top := min(b.p, aP+aC)
	b.I = grow(b.I, top+1)
	// Descending k: entry k reads only P[<k], which is still the old P.
	for k := top; k >= 1; k-- {
		best := b.I[k]
		for j := max(1, k-aP); j <= min(k, aC); j++ {
			best = max(best, b.P[k-j]+c.R[j])
		}
		b.I[k] = best
		if k <= aP {
			b.S[k] += c.S
			b.P[k] += c.S
		}
	}
	b.P[0] += c.S
	b.tot += c.S
}

// AddSpawn folds in the spawned child a.
func (b *block) AddSpawn(a comp) {
	if b.lim > 0 {
		b.limitedSpawn(a)
		return
	}
	if a.Trivial {
		return
	}
	b.active = true
	aP, aA := b.aP(), len(a.R)-1
	top := min(b.p, aP+aA)
	b.I = grow(b.I, top+1)
	b.P, b.S = grow(b.P, top+1), grow(b.S, top+1)
	r0 := a.R[0]
	// Descending k: M[k] reads only P[<k], which is still the old P.
	for k := top; k >= 1; k-- {
		m := int64(neg)
		for j := max(1, k-aP); j <= min(k, aA); j++ {
			m = max(m, b.P[k-j]+a.R[j])
		}
		if k <= aP {
			b.S[k] = max(b.S[k]+a.S, m)
			b.P[k] = max(b.P[k]+r0, m)
		} else {
			b.S[k], b.P[k] = m, m
		}
		b.I[k] = max(b.I[k], m)
	}
	b.P[0] += r0
	b.tot += a.S
}

// Finish returns the block as one component: R[k] = max(S[k], I[k]).
// A block into which nothing non-trivial was folded is trivial.
func (b *block) Finish() comp {
	if !b.active {
		return identity()
	}
	if b.lim > 0 {
		return b.finishInto(make([]int64, b.p+1))
	}
	return b.finishInto(make([]int64, max(len(b.P), len(b.I))))
}

// finishInto is Finish writing R into r, whose capacity must be at least
// max(len(P), len(I)).
func (b *block) finishInto(r []int64) comp {
	if b.lim > 0 {
		return b.limitedFinish(r[:cap(r)])
	}
	if !b.active {
		return identity()
	}
	a := max(len(b.P), len(b.I)) - 1
	r = r[:a+1]
	r[0] = max(0, b.tot)
	for k := 1; k <= a; k++ {
		v := int64(neg)
		if k < len(b.S) {
			v = b.S[k]
		}
		if k < len(b.I) {
			v = max(v, b.I[k])
		}
		r[k] = v
	}
	return comp{R: r, S: b.tot}
}
