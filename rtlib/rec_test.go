package rtlib

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/spgo/spgo/rtlib/trace"
)

// recScript drives the recorder by hand for one root whose task spawns
// two children into a WaitGroup, as `go func() { defer wg.Done(); f() }()`
// does, and then waits: each child allocates a buffer, calls Done, and
// only then the census Task.Return runs at its end finds the buffer dead
// (a merge sort's shape). joinEarly makes the Wait complete after the
// second child's Done but before its end, as a run in which the parent
// got the baton between the two would. It returns the graph read back.
func recScript(t *testing.T, joinEarly bool) *trace.Graph {
	t.Helper()
	saved := rec
	t.Cleanup(func() {
		if rec.f != nil {
			rec.f.Close()
		}
		rec = saved
	})
	path := filepath.Join(t.TempDir(), "t.trace")
	rec.path, rec.f, rec.w, rec.failed, rec.root = path, nil, nil, false, nil
	r := &proot{name: "main.main", seen: map[string]bool{}, groups: newTable[any, membership](ifaceHash), limits: newTable[any, int](ifaceHash)}
	root := &dnode{root: r, rec: nil}
	recBeginRoot(r, root)
	wg := new(int) // the WaitGroup: any distinct pointer
	const buf, site = 32 << 10, Site(7)
	var kids []*dnode
	for range 2 {
		k := &dnode{root: r, parent: root}
		recFork(root, k, 4, nil)
		kids = append(kids, k)
		recSwitch(k)
		recAdd(k, site, buf) // buf := make(...)
		recDone(k, wg)       // defer wg.Done()
		if joinEarly && len(kids) == 2 {
			recSwitch(root)
			recJoin(root, wg)
			recSwitch(k)
		}
		recCensus(k)          // Task.Return's census: buf found dead
		recAdd(k, site, -buf) // charged now, in the task's last strand
		recReturn(k)
		recSwitch(root)
	}
	if !joinEarly {
		recJoin(root, wg)
	}
	recAdd(root, site, 2*buf) // the parent's merge buffer, after the join
	recEndRoot(r)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := trace.Read(bytes.NewReader(data))
	if err != nil || len(gs) != 1 {
		t.Fatalf("trace: %d roots, error %v; want 1 root", len(gs), err)
	}
	return gs[0]
}

// reaches reports, for every strand of g, whether it precedes to.
func reaches(g *trace.Graph, to int32) []bool {
	pred := make([][]int32, len(g.Strands))
	for _, d := range g.Deps {
		pred[d.To] = append(pred[d.To], d.From)
	}
	seen := make([]bool, len(g.Strands))
	stack := []int32{to}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range pred[v] {
			if !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	return seen
}

// joinStrand returns the strand that join deps lead to (one Wait).
func joinStrand(t *testing.T, g *trace.Graph) int32 {
	t.Helper()
	j := int32(-1)
	for _, d := range g.Deps {
		if d.Kind == trace.Join {
			if j >= 0 && d.To != j {
				t.Fatalf("join deps to strands %d and %d", j, d.To)
			}
			j = d.To
		}
	}
	if j < 0 {
		t.Fatal("no join dep")
	}
	return j
}

// TestRecordJoinAfterEnd: a task released to a WaitGroup at its Done is
// joined after its end, as the engine joins it: every strand of a joined
// child, the one with the deaths the census at its end found included,
// precedes the parent's strand after the Wait. Released at the Done, a
// work-stealing schedule of the trace ran the parent's merge while the
// children's buffers were still charged, above MHWM_p (mergesort of the
// accuracy corpus: 5.4–6.2 MB at p = 8 for MHWM_8 4.35 MB).
func TestRecordJoinAfterEnd(t *testing.T) {
	g := recScript(t, false)
	j := joinStrand(t, g)
	before := reaches(g, j)
	for _, s := range g.Strands {
		if s.Task != g.Strands[j].Task && !before[s.ID] {
			t.Errorf("strand %d of task %d (net %d) does not precede the join, strand %d", s.ID, s.Task, s.Net, j)
		}
	}
	// Nothing the children allocated is live after their join.
	var live int64
	for _, s := range g.Strands {
		if before[s.ID] {
			live += s.Net
		}
	}
	if live != 0 {
		t.Errorf("%d bytes live at the join, want 0", live)
	}
}

// TestRecordJoinBeforeEnd: a Wait that completed before a child's end
// in the recorded run (after its Done) keeps the dep from the strand
// that ended at the Done: the child's later strands come after the
// Wait in the run, so a dep from them would order the run backwards.
func TestRecordJoinBeforeEnd(t *testing.T) {
	g := recScript(t, true)
	j := joinStrand(t, g)
	for _, d := range g.Deps {
		if d.Kind == trace.Join && d.From >= d.To {
			t.Errorf("join dep %d→%d goes backwards in the recorded run", d.From, d.To)
		}
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	before := reaches(g, j)
	late := 0
	for _, s := range g.Strands {
		if s.Task == 2 && !before[s.ID] {
			late++
		}
	}
	if late == 0 {
		t.Errorf("the second child's strands after its Done all precede the Wait that completed before them")
	}
}
