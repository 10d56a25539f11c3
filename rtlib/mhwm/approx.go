package mhwm

import "math/bits"

// Threshold is the question "is MHWM_p at least M/2, or below M?" of the
// threshold algorithms (docs/algorithms.md, "Threshold mode"). Its per-strand cut-off is h = M/(2p),
// compared exactly in integers.
type Threshold struct {
	M int64 // memory limit, > 0
	P int   // processors, ≥ 1
}

// above reports x > h, i.e. 2p·x > M, without overflow.
func (t Threshold) above(x int64) bool {
	if x <= 0 {
		return false
	}
	hi, lo := bits.Mul64(uint64(x), uint64(2*t.P))
	return hi != 0 || lo > uint64(t.M)
}

// atLeast reports x ≥ h, i.e. 2p·x ≥ M, without overflow.
func (t Threshold) atLeast(x int64) bool {
	if x <= 0 {
		return false
	}
	hi, lo := bits.Mul64(uint64(x), uint64(2*t.P))
	return hi != 0 || lo >= uint64(t.M)
}

// Decide applies the decision rule to a robust value R': true means
// MHWM_p ≥ M/2, false means MHWM_p < M.
func (t Threshold) Decide(rPrime int64) bool {
	hi, lo := bits.Mul64(uint64(max(rPrime, 0)), 2)
	return hi != 0 || lo >= uint64(t.M)
}

// bot is ⊥ in the threshold algorithms: "no such antichain".
const bot = neg

// addB returns x + y with ⊥ absorbing.
func addB(x, y int64) int64 {
	if x == bot || y == bot {
		return bot
	}
	return x + y
}

// orZero maps ⊥ to 0 and keeps every other value (correction (a) of
// docs/algorithms.md, "Threshold mode").
func orZero(x int64) int64 {
	if x == bot {
		return 0
	}
	return x
}

// approx is the threshold summary of a component: S its net
// bytes, W its best single-strand water mark (R[1] of the exact algorithm)
// and R the best water mark of a robust antichain of two or more strands
// inside it, or ⊥ (math.MinInt64) when there is none.
type approx struct {
	S, W, R int64
	Trivial bool
}

// approxIdentity is the empty component for the threshold algorithms.
func approxIdentity() approx { return approx{R: bot, Trivial: true} }

// approxLeaf is one strand with high-water mark m and net bytes s.
func approxLeaf(m, s int64) approx {
	return approx{S: s, W: m, R: bot, Trivial: m == 0 && s == 0}
}

// approxSeries returns X ; Y.
func approxSeries(x, y approx) approx {
	if y.Trivial {
		return x
	}
	if x.Trivial {
		return y
	}
	return approx{S: x.S + y.S, W: max(x.W, x.S+y.W), R: max(x.R, addB(x.S, y.R))}
}

// robustW returns w if a single strand of value w is robust (w > h), else ⊥.
func (t Threshold) robustW(w int64) int64 {
	if t.above(w) {
		return w
	}
	return bot
}

// approxParallel returns X ‖ Y under threshold t.
func approxParallel(x, y approx, t Threshold) approx {
	if y.Trivial {
		return x
	}
	if x.Trivial {
		return y
	}
	wx, wy := t.robustW(x.W), t.robustW(y.W)
	r := addB(wx, wy)
	r = max(r, addB(y.R, max(wx, x.R, x.S, 0)))
	r = max(r, addB(x.R, max(wy, y.R, y.S, 0)))
	return approx{
		S: x.S + y.S,
		W: max(x.W+max(0, y.S), y.W+max(0, x.S)),
		R: r,
	}
}

// Value returns R' = max(robust single strand, r, 0) for the whole program.
func (a approx) Value(t Threshold) int64 {
	return max(t.robustW(a.W), a.R, 0)
}

// approxBlock is the O(1) online state of a sync block for the threshold
// algorithm (with corrections (a) and (b) of docs/algorithms.md, "Threshold mode").
type approxBlock struct {
	t                 Threshold
	ms, mi, ss, si, u int64 // ⊥-able
	ut, tot, et       int64
	active            bool
}

// newApproxBlock returns an empty block for threshold t.
func newApproxBlock(t Threshold) *approxBlock {
	b := &approxBlock{t: t}
	b.reset()
	return b
}

func (b *approxBlock) reset() {
	b.ms, b.mi, b.ss, b.si, b.u = bot, bot, bot, bot, bot
	b.ut, b.tot, b.et = 0, 0, 0
	b.active = false
}

// AddContinuation folds in a continuation component.
func (b *approxBlock) AddContinuation(c approx) {
	if c.Trivial {
		return
	}
	b.active = true
	ms, ss := addB(b.ms, c.S), addB(b.ss, c.S)
	si := max(b.si, c.W+b.et)
	mi := b.mi
	if b.u != bot && b.t.above(b.ut+c.W) {
		mi = max(mi, b.u+b.ut+c.W)
	}
	if c.R != bot {
		mi = max(mi, orZero(b.u)+b.ut+c.R)
	}
	b.ms, b.ss, b.si, b.mi = ms, ss, si, mi
	b.ut += c.S
	b.tot += c.S
	b.et += c.S
}

// AddSpawn folds in a spawned child.
func (b *approxBlock) AddSpawn(a approx) {
	if a.Trivial {
		return
	}
	b.active = true
	b.ss = max(addB(b.ss, a.S), a.W+b.et)
	b.si = max(b.si, a.W+b.et)
	x := int64(bot)
	if b.u != bot && b.t.above(b.ut+a.W) {
		x = b.u + b.ut + a.W
	}
	if a.R != bot {
		x = max(x, orZero(b.u)+b.ut+a.R)
	}
	b.ms = max(addB(b.ms, a.S), x) // correction (b): the tail includes s(A)
	b.mi = max(b.mi, x)
	b.tot += a.S
	b.et += max(0, a.S)
	// Natural role of the child (Lemma 5.3).
	mA := max(a.R, b.t.robustW(a.W))
	tA := a.S
	switch {
	case mA != bot && b.t.atLeast(mA-max(0, tA)):
		b.u = orZero(b.u) + b.ut + mA // correction (a): ⊥ → 0 only, no clamp
		b.ut = 0
	case tA > 0:
		b.ut += tA
	}
}

// Finish returns the block as one component.
func (b *approxBlock) Finish() approx {
	if !b.active {
		return approxIdentity()
	}
	w := max(b.si, b.ss)
	if w == bot {
		w = 0
	}
	return approx{S: b.tot, W: w, R: max(b.ms, b.mi)}
}
