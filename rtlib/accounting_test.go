package rtlib_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spgo/spgo/internal/sim"
	"github.com/spgo/spgo/rewrite"
	"github.com/spgo/spgo/rtlib/profile"
	"github.com/spgo/spgo/rtlib/trace"
)

// accCase is a constructed program of testdata/accounting with its
// analytic figures (see the comment at the top of each program).
type accCase struct {
	name   string
	mhwm   func(p int64) int64 // the true MHWM_p
	serial int64               // the true serial peak, 0: not checked
	exact  bool
	// For inexact programs, the figures must be sound (at least mhwm) and
	// not absurd (at most most).
	most func(p int64) int64
	why  string // a reason must contain it
	// lines are per-line figures to check: the line of main.go whose
	// comment ends with the mark is charged alloc bytes (within
	// lineUnder below and lineSlack above), in total and in MHWM_64's
	// antichain.
	lines []lineCase
	// slow, when set, says why the oracle check is left out: the oracle
	// (a collection at every allocation) takes minutes on the program.
	slow string
	// stacks, when set, is the goroutine stacks' part of the true total
	// (heap and stacks) at p: the total must be at least mhwm(p) +
	// stacks(p), and when stacksExact, exact and within slack of it.
	stacks      func(p int64) int64
	stacksExact bool
}

// lineCase is a per-line figure of a program (see accCase.lines).
type lineCase struct {
	mark  string // the comment ending the line: "// external"
	alloc int64  // bytes allocated there in all, also its MHWM_64 share
	share int64  // its MHWM_64 share when not alloc (a line whose objects die)
}

// lineSlack is what a line's figure may exceed its analytic value by:
// size-class rounding and the small allocations (the runtime's and the
// program's own) that the same reading of runtime/metrics finds.
// lineUnder is what it may fall short by: rtlib subtracts its own small
// allocations (16 bytes per tracked object) from a reading before the
// runtime counts them (when their span leaves the allocation cache).
const (
	lineSlack = 64 * kib
	lineUnder = 1 * kib
)

const (
	kib = 1 << 10
	mib = 1 << 20
)

var accCases = []accCase{
	{name: "tiles", exact: true, serial: 8*64*kib + mib,
		mhwm: func(p int64) int64 { return 8*64*kib + min(p, 8)*mib }},
	{name: "tilesvar", exact: true, serial: 8*64*kib + mib,
		mhwm: func(p int64) int64 { return 8*64*kib + min(p, 8)*mib }},
	{name: "limit", exact: true,
		mhwm: func(p int64) int64 { return 8*64*kib + min(p, 8, 3)*mib }},
	{name: "explosion", exact: true, serial: mib,
		mhwm: func(p int64) int64 { return 8 * mib }},
	{name: "tiny", exact: true, serial: mib,
		mhwm: func(p int64) int64 { return mib }},
	{name: "keep", exact: true, serial: 16 * 256 * kib,
		mhwm: func(p int64) int64 { return 16 * 256 * kib }},
	{name: "later", exact: true, serial: 3 * mib,
		mhwm: func(p int64) int64 { return 3 * mib }},
	{name: "external", exact: true, serial: 8 * (64*kib + mib),
		mhwm:  func(p int64) int64 { return 8 * (64*kib + mib) },
		lines: []lineCase{{mark: "// external", alloc: 8 * mib}, {mark: "// hooked", alloc: 8 * 64 * kib}}},
	{name: "foreignwait", why: "a Wait joins goroutines another goroutine spawned", serial: mib,
		mhwm: func(p int64) int64 { return min(p, 4) * mib },
		most: func(p int64) int64 { return min(p, 4) * mib }},
	{name: "rewait", exact: true, serial: mib,
		mhwm: func(p int64) int64 { return min(p, 4) * mib }},
	{name: "pipeline", why: "channel communication between goroutines",
		mhwm: func(p int64) int64 { return 2 * 64 * kib },
		most: func(p int64) int64 { return 2 * 32 * 64 * kib }},
	{name: "workerpool", why: "channel communication between goroutines",
		mhwm: func(p int64) int64 { return 16*16*kib + min(p, 4)*512*kib },
		most: func(p int64) int64 { return 16 * (16*kib + 512*kib) }},
}

