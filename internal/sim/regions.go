package sim

import (
	"cmp"
	"slices"

	"github.com/spgo/spgo/rtlib/profile"
	"github.com/spgo/spgo/rtlib/trace"
)

// Regions returns the work and span of the root and of each spawn site
// of g (profile.Region): for every task, the strands of it and of its
// descendants; the span is the longest chain of them along g's
// dependencies between two of them (a dependency from or to a strand
// outside the region does not count: the region is measured as if run
// alone). A site's figures sum its outermost instances. The root's
// entry comes first, then the sites by name.
func Regions(g *trace.Graph) []profile.Region {
	if len(g.Strands) == 0 || len(g.Tasks) == 0 {
		return nil
	}
	order := topoOrder(g)
	tasks := map[int32]int{} // task ID → index in g.Tasks
	for i, t := range g.Tasks {
		tasks[t.ID] = i
	}
	kids := make([][]int, len(g.Tasks))
	root := -1
	for i, t := range g.Tasks {
		if p, ok := tasks[t.Parent]; ok && t.Parent >= 0 {
			kids[p] = append(kids[p], i)
		} else if root < 0 {
			root = i
		}
	}
	inTask := make([][]int32, len(g.Tasks)) // strands of each task
	for _, s := range g.Strands {
		if i, ok := tasks[s.Task]; ok {
			inTask[i] = append(inTask[i], s.ID)
		}
	}
	preds := make([][]int32, len(g.Strands))
	for _, d := range g.Deps {
		preds[d.To] = append(preds[d.To], d.From)
	}
	rank := make([]int32, len(g.Strands))
	for i, s := range order {
		rank[s] = int32(i)
	}

	site := func(i int) string {
		if i == root {
			return ""
		}
		if name := g.Sites[g.Tasks[i].Site]; name != "" {
			return name
		}
		return "?"
	}
	byName := map[string]*profile.Region{}
	member := make([]bool, len(g.Strands))
	// walk measures the region of task i (outer: no ancestor at its
	// site) and recurses; open counts the instances of each site on the
	// path from the root.
	open := map[string]int{}
	var walk func(i int)
	walk = func(i int) {
		name := site(i)
		reg := byName[name]
		if reg == nil {
			reg = &profile.Region{Site: name}
			byName[name] = reg
		}
		reg.Instances++
		if open[name] == 0 {
			reg.Outermost++
			work, span := measure(g, subtree(i, kids, inTask), preds, rank, member)
			reg.WorkStrands += work.n
			reg.WorkWallNS += work.d
			reg.SpanStrands += span.n
			reg.SpanWallNS += span.d
		}
		open[name]++
		for _, k := range kids[i] {
			walk(k)
		}
		open[name]--
	}
	if root < 0 {
		return nil
	}
	walk(root)
	out := make([]profile.Region, 0, len(byName))
	for _, r := range byName {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b profile.Region) int { return cmp.Compare(a.Site, b.Site) })
	return out
}

// length is a chain's or a set's size in strands and nanoseconds.
type length struct{ n, d int64 }

// subtree returns the strands of task i and its descendants.
func subtree(i int, kids [][]int, inTask [][]int32) []int32 {
	var out []int32
	stack := []int{i}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, inTask[t]...)
		stack = append(stack, kids[t]...)
	}
	return out
}

// measure returns the work of the strands ss and their longest chain
// (by count and, separately, by duration) along dependencies inside ss.
// member is scratch, all false on entry and on return.
func measure(g *trace.Graph, ss []int32, preds [][]int32, rank []int32, member []bool) (work, span length) {
	slices.SortFunc(ss, func(a, b int32) int { return cmp.Compare(rank[a], rank[b]) })
	for _, s := range ss {
		member[s] = true
	}
	best := make(map[int32]length, len(ss))
	for _, s := range ss {
		var top length
		for _, p := range preds[s] {
			if !member[p] {
				continue
			}
			b := best[p]
			top.n, top.d = max(top.n, b.n), max(top.d, b.d)
		}
		w := g.Strands[s].Work
		top.n, top.d = top.n+1, top.d+w
		best[s] = top
		work.n, work.d = work.n+1, work.d+w
		span.n, span.d = max(span.n, top.n), max(span.d, top.d)
	}
	for _, s := range ss {
		member[s] = false
	}
	return work, span
}

// topoOrder returns g's strands in a topological order of its
// dependencies (Kahn's, smallest ID first among the ready: the recorded
// order when it is one).
func topoOrder(g *trace.Graph) []int32 {
	n := len(g.Strands)
	indeg := make([]int, n)
	succ := make([][]int32, n)
	for _, d := range g.Deps {
		indeg[d.To]++
		succ[d.From] = append(succ[d.From], d.To)
	}
	var h minHeap[strandID]
	for s := range n {
		if indeg[s] == 0 {
			h.push(strandID(s))
		}
	}
	order := make([]int32, 0, n)
	for len(h) > 0 {
		s := int32(h.pop())
		order = append(order, s)
		for _, t := range succ[s] {
			if indeg[t]--; indeg[t] == 0 {
				h.push(strandID(t))
			}
		}
	}
	return order // Read rejects cycles: every strand is here
}

// strandID orders strands by ID in a minHeap.
type strandID int32

func (a strandID) less(b strandID) bool { return a < b }
