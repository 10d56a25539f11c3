package mhwm

import (
	"fmt"
	"unsafe"
)

// algebra is what the online driver needs from a summary domain: the exact
// R arrays (comp, *block) or the threshold triples (approx, *approxBlock).
type algebra[C any, B any] interface {
	leaf(m, s int64, keep bool) C // keep: never skip it, even if m = s = 0
	identity() C
	series(x, y C) C
	newBlock(limit int) B      // limit 0: none
	resetBlock(b B, limit int) // makes a finished block new again
	addCont(b B, c C)
	addSpawn(b B, c C)
	finish(b B) C
}

// exactAlg is the exact domain. The driver uses every component exactly
// once, so the R arrays it hands back are recycled: all have capacity p+1.
type exactAlg struct {
	p    int
	free [][]int64
	made func(n int64) // Config.Made: told of every array made
}

func (a *exactAlg) get() []int64 {
	if n := len(a.free); n > 0 {
		b := a.free[n-1]
		a.free = a.free[:n-1]
		return b
	}
	a.tell(int64(a.p+1) * 8)
	return make([]int64, a.p+1)
}

func (a *exactAlg) release(c comp) {
	if cap(c.R) == a.p+1 {
		old := cap(a.free)
		a.free = append(a.free, c.R[:0])
		if cap(a.free) != old {
			a.tell(int64(cap(a.free)) * 24)
		}
	}
}

// tell reports an array of n bytes made to Config.Made.
func (a *exactAlg) tell(n int64) {
	if a.made != nil {
		a.made(n)
	}
}

// blockCaps are the capacities of b's arrays.
func blockCaps(b *block) [6]int {
	return [6]int{cap(b.P), cap(b.S), cap(b.I), cap(b.pu), cap(b.seq), cap(b.scratch)}
}

// folded reports the arrays of b that a fold replaced, whose capacities
// were before.
func (a *exactAlg) folded(b *block, before [6]int) {
	for i, c := range blockCaps(b) {
		if c != before[i] {
			a.tell(int64(c) * 8)
		}
	}
}

func (a *exactAlg) leaf(m, s int64, keep bool) comp {
	r := a.get()[:2]
	r[0], r[1] = max(0, s), m
	return comp{R: r, S: s, Trivial: m == 0 && s == 0 && !keep}
}

func (a *exactAlg) identity() comp { return identity() }

func (a *exactAlg) series(x, y comp) comp {
	if y.Trivial {
		a.release(y)
		return x
	}
	if x.Trivial {
		a.release(x)
		return y
	}
	n := max(len(x.R), len(y.R))
	if cap(x.R) < n { // x is not a recycled array
		a.release(x)
		x.R = append(a.get()[:0], x.R...)
	}
	r := x.R[:n]
	seriesInto(r, x, y)
	a.release(y)
	return comp{R: r, S: x.S + y.S}
}

func (a *exactAlg) newBlock(limit int) *block {
	b := newLimitedBlock(a.p, limit)
	a.tell(int64(unsafe.Sizeof(block{})))
	a.folded(b, [6]int{})
	return b
}

func (a *exactAlg) resetBlock(b *block, limit int) {
	n := blockCaps(b)
	b.reset(limit)
	a.folded(b, n)
}

func (a *exactAlg) addCont(b *block, c comp) {
	n := blockCaps(b)
	b.AddContinuation(c)
	a.folded(b, n)
	a.release(c)
}

func (a *exactAlg) addSpawn(b *block, c comp) {
	n := blockCaps(b)
	b.AddSpawn(c)
	a.folded(b, n)
	a.release(c)
}

func (a *exactAlg) finish(b *block) comp { return b.finishInto(a.get()) }

type approxAlg struct{ t Threshold }

