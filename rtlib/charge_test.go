package rtlib

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Tests of where(): the place a death found by a census is charged.
//
// The oracle models the series-parallel DAG explicitly: every task is a
// chain of strands, a new one after each spawn and after each join; a
// spawn adds the edges parent strand → child's first strand and parent
// strand → parent's next strand, a join the edges child's last strand →
// parent's strand after the join. Precedence is reachability, kept as a
// bit set of predecessors per strand (strands are made in topological
// order). The rule checked is docs/accounting.md's ("Sound"): a free is charged now only if
// the allocating strand precedes (or is) the running one, and else at
// the earliest strand that follows both, which in an SP DAG is the join
// of a scope of the lowest common ancestor task. TestWhereBarrierRandom
// checks the same for what free() combines (where() and barrier()), and
// TestWhereEscapedTask a task that outlived its spawner (outside the
// model: ret() marks it joined while it runs).

// spModel is a root's dnode tree driven by hand, with its strand DAG.
type spModel struct {
	r      *proot
	root   *dnode
	tasks  []*dnode
	name   map[*dnode]string
	nkids  map[*dnode]int
	cur    map[*dnode]int // the task's last strand so far
	fin    map[*dnode]bool
	owner  map[*scope]*dnode
	task   []*dnode   // by strand
	anc    [][]uint64 // by strand: the strands that precede or are it
	allocs []spAlloc
	log    []string
}

// spAlloc is an allocation: what where() is told (dn, ep) and the
// strand it really happened in.
type spAlloc struct {
	dn     *dnode
	ep     int64
	strand int
	id     int
}

func newSPModel(rootName string) *spModel {
	r := &proot{seen: map[string]bool{}, groups: newTable[any, membership](ifaceHash), limits: newTable[any, int](ifaceHash)}
	m := &spModel{
		r:     r,
		name:  map[*dnode]string{},
		nkids: map[*dnode]int{},
		cur:   map[*dnode]int{},
		fin:   map[*dnode]bool{},
		owner: map[*scope]*dnode{},
	}
	d := newDnode(r, nil, 0)
	m.root = d
	m.tasks = append(m.tasks, d)
	m.name[d] = rootName
	m.owner[d.scopes[0]] = d
	m.cur[d] = m.newStrand(d)
	return m
}

func (m *spModel) logf(format string, args ...any) {
	m.log = append(m.log, fmt.Sprintf(format, args...))
}

func (m *spModel) newStrand(d *dnode, preds ...int) int {
	id := len(m.anc)
	set := make([]uint64, id/64+1)
	for _, p := range preds {
		for i, w := range m.anc[p] {
			set[i] |= w
		}
	}
	set[id/64] |= 1 << (id % 64)
	m.anc = append(m.anc, set)
	m.task = append(m.task, d)
	return id
}

// precedes: strand a precedes strand b or is b.
func (m *spModel) precedes(a, b int) bool {
	s := m.anc[b]
	return a/64 < len(s) && s[a/64]&(1<<(a%64)) != 0
}

func (m *spModel) mustRun(d *dnode) {
	if m.fin[d] {
		panic("model: " + m.name[d] + " has finished")
	}
}

// spawn: p forks a child in its top scope.
func (m *spModel) spawn(p *dnode) *dnode {
	m.mustRun(p)
	k := newDnode(m.r, p, 0)
	m.nkids[p]++
	m.name[k] = fmt.Sprintf("%s.%d", m.name[p], m.nkids[p])
	m.tasks = append(m.tasks, k)
	m.owner[k.scopes[0]] = k
	at := m.cur[p]
	m.cur[p] = m.newStrand(p, at)
	m.cur[k] = m.newStrand(k, at)
	m.logf("%s spawns %s (scope %d, forkEp %d)", m.name[p], m.name[k], len(p.scopes)-1, k.forkEp)
	return k
}

