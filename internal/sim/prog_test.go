package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/mhwm"
	"github.com/spgo/spgo/rtlib/trace"
)

// This file holds random series-parallel test programs: a Cilk-shaped
// program type, a generator, and a runner that plays a program's serial,
// child-first execution into both a builder (the trace.Graph a recorder
// would write) and an mhwm.Engine (MHWM_p of the same computation).

type opKind uint8

const (
	opAlloc opKind = iota
	opFree
	opWork
	opSpawn // body: the child
	opSync
	opCall // body: a called function that may spawn (its scope syncs at return)
)

type op struct {
	kind opKind
	n    int64
	site int32
	body []op
}

var opNames = [...]string{opAlloc: "alloc", opFree: "free", opWork: "work", opSpawn: "spawn", opSync: "sync", opCall: "call"}

func (o op) String() string {
	name := opNames[o.kind]
	switch o.kind {
	case opAlloc, opFree:
		return fmt.Sprintf("%s(%d@%d)", name, o.n, o.site)
	case opWork:
		return fmt.Sprintf("%s(%d)", name, o.n)
	case opSync:
		return name
	}
	return name + "{" + progString(o.body) + "}"
}

func progString(b []op) string {
	parts := make([]string, len(b))
	for i, o := range b {
		parts[i] = o.String()
	}
	return strings.Join(parts, " ")
}

// progSize counts a program's statements, to rank counterexamples.
func progSize(b []op) int {
	n := len(b)
	for _, o := range b {
		n += progSize(o.body)
	}
	return n
}

// genConfig bounds the random programs.
type genConfig struct {
	maxOps, maxDepth, maxSpawns int
	downset                     bool  // frees release only memory of DAG predecessors
	maxAlloc, maxWork           int64 // maxWork 0: no work ops (every strand takes 0 ns)
	sites                       int
}

type block struct {
	n    int64
	site int32
}

// genScope is a body being generated: its own live blocks, those of its
// children not yet joined, whether it has spawned since its last sync,
// and its enclosing scope.
type genScope struct {
	own, pending []block
	open         bool
	up           *genScope
}

type generator struct {
	r      *rand.Rand
	cfg    genConfig
	spawns int
}

// stmtWeights says how often a body draws each kind of statement.
var stmtWeights = [...]struct {
	kind   opKind
	weight int
}{{opAlloc, 3}, {opFree, 2}, {opSpawn, 3}, {opSync, 1}, {opCall, 1}, {opWork, 2}}

// genProgram returns a random program: the root's body has cfg.maxOps
// statements, nested bodies up to that many.
func genProgram(r *rand.Rand, cfg genConfig) []op {
	g := &generator{r: r, cfg: cfg}
	return g.body(0, &genScope{})
}

func (g *generator) body(depth int, sc *genScope) []op {
	count := g.cfg.maxOps
	if depth > 0 {
		count = g.r.IntN(g.cfg.maxOps + 1)
	}
	var ops []op
	for range count {
		if o, ok := g.stmt(g.draw(), depth, sc); ok {
			ops = append(ops, o)
		}
	}
	return ops
}

// draw picks a statement kind by stmtWeights.
func (g *generator) draw() opKind {
	total := 0
	for _, w := range stmtWeights {
		total += w.weight
	}
	x := g.r.IntN(total)
	for _, w := range stmtWeights {
		if x < w.weight {
			return w.kind
		}
		x -= w.weight
	}
	panic("unreachable")
}

// stmt generates one statement of kind in scope sc, if it fits there.
func (g *generator) stmt(kind opKind, depth int, sc *genScope) (op, bool) {
	nest := depth < g.cfg.maxDepth && g.spawns < g.cfg.maxSpawns
	switch kind {
	case opAlloc:
		b := block{1 + g.r.Int64N(g.cfg.maxAlloc), int32(1 + g.r.IntN(g.cfg.sites))}
		sc.own = append(sc.own, b)
		return op{kind: opAlloc, n: b.n, site: b.site}, true
	case opFree:
		b, ok := g.takeFree(sc)
		return op{kind: opFree, n: b.n, site: b.site}, ok
	case opWork:
		return op{kind: opWork, n: g.r.Int64N(g.cfg.maxWork + 1)}, g.cfg.maxWork > 0
	case opSync:
		if !sc.open {
			return op{}, false
		}
		sc.own, sc.pending, sc.open = append(sc.own, sc.pending...), nil, false
		return op{kind: opSync}, true
	case opSpawn:
		if !nest {
			return op{}, false
		}
		g.spawns++
		child := &genScope{up: sc}
		o := op{kind: opSpawn, body: g.body(depth+1, child)}
		// The child's blocks, and those of its own children (joined at
		// its return), are joined at this scope's next sync.
		sc.pending = append(append(sc.pending, child.own...), child.pending...)
		sc.open = true
		return o, true
	default: // opCall
		if !nest {
			return op{}, false
		}
		callee := &genScope{up: sc}
		o := op{kind: opCall, body: g.body(depth+1, callee)}
		// The callee syncs at its return: all its blocks are ours.
		sc.own = append(append(sc.own, callee.own...), callee.pending...)
		return o, true
	}
}