// slack is what a figure may exceed the true value by: 3 % + 256 KiB
// (the runtime's and the program's small allocations, censuses).
func slack(v int64) int64 { return v*3/100 + 256*kib }

// TestAccounting runs the constructed programs of testdata/accounting
// instrumented and checks their figures against the analytic values, for
// p = 1, 2, 4, …, 64: never below (sound), and within 3 % + 256 KiB for
// the exact ones, which must also agree with the oracle policy.
func TestAccounting(t *testing.T) {
	runCorpus(t, "accounting", accCases, true)
}

// TestAccuracy runs the accuracy corpus of testdata/accuracy (issue 21:
// the shapes on which per-strand accounting went wrong) the same way. A
// root may be reported inexact, with a reason; its figures must then
// still be sound. One reported exact must be within 3 % + 256 KiB.
func TestAccuracy(t *testing.T) {
	runCorpus(t, "accuracy", accuracyCases, false)
}

// TestDescriptorChains runs testdata/accounting/chains: K = 256 chains
// of L = 16 goroutines, each link spawned by the one before, which ends
// first. A link's descriptor (480 bytes) is freed in its own last
// strand; deferred to its parent's join, as before, the free was lost
// (the parent had ended) and every descriptor was held to the end of the
// root: MHWM_p = 2.83 MB at every p, with SPGO_TRACE as here. Each
// processor more can descend one more chain with every link's end put
// off, L-1 descriptors: MHWM_p - MHWM_1 = (min(p, K) - 1)·(L-1)·480.
// The base (the heads, rtlib's recording) is not analytic here; it must
// be below the cost of every descriptor held.
func TestDescriptorChains(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	_, inst := buildBoth(t, root, []string{"./rtlib/testdata/accounting/chains"})
	pf := filepath.Join(t.TempDir(), "p.json")
	run(t, filepath.Join(inst, "chains"), pf)
	p, err := profile.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	r := p.Roots[0]
	const k, l, d = 256, 16, 480
	m1, _ := r.MHWMAt(1)
	if m1 >= k*l*d {
		t.Errorf("MHWM_1 = %d: every descriptor (%d) held", m1, k*l*d)
	}
	for q := int64(2); q <= 64; q *= 2 {
		m, _ := r.MHWMAt(int(q))
		if got, want := m-m1, (min(q, k)-1)*(l-1)*d; got < want-2*kib || got > want+2*kib {
			t.Errorf("MHWM_%d - MHWM_1 = %d, want %d (one more chain descended per processor)", q, got, want)
		}
	}
}

// runCorpus builds the programs of testdata/<dir> named by cases,
// original and instrumented, and checks each one's figures (see
// checkCase). strict: the exactness flag must be the case's.
func runCorpus(t *testing.T, dir string, cases []accCase, strict bool) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, c := range cases {
		patterns = append(patterns, "./rtlib/testdata/"+dir+"/"+c.name)
	}
	orig, inst := buildBoth(t, root, patterns)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join(root, "rtlib/testdata", dir, c.name, "main.go")
			checkCase(t, c, filepath.Join(orig, c.name), filepath.Join(inst, c.name), src, strict)
		})
	}
}