// alloc: d allocates in its current strand.
func (m *spModel) alloc(d *dnode) spAlloc {
	m.mustRun(d)
	a := spAlloc{dn: d, ep: d.epoch, strand: m.cur[d], id: len(m.allocs)}
	m.allocs = append(m.allocs, a)
	m.logf("%s allocates #%d (epoch %d)", m.name[d], a.id, a.ep)
	return a
}

// enter: d calls a function that spawns (a new scope).
func (m *spModel) enter(d *dnode) {
	m.mustRun(d)
	s := &scope{level: int32(len(d.scopes))} // as (*dnode).enter
	d.scopes = append(d.scopes, s)
	m.owner[s] = d
	m.logf("%s enters scope %d", m.name[d], len(d.scopes)-1)
}

// canJoin: d's top scope has kids and all have finished.
func (m *spModel) canJoin(d *dnode) bool {
	s := d.top()
	if m.fin[d] || len(s.kids) == 0 {
		return false
	}
	for _, k := range s.kids {
		if !m.fin[k] {
			return false
		}
	}
	return true
}

// join: a Wait in d joins every kid of its top scope (all finished).
func (m *spModel) join(d *dnode) {
	if !m.canJoin(d) {
		panic("model: " + m.name[d] + " cannot join")
	}
	s := d.top()
	preds := []int{m.cur[d]}
	var names []string
	for _, k := range s.kids {
		preds = append(preds, m.cur[k])
		names = append(names, m.name[k])
	}
	m.cur[d] = m.newStrand(d, preds...)
	d.joinKids(s)
	m.logf("%s joins scope %d {%s} (joinEp %d)", m.name[d], len(d.scopes)-1, strings.Join(names, " "), d.epoch)
}

// leave: d returns from the function of its top scope (nothing outstanding).
func (m *spModel) leave(d *dnode) {
	m.mustRun(d)
	if len(d.scopes) < 2 || len(d.top().kids) > 0 {
		panic("model: " + m.name[d] + " cannot leave")
	}
	d.scopes = d.scopes[:len(d.scopes)-1]
	m.logf("%s leaves to scope %d", m.name[d], len(d.scopes)-1)
}

// canFinish: nothing of d is outstanding.
func (m *spModel) canFinish(d *dnode) bool {
	if m.fin[d] || d.parent == nil {
		return false
	}
	for _, s := range d.scopes {
		if len(s.kids) > 0 {
			return false
		}
	}
	return true
}

// finish: d's function ends, every kid of it joined.
func (m *spModel) finish(d *dnode) {
	if !m.canFinish(d) {
		panic("model: " + m.name[d] + " cannot finish")
	}
	m.fin[d] = true
	d.finished = true
	d.scopes = d.scopes[:1]
	m.logf("%s finishes", m.name[d])
}

func (m *spModel) lca(a, b *dnode) *dnode {
	for a.depth > b.depth {
		a = a.parent
	}
	for b.depth > a.depth {
		b = b.parent
	}
	for a != b {
		a, b = a.parent, b.parent
	}
	return a
}

// covered: strand x precedes the strand after the join of L.scopes[i]
// (x precedes L's current strand, or x is in the subtree of a kid
// outstanding in that scope or one above it, which join first).
func (m *spModel) covered(L *dnode, i, x int) bool {
	if m.precedes(x, m.cur[L]) {
		return true
	}
	for t := m.task[x]; t != nil; t = t.parent {
		if t.parent == L {
			for _, s := range L.scopes[i:] {
				for _, k := range s.kids {
					if k == t {
						return true
					}
				}
			}
			return false
		}
	}
	return false
}

