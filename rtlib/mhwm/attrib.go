package mhwm

import (
	"fmt"
	"slices"
)

// tnode is a node of the binary SP tree rebuilt from a trace, with its exact
// summary.
type tnode struct {
	kind   byte // 'e' leaf, ';' series, '|' parallel, 'L' limited block
	strand int
	x, y   *tnode
	c      comp
	parts  []*tnode // 'L': c0, A1, c1, …, Ak, ck
	limit  int      // 'L': the errgroup limit
}

// treeAlg is the summary domain that rebuilds the tree during a replay; leaf
// takes the next strand record of the trace.
type treeAlg struct {
	p    int
	t    *trace
	next int
}

type treeBlock struct {
	parts []*tnode // c0, A1, c1, …, Ak, ck
	limit int
}

var trivialNode = &tnode{kind: ';', c: identity()}

func (a *treeAlg) leaf(m, s int64, keep bool) *tnode {
	i := a.next
	a.next++
	c := leaf(m, s)
	if keep || i < len(a.t.strands) && a.t.strands[i].active() {
		c.Trivial = false // under a limit, or it moves bytes between sites
	}
	return &tnode{kind: 'e', strand: i, c: c}
}
func (a *treeAlg) identity() *tnode { return trivialNode }
func (a *treeAlg) series(x, y *tnode) *tnode {
	if y.c.Trivial {
		return x
	}
	if x.c.Trivial {
		return y
	}
	return &tnode{kind: ';', x: x, y: y, c: series(x.c, y.c)}
}
func (a *treeAlg) parallel(x, y *tnode) *tnode {
	if y.c.Trivial {
		return x
	}
	if x.c.Trivial {
		return y
	}
	return &tnode{kind: '|', x: x, y: y, c: parallel(x.c, y.c, a.p)}
}
func (a *treeAlg) newBlock(limit int) *treeBlock { return &treeBlock{limit: limit} }
func (a *treeAlg) resetBlock(b *treeBlock, limit int) {
	b.parts, b.limit = b.parts[:0], limit
}
func (a *treeAlg) addCont(b *treeBlock, c *tnode)  { b.parts = append(b.parts, c) }
func (a *treeAlg) addSpawn(b *treeBlock, c *tnode) { b.parts = append(b.parts, c) }

// finish builds the canonical right-nested decomposition (docs/algorithms.md, "Model"):
// c0 ; (A1 ‖ (c1 ; (A2 ‖ … (Ak ‖ ck)))).
func (a *treeAlg) finish(b *treeBlock) *tnode {
	if b.limit > 0 { // kept whole: its backtrack reruns the limited fold
		blk := newLimitedBlock(a.p, b.limit)
		for i, x := range b.parts {
			if i%2 == 0 {
				blk.AddContinuation(x.c)
			} else {
				blk.AddSpawn(x.c)
			}
		}
		t := &tnode{kind: 'L', parts: slices.Clone(b.parts), limit: b.limit, c: blk.Finish()}
		t.c.Trivial = false
		b.parts = b.parts[:0]
		return t
	}
	n := len(b.parts)
	t := b.parts[n-1]
	for i := n - 2; i >= 1; i -= 2 {
		t = a.series(b.parts[i-1], a.parallel(b.parts[i], t))
	}
	b.parts = b.parts[:0]
	return t
}

// replay rebuilds the tree of a trace for processor bound p.
func replay(t *trace, p int) (*tnode, error) {
	alg := &treeAlg{p: p, t: t}
	d := &driver[*tnode, *treeBlock, *treeAlg]{}
	d.init(alg)
	nl := 0 // limits used
	for i, tk := range t.toks {
		bad := func() error { return fmt.Errorf("mhwm: corrupt trace at token %d", i) }
		if alg.next >= len(t.strands) && tk != tokCall && tk != tokCallGoOn && tk != tokLimit {
			return nil, bad()
		}
		switch tk {
		case tokSpawn:
			r := t.strands[alg.next]
			d.spawn(r.m, r.s, 0)
		case tokReturn:
			if !d.topSpawned() {
				return nil, bad()
			}
			r := t.strands[alg.next]
			d.ret(r.m, r.s, 0)
		case tokSync:
			if !d.topOpen() {
				return nil, bad()
			}
			r := t.strands[alg.next]
			d.sync(r.m, r.s, 0)
		case tokCall:
			d.call()
		case tokLimit:
			if nl >= len(t.limits) || d.topOpen() {
				return nil, bad()
			}
			d.setLimit(t.limits[nl])
			nl++
		case tokCallReturn, tokCallGoOn:
			if d.depth() == 1 || d.topSpawned() || d.topOpen() != (tk == tokCallReturn) {
				return nil, bad()
			}
			if tk == tokCallReturn {
				r := t.strands[alg.next]
				d.callReturn(r.m, r.s, 0)
			} else {
				d.callReturn(0, 0, 0)
			}
		}
	}
	if d.depth() != 1 || alg.next != len(t.strands)-1 {
		return nil, fmt.Errorf("mhwm: corrupt trace: %d scopes open, %d of %d strands used", d.depth()-1, alg.next, len(t.strands))
	}
	r := t.strands[alg.next]
	g, _ := d.exit(r.m, r.s, 0)
	return g, nil
}

