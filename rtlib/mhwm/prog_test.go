package mhwm

import (
	"fmt"
	"math/rand"
	"strings"
)

// This file holds the test programs: a Cilk-shaped program type, a random
// generator, a driver that feeds a program to an Engine, and an independent
// builder of the program's canonical SP tree for the oracles.

type opKind int

const (
	opAlloc opKind = iota
	opFree
	opSpawn
	opSync
	opCall
	opWork
	// opLimit (n = L) gives the next sync block opened in this scope (by
	// this scope's next spawn) the errgroup limit L: at most L of its
	// children may be spawned and unfinished at once. It may only appear
	// while no block is open in the scope.
	opLimit
)

// op is one statement of a test program. Spawn and call carry a body.
type op struct {
	kind opKind
	n    int64
	site Site
	body []op
}

func (o op) String() string {
	switch o.kind {
	case opAlloc:
		return fmt.Sprintf("alloc(%d@%d)", o.n, o.site)
	case opFree:
		return fmt.Sprintf("free(%d@%d)", o.n, o.site)
	case opSpawn:
		return "spawn{" + bodyString(o.body) + "}"
	case opSync:
		return "sync"
	case opCall:
		return "call{" + bodyString(o.body) + "}"
	case opLimit:
		return fmt.Sprintf("limit(%d)", o.n)
	default:
		return fmt.Sprintf("work(%d)", o.n)
	}
}

func bodyString(b []op) string {
	var parts []string
	for _, o := range b {
		parts = append(parts, o.String())
	}
	return strings.Join(parts, " ")
}

// run feeds the program to e as its serial, child-first execution.
func run(e *Engine, body []op) (*Result, error) {
	if err := runBody(e, body); err != nil {
		return nil, err
	}
	return e.Exit()
}