// check compares where(c, a.dn, a.ep) with the oracle; "" if it agrees.
// The kinds of disagreement:
//   - "now-parallel": charged now in a strand parallel to the allocation
//     (unsound);
//   - "deferred-series": deferred (or dropped) though the allocation
//     precedes the running strand (imprecise);
//   - "scope": parallel, but deferred to a scope that is not the LCA's
//     open scope whose join is the earliest strand following both
//     (unsound if that join does not follow both, imprecise if a later
//     join, dropped if no open scope).
func (m *spModel) check(c *dnode, a spAlloc) (kind, msg string) {
	now, s, depth := where(c, a.dn, a.ep)
	if a.dn.root != c.root {
		if now || s != nil || depth != -1 {
			return "scope", fmt.Sprintf("another root's object: where = (%v, %p, %d), want (false, nil, -1)", now, s, depth)
		}
		return "", ""
	}
	series := m.precedes(a.strand, m.cur[c])
	switch {
	case now && !series:
		return "now-parallel", "charged now, but the allocation is parallel to the running strand"
	case now:
		return "", ""
	case series:
		return "deferred-series", fmt.Sprintf("deferred (scope of %s, depth %d), but the allocation precedes the running strand", m.name[m.owner[s]], depth)
	case s == nil:
		return "scope", "same root, parallel, but no scope: the free is dropped"
	}
	L := m.lca(a.dn, c)
	if m.owner[s] != L {
		return "scope", fmt.Sprintf("deferred to a scope of %s, want one of the LCA %s", m.name[m.owner[s]], m.name[L])
	}
	if depth != L.depth {
		return "scope", fmt.Sprintf("depth %d, want the LCA's %d", depth, L.depth)
	}
	i := -1
	for j, t := range L.scopes {
		if t == s {
			i = j
		}
	}
	if i < 0 {
		return "scope", fmt.Sprintf("deferred to a scope of %s that is closed: the free is dropped", m.name[L])
	}
	if !m.covered(L, i, a.strand) || !m.covered(L, i, m.cur[c]) {
		return "scope", fmt.Sprintf("unsound: deferred to the join of %s's scope %d, which does not follow both the allocation (covered %v) and the running strand (covered %v)",
			m.name[L], i, m.covered(L, i, a.strand), m.covered(L, i, m.cur[c]))
	}
	if i+1 < len(L.scopes) && m.covered(L, i+1, a.strand) && m.covered(L, i+1, m.cur[c]) {
		return "scope", fmt.Sprintf("imprecise: deferred to the join of %s's scope %d, but scope %d's (earlier) follows both", m.name[L], i, i+1)
	}
	return "", ""
}

