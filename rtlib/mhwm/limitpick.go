package mhwm

import (
	"math"
	"slices"
)

// Backtracking a limited block (see limit.go): its fold is rerun over the
// block's parts recording, for every entry, the choice that produced it, and
// the choices are followed from the final entry back to the block's start.
// To keep memory at O(√n) states for a block of n parts, the forward pass
// keeps a checkpoint every √n parts and the backward pass recomputes one
// segment at a time with its choices.

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

// foldState is the state of a limited fold after some parts; pu has kp+1
// rows of w entries. The prov slices are filled only when asked for.
type foldState struct {
	kp                 int
	pu, s, seq, in     []int64
	puP, sP, seqP, inP []limProv
}

// limFold reruns the fold of one limited block.
type limFold struct {
	x    *tnode
	p, w int // processors; u values per row (min(L, children) + 1)
}

func (f *limFold) start() foldState {
	var st foldState
	f.reset(&st, 0, false)
	st.pu[0] = 0
	return st
}

// reset makes st the empty state with kp+1 rows, reusing its buffers.
func (f *limFold) reset(st *foldState, kp int, prov bool) {
	fill := func(a []int64, n int) []int64 {
		a = a[:0]
		for range n {
			a = append(a, neg)
		}
		return a
	}
	st.kp = kp
	st.pu = fill(st.pu, (kp+1)*f.w)
	st.s, st.seq, st.in = fill(st.s, f.p+1), fill(st.seq, f.p+1), fill(st.in, f.p+1)
	if prov {
		provs := func(a []limProv, n int) []limProv { return append(a[:0], make([]limProv, n)...) }
		st.puP, st.sP, st.seqP, st.inP = provs(st.puP, len(st.pu)), provs(st.sP, f.p+1), provs(st.seqP, f.p+1), provs(st.inP, f.p+1)
	} else {
		st.puP, st.sP, st.seqP, st.inP = nil, nil, nil, nil
	}
}

// clone returns a copy of st's values.
func (st *foldState) clone() foldState {
	return foldState{kp: st.kp, pu: slices.Clone(st.pu), s: slices.Clone(st.s), seq: slices.Clone(st.seq), in: slices.Clone(st.in)}
}

// step folds part t of prev into st (whose buffers it reuses); with prov it
// records every entry's choice.
func (f *limFold) step(prev *foldState, t int, prov bool, st *foldState) {
	L, w, p := f.x.limit, f.w, f.p
	c := f.x.parts[t].c
	kp, ac := prev.kp, len(c.R)-1
	top := min(p, kp+ac)
	f.reset(st, top, prov)
	better := func(v *int64, pv []limProv, i int, cand int64, how uint8, j, u int) {
		if cand != neg && cand > *v {
			*v = cand
			if pv != nil {
				pv[i] = limProv{how, int32(j), int32(u)}
			}
		}
	}
	cont := t%2 == 0
	for k := 1; k <= p; k++ {
		if prev.s[k] != neg {
			better(&st.s[k], st.sP, k, prev.s[k]+c.S, fromCarry, 0, 0)
		}
		if cont && prev.seq[k] != neg {
			better(&st.seq[k], st.seqP, k, prev.seq[k]+c.S, fromCarry, 0, 0)
		}
		better(&st.in[k], st.inP, k, prev.in[k], fromCarry, 0, 0)
		if !cont {
			better(&st.in[k], st.inP, k, prev.seq[k], fromBlocked, 0, 0)
		}
	}
	old := func(k, u int) int64 {
		if k > kp || k < 0 || u >= w {
			return neg
		}
		return prev.pu[k*w+u]
	}
	for k := 0; k <= top; k++ {
		for u := 0; u < w; u++ {
			at := k*w + u
			if cont { // done; or running with j strands (I)
				if v := old(k, u); v != neg {
					better(&st.pu[at], st.puP, at, v+c.S, fromCarry, 0, u)
				}
				for j := max(1, k-kp); k >= 1 && j <= min(k, ac); j++ {
					if v := old(k-j, u); v != neg {
						better(&st.in[k], st.inP, k, v+c.R[j], fromRun, j, u)
					}
				}
				continue
			}
			// Child: done, spawned and not started, or running.
			if v := old(k, u); u < L && v != neg {
				better(&st.pu[at], st.puP, at, v+c.S, fromCarry, 0, u)
			}
			if u >= 1 {
				better(&st.pu[at], st.puP, at, old(k, u-1), fromUnrun, 0, u-1)
				for j := max(1, k-kp); j <= min(k, ac); j++ {
					v := old(k-j, u-1)
					if v == neg {
						continue
					}
					m := v + c.R[j]
					better(&st.pu[at], st.puP, at, m, fromRun, j, u-1)
					better(&st.in[k], st.inP, k, m, fromRun, j, u-1)
					if u < L {
						better(&st.s[k], st.sP, k, m, fromRun, j, u-1)
					} else {
						better(&st.seq[k], st.seqP, k, m, fromRun, j, u-1)
					}
				}
			}
		}
	}
}

// pickLimited backtracks the state of exactly k strands (or, where the
// block has none with exactly k, k−1) that attains x.c.R[k].
func (pk *picker) pickLimited(x *tnode, k int) {
	n := len(x.parts)
	f := &limFold{x: x, p: pk.p, w: min(x.limit, n/2) + 1}
	seg := max(1, int(math.Sqrt(float64(n))))
	var checkpoints []foldState // state before parts 0, seg, 2·seg, …
	st, next := f.start(), foldState{}
	for t := 0; t < n; t++ {
		if t%seg == 0 {
			checkpoints = append(checkpoints, st.clone())
		}
		f.step(&st, t, false, &next)
		st, next = next, st
	}
	which := -1
	for ; k >= 1; k-- {
		switch v := x.c.R[k]; {
		case st.in[k] == v:
			which = inI
		case st.s[k] == v:
			which = inS
		case st.seq[k] == v:
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
	var states []foldState // one segment's states with their choices
	for ci := len(checkpoints) - 1; ci >= 0; ci-- {
		lo, hi := ci*seg, min(n, (ci+1)*seg)
		for len(states) < hi-lo {
			states = append(states, foldState{})
		}
		prev := &checkpoints[ci]
		for t := lo; t < hi; t++ {
			f.step(prev, t, true, &states[t-lo])
			prev = &states[t-lo]
		}
		for t := hi - 1; t >= lo; t-- {
			part, st := x.parts[t], states[t-lo]
			var pv limProv
			switch which {
			case inI:
				pv = st.inP[k]
			case inS:
				pv = st.sP[k]
			case inSeq:
				pv = st.seqP[k]
			default:
				pv = st.puP[k*f.w+u]
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
}