func (approxAlg) leaf(m, s int64, _ bool) approx    { return approxLeaf(m, s) } // no limits here
func (approxAlg) identity() approx                  { return approxIdentity() }
func (approxAlg) series(x, y approx) approx         { return approxSeries(x, y) }
func (a approxAlg) newBlock(int) *approxBlock       { return newApproxBlock(a.t) } // Engine rejects limits here
func (approxAlg) resetBlock(b *approxBlock, _ int)  { b.reset() }
func (approxAlg) addCont(b *approxBlock, c approx)  { b.AddContinuation(c) }
func (approxAlg) addSpawn(b *approxBlock, c approx) { b.AddSpawn(c) }
func (approxAlg) finish(b *approxBlock) approx      { return b.Finish() }

// span is a critical-path length in strands and in caller-supplied time.
type span struct{ n, d int64 }

func (x span) plus(y span) span { return span{x.n + y.n, x.d + y.d} }
func (x span) max(y span) span  { return span{max(x.n, y.n), max(x.d, y.d)} }

// frame is one sync scope: a spawned task or a called function.
type frame[C any, B any] struct {
	spawned bool // a spawned task (ended by Return), else a call (CallReturn)
	limit   int  // errgroup limit of the open or next block, 0 = none
	big     int  // a limit above MaxLimit, not modelled: checked at the sync
	kids    int  // spawns into the open block
	acc     C    // series of everything completed in this scope
	open    bool // a sync block is open
	blk     B
	cont    C // continuation being built inside the open block

	accSpan  span // span of acc
	contSpan span // span of cont
	chain    span // Σ span of the block's continuations so far
	best     span // max over spawns of chain-at-spawn + child span
}

// driver turns the serial event stream into series, spawn and continuation
// folds (docs/algorithms.md, "The event driver"). It keeps O(D) frames; each holds O(p) words.
type driver[C any, B any, A algebra[C, B]] struct {
	alg     A
	frames  []frame[C, B]
	blocks  []B           // recycled block states
	limited int           // frames with a limit: below them nothing is skipped
	inexact []string      // why a figure is not exact
	made    func(n int64) // Config.Made: told of the frames' and blocks' new arrays
}

// grew tells d.made of an array of n elements of size bytes, when n is
// not old.
func (d *driver[C, B, A]) grew(n, old int, size uintptr) {
	if d.made != nil && n != old {
		d.made(int64(n) * int64(size))
	}
}

func (d *driver[C, B, A]) init(alg A) {
	d.alg = alg
	d.frames = d.frames[:0]
	d.push(false)
}

func (d *driver[C, B, A]) push(spawned bool) {
	old := cap(d.frames)
	d.frames = append(d.frames, frame[C, B]{spawned: spawned, acc: d.alg.identity(), cont: d.alg.identity()})
	d.grew(cap(d.frames), old, unsafe.Sizeof(d.frames[0]))
}

func (d *driver[C, B, A]) top() *frame[C, B] { return &d.frames[len(d.frames)-1] }

// pop removes the top frame, with a limit it set for a block never opened.
func (d *driver[C, B, A]) pop() {
	if d.top().limit > 0 {
		d.limited--
	}
	d.frames = d.frames[:len(d.frames)-1]
}

func (d *driver[C, B, A]) openBlock(f *frame[C, B]) {
	var b B
	if n := len(d.blocks); n > 0 {
		b, d.blocks = d.blocks[n-1], d.blocks[:n-1]
		d.alg.resetBlock(b, f.limit)
	} else {
		b = d.alg.newBlock(f.limit)
	}
	f.blk, f.open = b, true
	f.chain, f.best = span{}, span{}
}

// setLimit gives the next block of the top frame a limit (0: none). A
// limit above MaxLimit is not modelled (its state would be O(p·limit)): the
// block is analysed without it, which is exact unless the block spawns more
// than limit children, and then says so.
func (d *driver[C, B, A]) setLimit(limit int) {
	f := d.top()
	f.big = 0
	if limit > MaxLimit {
		f.big, limit = limit, 0
	}
	if (f.limit > 0) != (limit > 0) {
		if limit > 0 {
			d.limited++
		} else {
			d.limited--
		}
	}
	f.limit = limit
}

// leafOf returns strand e's summary and span.
func (d *driver[C, B, A]) leafOf(m, s, dur int64) (C, span) {
	return d.alg.leaf(m, s, d.limited > 0), span{1, dur}
}