// TestWhereSeriesParallel checks where() on hand-built DAGs, against
// the stated answer and the oracle.
func TestWhereSeriesParallel(t *testing.T) {
	type want struct {
		now   bool
		owner string // the deferred scope's task ("" when now, or none)
		scope int    // its index in the owner's scope stack
	}
	cases := []struct {
		name  string
		build func(m *spModel) (c *dnode, a spAlloc)
		want  want
	}{
		{"same task", func(m *spModel) (*dnode, spAlloc) {
			a := m.alloc(m.root)
			return m.root, a
		}, want{now: true}},
		{"same task after a spawn", func(m *spModel) (*dnode, spAlloc) {
			a := m.alloc(m.root)
			m.spawn(m.root)
			return m.root, a
		}, want{now: true}},
		{"ancestor before the fork (series)", func(m *spModel) (*dnode, spAlloc) {
			a := m.alloc(m.root)
			A := m.spawn(m.root)
			return A, a
		}, want{now: true}},
		{"grandparent before the fork (series)", func(m *spModel) (*dnode, spAlloc) {
			a := m.alloc(m.root)
			A := m.spawn(m.root)
			A1 := m.spawn(A)
			return A1, a
		}, want{now: true}},
		{"ancestor after the fork (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			a := m.alloc(m.root)
			return A, a
		}, want{owner: "r", scope: 0}},
		{"ancestor between two forks on the path (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			a := m.alloc(m.root)
			m.spawn(m.root) // B
			A1 := m.spawn(A)
			return A1, a
		}, want{owner: "r", scope: 0}},
		{"ancestor after a later sibling's fork, before the grandchild's", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			a := m.alloc(A)
			A1 := m.spawn(A)
			return A1, a
		}, want{now: true}},
		{"sibling subtree (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			A1 := m.spawn(A)
			a := m.alloc(A1)
			B := m.spawn(m.root)
			return B, a
		}, want{owner: "r", scope: 0}},
		{"sibling subtree, found deep (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			a := m.alloc(A)
			B := m.spawn(m.root)
			B1 := m.spawn(B)
			B11 := m.spawn(B1)
			return B11, a
		}, want{owner: "r", scope: 0}},
		{"earlier sibling, joined, found in a later one (series)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			a := m.alloc(A)
			m.finish(A)
			m.join(m.root)
			B := m.spawn(m.root)
			return B, a
		}, want{now: true}},
		{"descendant not joined (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			a := m.alloc(A)
			return m.root, a
		}, want{owner: "r", scope: 0}},
		{"descendant finished, not joined (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			a := m.alloc(A)
			m.finish(A)
			return m.root, a
		}, want{owner: "r", scope: 0}},
		{"grandchild not joined (parallel, c's scope)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			A1 := m.spawn(A)
			a := m.alloc(A1)
			return m.root, a
		}, want{owner: "r", scope: 0}},
		{"descendant joined (series)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			a := m.alloc(A)
			m.finish(A)
			m.join(m.root)
			return m.root, a
		}, want{now: true}},
		{"joined grandchild chain (series)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			A1 := m.spawn(A)
			A11 := m.spawn(A1)
			a := m.alloc(A11)
			m.finish(A11)
			m.join(A1)
			m.finish(A1)
			m.join(A)
			m.finish(A)
			m.join(m.root)
			return m.root, a
		}, want{now: true}},
		{"grandchild joined into an unjoined child (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			A1 := m.spawn(A)
			a := m.alloc(A1)
			m.finish(A1)
			m.join(A)
			return m.root, a
		}, want{owner: "r", scope: 0}},
		{"grandchild joined into the running child (series)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			A1 := m.spawn(A)
			a := m.alloc(A1)
			m.finish(A1)
			m.join(A)
			return A, a
		}, want{now: true}},
		{"joined grandchild, found in its later cousin (series)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			A1 := m.spawn(A)
			a := m.alloc(A1)
			m.finish(A1)
			m.join(A)
			A2 := m.spawn(A)
			return A2, a
		}, want{now: true}},
		{"joined grandchild, found in an uncle (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			A1 := m.spawn(A)
			a := m.alloc(A1)
			m.finish(A1)
			m.join(A)
			B := m.spawn(m.root)
			return B, a
		}, want{owner: "r", scope: 0}},
		{"joined child, found in an earlier sibling still running (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root) // scope 0, still running
			m.enter(m.root)
			K := m.spawn(m.root) // scope 1
			a := m.alloc(K)
			m.finish(K)
			m.join(m.root) // joins scope 1 only
			m.leave(m.root)
			return A, a
		}, want{owner: "r", scope: 0}},
		{"joined child of an inner scope, found in a later sibling (series)", func(m *spModel) (*dnode, spAlloc) {
			m.spawn(m.root) // A, scope 0, still running
			m.enter(m.root)
			K := m.spawn(m.root)
			a := m.alloc(K)
			m.finish(K)
			m.join(m.root)
			m.leave(m.root)
			B := m.spawn(m.root)
			return B, a
		}, want{now: true}},
		{"allocation in the outer scope's branch, found in the inner one's (parallel)", func(m *spModel) (*dnode, spAlloc) {
			B := m.spawn(m.root) // scope 0
			a := m.alloc(B)
			m.enter(m.root)
			A := m.spawn(m.root) // scope 1
			return A, a
		}, want{owner: "r", scope: 0}},
		{"allocation in the inner scope's branch, found in the outer one's (parallel)", func(m *spModel) (*dnode, spAlloc) {
			// The scope 1 join does not wait for A: a free charged there is
			// parallel to the strand of A that may still hold the object.
			A := m.spawn(m.root) // scope 0
			m.enter(m.root)
			B := m.spawn(m.root) // scope 1
			a := m.alloc(B)
			return A, a
		}, want{owner: "r", scope: 0}},
		{"ancestor allocation in an inner scope, found in an outer branch (parallel)", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root) // scope 0
			m.enter(m.root)
			m.spawn(m.root) // scope 1
			a := m.alloc(m.root)
			return A, a
		}, want{owner: "r", scope: 0}},
		{"descendant in an inner scope, found in the ancestor (parallel)", func(m *spModel) (*dnode, spAlloc) {
			m.spawn(m.root) // scope 0
			m.enter(m.root)
			B := m.spawn(m.root) // scope 1
			a := m.alloc(B)
			return m.root, a
		}, want{owner: "r", scope: 1}},
		{"LCA below the root", func(m *spModel) (*dnode, spAlloc) {
			A := m.spawn(m.root)
			A1 := m.spawn(A)
			a := m.alloc(A1)
			A2 := m.spawn(A)
			A21 := m.spawn(A2)
			return A21, a
		}, want{owner: "r.1", scope: 0}},
		{"another root's object", func(m *spModel) (*dnode, spAlloc) {
			o := newSPModel("o")
			a := o.alloc(o.root)
			A := m.spawn(m.root)
			return A, a
		}, want{}},
		{"another root's joined object", func(m *spModel) (*dnode, spAlloc) {
			o := newSPModel("o")
			K := o.spawn(o.root)
			a := o.alloc(K)
			o.finish(K)
			o.join(o.root)
			return m.root, a
		}, want{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newSPModel("r")
			c, a := tc.build(m)
			now, s, _ := where(c, a.dn, a.ep)
			owner, idx := "", -1
			if s != nil {
				if o := m.owner[s]; o != nil {
					owner = m.name[o]
					for i, x := range o.scopes {
						if x == s {
							idx = i
						}
					}
				} else {
					owner = "?"
				}
			}
			got := want{now: now, owner: owner, scope: max(idx, 0)}
			if got != tc.want {
				t.Errorf("where(%s, #%d) = now %v, scope of %q #%d; want now %v, scope of %q #%d\n%s",
					m.name[c], a.id, now, owner, idx, tc.want.now, tc.want.owner, tc.want.scope, strings.Join(m.log, "\n"))
			}
			if kind, msg := m.check(c, a); kind != "" {
				t.Errorf("oracle: %s: %s\n%s", kind, msg, strings.Join(m.log, "\n"))
			}
		})
	}
}