// buildBoth builds the main packages of patterns (relative to the
// module root) original and instrumented (through rewrite) and returns
// the two directories the binaries are in, each named for its package.
func buildBoth(t *testing.T, root string, patterns []string) (orig, inst string) {
	t.Helper()
	res, err := rewrite.Packages(context.Background(), rewrite.Config{Dir: root}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	overlay, err := res.WriteOverlay(filepath.Join(tmp, "overlay"))
	if err != nil {
		t.Fatal(err)
	}
	orig, inst = filepath.Join(tmp, "orig")+"/", filepath.Join(tmp, "inst")+"/"
	build(t, root, append([]string{"-o", orig}, patterns...))
	build(t, root, append([]string{"-o", inst, "-overlay", overlay}, patterns...))
	return orig, inst
}

// checkCase runs the original and the instrumented program of case c
// and checks the instrumented run's profile: same stdout; MHWM_p for
// p = 1, 2, 4, …, 64 and the serial peak never below the analytic
// figure and, for an exact root, at most 3 % + 256 KiB above it; the
// per-line figures sum to the root's; the lines of c.lines; the trace;
// and for an exact root, agreement with the oracle policy.
func checkCase(t *testing.T, c accCase, orig, inst, src string, strict bool) {
	want, _ := run(t, orig, "")
	bound := plainBound(t, orig)
	t.Logf("plain bound | %s | %.2f MiB", c.name, float64(bound)/(1<<20))
	pf := filepath.Join(t.TempDir(), "p.json")
	got, _ := run(t, inst, pf)
	if got != want {
		t.Errorf("stdout %q, original %q", got, want)
	}
	p, err := profile.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	if p.PMax != 64 || len(p.Roots) != 1 || p.Roots[0].Name != "main.main" {
		t.Fatalf("pmax %d, %d roots", p.PMax, len(p.Roots))
	}
	r := p.Roots[0]
	logFigures(t, c, r)
	if strict && r.Exact != c.exact {
		t.Errorf("exact = %v, want %v; reasons %q", r.Exact, c.exact, r.Reasons)
	}
	if !r.Exact && len(r.Reasons) == 0 {
		t.Errorf("inexact without a reason")
	}
	if c.why != "" && !strings.Contains(strings.Join(r.Reasons, "\n"), c.why) {
		t.Errorf("no reason says %q: %q", c.why, r.Reasons)
	}
	// Inexact figures need only be sound; exact ones also close.
	close := r.Exact || strict
	for q := int64(1); q <= 64; q *= 2 {
		m, _ := r.MHWMAt(int(q))
		lo := c.mhwm(q)
		hi := lo + slack(lo)
		if c.most != nil {
			hi = c.most(q) + slack(c.most(q))
		}
		if m < lo-analyticUnder || close && m > hi {
			t.Errorf("MHWM_%d = %d, want %d … %d (exact %v; reasons %q)", q, m, lo, hi, r.Exact, r.Reasons)
		}
		l, h, _ := r.IntervalAt(int(q))
		checkInterval(t, fmt.Sprintf("MHWM_%d", q), l, h, lo, intervalOver(lo), analyticUnder)
	}
	if c.serial > 0 && (r.SerialPeak < c.serial-analyticUnder || close && r.SerialPeak > c.serial+slack(c.serial)) {
		t.Errorf("serial peak %d, want %d + at most %d", r.SerialPeak, c.serial, slack(c.serial))
	}
	var sum int64
	for _, l := range r.Lines {
		sum += l.MHWMBytes["64"]
	}
	if m, _ := r.MHWMAt(64); sum != m {
		t.Errorf("per-line MHWM_64 sums to %d, MHWM_64 = %d", sum, m)
	}
	for _, l := range r.Lines {
		for q, b := range l.MHWMBytes {
			if b < 0 {
				t.Errorf("%s:%d: MHWM_%s share %d, below zero", l.File, l.Line, q, b)
			}
		}
	}
	// The independent check: no figure that bounds every schedule may
	// be below what a real schedule of the original held.
	if m, ok := plainCovered(r); !ok {
		t.Logf("plain bound not applied: %d tasks, pmax %d", r.Spawns+1, len(r.MHWM))
	} else if m < bound {
		t.Errorf("MHWM_%d = %d, below %d, the live heap a plain run at GOGC=1 reached (gctrace)", len(r.MHWM), m, bound)
	}
	checkStacks(t, c, r)
	checkWaitGroups(t, r)
	// Per-line figures follow, also on inexact roots: a line is charged
	// what it (or the uninstrumented code it calls) allocated.
	for _, lc := range c.lines {
		checkLine(t, src, r.Lines, lc)
	}
	checkTrace(t, pf+".trace", r)
	if r.Exact && c.slow == "" {
		checkOracle(t, inst, r)
	}
}

// checkStacks checks r's total with goroutine stacks (acct_stack.go):
// present, and where c gives the stacks' truth, never below it and,
// when c says it is exact, exact and within slack of it.
func checkStacks(t *testing.T, c accCase, r profile.Root) {
	t.Helper()
	st := r.Stacks
	if st == nil {
		t.Errorf("no stacks figures")
		return
	}
	if c.stacks == nil {
		return
	}
	t.Logf("stacks: start %d, %d goroutines, %d grown by %d; exact %v", st.StartBytes, st.Goroutines, st.Grown, st.GrownBytes, st.Exact)
	if c.stacksExact && !st.Exact {
		t.Errorf("total with stacks inexact, want exact")
	}
	for q := int64(1); q <= 64; q *= 2 {
		v, l, h, _ := r.TotalAt(int(q))
		want := c.mhwm(q) + c.stacks(q)
		if v < want-analyticUnder || st.Exact && v > want+slack(want) {
			t.Errorf("total_%d = %d, want %d (stacks %d; exact %v)", q, v, want, c.stacks(q), st.Exact)
		}
		if h != 0 && (l > want+intervalOver(want) || h < want-analyticUnder) {
			t.Errorf("total_%d's interval %d … %d misses %d", q, l, h, want)
		}
	}
}

// gcLive matches the heap sizes of a gctrace line ("4->5->2 MB"): at the
// collection's start, at its end, and live (marked), in MiB rounded down.
var gcLive = regexp.MustCompile(`(\d+)->(\d+)->(\d+) MB`)

// plainBound runs the original program at GOGC=1 on two processors with
// stop-the-world collections and the collector's trace on
// (GODEBUG=gctrace=1,gcstoptheworld=1), independent of spgo's
// hooks, and returns a lower bound on the most its heap held above what
// it held before main: the largest live heap a collection reported less
// the smallest, less the MiB the trace's rounding can hide (0 if that
// leaves nothing). Any one run is one schedule: MHWM at a p no smaller
// than the number of tasks may not be below it (plainCovered).
func plainBound(t *testing.T, orig string, args ...string) int64 {
	t.Helper()
	// Stop-the-world collections: a concurrent one marks what is
	// allocated while it marks, dead or not (loopscratch's 14 KB of
	// live scratch read as 1 MiB), and its live heap is no bound.
	_, stderr := runArgs(t, orig, "", args, "GOGC=1", "GODEBUG=gctrace=1,gcstoptheworld=1", "GOMAXPROCS=2")
	lo, hi := int64(-1), int64(0)
	for _, m := range gcLive.FindAllStringSubmatch(stderr, -1) {
		live, _ := strconv.ParseInt(m[3], 10, 64)
		hi = max(hi, live)
		if lo < 0 || live < lo {
			lo = live
		}
	}
	if lo < 0 {
		return 0
	}
	return max(0, (hi-lo-1)<<20)
}

// wgDecl matches a line that declares a WaitGroup variable.
var wgDecl = regexp.MustCompile(`^\s*var \w+ sync\.WaitGroup\s*(//.*)?$`)

// checkWaitGroups: a line that declares a WaitGroup is charged the
// WaitGroup (16 bytes, when a goroutine's closure moves it to the heap)
// and no more than wgResidue besides, in all and in every worst case.
// The bytes of uninstrumented code read at a census went to it when it
// was a task's last allocation: 3.9 MiB for 25 000 parked goroutines,
// 33 KiB in fib (issue 36).
func checkWaitGroups(t *testing.T, r profile.Root) {
	t.Helper()
	for _, l := range r.Lines {
		if !wgDecl.MatchString(l.Text) {
			continue
		}
		if l.AllocBytes > 16*l.Allocs+wgResidue {
			t.Errorf("%s:%d %q: %d bytes in %d allocations, more than the WaitGroups", l.File, l.Line, l.Text, l.AllocBytes, l.Allocs)
		}
		for q, b := range l.MHWMBytes {
			if b > 16*l.Allocs+wgResidue {
				t.Errorf("%s:%d %q: %d bytes of MHWM_%s, more than the WaitGroups", l.File, l.Line, l.Text, b, q)
			}
		}
	}
}

// wgResidue is what a WaitGroup's line may still be charged besides:
// rtlib's and the runtime's first allocations of a root's first spawn
// (up to 1.6 KiB measured; not subtracted yet), read at the census
// before it, when the WaitGroup was the task's last allocation.
const wgResidue = 2 * kib

// plainCovered returns r's MHWM at pmax, and whether it covers every
// schedule of the run's goroutines: a plain run may have all of them in
// progress at once (Go's scheduler runs a parent on past its go
// statements), so only a root with at most pmax tasks is bounded by it.
func plainCovered(r profile.Root) (int64, bool) {
	m, ok := r.MHWMAt(len(r.MHWM))
	return m, ok && r.Spawns+1 <= int64(len(r.MHWM))
}

// logFigures logs one line with r's figures against c's analytic ones
// (MiB at p = 1, 2, 4, 8, 64 and the serial peak), for BENCHMARKS.md's
// accuracy table: go test ./rtlib -run 'TestAccuracy|TestAccounting' -v.
func logFigures(t *testing.T, c accCase, r profile.Root) {
	t.Helper()
	mb := func(b int64) string { return fmt.Sprintf("%.2f", float64(b)/(1<<20)) }
	var b strings.Builder
	fmt.Fprintf(&b, "figures | %s |", c.name)
	for _, q := range []int{1, 2, 4, 8, 64} {
		m, _ := r.MHWMAt(q)
		fmt.Fprintf(&b, " %s / %s |", mb(m), mb(c.mhwm(int64(q))))
	}
	serial := "—"
	if c.serial > 0 {
		serial = mb(c.serial)
	}
	fmt.Fprintf(&b, " %s / %s | %v |", mb(r.SerialPeak), serial, r.Exact)
	t.Log(b.String())
	b.Reset()
	fmt.Fprintf(&b, "interval | %s |", c.name)
	for _, q := range []int{1, 2, 4, 8, 64} {
		if q <= len(r.MHWM) {
			pt := r.MHWM[q-1]
			fmt.Fprintf(&b, " %s … %s |", mb(pt.Low), mb(pt.High))
		}
	}
	fmt.Fprintf(&b, " %s … %s |", mb(r.SerialLow), mb(r.SerialHigh))
	t.Log(b.String())
	for _, why := range r.Reasons {
		t.Log("reason: " + why)
	}
}

// intervalOver is how far above an analytic figure v an interval's low
// end may be: the small objects the analytic figures leave out (regexp's
// and math/big's library state, a few KiB a task).
func intervalOver(v int64) int64 { return 64*kib + v/100 }

// analyticUnder is how far below an analytic figure a reported one may
// be: the analytic figures leave out a few small objects and round as
// the runtime does; rtlib's subtraction of its own small allocations can
// run ahead of the runtime's count by a few hundred bytes.
const analyticUnder = 4 * kib

// checkTrace checks the trace the run recorded (SPGO_TRACE): one valid
// graph for the root, and on a series-parallel root (exact figures),
// work-stealing schedules of it on p processors never above MHWM_p (Oracle
// C of docs/algorithms.md, "Test oracles": they are schedules the MHWM covers).
func checkTrace(t *testing.T, path string, r profile.Root) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gs, err := trace.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 1 || gs[0].Name != r.Name {
		t.Fatalf("trace: %d roots, want %s", len(gs), r.Name)
	}
	if !r.Exact {
		return
	}
	for _, p := range []int{1, 2, 4, 8} {
		res, err := sim.Simulate(gs[0], sim.WS, p, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if m, _ := r.MHWMAt(p); res.PeakBytes > m {
			t.Errorf("work stealing on %d processors peaks at %d, above MHWM_%d = %d", p, res.PeakBytes, p, m)
			for _, l := range res.Sites {
				t.Logf("simulated peak: site %d: %d", l.Site, l.Bytes)
			}
			for _, l := range r.Lines {
				t.Logf("MHWM_%d: %s:%d %d", p, l.File, l.Line, l.MHWMBytes[fmt.Sprint(p)])
			}
		}
	}
}

// checkOracle runs bin again under SPGO_CENSUS=oracle (a census at every
// hook, marker and strand boundary, every object tracked) and checks the
// default policy's figures r against it at p = 1, 2, 4, …, 64 and the
// serial peak: within 3 % + 256 KiB above, and below by no more than
// oracleUnder (rtlib's own small allocations, which the oracle reads as
// the program's in more strands).
func checkOracle(t *testing.T, bin string, r profile.Root) {
	t.Helper()
	pf := filepath.Join(t.TempDir(), "oracle.json")
	run(t, bin, pf, "SPGO_CENSUS=oracle")
	p, err := profile.ReadFile(pf)
	if err != nil {
		t.Fatal(err)
	}
	o := p.Roots[0]
	if !o.Exact {
		t.Errorf("oracle run inexact: %q", o.Reasons)
	}
	check := func(what string, got, want int64) {
		if got < want-oracleUnder || got > want+slack(want) {
			t.Errorf("%s = %d, oracle %d (want %d … %d)", what, got, want, want-oracleUnder, want+slack(want))
		}
	}
	for q := 1; q <= 64; q *= 2 {
		got, _ := r.MHWMAt(q)
		want, _ := o.MHWMAt(q)
		check(fmt.Sprintf("MHWM_%d", q), got, want)
		lo, hi, _ := r.IntervalAt(q)
		checkInterval(t, fmt.Sprintf("MHWM_%d", q), lo, hi, want, analyticUnder, oracleUnder)
	}
	check("serial peak", r.SerialPeak, o.SerialPeak)
	checkInterval(t, "serial peak", r.SerialLow, r.SerialHigh, o.SerialPeak, analyticUnder, oracleUnder)
}

// checkInterval checks that low … high, a figure's interval, holds
// truth: low at most over above it, high at most under below it (the
// truth's own uncertainty: an analytic value's left-out small objects,
// the oracle's lag on runtime records). An interval must be there.
func checkInterval(t *testing.T, what string, low, high, truth, over, under int64) {
	t.Helper()
	if high == 0 {
		t.Errorf("%s: no interval", what)
		return
	}
	if low > truth+over || high < truth-under {
		t.Errorf("%s: interval %d … %d does not hold the truth %d (%d over, %d under)", what, low, high, truth, over, under)
	}
}

// oracleUnder is how far below the oracle a figure may be: the runtime's
// and rtlib's small allocations at spawns and joins (closures, goroutine
// descriptors beyond those rtlib subtracts, wait records) that the
// oracle's censuses read in the strand that made them, and the default
// policy, charged at a later census, often in no strand of the worst
// case (mergesort: 72 KiB over 254 spawns).
const oracleUnder = 128 * kib

// checkLine checks the figures of the line of file that ends with
// lc.mark: allocated bytes and share of MHWM_64 both lc.alloc, within
// lineUnder below and lineSlack above.
func checkLine(t *testing.T, file string, lines []profile.Line, lc lineCase) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, lc.mark) {
			n = i + 1
		}
	}
	if n == 0 {
		t.Fatalf("%s: no line ends with %q", file, lc.mark)
	}
	// Profiles name files relative to SPGO_SOURCE_ROOT when it is set.
	suffix := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(file)), filepath.Base(file)))
	var alloc, share int64
	for _, l := range lines {
		if (l.File == file || strings.HasSuffix(l.File, "/"+suffix)) && l.Line == n {
			alloc += l.AllocBytes
			share += l.MHWMBytes["64"]
		}
	}
	if alloc < lc.alloc-lineUnder || alloc > lc.alloc+lineSlack {
		t.Errorf("line %d (%s): %d bytes allocated, want %d - %d … + %d", n, lc.mark, alloc, lc.alloc, lineUnder, lineSlack)
	}
	want := lc.alloc
	if lc.share != 0 {
		want = lc.share
	}
	if share < want-lineUnder || share > want+lineSlack {
		t.Errorf("line %d (%s): %d bytes of MHWM_64, want %d - %d … + %d", n, lc.mark, share, want, lineUnder, lineSlack)
	}
	if t.Failed() {
		for _, l := range lines {
			t.Logf("%s:%d %s: alloc %d, MHWM_64 %d", l.File, l.Line, l.Func, l.AllocBytes, l.MHWMBytes["64"])
		}
	}
}

func build(t *testing.T, dir string, args []string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"build"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// run runs bin with the profile going to pf ("": none) and returns its
// stdout and stderr.
func run(t *testing.T, bin, pf string, env ...string) (string, string) {
	t.Helper()
	return runArgs(t, bin, pf, nil, env...)
}

// runArgs is run with command-line arguments.
func runArgs(t *testing.T, bin, pf string, args []string, env ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "SPGO_PROFILE="+pf, "SPGO_TRACE="+pf+".trace")
	if pf == "" {
		cmd.Env = append(cmd.Env, "SPGO_PROFILE=off")
	}
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.Bytes())
	}
	return stdout.String(), stderr.String()
}
