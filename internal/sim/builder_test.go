package sim

import (
	"maps"
	"slices"
	"testing"

	"github.com/spgo/spgo/rtlib/trace"
)

// builder records a graph the way rtlib's recorder would: a strand gets
// its ID when it starts, its weights from the allocs and frees made while
// it runs (Net and Peak are s(e) and m(e) of docs/algorithms.md, "Model", per site at
// the first moment the running sum reaches the peak), and is written when
// it ends.
type builder struct {
	g    *trace.Graph
	acc  map[int32]*strandAcc // strands started and not ended
	next int32                // next task ID
}

type strandAcc struct {
	s      trace.Strand
	cur    int64
	net    map[int32]int64
	atPeak map[int32]int64
}

func newBuilder(name string) *builder {
	return &builder{
		g:   &trace.Graph{Name: name, Sites: map[int32]string{}},
		acc: map[int32]*strandAcc{},
	}
}

// task declares a task spawned by parent (-1 for the root's) at site.
func (b *builder) task(parent, site int32) int32 {
	id := b.next
	b.next++
	b.g.Tasks = append(b.g.Tasks, trace.Task{ID: id, Parent: parent, Site: site})
	return id
}

// begin starts a strand of task and returns its ID.
func (b *builder) begin(task int32) int32 {
	id := int32(len(b.g.Strands))
	b.g.Strands = append(b.g.Strands, trace.Strand{})
	b.acc[id] = &strandAcc{s: trace.Strand{ID: id, Task: task}, net: map[int32]int64{}, atPeak: map[int32]int64{}}
	return id
}

func (b *builder) alloc(s, site int32, n int64) {
	a := b.acc[s]
	a.cur += n
	a.net[site] += n
	if a.cur > a.s.Peak {
		a.s.Peak = a.cur
		a.atPeak = maps.Clone(a.net)
	}
}

func (b *builder) free(s, site int32, n int64) {
	a := b.acc[s]
	a.cur -= n
	a.net[site] -= n
}

func (b *builder) work(s int32, d int64) { b.acc[s].s.Work += d }

// end ends strand s.
func (b *builder) end(s int32) {
	a := b.acc[s]
	delete(b.acc, s)
	a.s.Net = a.cur
	for _, site := range slices.Sorted(maps.Keys(a.net)) {
		if a.net[site] != 0 || a.atPeak[site] != 0 {
			a.s.Sites = append(a.s.Sites, trace.SiteBytes{Site: site, Net: a.net[site], AtPeak: a.atPeak[site]})
		}
	}
	b.g.Strands[s] = a.s
}

func (b *builder) dep(from, to int32, kind trace.DepKind) {
	b.g.Deps = append(b.g.Deps, trace.Dep{From: from, To: to, Kind: kind})
}

// graph returns the validated graph; every strand must have ended.
func (b *builder) graph(t testing.TB) *trace.Graph {
	t.Helper()
	if len(b.acc) > 0 {
		t.Fatalf("%d strands not ended", len(b.acc))
	}
	if err := b.g.Validate(); err != nil {
		t.Fatal(err)
	}
	return b.g
}

// checkStartOrder fails unless every dep goes from a lower to a higher
// strand ID, as in a recorded run (IDs are the serial start order).
func checkStartOrder(t testing.TB, g *trace.Graph) {
	t.Helper()
	for _, d := range g.Deps {
		if d.From >= d.To {
			t.Fatalf("dep %d→%d goes against the serial start order", d.From, d.To)
		}
	}
}

// strand is a shorthand for a strand of task with the given work that
// allocates (n > 0) or frees (n < 0) at site 1, in order, then ends.
func (b *builder) strand(task int32, work int64, ops ...int64) int32 {
	return b.strandAt(task, 1, work, ops...)
}

// strandAt is strand with the allocations at site.
func (b *builder) strandAt(task, site int32, work int64, ops ...int64) int32 {
	s := b.begin(task)
	b.work(s, work)
	for _, n := range ops {
		if n >= 0 {
			b.alloc(s, site, n)
		} else {
			b.free(s, site, -n)
		}
	}
	b.end(s)
	return s
}