// randomDAGs builds trees random DAGs of up to 12 tasks (spawns,
// allocations, nested scopes, joins of every kid of a scope, task ends)
// and calls census after each step.
func randomDAGs(seed uint64, trees int, census func(tree int, m *spModel)) {
	const (
		maxTasks = 12
		maxOps   = 48
	)
	rng := rand.New(rand.NewPCG(seed, 42))
	for tree := 0; tree < trees; tree++ {
		m := newSPModel("r")
		for op := 0; op < maxOps; op++ {
			var run []*dnode
			for _, d := range m.tasks {
				if !m.fin[d] {
					run = append(run, d)
				}
			}
			d := run[rng.IntN(len(run))]
			switch k := rng.IntN(10); {
			case k < 3 && len(m.tasks) < maxTasks:
				m.spawn(d)
			case k < 6:
				m.alloc(d)
			case k < 7 && len(d.scopes) < 3:
				m.enter(d)
			case k < 9:
				switch {
				case m.canJoin(d):
					m.join(d)
				case len(d.scopes) > 1 && len(d.top().kids) == 0:
					m.leave(d)
				}
			default:
				if m.canFinish(d) {
					m.finish(d)
				}
			}
			census(tree, m)
		}
	}
}

// spFailures keeps, per kind, a count and the example with the shortest
// history.
type spFailures struct {
	count map[string]int
	first map[string]string
	size  map[string]int
}

func (f *spFailures) add(kind string, m *spModel, what string) {
	if f.count == nil {
		f.count, f.first, f.size = map[string]int{}, map[string]string{}, map[string]int{}
	}
	f.count[kind]++
	if n, ok := f.size[kind]; !ok || len(m.log) < n {
		f.size[kind] = len(m.log)
		f.first[kind] = what + "\n  " + strings.Join(m.log, "\n  ")
	}
}