// takeFree removes a live block the current point may free: one of a DAG
// predecessor (its own scope's or an enclosing scope's), or without
// downset also one of a child not yet joined. Each candidate is equally
// likely.
func (g *generator) takeFree(sc *genScope) (block, bool) {
	type slot struct {
		list *[]block
		at   int
	}
	var cands []slot
	add := func(l *[]block) {
		for at := range *l {
			cands = append(cands, slot{l, at})
		}
	}
	if !g.cfg.downset {
		add(&sc.pending)
	}
	for s := sc; s != nil; s = s.up {
		add(&s.own)
	}
	if len(cands) == 0 {
		return block{}, false
	}
	c := cands[g.r.IntN(len(cands))]
	b := (*c.list)[c.at]
	*c.list = slices.Delete(*c.list, c.at, c.at+1)
	return b, true
}

// runner plays a program into a builder and an engine at once.
type runner struct {
	b    *builder
	e    *mhwm.Engine
	task int32
	cur  int32 // the running strand
}

// runScope is a sync scope: the last strands of the children spawned
// since its last sync, with those of their own unjoined children (a
// child's implicit sync at its return is the same join vertex).
type runScope struct{ pending []int32 }

// build returns the graph of prog and the engine's result for pmax
// processors.
func build(t testing.TB, prog []op, pmax int) (*trace.Graph, *mhwm.Result) {
	t.Helper()
	e, err := mhwm.New(mhwm.Config{P: pmax})
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{b: newBuilder("prog"), e: e}
	r.task = r.b.task(-1, 0)
	r.cur = r.b.begin(r.task)
	if err := r.body(prog, &runScope{}); err != nil {
		t.Fatalf("%v\n%s", err, progString(prog))
	}
	res, err := e.Exit()
	if err != nil {
		t.Fatal(err)
	}
	r.b.end(r.cur)
	g := r.b.graph(t)
	checkStartOrder(t, g)
	return g, res
}

// cut ends the current strand at a join and starts the task's next one,
// after pending.
func (r *runner) cut(pending []int32) {
	u := r.cur
	r.b.end(u)
	r.cur = r.b.begin(r.task)
	r.b.dep(u, r.cur, trace.Seq)
	for _, c := range pending {
		r.b.dep(c, r.cur, trace.Join)
	}
}

func (r *runner) body(ops []op, sc *runScope) error {
	for _, o := range ops {
		var err error
		switch o.kind {
		case opAlloc:
			r.b.alloc(r.cur, o.site, o.n)
			err = r.e.Alloc(mhwm.Site(o.site), o.n)
		case opFree:
			r.b.free(r.cur, o.site, o.n)
			err = r.e.Free(mhwm.Site(o.site), o.n)
		case opWork:
			r.b.work(r.cur, o.n)
			err = r.e.Work(o.n)
		case opSync:
			if err = r.e.Sync(); err == nil {
				r.cut(sc.pending)
				sc.pending = nil
			}
		case opSpawn:
			if err = r.e.Spawn(); err != nil {
				break
			}
			u, parent := r.cur, r.task
			r.b.end(u)
			r.task = r.b.task(parent, 100+int32(len(r.b.g.Tasks)))
			r.cur = r.b.begin(r.task)
			r.b.dep(u, r.cur, trace.Spawn)
			child := &runScope{}
			if err = r.body(o.body, child); err != nil {
				return err
			}
			if err = r.e.Return(); err != nil {
				break
			}
			r.b.end(r.cur)
			sc.pending = append(sc.pending, r.cur)
			sc.pending = append(sc.pending, child.pending...)
			r.task = parent
			r.cur = r.b.begin(parent)
			r.b.dep(u, r.cur, trace.Cont)
		case opCall:
			if err = r.e.Call(); err != nil {
				break
			}
			callee := &runScope{}
			if err = r.body(o.body, callee); err != nil {
				return err
			}
			if err = r.e.CallReturn(); err == nil && len(callee.pending) > 0 {
				r.cut(callee.pending)
			}
		}
		if err != nil {
			return fmt.Errorf("%v: %w", o, err)
		}
	}
	return nil
}
