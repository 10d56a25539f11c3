package mhwm

import (
	"math/rand"
	"testing"
)

// approxOff evaluates the threshold triple over the canonical tree (docs/algorithms.md, "Threshold mode").
func approxOff(b *bnode, t Threshold) approx {
	switch b.kind {
	case 'e':
		return approxLeaf(b.m, b.s)
	case ';':
		return approxSeries(approxOff(b.x, t), approxOff(b.y, t))
	default:
		return approxParallel(approxOff(b.x, t), approxOff(b.y, t), t)
	}
}

// robustBrute returns the robust maximum R′ by enumerating every antichain (any
// size) and testing ℓ(e) > h for each member.
func robustBrute(root *bnode, leaves []*bnode, t Threshold) int64 {
	n := len(leaves)
	prec := precedes(root, n)
	best := int64(0)
	var chosen []int
	// local returns ℓ(e) for member e of the chosen antichain.
	local := func(e int) int64 {
		l := leaves[e].m
		for x := 0; x < n; x++ {
			if !prec[x][e] {
				continue
			}
			only := true
			for _, f := range chosen {
				if f != e && prec[x][f] {
					only = false
					break
				}
			}
			if only {
				l += leaves[x].s
			}
		}
		// Local companions: parallel nodes L‖R where one side holds e as the
		// only member and the other side holds none and has a positive sum.
		var walk func(b *bnode)
		walk = func(b *bnode) {
			if b.kind == 'e' || e < b.lo || e >= b.hi {
				return
			}
			if b.kind == '|' {
				side, other := b.x, b.y
				if e >= b.y.lo && e < b.y.hi {
					side, other = b.y, b.x
				}
				members, otherMembers := 0, 0
				for _, f := range chosen {
					if f >= side.lo && f < side.hi {
						members++
					}
					if f >= other.lo && f < other.hi {
						otherMembers++
					}
				}
				if members == 1 && otherMembers == 0 && other.sum > 0 {
					l += other.sum
				}
			}
			walk(b.x)
			walk(b.y)
		}
		walk(root)
		return l
	}
	forEachAntichain(prec, -1, func(ch []int, in []bool) {
		chosen = ch
		for _, e := range chosen {
			if !t.above(local(e)) {
				return
			}
		}
		w, _ := waterMark(root, in)
		best = max(best, w)
	})
	return best
}

// TestApproxOffIsRobustMaximum checks ApproxOff against the definition of
// R^rob (docs/algorithms.md, "Threshold mode").
func TestApproxOffIsRobustMaximum(t *testing.T) {
	for i := 0; i < programs(2000); i++ {
		prog := genProgram(rand.New(rand.NewSource(int64(i))), smallConfig(i))
		root, leaves := binary(buildTree(prog))
		if len(leaves) > 12 {
			continue
		}
		for _, th := range []Threshold{{M: 20, P: 1}, {M: 40, P: 2}, {M: 30, P: 3}, {M: 60, P: 2}, {M: 7, P: 1}} {
			want := robustBrute(root, leaves, th)
			if got := approxOff(root, th).Value(th); got != want {
				t.Fatalf("program %d %+v: ApproxOff R' = %d, brute %d\n%s", i, th, got, want, bodyString(prog))
			}
		}
	}
}

// TestApproxOnGuarantee checks the threshold answer of the Engine against
// the exact MHWM_p on programs with the downset property, and the invariants
// R'_On ≤ R'_Off and R'_On ≤ MHWM_∞.
func TestApproxOnGuarantee(t *testing.T) {
	checks := 0
	for i := 0; i < programs(2000); i++ {
		cfg := smallConfig(0)
		cfg.maxSpawns = 8
		prog := genProgram(rand.New(rand.NewSource(int64(5e5+i))), cfg)
		root, leaves := binary(buildTree(prog))
		inf := evalOff(root, len(leaves)+1, true).MHWM(len(leaves) + 1)
		for p := 1; p <= 4; p++ {
			exact := evalOff(root, p, true).MHWM(p)
			for _, m := range []int64{1, exact/2 + 1, exact, exact + 1, 2 * exact, 2*exact + 1, 3 * exact, 7, 50} {
				if m <= 0 {
					continue
				}
				e, err := New(Config{P: p, Threshold: m})
				if err != nil {
					t.Fatal(err)
				}
				res, err := run(e, prog)
				if err != nil {
					t.Fatal(err)
				}
				tr := res.Threshold
				th := Threshold{M: m, P: p}
				if tr.AtLeastHalf && 2*exact < m {
					t.Fatalf("program %d p=%d M=%d: answered ≥ M/2 but MHWM_p = %d\n%s", i, p, m, exact, bodyString(prog))
				}
				if !tr.AtLeastHalf && exact >= m {
					t.Fatalf("program %d p=%d M=%d: answered < M but MHWM_p = %d\n%s", i, p, m, exact, bodyString(prog))
				}
				if off := approxOff(root, th).Value(th); tr.Value > off {
					t.Fatalf("program %d p=%d M=%d: R'_On %d > R'_Off %d\n%s", i, p, m, tr.Value, off, bodyString(prog))
				}
				if tr.Value > inf {
					t.Fatalf("program %d p=%d M=%d: R'_On %d above every water mark %d", i, p, m, tr.Value, inf)
				}
				checks++
			}
		}
	}
	t.Logf("%d (program, p, M) checks", checks)
}

// TestApproxUClampRegression is the counterexample of correction (a) in
// docs/algorithms.md, "Threshold mode": clamping a
// negative U to 0 answers "≥ 40" although MHWM_4 = 33.
func TestApproxUClampRegression(t *testing.T) {
	child := []op{{kind: opAlloc, n: 11, site: 1}, {kind: opFree, n: 11, site: 1}}
	prog := []op{
		{kind: opAlloc, n: 30, site: 2}, {kind: opSpawn}, {kind: opSync},
		{kind: opFree, n: 30, site: 2},
		{kind: opSpawn, body: child}, {kind: opSpawn, body: child}, {kind: opSpawn, body: child}, {kind: opSync},
	}
	// The spawn of an empty child is a trivial component the engine skips;
	// the block still opens and closes around it.
	e, _ := New(Config{P: 4})
	res, err := run(e, prog)
	if err != nil {
		t.Fatal(err)
	}
	if res.MHWM[4] != 33 {
		t.Fatalf("MHWM_4 = %d, want 33", res.MHWM[4])
	}
	e, _ = New(Config{P: 4, Threshold: 80})
	res, err = run(e, prog)
	if err != nil {
		t.Fatal(err)
	}
	if res.Threshold.Value != 33 || res.Threshold.AtLeastHalf {
		t.Fatalf("threshold: R' = %d, answer ≥ M/2 = %v; want 33, false", res.Threshold.Value, res.Threshold.AtLeastHalf)
	}
}