func (d *driver[C, B, A]) depth() int       { return len(d.frames) }
func (d *driver[C, B, A]) topSpawned() bool { return d.top().spawned }
func (d *driver[C, B, A]) topOpen() bool    { return d.top().open }

// spawn ends the current strand and opens a child task.
func (d *driver[C, B, A]) spawn(m, s, dur int64) {
	e, es := d.leafOf(m, s, dur)
	f := d.top()
	f.kids++
	if !f.open {
		d.openBlock(f)
		d.alg.addCont(f.blk, e) // c0
		f.chain = es
	} else {
		d.alg.addCont(f.blk, d.alg.series(f.cont, e))
		f.chain = f.chain.plus(f.contSpan).plus(es)
		f.cont, f.contSpan = d.alg.identity(), span{}
	}
	d.push(true)
}

// closeBlock ends the open block of f with strand e as the last piece of its
// last continuation.
func (d *driver[C, B, A]) closeBlock(f *frame[C, B], e C, es span) {
	d.alg.addCont(f.blk, d.alg.series(f.cont, e))
	x := d.alg.finish(f.blk)
	xs := f.best.max(f.chain.plus(f.contSpan).plus(es))
	old := cap(d.blocks)
	d.blocks = append(d.blocks, f.blk)
	d.grew(cap(d.blocks), old, unsafe.Sizeof(f.blk))
	var zero B
	f.blk, f.open = zero, false
	if f.limit > 0 { // a limit governs one block
		f.limit = 0
		d.limited--
	}
	if f.big > 0 && f.kids > f.big && len(d.inexact) < 10 {
		d.inexact = append(d.inexact, fmt.Sprintf("a block spawned %d children under errgroup limit %d, above the %d that spgo models exactly: its figures ignore the limit", f.kids, f.big, MaxLimit))
	}
	f.big, f.kids = 0, 0
	f.cont, f.contSpan = d.alg.identity(), span{}
	f.acc = d.alg.series(f.acc, x)
	f.accSpan = f.accSpan.plus(xs)
}

// endScope ends the current strand (m, s) and closes the top frame: it
// returns the frame's whole summary.
func (d *driver[C, B, A]) endScope(m, s, dur int64) (C, span) {
	e, es := d.leafOf(m, s, dur)
	f := d.top()
	if f.open {
		d.closeBlock(f, e, es)
		return f.acc, f.accSpan
	}
	return d.alg.series(f.acc, e), f.accSpan.plus(es)
}

// ret ends a spawned task with its last strand and folds it into the parent.
func (d *driver[C, B, A]) ret(m, s, dur int64) {
	child, cs := d.endScope(m, s, dur)
	d.pop()
	g := d.top()
	d.alg.addSpawn(g.blk, child)
	g.best = g.best.max(g.chain.plus(cs))
}

// sync ends the current strand and closes the open block of the top frame.
func (d *driver[C, B, A]) sync(m, s, dur int64) {
	e, es := d.leafOf(m, s, dur)
	d.closeBlock(d.top(), e, es)
}

// call opens the scope of a called function; the current strand goes on.
func (d *driver[C, B, A]) call() { d.push(false) }

// callReturn closes a called function's scope. When the callee has an open
// block, its implicit sync ends the current strand (m, s); otherwise the
// strand goes on in the caller and m, s are ignored.
func (d *driver[C, B, A]) callReturn(m, s, dur int64) {
	f := d.top()
	if f.open {
		e, es := d.leafOf(m, s, dur)
		d.closeBlock(f, e, es)
	}
	x, xs := f.acc, f.accSpan
	d.pop()
	g := d.top()
	if g.open {
		g.cont = d.alg.series(g.cont, x)
		g.contSpan = g.contSpan.plus(xs)
	} else {
		g.acc = d.alg.series(g.acc, x)
		g.accSpan = g.accSpan.plus(xs)
	}
}

// exit ends the last strand and closes the root: the whole program.
func (d *driver[C, B, A]) exit(m, s, dur int64) (C, span) {
	return d.endScope(m, s, dur)
}