func (f *spFailures) report(t *testing.T) {
	for _, kind := range []string{"now-parallel", "deferred-series", "scope"} {
		if f.count[kind] > 0 {
			t.Errorf("%d %s answers; the shortest:\n%s", f.count[kind], kind, f.first[kind])
		}
	}
}

// TestWhereRandom checks where() against the oracle on random DAGs:
// never now for a parallel pair (soundness), always now for a series
// pair (precision), and a deferred free at the earliest join that
// follows both.
func TestWhereRandom(t *testing.T) {
	var fails spFailures
	checks, series := 0, 0
	randomDAGs(0x5eed, 400, func(tree int, m *spModel) {
		// A census in every running task, of everything allocated so far.
		for _, c := range m.tasks {
			if m.fin[c] {
				continue
			}
			for _, a := range m.allocs {
				checks++
				if m.precedes(a.strand, m.cur[c]) {
					series++
				}
				if kind, msg := m.check(c, a); kind != "" {
					fails.add(kind, m, fmt.Sprintf("tree %d: census in %s of #%d: %s", tree, m.name[c], a.id, msg))
				}
			}
		}
	})
	t.Logf("%d checks: %d series pairs, %d parallel", checks, series, checks-series)
	if series == 0 || series == checks {
		t.Errorf("vacuous: %d series pairs of %d", series, checks)
	}
	fails.report(t)
}

// TestWhereLiftMemo: during a census, lift keeps its answers on the tasks
// it passes; where answers as without them, whatever order a census asks
// in (the allocations forwards, then backwards, each in a census of its
// own).
func TestWhereLiftMemo(t *testing.T) {
	type answer struct {
		now   bool
		s     *scope
		depth int32
	}
	lifted := 0
	randomDAGs(0x11f7, 400, func(tree int, m *spModel) {
		for _, c := range m.tasks {
			if m.fin[c] {
				continue
			}
			var want []answer
			for _, a := range m.allocs {
				now, s, depth := where(c, a.dn, a.ep)
				want = append(want, answer{now, s, depth})
				if a.dn.joined {
					lifted++
				}
			}
			for _, backwards := range []bool{false, true} {
				mem.inCensus = true
				mem.liftGen++
				for k := range m.allocs {
					i := k
					if backwards {
						i = len(m.allocs) - 1 - k
					}
					a := m.allocs[i]
					now, s, depth := where(c, a.dn, a.ep)
					if got := (answer{now, s, depth}); got != want[i] {
						t.Errorf("tree %d: census in %s of #%d (backwards %v): %+v with lift's memo, %+v without", tree, m.name[c], a.id, backwards, got, want[i])
					}
				}
				mem.inCensus = false
			}
		}
	})
	if lifted == 0 {
		t.Error("vacuous: no allocation by a joined task")
	}
}

// spPoint is a charge point: now, or the join of a task's scope.
type spPoint struct {
	task *dnode // nil: now
	i    int    // the scope's index in task.scopes
}

// chain is the charge points that follow c's running strand, earliest
// first: now, the joins of c's scopes from the top one down, then those
// of its parent from the scope c was forked in down, and so on up.
func (m *spModel) chain(c *dnode) []spPoint {
	pts := []spPoint{{}}
	from := len(c.scopes) - 1
	for t := c; t != nil; t = t.parent {
		for i := from; i >= 0; i-- {
			pts = append(pts, spPoint{t, i})
		}
		if t.parent != nil {
			from = slices.Index(t.parent.scopes, t.pscope)
		}
	}
	return pts
}

// follows: charge point p on c's chain follows strand x.
func (m *spModel) follows(c *dnode, p spPoint, x int) bool {
	if p.task == nil {
		return m.precedes(x, m.cur[c])
	}
	return m.covered(p.task, p.i, x)
}

// after is the charge points on c's chain that follow every strand of xs.
func (m *spModel) after(c *dnode, xs []int) []spPoint {
	var pts []spPoint
	for _, p := range m.chain(c) {
		ok := true
		for _, x := range xs {
			ok = ok && m.follows(c, p, x)
		}
		if ok {
			pts = append(pts, p)
		}
	}
	return pts
}

