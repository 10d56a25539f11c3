package mhwm

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"
)

// Oracles B and C (docs/algorithms.md, "Test oracles"): independent brute-force cross-checks of the
// definition (Oracle A) over the canonical binary SP tree.

// rangeMask returns the bitmask of leaf ids lo..hi-1.
func rangeMask(lo, hi int) uint64 {
	return (uint64(1)<<hi - 1) &^ (uint64(1)<<lo - 1)
}

// oracleB returns MHWM_p by enumerating cut states (D, A): D a downset of
// leaves, A a set of ready leaves with 1 ≤ |A| ≤ p, such that every partially
// done internal node of the tree holds a leaf of A (busy leaves).
func oracleB(root *bnode, leaves []*bnode, p int) int64 {
	return oracleBCuts(root, leaves, p, true)
}

// oracleBCuts is Oracle B; with !busy it drops the busy-leaves constraint
// and gives the "unrestricted interleavings" value.
func oracleBCuts(root *bnode, leaves []*bnode, p int, busy bool) int64 {
	n := len(leaves)
	var internal []uint64
	var walk func(b *bnode)
	walk = func(b *bnode) {
		if b.kind == 'e' {
			return
		}
		internal = append(internal, rangeMask(b.lo, b.hi))
		walk(b.x)
		walk(b.y)
	}
	walk(root)
	all := rangeMask(0, n)
	best := max(0, root.sum)
	forEachCut(root, leaves, p, func(d, a uint64, mem int64) {
		if a == 0 && d != 0 && d != all {
			return
		}
		for _, x := range internal {
			if xd := x & d; busy && xd != 0 && xd != x && x&a == 0 {
				return
			}
		}
		best = max(best, mem)
	})
	return best
}

// forEachCut calls visit(d, a, mem) for every downset d of the leaves
// (bitmasks) and every set a of ready leaves (all predecessors in d, not in
// d) with |a| ≤ p, a = ∅ included; mem = Σ_{d} s + Σ_{a} m.
func forEachCut(root *bnode, leaves []*bnode, p int, visit func(d, a uint64, mem int64)) {
	n := len(leaves)
	if n > 63 {
		panic("forEachCut: too many leaves")
	}
	prec := precedes(root, n)
	pred := make([]uint64, n)
	for x := range n {
		for y := range n {
			if prec[x][y] {
				pred[y] |= 1 << x
			}
		}
	}
	seen := map[uint64]bool{0: true}
	stack := []uint64{0}
	var ready []int
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var sumD int64
		ready = ready[:0]
		for e := range n {
			switch {
			case d&(1<<e) != 0:
				sumD += leaves[e].s
			case pred[e]&^d == 0:
				ready = append(ready, e)
			}
		}
		var pick func(from int, a uint64, k int, mem int64)
		pick = func(from int, a uint64, k int, mem int64) {
			visit(d, a, sumD+mem)
			if k == p {
				return
			}
			for i := from; i < len(ready); i++ {
				e := ready[i]
				pick(i+1, a|1<<e, k+1, mem+leaves[e].m)
			}
		}
		pick(0, 0, 0, 0)
		for _, e := range ready {
			if nd := d | 1<<e; !seen[nd] {
				seen[nd] = true
				stack = append(stack, nd)
			}
		}
	}
}

// stateMemory returns the memory of a schedule state, Σ s of the finished
// strands plus Σ m of the running ones, and the set of running strands.
func stateMemory(leaves []*bnode, done uint64, workers []wsWorker) (mem int64, running uint64) {
	for e := range leaves {
		if done&(1<<e) != 0 {
			mem += leaves[e].s
		}
	}
	for _, wk := range workers {
		if wk.run >= 0 {
			mem += leaves[wk.run].m
			running |= 1 << wk.run
		}
	}
	return mem, running
}

// wsWorker is one worker of Oracle C: the leaf it runs (-1 when idle) and
// its deque of pending subtrees (node indices, top first, bottom last).
type wsWorker struct {
	run   int
	deque []int
}

// wsState is a state of Oracle C: the finished leaves and the workers.
type wsState struct {
	done    uint64
	workers []wsWorker
}

// wsMachine holds the indexed tree that Oracle C walks.
type wsMachine struct {
	nodes  []*bnode
	parent []int
	mask   []uint64
	index  map[*bnode]int
	leafAt []int // node index of leaf id
	// childFirst restricts forks to the spawned child (the left branch)
	// first, as in Cilk's work-first policy.
	childFirst bool
}

