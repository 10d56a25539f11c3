package sim

import (
	"fmt"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
	"github.com/spgo/spgo/rtlib/trace"
)

// forkJoin builds a root that spawns k tasks at site 7, each a chain of
// m strands of work w (Seq deps), the root's strands of work pw each:
// p0 spawns c1 and continues as p1, …, p(k−1) spawns ck and continues
// as pk, and p(k+1) follows pk and every child's last strand.
func forkJoin(t *testing.T, k, m int, w, pw int64) *trace.Graph {
	b := newBuilder("main")
	b.g.Sites[7] = "main.go:7"
	root := b.task(-1, 0)
	p := b.strand(root, pw)
	var lasts []int32
	for range k {
		c := b.task(root, 7)
		first := b.strand(c, w)
		b.dep(p, first, trace.Spawn)
		prev := first
		for range m - 1 {
			s := b.strand(c, w)
			b.dep(prev, s, trace.Seq)
			prev = s
		}
		lasts = append(lasts, prev)
		next := b.strand(root, pw)
		b.dep(p, next, trace.Cont)
		p = next
	}
	end := b.strand(root, pw)
	b.dep(p, end, trace.Seq)
	for _, l := range lasts {
		b.dep(l, end, trace.Join)
	}
	return b.graph(t)
}

// chain builds a root whose task spawns a task at site 9, which spawns
// another there, depth times: recursion at one site.
func chain(t *testing.T, depth int) *trace.Graph {
	b := newBuilder("main")
	b.g.Sites[9] = "rec.go:9"
	parent := b.task(-1, 0)
	prev := b.strand(parent, 1)
	for range depth {
		c := b.task(parent, 9)
		s := b.strand(c, 1)
		b.dep(prev, s, trace.Spawn)
		parent, prev = c, s
	}
	return b.graph(t)
}

func TestRegions(t *testing.T) {
	// A channel edge from the root into the middle of the third child's
	// chain: it does not lengthen the child's own region.
	withChan := func(t *testing.T) *trace.Graph {
		g := forkJoin(t, 4, 5, 100, 10)
		g.Deps = append(g.Deps, trace.Dep{From: 0, To: 14, Kind: trace.Chan})
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
		return g
	}
	tests := []struct {
		name  string
		graph func(*testing.T) *trace.Graph
		want  []profile.Region
	}{
		{
			// Root: 6 strands of 10 ns and 20 of 100 ns; its longest
			// chain p0 p1 p2 p3, c4's five strands, p5 (10 strands,
			// 550 ns): parallelism 2060/550 ≈ 3.7 in time, near k = 4,
			// 26/10 in strands. Each child alone is a chain:
			// parallelism 1.
			name:  "4 equal tasks",
			graph: func(t *testing.T) *trace.Graph { return forkJoin(t, 4, 5, 100, 10) },
			want: []profile.Region{
				{Site: "", Instances: 1, Outermost: 1, WorkStrands: 26, SpanStrands: 10, WorkWallNS: 2060, SpanWallNS: 550},
				{Site: "main.go:7", Instances: 4, Outermost: 4, WorkStrands: 20, SpanStrands: 20, WorkWallNS: 2000, SpanWallNS: 2000},
			},
		},
		{
			name:  "16 equal tasks",
			graph: func(t *testing.T) *trace.Graph { return forkJoin(t, 16, 50, 1000, 1) },
			want: []profile.Region{
				{Site: "", Instances: 1, Outermost: 1, WorkStrands: 18 + 16*50, SpanStrands: 16 + 50 + 1, WorkWallNS: 18 + 16*50*1000, SpanWallNS: 16 + 50*1000 + 1},
				{Site: "main.go:7", Instances: 16, Outermost: 16, WorkStrands: 16 * 50, SpanStrands: 16 * 50, WorkWallNS: 16 * 50 * 1000, SpanWallNS: 16 * 50 * 1000},
			},
		},
		{
			name:  "an edge from outside the region",
			graph: withChan,
			want: []profile.Region{
				{Site: "", Instances: 1, Outermost: 1, WorkStrands: 26, SpanStrands: 10, WorkWallNS: 2060, SpanWallNS: 550},
				{Site: "main.go:7", Instances: 4, Outermost: 4, WorkStrands: 20, SpanStrands: 20, WorkWallNS: 2000, SpanWallNS: 2000},
			},
		},
		{
			// Three nested instances of one site: the outermost one's
			// region holds the others, counted once.
			name:  "recursion",
			graph: func(t *testing.T) *trace.Graph { return chain(t, 3) },
			want: []profile.Region{
				{Site: "", Instances: 1, Outermost: 1, WorkStrands: 4, SpanStrands: 4, WorkWallNS: 4, SpanWallNS: 4},
				{Site: "rec.go:9", Instances: 3, Outermost: 1, WorkStrands: 3, SpanStrands: 3, WorkWallNS: 3, SpanWallNS: 3},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Regions(tt.graph(t))
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("Regions:\n got %+v\nwant %+v", got, tt.want)
			}
			r := profile.Root{Name: "main", Regions: got, MHWM: []profile.Point{{P: 1}}}
			p := profile.Profile{Schema: profile.Schema, PMax: 1, Roots: []profile.Root{r}}
			if err := p.Validate(); err != nil {
				t.Errorf("the regions do not validate: %v", err)
			}
		})
	}
	// Parallelism of k equal tasks in time approaches k as the tasks
	// outweigh the root's own strands.
	g := Regions(forkJoin(t, 16, 50, 1000, 1))
	if par := float64(g[0].WorkWallNS) / float64(g[0].SpanWallNS); par < 15.9 || par > 16 {
		t.Errorf("parallelism of 16 equal tasks %.3f, want just under 16", par)
	}
}
