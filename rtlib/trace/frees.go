package trace

import (
	"fmt"
	"math/bits"
	"slices"
)

// placeBudget bounds the work, in 64-bit words, that placing one root's
// frees may take; past it the remaining frees stay at their
// series-parallel charge points, which is sound.
const placeBudget = 1 << 28

// checkFrees checks the censuses and frees of a graph whose strands and
// deps are valid: it returns the first problem, about census k or free k.
func (g *Graph) checkFrees() (census bool, k int, msg string) {
	n := int32(len(g.Strands))
	for k, c := range g.Censuses {
		if c.Cut >= n {
			return true, k, fmt.Sprintf("census %d: unknown cut strand %d", k, c.Cut)
		}
		for _, s := range c.Ran {
			if s >= n {
				return true, k, fmt.Sprintf("census %d: unknown strand %d", k, s)
			}
		}
	}
	for i, f := range g.Frees {
		switch {
		case f.At < 0 || f.At >= n:
			return false, i, fmt.Sprintf("free at unknown strand %d", f.At)
		case f.Alloc < -1 || f.Alloc >= n:
			return false, i, fmt.Sprintf("free at strand %d: unknown allocating strand %d", f.At, f.Alloc)
		case f.Census < 0 || int(f.Census) >= len(g.Censuses):
			return false, i, fmt.Sprintf("free at strand %d: unknown census %d", f.At, f.Census)
		case f.Bytes <= 0 || f.Bytes > MaxBytes:
			return false, i, fmt.Sprintf("free at strand %d: %d bytes, want 1..2^62", f.At, f.Bytes)
		case f.Site < 0:
			return false, i, fmt.Sprintf("free at strand %d: negative site %d", f.At, f.Site)
		}
	}
	return false, 0, ""
}

// placeFrees sets every free's Placed and adds it to that strand's
// weights, as if it happened when the strand began: Net and the site's
// net drop by the bytes, and the peak, the running sum's maximum prefix,
// becomes max(0, Peak − bytes) (the site's share at the peak drops with
// it, or every share is 0 when the peak is the empty prefix).
func (g *Graph) placeFrees() {
	var pl *placer
	if g.hasSyncDeps() {
		pl = newPlacer(g)
	}
	for i := range g.Frees {
		f := &g.Frees[i]
		f.Placed = f.At
		if pl != nil {
			f.Placed = pl.place(f)
		}
		s := &g.Strands[f.Placed]
		s.Net -= f.Bytes
		s.Peak = max(0, s.Peak-f.Bytes)
		j := slices.IndexFunc(s.Sites, func(sb SiteBytes) bool { return sb.Site == f.Site })
		if j < 0 {
			j = len(s.Sites)
			s.Sites = append(s.Sites, SiteBytes{Site: f.Site})
		}
		s.Sites[j].Net -= f.Bytes
		if s.Peak == 0 {
			for k := range s.Sites {
				s.Sites[k].AtPeak = 0
			}
		} else {
			s.Sites[j].AtPeak -= f.Bytes
		}
	}
}

// hasSyncDeps reports whether g has a dep that is not series-parallel
// (spawn, cont, seq, join): without one, the series-parallel charge
// point of a death is already the earliest.
func (g *Graph) hasSyncDeps() bool {
	for _, d := range g.Deps {
		if d.Kind > Join {
			return true
		}
	}
	return false
}

// A placer finds, for a set of strands, the first strand in a topological
// order that follows every strand of the set.
type placer struct {
	g      *Graph
	pos    []int32 // strand → position in the order
	order  []int32 // position → strand
	pstart []int32 // CSR of predecessors by strand
	preds  []int32
	budget int64
	memo   map[[2]int32]found // by (census, alloc)
	set    []int32
	last   map[int32]int32 // task → its latest strand in the set
	mask   []uint64
	member map[int32]int // strand → its bit
}

func newPlacer(g *Graph) *placer {
	n := len(g.Strands)
	pl := &placer{g: g, budget: placeBudget, memo: map[[2]int32]found{}, last: map[int32]int32{}, member: map[int32]int{}}
	pl.pstart = make([]int32, n+1)
	for _, d := range g.Deps {
		pl.pstart[d.To+1]++
	}
	for i := range n {
		pl.pstart[i+1] += pl.pstart[i]
	}
	pl.preds = make([]int32, len(g.Deps))
	fill := slices.Clone(pl.pstart[:n])
	for _, d := range g.Deps {
		pl.preds[fill[d.To]] = d.From
		fill[d.To]++
	}
	// The recorded run's order (strand IDs) when every dep goes forward
	// in it, as a recorder's do; else Kahn's (the graph was checked
	// acyclic).
	if slices.ContainsFunc(g.Deps, func(d Dep) bool { return d.From >= d.To }) {
		pl.order, _ = g.kahn()
	} else {
		pl.order = make([]int32, n)
		for i := range n {
			pl.order[i] = int32(i)
		}
	}
	pl.pos = make([]int32, n)
	for i, u := range pl.order {
		pl.pos[u] = int32(i)
	}
	return pl
}

// found is a search's result: the strand found (-1: none before
// position hi).
type found struct{ y, hi int32 }

// place returns where free f goes: the first strand in the order that
// follows f.Alloc and every strand of its census, if it comes before
// f.At; else f.At.
func (pl *placer) place(f *Free) int32 {
	key := [2]int32{f.Census, f.Alloc}
	hi := pl.pos[f.At]
	r, ok := pl.memo[key]
	if !ok || r.y < 0 && r.hi < hi {
		r = found{pl.search(pl.g.Censuses[f.Census].Ran, f.Alloc, hi), hi}
		pl.memo[key] = r
	}
	y := r.y
	if y < 0 || pl.pos[y] >= hi {
		return f.At
	}
	return y
}