func newWSMachine(root *bnode, nLeaves int) *wsMachine {
	w := &wsMachine{index: map[*bnode]int{}, leafAt: make([]int, nLeaves)}
	var walk func(b *bnode, par int)
	walk = func(b *bnode, par int) {
		i := len(w.nodes)
		w.nodes = append(w.nodes, b)
		w.parent = append(w.parent, par)
		w.mask = append(w.mask, rangeMask(b.lo, b.hi))
		w.index[b] = i
		if b.kind == 'e' {
			w.leafAt[b.id] = i
			return
		}
		walk(b.x, i)
		walk(b.y, i)
	}
	walk(root, -1)
	return w
}

// start returns every (leaf, deque) a worker can reach by starting node t
// with deque dq: at each fork it takes either branch and pushes the other.
func (w *wsMachine) start(t int, dq []int, out []wsWorker) []wsWorker {
	b := w.nodes[t]
	switch b.kind {
	case 'e':
		return append(out, wsWorker{run: b.id, deque: dq})
	case ';':
		return w.start(w.index[b.x], dq, out)
	default:
		x, y := w.index[b.x], w.index[b.y]
		out = w.start(x, append(slices.Clip(dq), y), out)
		if w.childFirst {
			return out
		}
		return w.start(y, append(slices.Clip(dq), x), out)
	}
}

// finish returns the possible next worker states after the worker with
// deque dq finishes leaf e; done already includes e.
func (w *wsMachine) finish(done uint64, e int, dq []int, out []wsWorker) []wsWorker {
	b := w.leafAt[e]
	for {
		par := w.parent[b]
		if par < 0 { // the program is complete
			return append(out, wsWorker{run: -1, deque: dq})
		}
		pn := w.nodes[par]
		if pn.kind == ';' {
			if w.nodes[b] == pn.x {
				return w.start(w.index[pn.y], dq, out)
			}
			b = par
			continue
		}
		sib := w.index[pn.x]
		if w.nodes[b] == pn.x {
			sib = w.index[pn.y]
		}
		if w.mask[sib]&^done == 0 { // join satisfied
			b = par
			continue
		}
		if len(dq) == 0 { // stall with an empty deque
			return append(out, wsWorker{run: -1})
		}
		return w.start(dq[len(dq)-1], dq[:len(dq)-1], out)
	}
}

// key returns the canonical encoding of st; workers are interchangeable.
func (st *wsState) key() string {
	parts := make([]string, len(st.workers))
	for i, wk := range st.workers {
		bs := make([]byte, 0, len(wk.deque)+2)
		bs = append(bs, byte(wk.run+1), byte(len(wk.deque)))
		for _, t := range wk.deque {
			bs = append(bs, byte(t))
		}
		parts[i] = string(bs)
	}
	slices.Sort(parts)
	var sb strings.Builder
	for i := range 8 {
		sb.WriteByte(byte(st.done >> (8 * i)))
	}
	for _, s := range parts {
		sb.WriteString(s)
	}
	return sb.String()
}

// oracleC returns MHWM_p as the worst memory over all work-stealing
// executions of p workers: either branch first at a fork, pop the bottom of
// the own deque at an unsatisfied join, idle workers steal any deque entry.
func oracleC(root *bnode, leaves []*bnode, p int) int64 {
	return oracleCSched(root, leaves, p, false)
}

// oracleCSched is Oracle C; with childFirst every fork runs the spawned
// child first (a restriction that can only lower the result).
func oracleCSched(root *bnode, leaves []*bnode, p int, childFirst bool) int64 {
	n := len(leaves)
	if n > 63 {
		panic("oracleC: too many leaves")
	}
	w := newWSMachine(root, n)
	w.childFirst = childFirst
	if len(w.nodes) > 255 {
		panic("oracleC: tree too large")
	}
	best := max(0, root.sum)
	seen := map[string]bool{}
	var stack []wsState
	push := func(st wsState) {
		k := st.key()
		if seen[k] {
			return
		}
		seen[k] = true
		mem, _ := stateMemory(leaves, st.done, st.workers)
		best = max(best, mem)
		stack = append(stack, st)
	}
	with := func(st wsState, i int, wk wsWorker, done uint64) wsState {
		ws := slices.Clone(st.workers)
		ws[i] = wk
		return wsState{done: done, workers: ws}
	}
	for _, wk := range w.start(0, nil, nil) {
		ws := make([]wsWorker, p)
		for i := range ws {
			ws[i].run = -1
		}
		ws[0] = wk
		push(wsState{workers: ws})
	}
	var opts []wsWorker
	for len(stack) > 0 {
		st := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		idleDone := false
		for i, wk := range st.workers {
			if wk.run >= 0 {
				done := st.done | 1<<wk.run
				opts = w.finish(done, wk.run, wk.deque, opts[:0])
				for _, o := range opts {
					push(with(st, i, o, done))
				}
				continue
			}
			if idleDone || len(wk.deque) != 0 {
				// Idle workers have empty deques and are interchangeable.
				continue
			}
			idleDone = true
			for j, v := range st.workers {
				for k, t := range v.deque {
					rest := slices.Concat(v.deque[:k], v.deque[k+1:])
					opts = w.start(t, nil, opts[:0])
					for _, o := range opts {
						nx := with(st, i, o, st.done)
						nx.workers[j] = wsWorker{run: v.run, deque: rest}
						push(nx)
					}
				}
			}
		}
	}
	return best
}