func (m *spModel) pointName(p spPoint) string {
	if p.task == nil {
		return "now"
	}
	return fmt.Sprintf("join of %s's scope %d", m.name[p.task], p.i)
}

// TestWhereBarrierRandom checks what free() charges a census's death to,
// later(where(c, dn, ep), barrier(c)), on the random DAGs: the earliest
// point that follows the allocation, the running strand and every strand
// that ran since the last census (ACCOUNTING.md). The tasks that ran are
// a random set of the running ones, at their current strands.
func TestWhereBarrierRandom(t *testing.T) {
	saved := mem.ran
	defer func() { mem.ran = saved }()
	rng := rand.New(rand.NewPCG(7, 7))
	var fails spFailures
	checks := 0
	randomDAGs(0xba77, 300, func(tree int, m *spModel) {
		for _, c := range m.tasks {
			if m.fin[c] {
				continue
			}
			mem.ran = mem.ran[:0:0]
			var ran []string
			follow := []int{m.cur[c]}
			for _, r := range m.tasks {
				if !m.fin[r] && (r == c || rng.IntN(3) == 0) {
					r.ranIn, r.ranEp = mem.interval, r.epoch
					mem.ran = append(mem.ran, r)
					follow = append(follow, m.cur[r])
					ran = append(ran, m.name[r])
				}
			}
			b := barrier(c)
			pts := m.after(c, follow)
			for _, a := range m.allocs {
				checks++
				now, s, depth := where(c, a.dn, a.ep)
				now, s, _ = later(charge{now, s, depth, -1}, b)
				got := spPoint{}
				if !now {
					if s == nil || m.owner[s] == nil {
						fails.add("scope", m, fmt.Sprintf("tree %d: no charge point", tree))
						continue
					}
					got = spPoint{m.owner[s], slices.Index(m.owner[s].scopes, s)}
				}
				want := pts[len(pts)-1] // the root's outermost join follows everything
				for _, p := range pts {
					if m.follows(c, p, a.strand) {
						want = p
						break
					}
				}
				if got == want {
					continue
				}
				kind := "scope"
				switch {
				case now:
					kind = "now-parallel"
				case want.task == nil:
					kind = "deferred-series"
				}
				fails.add(kind, m, fmt.Sprintf("tree %d: census in %s of #%d, ran {%s}: charged at %s, want %s",
					tree, m.name[c], a.id, strings.Join(ran, " "), m.pointName(got), m.pointName(want)))
			}
		}
	})
	t.Logf("%d checks", checks)
	fails.report(t)
}

// TestWhereEscapedTask: a task whose spawner ended without joining it
// is marked joined by ret() while it still runs (the engine sees its
// events before the spawner's Sync, in its own strand). Its own objects
// that die while it runs must be charged in it.
func TestWhereEscapedTask(t *testing.T) {
	m := newSPModel("r")
	D := m.spawn(m.root)
	K := m.spawn(D)
	a := m.alloc(K)
	D.ret() // D ends, K outlives it (buffered events: no engine needed)
	if !K.joined || !D.escapes {
		t.Fatalf("setup: K.joined %v, D.escapes %v", K.joined, D.escapes)
	}
	now, s, depth := where(K, K, a.ep)
	if !now {
		owner := "?"
		if o := m.owner[s]; o != nil {
			owner = m.name[o]
		}
		t.Errorf("where(K, K, %d) = (false, scope of %s, %d) (finished: %v): K's own object, found in K, is never charged; want now", a.ep, owner, depth, m.owner[s] != nil && m.owner[s].finished)
	}
	// K spawns after its spawner ended; K's earlier objects precede K1.
	K1 := newDnode(m.r, K, 0)
	if now, s, depth := where(K1, K, a.ep); !now {
		t.Errorf("where(K1, K, %d) = (false, %p, %d); K's allocation precedes K1's fork: want now", a.ep, s, depth)
	}
}
