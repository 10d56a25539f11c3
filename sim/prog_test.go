package sim

import (
	"fmt"
	"math/rand/v2"
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

func (o op) String() string {
	switch o.kind {
	case opAlloc:
		return fmt.Sprintf("alloc(%d@%d)", o.n, o.site)
	case opFree:
		return fmt.Sprintf("free(%d@%d)", o.n, o.site)
	case opWork:
		return fmt.Sprintf("work(%d)", o.n)
	case opSpawn:
		return "spawn{" + progString(o.body) + "}"
	case opSync:
		return "sync"
	default:
		return "call{" + progString(o.body) + "}"
	}
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
// children not yet joined, and its enclosing scope.
type genScope struct {
	own, pending []block
	up           *genScope
}

type generator struct {
	r      *rand.Rand
	cfg    genConfig
	spawns int
}

// genProgram returns a random program.
func genProgram(r *rand.Rand, cfg genConfig) []op {
	g := &generator{r: r, cfg: cfg}
	return g.body(0, &genScope{})
}

func (g *generator) body(depth int, sc *genScope) []op {
	var ops []op
	open := false
	n := g.r.IntN(g.cfg.maxOps + 1)
	if depth == 0 {
		n = g.cfg.maxOps
	}
	for range n {
		switch c := g.r.IntN(12); {
		case c < 3:
			b := block{1 + g.r.Int64N(g.cfg.maxAlloc), int32(1 + g.r.IntN(g.cfg.sites))}
			sc.own = append(sc.own, b)
			ops = append(ops, op{kind: opAlloc, n: b.n, site: b.site})
		case c < 5:
			if b, ok := g.takeFree(sc); ok {
				ops = append(ops, op{kind: opFree, n: b.n, site: b.site})
			}
		case c < 8:
			if depth < g.cfg.maxDepth && g.spawns < g.cfg.maxSpawns {
				g.spawns++
				child := &genScope{up: sc}
				cb := g.body(depth+1, child)
				sc.pending = append(sc.pending, child.own...)
				sc.pending = append(sc.pending, child.pending...)
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
			if depth < g.cfg.maxDepth && g.spawns < g.cfg.maxSpawns {
				callee := &genScope{up: sc}
				cb := g.body(depth+1, callee)
				sc.own = append(sc.own, callee.own...)
				sc.own = append(sc.own, callee.pending...)
				ops = append(ops, op{kind: opCall, body: cb})
			}
		default:
			if g.cfg.maxWork > 0 {
				ops = append(ops, op{kind: opWork, n: g.r.Int64N(g.cfg.maxWork + 1)})
			}
		}
	}
	return ops
}

// takeFree removes a live block the current point may free: one of a DAG
// predecessor, or without downset also one of a child not yet joined.
func (g *generator) takeFree(sc *genScope) (block, bool) {
	var lists []*[]block
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
		return block{}, false
	}
	i := g.r.IntN(total)
	for _, l := range lists {
		if i < len(*l) {
			b := (*l)[i]
			*l = append((*l)[:i], (*l)[i+1:]...)
			return b, true
		}
		i -= len(*l)
	}
	return block{}, false
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