func runBody(e *Engine, body []op) error {
	for _, o := range body {
		var err error
		switch o.kind {
		case opAlloc:
			err = e.Alloc(o.site, o.n)
		case opFree:
			err = e.Free(o.site, o.n)
		case opWork:
			err = e.Work(o.n)
		case opSync:
			err = e.Sync()
		case opSpawn:
			if err = e.Spawn(); err == nil {
				if err = runBody(e, o.body); err == nil {
					err = e.Return()
				}
			}
		case opCall:
			if err = e.Call(); err == nil {
				if err = runBody(e, o.body); err == nil {
					err = e.CallReturn()
				}
			}
		case opLimit:
			err = e.SetLimit(int(o.n))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// genConfig bounds the random programs.
type genConfig struct {
	maxOps     int  // statements per body
	maxDepth   int  // nesting of spawns and calls
	maxSpawns  int  // spawns in the whole program
	downset    bool // frees release only memory of DAG predecessors
	maxAlloc   int64
	emptyBias  int // percent of bodies left empty
	sites      int
	negStrands bool // allow strands that free more than they allocate
	limitPct   int  // percent of block-opening spawns preceded by opLimit (L in 1..3)
}

type blk struct {
	n    int64
	site Site
}

// scope is a body being generated: its own live blocks, its children's
// blocks (joined at its next sync) and its enclosing scope.
type scope struct {
	own     []blk
	pending []blk
	up      *scope
}

type gen struct {
	r      *rand.Rand
	cfg    genConfig
	spawns int
}

// genProgram returns a random program.
func genProgram(r *rand.Rand, cfg genConfig) []op {
	g := &gen{r: r, cfg: cfg}
	return g.body(0, &scope{})
}

func (g *gen) body(depth int, sc *scope) []op {
	var ops []op
	if depth > 0 && g.r.Intn(100) < g.cfg.emptyBias {
		return nil
	}
	open := false
	n := g.r.Intn(g.cfg.maxOps + 1)
	if depth == 0 {
		n = g.cfg.maxOps + g.r.Intn(3)
	}
	for i := 0; i < n; i++ {
		switch c := g.r.Intn(11); {
		case c < 3:
			b := blk{1 + g.r.Int63n(g.cfg.maxAlloc), Site(1 + g.r.Intn(g.cfg.sites))}
			sc.own = append(sc.own, b)
			ops = append(ops, op{kind: opAlloc, n: b.n, site: b.site})
		case c < 5:
			if b, ok := g.takeFree(sc); ok {
				ops = append(ops, op{kind: opFree, n: b.n, site: b.site})
			}
		case c < 8:
			if depth < g.cfg.maxDepth && g.spawns < g.cfg.maxSpawns {
				// Draw only when limits are on, so that programs
				// generated without them stay as they were.
				if !open && g.cfg.limitPct > 0 && g.r.Intn(100) < g.cfg.limitPct {
					ops = append(ops, op{kind: opLimit, n: 1 + g.r.Int63n(3)})
				}
				g.spawns++
				child := &scope{up: sc}
				cb := g.body(depth+1, child)
				child.own = append(child.own, child.pending...)
				sc.pending = append(sc.pending, child.own...)
				ops = append(ops, op{kind: opSpawn, body: cb})
				open = true
			}
		case c < 9:
			if open {
				sc.own = append(sc.own, sc.pending...)
				sc.pending = nil
				ops = append(ops, op{kind: opSync})
				open = false
			}
		case c < 10:
			if depth < g.cfg.maxDepth {
				callee := &scope{up: sc}
				cb := g.body(depth+1, callee)
				sc.own = append(sc.own, callee.own...)
				sc.own = append(sc.own, callee.pending...)
				ops = append(ops, op{kind: opCall, body: cb})
			}
		default:
			ops = append(ops, op{kind: opWork, n: 1 + g.r.Int63n(5)})
		}
	}
	return ops
}

// takeFree removes and returns a live block the current point may free: one
// of a DAG predecessor, or with !downset also one of an unjoined child.
func (g *gen) takeFree(sc *scope) (blk, bool) {
	var lists []*[]blk
	for s := sc; s != nil; s = s.up {
		lists = append(lists, &s.own)
		if !g.cfg.downset && s == sc {
			lists = append(lists, &s.pending)
		}
	}
	total := 0
	for _, l := range lists {
		total += len(*l)
	}
	if total == 0 {
		return blk{}, false
	}
	i := g.r.Intn(total)
	for _, l := range lists {
		if i < len(*l) {
			b := (*l)[i]
			*l = append((*l)[:i], (*l)[i+1:]...)
			return b, true
		}
		i -= len(*l)
	}
	return blk{}, false
}

// node is the test side's SP structure of a program: a leaf strand, a
// series list, or a sync block (c0, A1, c1, …, Ak, ck).
type node struct {
	kind  byte // 'e', ';', 'b'
	m, s  int64
	kids  []*node
	limit int // block: errgroup limit L of its children, 0 = none
}

// strandAcc accumulates one strand piece.
type strandAcc struct{ cur, peak int64 }

func (a *strandAcc) leaf() *node {
	n := &node{kind: 'e', m: a.peak, s: a.cur}
	*a = strandAcc{}
	return n
}

func seq(items []*node) *node {
	if len(items) == 1 {
		return items[0]
	}
	return &node{kind: ';', kids: items}
}

// buildTree builds the SP structure of a body independently of the engine's
// driver. A strand that runs on through a call is split into pieces in series,
// which changes no R entry.
func buildTree(body []op) *node {
	var items, parts, cont []*node
	var acc strandAcc
	open := false
	limit, blockLimit := 0, 0 // the pending opLimit; the open block's limit
	place := func(x *node) {
		if open {
			cont = append(cont, x)
		} else {
			items = append(items, x)
		}
	}
	for _, o := range body {
		switch o.kind {
		case opAlloc:
			acc.cur += o.n
			acc.peak = max(acc.peak, acc.cur)
		case opFree:
			acc.cur -= o.n
		case opSpawn:
			if !open {
				blockLimit, limit = limit, 0
			}
			cont = append(cont, acc.leaf())
			parts = append(parts, seq(cont))
			cont = nil
			parts = append(parts, buildTree(o.body))
			open = true
		case opSync:
			cont = append(cont, acc.leaf())
			parts = append(parts, seq(cont))
			items = append(items, &node{kind: 'b', kids: parts, limit: blockLimit})
			parts, cont, open, blockLimit = nil, nil, false, 0
		case opCall:
			place(acc.leaf())
			place(buildTree(o.body))
		case opLimit:
			if open {
				panic("buildTree: opLimit inside an open sync block")
			}
			limit = int(o.n)
		}
	}
	if open {
		cont = append(cont, acc.leaf())
		parts = append(parts, seq(cont))
		items = append(items, &node{kind: 'b', kids: parts, limit: blockLimit})
	} else {
		items = append(items, acc.leaf())
	}
	return seq(items)
}

// bnode is the canonical binary SP tree (docs/algorithms.md, "Model") that the oracles use.
type bnode struct {
	kind   byte // 'e', ';', '|'
	m, s   int64
	x, y   *bnode
	id     int // leaf number in serial order
	lo, hi int // leaves of the subtree are ids lo..hi-1
	sum    int64
	// A parallel node Ai ‖ Ti that joins a spawned child to the rest of
	// a block with an errgroup limit records the block: blk is a unique
	// id per limited block (0 = none) and limit is its L (0 = none).
	blk, limit int
}

// binary returns the canonical binary tree of n with leaves numbered from 0.
func binary(n *node) (*bnode, []*bnode) {
	var leaves []*bnode
	nblk := 0
	var conv func(n *node) *bnode
	mk := func(kind byte, x, y *bnode) *bnode {
		return &bnode{kind: kind, x: x, y: y, lo: x.lo, hi: y.hi, sum: x.sum + y.sum}
	}
	conv = func(n *node) *bnode {
		switch n.kind {
		case 'e':
			b := &bnode{kind: 'e', m: n.m, s: n.s, id: len(leaves), lo: len(leaves), hi: len(leaves) + 1, sum: n.s}
			leaves = append(leaves, b)
			return b
		case ';':
			t := conv(n.kids[0])
			for _, k := range n.kids[1:] {
				t = mk(';', t, conv(k))
			}
			return t
		default: // block: convert in serial order, then nest to the right
			blk := 0
			if n.limit > 0 {
				nblk++
				blk = nblk
			}
			bs := make([]*bnode, len(n.kids))
			for i, k := range n.kids {
				bs[i] = conv(k)
			}
			t := bs[len(bs)-1]
			for i := len(bs) - 2; i >= 1; i -= 2 {
				par := mk('|', bs[i], t)
				if blk != 0 {
					par.blk, par.limit = blk, n.limit
				}
				t = mk(';', bs[i-1], par)
			}
			return t
		}
	}
	root := conv(n)
	return root, leaves
}

// evalOff computes the exact summary with the series and parallel recurrences over
// the canonical tree. With noSkip, memory-inactive components are kept.
func evalOff(b *bnode, p int, noSkip bool) comp {
	switch b.kind {
	case 'e':
		c := leaf(b.m, b.s)
		c.Trivial = c.Trivial && !noSkip
		return c
	case ';':
		return series(evalOff(b.x, p, noSkip), evalOff(b.y, p, noSkip))
	default:
		return parallel(evalOff(b.x, p, noSkip), evalOff(b.y, p, noSkip), p)
	}
}

// evalBlocks computes the exact summary of n folding each block with the
// online Block state (ExactOn's block algebra, offline).
func evalBlocks(n *node, p int, noSkip bool) comp {
	switch n.kind {
	case 'e':
		c := leaf(n.m, n.s)
		c.Trivial = c.Trivial && !noSkip
		return c
	case ';':
		c := evalBlocks(n.kids[0], p, noSkip)
		for _, k := range n.kids[1:] {
			c = series(c, evalBlocks(k, p, noSkip))
		}
		return c
	default:
		b := newLimitedBlock(p, n.limit)
		noSkip = noSkip || n.limit > 0 // nothing under a limit is skipped
		for i, k := range n.kids {
			if i%2 == 0 {
				b.AddContinuation(evalBlocks(k, p, noSkip))
			} else {
				b.AddSpawn(evalBlocks(k, p, noSkip))
			}
		}
		c := b.Finish()
		if noSkip {
			c.Trivial = false
		}
		return c
	}
}
