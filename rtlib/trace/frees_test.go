package trace

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// pipelineTrace is a producer and a consumer joined by an unbuffered
// channel, two items long: the producer (task 1) allocates an item of
// 100 bytes per strand, the consumer (task 2) drops it. Census 0 ran in
// the consumer's strand 5, after the first item was dropped, and the
// series-parallel accounting charged the death at the join (strand 8).
//
//	strands: 0 root spawns both; 1 root waits (join of 6 and 7) → 8
//	producer: 2 (alloc item 0, send) → 3 (alloc item 1, send) → 6
//	consumer: 4 (receive item 0) → 5 (receive item 1) → 7
const pipelineTrace = `spgo.trace/v1
site 1 "p.go:3"
root "main"
task 0 -1 0
task 1 0 0
task 2 0 0
strand 0 0 10 0 0
dep 0 1 cont
dep 0 2 spawn
dep 0 4 spawn
strand 1 0 10 0 0
strand 2 1 10 100 100 1:100:100
strand 3 1 10 100 100 1:100:100
strand 4 2 10 0 0
strand 5 2 10 0 0
strand 6 1 10 0 0
strand 7 2 10 0 0
strand 8 0 10 0 0
dep 2 3 seq
dep 3 6 seq
dep 4 5 seq
dep 5 7 seq
dep 2 5 chan
dep 4 3 chan
dep 3 7 chan
dep 5 6 chan
dep 1 8 seq
dep 6 8 join
dep 7 8 join
census 0 -1 4 5
free 8 1 100 0 2
end
`

func readOne(t *testing.T, in string) *Graph {
	t.Helper()
	gs, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 1 {
		t.Fatalf("%d graphs", len(gs))
	}
	return gs[0]
}

// TestPlaceFrees checks that a death found at a census moves from the
// join to the first strand the channel edges order after its allocation
// and every strand that ran before the census, and stays at the join
// without them.
func TestPlaceFrees(t *testing.T) {
	g := readOne(t, pipelineTrace)
	// 4 and 5 ran, 2 allocated: 5 → 6 (chan) and 2 → 3 → 6: strand 6
	// follows all three; 7 too, but later in the order.
	if got := g.Frees[0].Placed; got != 6 {
		t.Fatalf("free placed at strand %d, want 6", got)
	}
	if s := g.Strands[6]; s.Net != -100 || s.Peak != 0 || !reflect.DeepEqual(s.Sites, []SiteBytes{{1, -100, 0}}) {
		t.Errorf("strand 6 = %+v, want the free at its start", s)
	}
	if s := g.Strands[8]; s.Net != 0 {
		t.Errorf("strand 8 = %+v, want no free", s)
	}

	// Without the channel edges the join is the first strand after
	// both tasks.
	noChan := strings.NewReplacer("dep 2 5 chan\n", "", "dep 4 3 chan\n", "", "dep 3 7 chan\n", "", "dep 5 6 chan\n", "").Replace(pipelineTrace)
	g = readOne(t, noChan)
	if got := g.Frees[0].Placed; got != 8 {
		t.Errorf("without channel edges: placed at %d, want 8 (the join)", got)
	}

	// A census that saw a strand nothing follows but the join: stays.
	g = readOne(t, strings.Replace(pipelineTrace, "census 0 -1 4 5", "census 0 -1 4 5 7", 1))
	if got := g.Frees[0].Placed; got != 8 {
		t.Errorf("census saw strand 7: placed at %d, want 8", got)
	}
}

// TestMergeCuts checks that a census's cut is merged back into the strand
// it was cut from, with the free placed at the cut inside the merged
// strand, and that the strands are renumbered densely.
func TestMergeCuts(t *testing.T) {
	// Strand 1 (task 1) allocates 100 at site 1 and drops it; a census
	// then finds it dead and cuts strand 2, which allocates 50. The
	// accounting deferred the death to the join (4); the cut follows
	// everything that ran, so the death goes to the cut's start.
	const in = `spgo.trace/v1
root "r"
task 0 -1 0
task 1 0 0
task 2 0 0
strand 0 0 1 0 0
strand 3 2 1 70 70 2:70:70
strand 1 1 2 100 100 1:100:100
strand 2 1 3 50 50 1:50:50
strand 4 0 1 0 0
dep 0 1 spawn
dep 0 3 spawn
dep 3 4 chan
dep 1 2 seq
dep 2 4 join
dep 3 4 join
census 0 2 1
free 4 1 100 0 1
end
`
	g := readOne(t, in)
	if len(g.Strands) != 4 {
		t.Fatalf("%d strands after the merge, want 4", len(g.Strands))
	}
	m := g.Strands[1]
	want := Strand{ID: 1, Task: 1, Work: 5, Net: 50, Peak: 100, Sites: []SiteBytes{{1, 50, 100}}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("merged strand = %+v\nwant %+v", m, want)
	}
	if f := g.Frees[0]; f.Placed != 1 || f.At != 3 || f.Alloc != 1 {
		t.Errorf("free = %+v, want placed in the merged strand 1, at 3 (was 4), alloc 1", f)
	}
	if g.Censuses[0].Cut != -1 {
		t.Errorf("census cut %d after the merge, want -1", g.Censuses[0].Cut)
	}
	if err := g.Validate(); err != nil {
		t.Error(err)
	}
	for _, d := range g.Deps {
		if d.From == d.To {
			t.Errorf("dep %+v left inside the merged strand", d)
		}
	}
}