// SiteShare is one site's part of a water mark, split by the state its
// strands are in at the worst moment.
type SiteShare struct {
	Site Site
	// Running: bytes of strands of the antichain, at their peaks.
	Running int64
	// Completed: net bytes of finished predecessors of the antichain.
	Completed int64
	// Suspended: net bytes of finished components waiting at a join
	// (companions).
	Suspended int64
}

// Total returns Running + Completed + Suspended.
func (s SiteShare) Total() int64 { return s.Running + s.Completed + s.Suspended }

// Attribution explains MHWM_Q: a worst-case antichain and the per-site map
// of its water mark, which sums exactly to MHWM.
type Attribution struct {
	Q    int
	MHWM int64
	// Antichain holds the serial numbers (1-based, in the order strands
	// ended) of the strands running at the worst moment; its size is the
	// fewest processors that reach MHWM_Q.
	Antichain []int64
	// Sites is the per-site map, in site order, without all-zero entries.
	Sites []SiteShare
}

type share int

const (
	running share = iota
	completed
	suspended
)

type picker struct {
	p     int
	stack []*tnode // addAll's
	t     *trace
	sites map[Site]*SiteShare
	anti  []int64
	sums  map[*tnode][]SiteBytes // Result.sums
	acc   map[Site]int64         // sum's
}

func (pk *picker) add(v []SiteBytes, how share) {
	for _, sb := range v {
		s := pk.sites[sb.Site]
		if s == nil {
			s = &SiteShare{Site: sb.Site}
			pk.sites[sb.Site] = s
		}
		switch how {
		case running:
			s.Running += sb.Bytes
		case completed:
			s.Completed += sb.Bytes
		case suspended:
			s.Suspended += sb.Bytes
		}
	}
}

// addAll charges the net bytes of every strand of x.
func (pk *picker) addAll(x *tnode, how share) { pk.add(pk.sum(x), how) }

// sum returns the net bytes of every strand of x by site, without zero
// sums, in site order. The backtracks of different q charge many of the
// same completed parts (those left of the paths they share), so each
// part's sum is kept in pk.sums and reused, here and inside the walks of
// parts that contain it: the first q walks its completed strands once,
// later ones mostly reuse (issue #23: 32 independent walks over a
// million strands were a third of fib's instrumented run). It walks the
// tree with an explicit stack: a scope's chain of blocks is as deep as
// the scope is long.
func (pk *picker) sum(x *tnode) []SiteBytes {
	if v, ok := pk.sums[x]; ok {
		return v
	}
	clear(pk.acc)
	stack := append(pk.stack[:0], x)
	for len(stack) > 0 {
		y := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v, ok := pk.sums[y]; ok && y != nil {
			for _, sb := range v {
				pk.acc[sb.Site] += sb.Bytes
			}
			continue
		}
		switch {
		case y == nil:
		case y.kind == 'e':
			r := pk.t.strands[y.strand]
			for _, sb := range pk.t.sites[r.tot0:r.tot1] {
				pk.acc[sb.Site] += sb.Bytes
			}
		case y.kind == 'L':
			stack = append(stack, y.parts...)
		default:
			stack = append(stack, y.x, y.y)
		}
	}
	pk.stack = stack
	v := make([]SiteBytes, 0, len(pk.acc))
	for site, n := range pk.acc {
		if n != 0 {
			v = append(v, SiteBytes{site, n})
		}
	}
	slices.SortFunc(v, func(a, b SiteBytes) int { return int(a.Site) - int(b.Site) })
	pk.sums[x] = v
	return v
}