// search scans the order from the set's first strand up to position hi
// (exclusive) for a strand every strand of census ∪ {alloc} precedes; it
// returns -1 if there is none or the budget ran out.
func (pl *placer) search(census []int32, alloc int32, hi int32) int32 {
	// Of a task's strands only its latest matters: the others precede it.
	clear(pl.last)
	note := func(s int32) {
		t := pl.g.Strands[s].Task
		if old, ok := pl.last[t]; !ok || pl.pos[s] > pl.pos[old] {
			pl.last[t] = s
		}
	}
	for _, s := range census {
		note(s)
	}
	if alloc >= 0 {
		note(alloc)
	}
	pl.set = pl.set[:0]
	for _, s := range pl.last {
		pl.set = append(pl.set, s)
	}
	if len(pl.set) == 0 {
		return -1
	}
	slices.Sort(pl.set)
	clear(pl.member)
	lo := hi
	for i, s := range pl.set {
		pl.member[s] = i
		lo = min(lo, pl.pos[s])
	}
	if lo >= hi {
		return -1
	}
	words := (len(pl.set) + 63) / 64
	span := int(hi - lo)
	cost := int64(span) * int64(words)
	if cost > pl.budget {
		pl.budget = 0
		return -1
	}
	pl.budget -= cost
	pl.mask = slices.Grow(pl.mask[:0], span*words)[:span*words]
	clear(pl.mask)
	full := len(pl.set)
	for i := range span {
		v := pl.order[int(lo)+i]
		m := pl.mask[i*words : (i+1)*words]
		for _, u := range pl.preds[pl.pstart[v]:pl.pstart[v+1]] {
			pu := pl.pos[u]
			if pu < lo {
				continue
			}
			um := pl.mask[int(pu-lo)*words : int(pu-lo+1)*words]
			for w := range m {
				m[w] |= um[w]
			}
			if b, ok := pl.member[u]; ok {
				m[b/64] |= 1 << (b % 64)
			}
		}
		c := 0
		for _, w := range m {
			c += bits.OnesCount64(w)
		}
		if c == full {
			return v
		}
	}
	return -1
}

// mergeCuts merges every census's cut strand back into the strand it was
// cut from, its one predecessor by a Seq dep, which has no other
// successor: the weights compose exactly (the cut's running sum continues
// the first's), the works add up, and the strands are renumbered densely
// in the same order. A cut that is not so placed stays a strand.
func (g *Graph) mergeCuts() {
	n := len(g.Strands)
	var cuts []int32
	for _, c := range g.Censuses {
		if c.Cut >= 0 {
			cuts = append(cuts, c.Cut)
		}
	}
	if len(cuts) == 0 {
		return
	}
	slices.Sort(cuts)
	in, out := make([]int32, n), make([]int32, n)
	pred := make([]int32, n)
	for _, d := range g.Deps {
		in[d.To]++
		out[d.From]++
		if d.Kind == Seq {
			pred[d.To] = d.From + 1
		}
	}
	rep := make([]int32, n) // the strand each is merged into
	for i := range rep {
		rep[i] = int32(i)
	}
	merged := false
	for _, c := range slices.Compact(cuts) {
		u := pred[c] - 1
		if in[c] == 1 && u >= 0 && out[u] == 1 && g.Strands[u].Task == g.Strands[c].Task {
			rep[c] = rep[u]
			merged = true
		}
	}
	if !merged {
		return
	}
	id := make([]int32, n) // old ID → new ID
	kept := g.Strands[:0]
	for v := range n {
		if r := rep[v]; r != int32(v) {
			g.Strands[id[r]] = compose(g.Strands[id[r]], g.Strands[v])
			id[v] = id[r]
			continue
		}
		id[v] = int32(len(kept))
		s := g.Strands[v]
		s.ID = id[v]
		kept = append(kept, s)
	}
	clear(g.Strands[len(kept):])
	g.Strands = kept
	deps := g.Deps[:0]
	for _, d := range g.Deps {
		d.From, d.To = id[d.From], id[d.To]
		if d.From != d.To {
			deps = append(deps, d)
		}
	}
	g.Deps = deps
	for i := range g.Frees {
		f := &g.Frees[i]
		f.At, f.Placed = id[f.At], id[f.Placed]
		if f.Alloc >= 0 {
			f.Alloc = id[f.Alloc]
		}
	}
	for i := range g.Censuses {
		c := &g.Censuses[i]
		for j, s := range c.Ran {
			c.Ran[j] = id[s]
		}
		c.Ran = slices.Compact(c.Ran)
		if c.Cut >= 0 && rep[c.Cut] != c.Cut {
			c.Cut = -1
		}
	}
}

// compose returns strand a followed by strand b of the same task as one
// strand (a's ID).
func compose(a, b Strand) Strand {
	c := Strand{ID: a.ID, Task: a.Task, Work: a.Work + b.Work, Net: a.Net + b.Net, Peak: max(a.Peak, a.Net+b.Peak)}
	second := a.Net+b.Peak > a.Peak // the peak is reached first in b
	c.Sites = slices.Clone(a.Sites)
	if second {
		for j := range c.Sites {
			c.Sites[j].AtPeak = c.Sites[j].Net
		}
	}
	for _, sb := range b.Sites {
		j := slices.IndexFunc(c.Sites, func(x SiteBytes) bool { return x.Site == sb.Site })
		if j < 0 {
			j = len(c.Sites)
			c.Sites = append(c.Sites, SiteBytes{Site: sb.Site})
			if !second {
				c.Sites[j].AtPeak = 0
			}
		}
		c.Sites[j].Net += sb.Net
		if second {
			c.Sites[j].AtPeak += sb.AtPeak
		}
	}
	return c
}