// memoryExplosion returns ME(n) = spawn{ME(n-1)} alloc(1) sync free(1).
func memoryExplosion(n int) []op {
	if n == 0 {
		return nil
	}
	return []op{
		{kind: opSpawn, body: memoryExplosion(n - 1)},
		{kind: opAlloc, n: 1, site: 1},
		{kind: opSync},
		{kind: opFree, n: 1, site: 1},
	}
}

func TestOraclesBCTable(t *testing.T) {
	// The "unrestricted" example. c1 runs through a call whose
	// inner block has its own sync.
	unrestricted := []op{
		{kind: opSpawn, body: []op{
			{kind: opAlloc, n: 5, site: 1},
			{kind: opFree, n: 5, site: 1},
		}},
		{kind: opCall, body: []op{
			{kind: opAlloc, n: 10, site: 2},
			{kind: opSpawn},
			{kind: opSync},
			{kind: opFree, n: 10, site: 2},
		}},
		{kind: opSync},
	}
	// free and child are the values without the busy-leaves constraint
	// (Oracle B) and under child-first forks only (Oracle C).
	tests := []struct {
		name        string
		prog        []op
		p           int
		want        int64
		free, child int64
	}{
		{"unrestricted p=1", unrestricted, 1, 10, 15, 10},
		{"ME(3) p=1", memoryExplosion(3), 1, 3, 3, 1},
		{"ME(4) p=1", memoryExplosion(4), 1, 4, 4, 1},
		{"ME(4) p=2", memoryExplosion(4), 2, 4, 4, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root, leaves := binary(buildTree(tc.prog))
			a := prefixMax(oracleA(root, leaves, tc.p), tc.p)[tc.p]
			b := oracleB(root, leaves, tc.p)
			c := oracleC(root, leaves, tc.p)
			if a != tc.want || b != tc.want || c != tc.want {
				t.Errorf("%s: A=%d B=%d C=%d, want %d", bodyString(tc.prog), a, b, c, tc.want)
			}
			if got := oracleBCuts(root, leaves, tc.p, false); got != tc.free {
				t.Errorf("%s: B without busy leaves = %d, want %d", bodyString(tc.prog), got, tc.free)
			}
			if got := oracleCSched(root, leaves, tc.p, true); got != tc.child {
				t.Errorf("%s: C child-first = %d, want %d", bodyString(tc.prog), got, tc.child)
			}
		})
	}
}

// TestOraclesBCAgreeWithA checks Oracles B and C against Oracle A on random
// programs. It also counts how often the relaxed variants differ, which
// shows that the busy-leaves constraint and the branch choice matter.
func TestOraclesBCAgreeWithA(t *testing.T) {
	nB, nC := programs(2000), programs(2000)
	if long() {
		nB, nC = 20000, 20000
	}
	start := time.Now()
	checkedB, checkedC, looser, stricter := 0, 0, 0, 0
	for i := 0; checkedB < nB || checkedC < nC; i++ {
		r := rand.New(rand.NewSource(int64(i)))
		cfg := genConfig{maxOps: 5, maxDepth: 3, maxSpawns: 4, downset: i%2 == 0,
			maxAlloc: 20, emptyBias: 15, sites: 3}
		prog := genProgram(r, cfg)
		root, leaves := binary(buildTree(prog))
		n := len(leaves)
		doB := checkedB < nB && n <= 16
		doC := checkedC < nC && n <= 12
		if doB {
			checkedB++
		}
		if doC {
			checkedC++
		}
		for p := 1; p <= 4; p++ {
			checkC := doC && p <= 3
			if !doB && !checkC {
				continue
			}
			want := prefixMax(oracleA(root, leaves, p), p)[p]
			if doB {
				if got := oracleB(root, leaves, p); got != want {
					t.Errorf("seed %d p=%d: oracleB=%d, oracleA=%d\n%s", i, p, got, want, bodyString(prog))
				}
				if oracleBCuts(root, leaves, p, false) > want {
					looser++
				}
			}
			if checkC {
				if got := oracleC(root, leaves, p); got != want {
					t.Errorf("seed %d p=%d: oracleC=%d, oracleA=%d\n%s", i, p, got, want, bodyString(prog))
				}
				if oracleCSched(root, leaves, p, true) < want {
					stricter++
				}
			}
		}
	}
	t.Logf("checked %d programs with B, %d with C in %v; unrestricted B > A in %d cases, child-first C < A in %d cases",
		checkedB, checkedC, time.Since(start), looser, stricter)
}