// pickTask is a pending backtrack: the antichain of exactly k strands of x.
type pickTask struct {
	x         *tnode
	k         int
	asPartner bool
}

// pick backtracks the antichain of exactly k strands that attains x.c.R[k]
// (docs/algorithms.md, "Attribution to lines"), with deterministic ties: left first in series, smallest j in
// parallel. Pending parallel partners wait on an explicit stack.
func (pk *picker) pick(x *tnode, k int, asPartner bool) {
	todo := []pickTask{{x, k, asPartner}}
	for len(todo) > 0 {
		t := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		x, k, asPartner := t.x, t.k, t.asPartner
	walk:
		for {
			if k == 0 { // R[0] = max(0, S): finished as a whole, or not started
				if x.c.S > 0 {
					how := completed
					if asPartner {
						how = suspended
					}
					pk.addAll(x, how)
				}
				break
			}
			switch x.kind {
			case 'L':
				pk.pickLimited(x, k)
				break walk
			case 'e':
				r := pk.t.strands[x.strand]
				pk.anti = append(pk.anti, r.serial)
				pk.add(pk.t.sites[r.tot1:r.pk1], running)
				break walk
			case ';':
				if k < len(x.x.c.R) && x.x.c.R[k] == x.c.R[k] {
					x = x.x
					continue
				}
				pk.addAll(x.x, completed)
				x = x.y
			case '|':
				ax, ay := len(x.x.c.R)-1, len(x.y.c.R)-1
				j := max(0, k-ay)
				for j <= min(k, ax) && x.x.c.R[j]+x.y.c.R[k-j] != x.c.R[k] {
					j++
				}
				if j > min(k, ax) { // cannot happen: R[k] is one of these sums
					break walk
				}
				todo = append(todo, pickTask{x.x, j, true})
				x, k, asPartner = x.y, k-j, true
			}
		}
	}
}

// Attribute returns the attribution of MHWM_q for 0 ≤ q ≤ PMax. It needs
// a run with Config.Attribution.
func (r *Result) Attribute(q int) (*Attribution, error) {
	if r.trace == nil {
		return nil, r.noTrace()
	}
	if q < 0 || q > r.PMax {
		return nil, fmt.Errorf("mhwm: q = %d outside 0..%d", q, r.PMax)
	}
	r.replayOnce.Do(func() { r.tree, r.treeErr = replay(r.trace, r.PMax) })
	root, err := r.tree, r.treeErr
	if err != nil {
		return nil, err
	}
	best := root.c.MHWM(q)
	k := 0
	for root.c.R[k] != best {
		k++
	}
	r.sumsMu.Lock()
	defer r.sumsMu.Unlock()
	if r.sums == nil {
		r.sums = map[*tnode][]SiteBytes{}
	}
	pk := &picker{p: r.PMax, t: r.trace, sites: map[Site]*SiteShare{}, sums: r.sums, acc: map[Site]int64{}}
	pk.pick(root, k, false)
	a := &Attribution{Q: q, MHWM: best, Antichain: pk.anti}
	for _, s := range pk.sites {
		if s.Running != 0 || s.Completed != 0 || s.Suspended != 0 {
			a.Sites = append(a.Sites, *s)
		}
	}
	slices.SortFunc(a.Sites, func(x, y SiteShare) int { return int(x.Site) - int(y.Site) })
	slices.Sort(a.Antichain)
	return a, nil
}

// SiteDelta is one site's change between two attributions.
type SiteDelta struct {
	Site  Site
	Delta int64
}

// Diff returns the per-site change from MHWM_q to MHWM_q2; the deltas sum
// exactly to MHWM_q2 − MHWM_q. Negative entries are kept: the worst-case
// antichain for q2 need not contain the one for q.
func (r *Result) Diff(q, q2 int) ([]SiteDelta, error) {
	a, err := r.Attribute(q)
	if err != nil {
		return nil, err
	}
	b, err := r.Attribute(q2)
	if err != nil {
		return nil, err
	}
	m := map[Site]int64{}
	for _, s := range a.Sites {
		m[s.Site] -= s.Total()
	}
	for _, s := range b.Sites {
		m[s.Site] += s.Total()
	}
	var out []SiteDelta
	for s, d := range m {
		if d != 0 {
			out = append(out, SiteDelta{s, d})
		}
	}
	slices.SortFunc(out, func(x, y SiteDelta) int { return int(x.Site) - int(y.Site) })
	return out, nil
}
