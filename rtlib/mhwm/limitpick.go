package mhwm

// Backtracking a limited block (see limit.go): the fold is rerun over the
// block's parts with, for every entry, the choice that produced it, and the
// choices are followed from the final entry back to the block's start.

// Which array a state entry lives in.
const (
	inPU  = iota // pu[k][u]
	inS          // tails with u ≤ L−1
	inSeq        // tails with u = L
	inI          // fixed antichains
)

// How an entry was produced from the previous part's state.
const (
	fromCarry   = iota // the same entry, the part done (pu, S, seq) or not started (I)
	fromUnrun          // pu: the child spawned, not started (u−1)
	fromRun            // the child (or, for I, the continuation) running with j strands
	fromBlocked        // I: a seq entry whose parent blocks at this child's fork
)

type limProv struct {
	how  uint8
	j, u int32 // strands in the part; u of the pu entry it came from
}

type limStep struct {
	pu, s, seq, in     []int64
	puP, sP, seqP, inP []limProv
}

// limitedSteps reruns the limited fold of x with provenance.
func limitedSteps(x *tnode, p int) []limStep {
	L := x.limit
	w := L + 1
	newStep := func(kp int) limStep {
		st := limStep{
			pu: make([]int64, (kp+1)*w), s: make([]int64, p+1), seq: make([]int64, p+1), in: make([]int64, p+1),
			puP: make([]limProv, (kp+1)*w), sP: make([]limProv, p+1), seqP: make([]limProv, p+1), inP: make([]limProv, p+1),
		}
		for _, a := range [][]int64{st.pu, st.s, st.seq, st.in} {
			for i := range a {
				a[i] = neg
			}
		}
		return st
	}
	prev := newStep(0)
	prev.pu[0] = 0
	steps := make([]limStep, 0, len(x.parts))
	for t, part := range x.parts {
		c := part.c
		kp := len(prev.pu)/w - 1
		ac := len(c.R) - 1
		top := min(p, kp+ac)
		st := newStep(top)
		better := func(v *int64, pv *limProv, cand int64, how uint8, j, u int) {
			if cand != neg && cand > *v {
				*v, *pv = cand, limProv{how, int32(j), int32(u)}
			}
		}
		// Tails and fixed entries carried over.
		for k := 1; k <= p; k++ {
			if t%2 == 0 {
				if prev.s[k] != neg {
					better(&st.s[k], &st.sP[k], prev.s[k]+c.S, fromCarry, 0, 0)
				}
				if prev.seq[k] != neg {
					better(&st.seq[k], &st.seqP[k], prev.seq[k]+c.S, fromCarry, 0, 0)
				}
			} else if prev.s[k] != neg {
				better(&st.s[k], &st.sP[k], prev.s[k]+c.S, fromCarry, 0, 0)
			}
			better(&st.in[k], &st.inP[k], prev.in[k], fromCarry, 0, 0)
			if t%2 == 1 {
				better(&st.in[k], &st.inP[k], prev.seq[k], fromBlocked, 0, 0)
			}
		}
		for k := 0; k <= top; k++ {
			for u := 0; u <= L; u++ {
				at := k*w + u
				old := func(k, u int) int64 {
					if k > kp || k < 0 {
						return neg
					}
					return prev.pu[k*w+u]
				}
				if t%2 == 0 { // continuation: done; or running with j strands (I)
					if v := old(k, u); v != neg {
						better(&st.pu[at], &st.puP[at], v+c.S, fromCarry, 0, u)
					}
					if k >= 1 {
						for j := max(1, k-kp); j <= min(k, ac); j++ {
							if v := old(k-j, u); v != neg {
								better(&st.in[k], &st.inP[k], v+c.R[j], fromRun, j, u)
							}
						}
					}
					continue
				}
				// Child: done, spawned and not started, or running.
				if v := old(k, u); u < L && v != neg {
					better(&st.pu[at], &st.puP[at], v+c.S, fromCarry, 0, u)
				}
				if u >= 1 {
					better(&st.pu[at], &st.puP[at], old(k, u-1), fromUnrun, 0, u-1)
					for j := max(1, k-kp); j <= min(k, ac); j++ {
						v := old(k-j, u-1)
						if v == neg {
							continue
						}
						m := v + c.R[j]
						better(&st.pu[at], &st.puP[at], m, fromRun, j, u-1)
						better(&st.in[k], &st.inP[k], m, fromRun, j, u-1)
						if u < L {
							better(&st.s[k], &st.sP[k], m, fromRun, j, u-1)
						} else {
							better(&st.seq[k], &st.seqP[k], m, fromRun, j, u-1)
						}
					}
				}
			}
		}
		steps = append(steps, st)
		prev = st
	}
	return steps
}

// pickLimited backtracks the state of exactly k strands (or, where the
// block has none with exactly k, k−1) that attains x.c.R[k].
func (pk *picker) pickLimited(x *tnode, k int) {
	steps := limitedSteps(x, pk.p)
	last := steps[len(steps)-1]
	w := x.limit + 1
	which := -1
	for ; k >= 1 && which < 0; k-- {
		switch v := x.c.R[k]; {
		case last.in[k] == v:
			which = inI
		case last.s[k] == v:
			which = inS
		case last.seq[k] == v:
			which = inSeq
		}
		if which >= 0 {
			break
		}
	}
	if which < 0 {
		return // cannot happen: R[1] is always reached by a strand of c0
	}
	u := 0
	for t := len(steps) - 1; t >= 0; t-- {
		part, st := x.parts[t], steps[t]
		var pv limProv
		switch which {
		case inI:
			pv = st.inP[k]
		case inS:
			pv = st.sP[k]
		case inSeq:
			pv = st.seqP[k]
		default:
			pv = st.puP[k*w+u]
		}
		switch pv.how {
		case fromCarry:
			switch {
			case which == inPU && t%2 == 0:
				pk.addAll(part, completed) // a continuation before the running strands
			case which != inI:
				pk.addAll(part, suspended) // a finished child, or a finished tail
			}
		case fromUnrun:
			u = int(pv.u)
		case fromRun:
			pk.pick(part, int(pv.j), false)
			k -= int(pv.j)
			u = int(pv.u)
			which = inPU
		case fromBlocked:
			which = inSeq // the parent blocks at this child's fork
		}
	}
}
