package mhwm

// Oracle A (docs/algorithms.md, "Test oracles"): enumerate every antichain of the canonical binary tree
// and evaluate its water mark by the definition (docs/algorithms.md, "Water mark of an antichain").

// precedes returns prec[x][y]: leaf x precedes leaf y (their lowest common
// ancestor is a series node with x on its left).
func precedes(root *bnode, n int) [][]bool {
	prec := make([][]bool, n)
	for i := range prec {
		prec[i] = make([]bool, n)
	}
	var walk func(b *bnode)
	walk = func(b *bnode) {
		if b.kind == 'e' {
			return
		}
		if b.kind == ';' {
			for i := b.x.lo; i < b.x.hi; i++ {
				for j := b.y.lo; j < b.y.hi; j++ {
					prec[i][j] = true
				}
			}
		}
		walk(b.x)
		walk(b.y)
	}
	walk(root)
	return prec
}

// waterMark evaluates W(A) by the bottom-up recursion of its definition; in[i] says whether
// leaf i is in A. It returns ok = false when A misses b.
func waterMark(b *bnode, in []bool) (v int64, ok bool) {
	switch b.kind {
	case 'e':
		return b.m, in[b.id]
	case ';':
		if v, ok := waterMark(b.x, in); ok {
			return v, true
		}
		if v, ok := waterMark(b.y, in); ok {
			return b.x.sum + v, true
		}
		return 0, false
	default:
		vx, okx := waterMark(b.x, in)
		vy, oky := waterMark(b.y, in)
		switch {
		case okx && oky:
			return vx + vy, true
		case okx:
			return vx + max(0, b.y.sum), true
		case oky:
			return vy + max(0, b.x.sum), true
		}
		return 0, false
	}
}

// forEachAntichain calls visit for every nonempty antichain of at most
// maxSize leaves (maxSize < 0: any size); in[i] says whether leaf i is in it.
func forEachAntichain(prec [][]bool, maxSize int, visit func(chosen []int, in []bool)) {
	n := len(prec)
	in := make([]bool, n)
	var chosen []int
	var dfs func(from int)
	dfs = func(from int) {
		if len(chosen) > 0 {
			visit(chosen, in)
		}
		if len(chosen) == maxSize {
			return
		}
		for e := from; e < n; e++ {
			ok := true
			for _, c := range chosen {
				if prec[c][e] || prec[e][c] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			in[e] = true
			chosen = append(chosen, e)
			dfs(e + 1)
			chosen = chosen[:len(chosen)-1]
			in[e] = false
		}
	}
	dfs(0)
}

// oracleA returns R[0..a] by brute force: R[k] is the largest W(A) over
// antichains of exactly k strands (k ≤ p), R[0] = max(0, s).
func oracleA(root *bnode, leaves []*bnode, p int) []int64 {
	r := []int64{max(0, root.sum)}
	forEachAntichain(precedes(root, len(leaves)), p, func(chosen []int, in []bool) {
		w, _ := waterMark(root, in)
		if k := len(chosen); k >= len(r) {
			r = append(r, w)
		} else {
			r[k] = max(r[k], w)
		}
	})
	return r
}

// prefixMax returns MHWM_q = max_{k ≤ q} R[k] for q = 0..p.
func prefixMax(r []int64, p int) []int64 {
	out := make([]int64, p+1)
	best := r[0]
	for q := 0; q <= p; q++ {
		if q < len(r) {
			best = max(best, r[q])
		}
		out[q] = best
	}
	return out
}
