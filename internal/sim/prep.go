package sim

import (
	"fmt"
	"slices"

	"github.com/spgo/spgo/rtlib/trace"
)

// Classes of a strand made ready by a completing strand u, in the order
// every policy considers them: u's spawned child, u's own task's next
// strand, then any other (a joined parent, an unblocked receiver).
const (
	classChild = iota
	classSame
	classOther
)

// readyItem is a strand made ready, with its class relative to the strand
// whose completion made it ready.
type readyItem struct {
	v     int32
	class uint8
}

// prep is what every simulation of one graph shares: the deps as
// adjacency lists, each strand's same-task successor, and the serial
// depth-first order.
type prep struct {
	g        *trace.Graph
	n        int
	outStart []int32 // out-deps of u: outTo[outStart[u]:outStart[u+1]], sorted by target
	outTo    []int32
	outKind  []trace.DepKind
	indeg    []int32 // number of incoming deps
	next     []int32 // the target of u's Cont or Seq dep (lowest ID), or -1
	roots    []int32 // strands with no incoming dep, by ID
	dfRank   []int32 // position of each strand in the 1-processor child-first order
	dfOrder  []int32 // the strands in that order (a topological order)
}

// newPrep validates g and builds its adjacency.
func newPrep(g *trace.Graph) (*prep, error) {
	if g == nil {
		return nil, fmt.Errorf("sim: nil graph")
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	n := len(g.Strands)
	pr := &prep{g: g, n: n, outStart: make([]int32, n+1), indeg: make([]int32, n), next: make([]int32, n)}
	for _, d := range g.Deps {
		pr.outStart[d.From+1]++
		pr.indeg[d.To]++
	}
	for i := range n {
		pr.outStart[i+1] += pr.outStart[i]
	}
	type edge struct {
		to   int32
		kind trace.DepKind
	}
	edges := make([]edge, len(g.Deps))
	fill := slices.Clone(pr.outStart[:n])
	for _, d := range g.Deps {
		edges[fill[d.From]] = edge{d.To, d.Kind}
		fill[d.From]++
	}
	pr.outTo = make([]int32, len(edges))
	pr.outKind = make([]trace.DepKind, len(edges))
	for u := range n {
		seg := edges[pr.outStart[u]:pr.outStart[u+1]]
		slices.SortStableFunc(seg, func(a, b edge) int { return int(a.to) - int(b.to) })
		pr.next[u] = -1
		for i, e := range seg {
			j := int(pr.outStart[u]) + i
			pr.outTo[j], pr.outKind[j] = e.to, e.kind
			if (e.kind == trace.Cont || e.kind == trace.Seq) && pr.next[u] < 0 {
				pr.next[u] = e.to
			}
		}
	}
	for i := range n {
		if pr.indeg[i] == 0 {
			pr.roots = append(pr.roots, int32(i))
		}
	}
	pr.depthFirst()
	return pr, nil
}

// release marks u complete in indeg and appends the strands it makes
// ready to buf, in policy order: class, then strand ID.
func (pr *prep) release(u int32, indeg []int32, buf []readyItem) []readyItem {
	buf = buf[:0]
	for j := pr.outStart[u]; j < pr.outStart[u+1]; j++ {
		v := pr.outTo[j]
		if indeg[v]--; indeg[v] != 0 {
			continue
		}
		c := uint8(classOther)
		switch {
		case v == pr.next[u]:
			c = classSame
		case pr.outKind[j] == trace.Spawn:
			c = classChild
		}
		buf = append(buf, readyItem{v, c})
	}
	if len(buf) > 1 { // targets are sorted by ID already: a stable sort by class suffices
		slices.SortStableFunc(buf, func(a, b readyItem) int { return int(a.class) - int(b.class) })
	}
	return buf
}

// depthFirst computes the 1-processor child-first depth-first order: a
// stack of ready strands; the top runs next; the strands it makes ready
// are pushed so that the first in policy order (the spawned child) is on
// top, its continuation below it. A strand is placed once all its
// predecessors are, whatever their kinds.
func (pr *prep) depthFirst() {
	indeg := slices.Clone(pr.indeg)
	pr.dfRank = make([]int32, pr.n)
	pr.dfOrder = make([]int32, 0, pr.n)
	stack := slices.Clone(pr.roots)
	slices.Reverse(stack)
	var buf []readyItem
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pr.dfRank[u] = int32(len(pr.dfOrder))
		pr.dfOrder = append(pr.dfOrder, u)
		buf = pr.release(u, indeg, buf)
		for _, it := range slices.Backward(buf) {
			stack = append(stack, it.v)
		}
	}
}