// TestCompose checks compose against the strand of the whole sequence
// of allocations and frees, split at every point.
func TestCompose(t *testing.T) {
	type ev struct {
		site int32
		n    int64
	}
	strandOf := func(evs []ev) Strand {
		s := Strand{Task: 1}
		for _, e := range evs {
			j := -1
			for k := range s.Sites {
				if s.Sites[k].Site == e.site {
					j = k
				}
			}
			if j < 0 {
				j = len(s.Sites)
				s.Sites = append(s.Sites, SiteBytes{Site: e.site})
			}
			s.Sites[j].Net += e.n
			s.Net += e.n
			if s.Net > s.Peak {
				s.Peak = s.Net
				for k := range s.Sites {
					s.Sites[k].AtPeak = s.Sites[k].Net
				}
			}
		}
		return s
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		evs := make([]ev, rng.IntN(8))
		for i := range evs {
			evs[i] = ev{int32(rng.IntN(3)), rng.Int64N(21) - 10}
		}
		want := strandOf(evs)
		for cut := range len(evs) + 1 {
			got := compose(strandOf(evs[:cut]), strandOf(evs[cut:]))
			// Sites the whole strand lists only because a part did are
			// equivalent with zero bytes.
			if got.Net != want.Net || got.Peak != want.Peak || !sameSites(got.Sites, want.Sites) {
				t.Fatalf("%v cut at %d: compose = %+v, want %+v", evs, cut, got, want)
			}
		}
	}
}

func sameSites(a, b []SiteBytes) bool {
	m := map[int32][2]int64{}
	for _, s := range a {
		m[s.Site] = [2]int64{s.Net, s.AtPeak}
	}
	for _, s := range b {
		if m[s.Site] != [2]int64{s.Net, s.AtPeak} {
			return false
		}
		delete(m, s.Site)
	}
	for _, v := range m {
		if v != [2]int64{} {
			return false
		}
	}
	return true
}

// TestWriteCensusFree checks the Writer's census and free records, a
// census list continued over several lines included, through Read.
func TestWriteCensusFree(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.BeginRoot("r")
	w.Task(Task{ID: 0, Parent: -1})
	for i := range 3 {
		w.Strand(Strand{ID: int32(i), Task: 0, Net: 0})
	}
	w.Dep(Dep{From: 0, To: 1, Kind: Seq})
	w.Dep(Dep{From: 1, To: 2, Kind: Seq})
	ran := make([]int32, strandsPerLine+3)
	w.Census(0, Census{Ran: ran, Cut: -1})
	w.Free(Free{At: 2, Site: 1, Bytes: 5, Census: 0, Alloc: -1})
	if err := w.EndRoot(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\ncensus 0 -1 "); n != 2 {
		t.Errorf("%d census lines, want 2", n)
	}
	g := readOne(t, buf.String())
	if len(g.Censuses) != 1 || len(g.Censuses[0].Ran) != strandsPerLine+3 {
		t.Errorf("censuses = %d, first has %d strands", len(g.Censuses), len(g.Censuses[0].Ran))
	}
	if s := g.Strands[2]; s.Net != -5 {
		t.Errorf("strand 2 net %d, want -5 (the free, no sync deps: at its charge point)", s.Net)
	}
	bad := NewWriter(&bytes.Buffer{})
	bad.BeginRoot("r")
	if err := bad.Free(Free{At: 0, Bytes: 0, Alloc: -1}); err == nil {
		t.Error("Free of 0 bytes accepted")
	}
}
