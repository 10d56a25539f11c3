package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spgo/spgo/internal/report"
)

// forkJoinSrc spawns wsTasks goroutines from main, each passing wsOps
// values through a buffered channel of its own: every send and receive
// ends a strand, so a task is a chain of about 2·wsOps strands and no
// edge joins two tasks before the Wait.
const forkJoinSrc = `package main

import (
	"fmt"
	"sync"
)

func task(t int) int {
	ch := make(chan int, 1)
	sum := 0
	for i := range 100 {
		ch <- i + t
		sum += <-ch
	}
	return sum
}

func main() {
	var wg sync.WaitGroup
	sums := make([]int, 8)
	for t := range 8 {
		wg.Add(1)
		go func() { // line 23
			defer wg.Done()
			sums[t] = task(t)
		}()
	}
	wg.Wait()
	fmt.Println(sums)
}
`

const wsTasks, wsOps = 8, 100

// TestWorkSpan runs spbuild run -simulate on a program of wsTasks equal
// tasks and checks the work and span per spawn site in strands, which
// are deterministic: each task's region is one chain (parallelism 1
// exactly, at least 2·wsOps strands each) and the root's parallelism is
// near wsTasks (its own few strands lengthen the span a little). The
// wall-clock figures are only checked for consistency (span ≤ work).
func TestWorkSpan(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/ws\n\ngo 1.22\n", "main.go": forkJoinSrc})
	p := spbuildProfile(t, dir, "run", "-q", "-simulate", "-p", "1,8", ".")
	r := &p.Roots[0]
	if len(r.Regions) != 2 {
		t.Fatalf("regions %+v, want the root's and main.go:23's", r.Regions)
	}
	root, site := r.Regions[0], r.Regions[1]
	if root.Site != "" || site.Site != "main.go:23" {
		t.Fatalf("regions %+v", r.Regions)
	}
	if site.Instances != wsTasks || site.Outermost != wsTasks {
		t.Errorf("main.go:23: %d instances, %d outermost, want %d", site.Instances, site.Outermost, wsTasks)
	}
	if site.WorkStrands != site.SpanStrands || site.WorkStrands < wsTasks*2*wsOps {
		t.Errorf("main.go:23: work %d, span %d strands: want equal (each task a chain) and ≥ %d", site.WorkStrands, site.SpanStrands, wsTasks*2*wsOps)
	}
	par := float64(root.WorkStrands) / float64(root.SpanStrands)
	if par < 0.9*wsTasks || par > wsTasks {
		t.Errorf("root: work %d, span %d strands: parallelism %.2f, want within 10%% below %d", root.WorkStrands, root.SpanStrands, par, wsTasks)
	}
	if root.WorkStrands != r.Simulation.Strands {
		t.Errorf("root's work %d strands, the recorded graph has %d", root.WorkStrands, r.Simulation.Strands)
	}
	for _, g := range r.Regions {
		if g.SpanWallNS > g.WorkWallNS || g.WorkWallNS <= 0 {
			t.Errorf("region %q: wall span %d, work %d", g.Site, g.SpanWallNS, g.WorkWallNS)
		}
	}
	var b bytes.Buffer
	if err := report.Text(&b, p, report.Options{Lines: 3}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "work and span per spawn site (strands: counts of the recorded graph's strands, deterministic;") ||
		!strings.Contains(b.String(), "main.go:23       8") {
		t.Errorf("spreport show lacks the table:\n%s", b.String())
	}
}
