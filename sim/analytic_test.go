package sim

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/spgo/spgo/rtlib/trace"
)

// Shorthands for test programs.
func alloc(n int64) op        { return op{kind: opAlloc, n: n, site: 1} }
func free(n int64) op         { return op{kind: opFree, n: n, site: 1} }
func work(n int64) op         { return op{kind: opWork, n: n} }
func spawn(body ...op) op     { return op{kind: opSpawn, body: body} }
func sync() op                { return op{kind: opSync} }
func call(body ...op) op      { return op{kind: opCall, body: body} }
func repeat(k int, o op) []op { return slices.Repeat([]op{o}, k) }

// memoryExplosion is spec §7(a): ME(n) = spawn ME(n-1); x = alloc(1);
// sync; free(x), and ME(0) an empty strand.
func memoryExplosion(n int) []op {
	if n == 0 {
		return nil
	}
	return []op{spawn(memoryExplosion(n - 1)...), alloc(1), sync(), free(1)}
}

// want is the expected peak of every policy at p = 1, 2, 4.
type want map[Policy][3]int64

var ps = []int{1, 2, 4}

// checkPeaks simulates g under every policy at p = 1, 2, 4 (opt for all)
// and compares with w.
func checkPeaks(t *testing.T, g *trace.Graph, opt Options, w want) {
	t.Helper()
	for _, pol := range Policies() {
		exp, ok := w[pol]
		if !ok {
			continue
		}
		var got [3]int64
		for i, p := range ps {
			r, err := Simulate(g, pol, p, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, g, r)
			got[i] = r.PeakBytes
			if pol == WS && (r.Seeds.Min != r.Seeds.Max) {
				t.Errorf("%v p=%d: peak depends on the seed: %+v", pol, p, *r.Seeds)
			}
		}
		if got != exp {
			t.Errorf("%v at p=1,2,4: peaks %v, want %v", pol, got, exp)
		}
	}
}

// TestAnalyticSP checks hand-built series-parallel programs whose peaks
// under each policy follow from the rules by hand, and MHWM_p beside them.
func TestAnalyticSP(t *testing.T) {
	const b = 100
	child := spawn(alloc(b), work(10), free(b))
	tests := []struct {
		name string
		prog []op
		opt  Options
		mhwm [3]int64 // MHWM_p at p = 1, 2, 4
		want want
	}{
		{
			// Fork of three children that each allocate b for 10 ns, the
			// parent's strands taking no time. A greedy policy runs
			// min(p, 3) children at once and never holds a finished
			// child's memory (s = 0): min(p, 3)·b = MHWM_p. Under Go the
			// parent keeps running and the children queue in runnext and
			// the local queue; other Ps steal them (runnext too, in the
			// last round).
			name: "fork3",
			prog: append(repeat(3, child), sync()),
			mhwm: [3]int64{b, 2 * b, 3 * b},
			want: want{DF: {b, 2 * b, 3 * b}, BF: {b, 2 * b, 3 * b}, WS: {b, 2 * b, 3 * b}, Go: {b, 2 * b, 3 * b}},
		},
		{
			// The same fork with a 4 ns time slice for Go: on one P the
			// child in runnext runs (inheriting the parent's slice, begun
			// at 0), is preempted at 4 and goes to the global queue; the
			// P then takes the local queue's head, a fresh slice, which
			// is preempted at 8, then the last: all three children are
			// started at t = 8, 3b on one processor, above MHWM_1 = b.
			// Preemption is how Go can exceed MHWM_p.
			name: "fork3/slice4",
			prog: append(repeat(3, child), sync()),
			opt:  Options{TimeSlice: 4},
			mhwm: [3]int64{b, 2 * b, 3 * b},
			want: want{Go: {3 * b, 3 * b, 3 * b}},
		},
		{
			// Spec §7(a), n = 4: MHWM_p = 4 for all p. DF and WS on one
			// processor are the child-first serial run: one byte live at a
			// time (each level frees before its parent allocates). With
			// two processors or more, every strand here takes no time and
			// the continuations (alloc 1) run beside the children, one
			// level per step: all four bytes are live before the deepest
			// join. BF's FIFO runs each level's continuation before the
			// next level's tail, and Go runs the parent's continuation
			// first (the child waits in runnext): both reach 4 even on one
			// processor. (Cilkmem: "1 byte serially, n bytes on 2
			// workers"; DESIGN.md: Go's one-core figure is MHWM_1.)
			name: "MemoryExplosion4",
			prog: memoryExplosion(4),
			mhwm: [3]int64{4, 4, 4},
			want: want{DF: {1, 4, 4}, BF: {4, 4, 4}, WS: {1, 4, 4}, Go: {4, 4, 4}},
		},
		{
			// Spec §7(b): the parent holds 5 and two children allocate
			// and free 10 each, 10 ns apiece. One processor: 5 + 10 = 15;
			// two or more: both children at once, 5 + 20 = 25 = MHWM_p.
			name: "spec7b",
			prog: []op{alloc(5), spawn(alloc(10), work(10), free(10)), spawn(alloc(10), work(10), free(10)), sync(), free(5)},
			mhwm: [3]int64{15, 25, 25},
			want: want{DF: {15, 25, 25}, BF: {15, 25, 25}, WS: {15, 25, 25}, Go: {15, 25, 25}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, res := build(t, tc.prog, 4)
			if got := [3]int64{res.MHWM[1], res.MHWM[2], res.MHWM[4]}; got != tc.mhwm {
				t.Fatalf("MHWM_p %v, want %v", got, tc.mhwm)
			}
			checkPeaks(t, g, tc.opt, tc.want)
		})
	}
}

// renumber returns g with its strands renumbered in its 1-processor
// depth-first order, as a serial recorded run would have numbered them.
// Hand-built graphs of channel programs are written task by task; this
// makes their IDs a start order again.
func renumber(t *testing.T, g *trace.Graph) *trace.Graph {
	t.Helper()
	pr, err := newPrep(g)
	if err != nil {
		t.Fatal(err)
	}
	out := &trace.Graph{Name: g.Name, Sites: g.Sites, Tasks: g.Tasks, Strands: make([]trace.Strand, len(g.Strands))}
	for _, u := range pr.dfOrder {
		s := g.Strands[u]
		s.ID = pr.dfRank[u]
		out.Strands[s.ID] = s
	}
	for _, d := range g.Deps {
		out.Deps = append(out.Deps, trace.Dep{From: pr.dfRank[d.From], To: pr.dfRank[d.To], Kind: d.Kind})
	}
	if err := out.Validate(); err != nil {
		t.Fatal(err)
	}
	checkStartOrder(t, out)
	return out
}

// pipeline builds a two-stage pipeline as a recorder would: the root
// spawns a producer P and a consumer C on a channel of capacity c, then
// waits for both. P allocates an item of b bytes (1 ns of work) and sends
// it, n times, then closes the channel; C receives each item and frees
// it (10 ns). Every blocking operation ends a strand:
//
//	P: p1 … pn (alloc b, ends at send i), p(n+1) (close, return)
//	C: q0 (ends at receive 1), q1 … qn (free b, ends at the next
//	   receive), q(n+1) (after the receive that saw the close)
//
// Deps: Spawn and Cont at the root's spawns, Seq along each task, Chan
// pi → qi (send i before the strand after receive i, and the close before
// q(n+1)), Chan q(k-1) → p(k+c+1) (the strand that ended at receive k
// before the strand after send k+c: the channel's capacity; c = 0 is the
// rendezvous), Join from the last strands of P and C to the root's strand
// after its Wait.
func pipeline(t *testing.T, n, c int, b int64) *trace.Graph {
	bd := newBuilder(fmt.Sprintf("pipeline/cap%d", c))
	root := bd.task(-1, 0)
	r0 := bd.strand(root, 0)
	r1 := bd.strand(root, 0)
	r2 := bd.strand(root, 0)
	r3 := bd.strand(root, 0)
	bd.dep(r0, r1, trace.Cont)
	bd.dep(r1, r2, trace.Cont)
	bd.dep(r2, r3, trace.Seq)
	prod, cons := bd.task(root, 1), bd.task(root, 2)
	p := make([]int32, n+2)
	for i := 1; i <= n+1; i++ {
		if i <= n {
			p[i] = bd.strand(prod, 1, b)
		} else {
			p[i] = bd.strand(prod, 0)
		}
		if i > 1 {
			bd.dep(p[i-1], p[i], trace.Seq)
		}
	}
	q := make([]int32, n+2)
	for i := 0; i <= n+1; i++ {
		switch {
		case i == 0 || i == n+1:
			q[i] = bd.strand(cons, 0)
		default:
			q[i] = bd.strand(cons, 10, -b)
		}
		if i > 0 {
			bd.dep(q[i-1], q[i], trace.Seq)
			bd.dep(p[i], q[i], trace.Chan)
		}
	}
	for k := 1; k+c <= n; k++ {
		bd.dep(q[k-1], p[k+c+1], trace.Chan)
	}
	bd.dep(r0, p[1], trace.Spawn)
	bd.dep(r1, q[0], trace.Spawn)
	bd.dep(p[n+1], r3, trace.Join)
	bd.dep(q[n+1], r3, trace.Join)
	return renumber(t, bd.graph(t))
}

// TestPipeline checks the channel pipeline's peaks. Items live = producer
// strands started − consumer strands completed. The strand after send j
// needs receive j−c, which ends q(j−c−1): so at most c+2 items are ever
// live (one the consumer holds, c buffered, one being produced), on any
// number of processors. With two processors or more every policy runs the
// (fast) producer beside the (slow) consumer and reaches c+2.
//
// On one processor, unbuffered (c = 0): after the rendezvous for item j
// the sender's next strand (same task) and the receiver's are both ready;
// DF, BF and WS prefer or queue the sender first, and Go runs the
// consumer only when the producer blocks, so each allocates item j+1
// while item j waits: 2 = c+2 for all.
//
// Buffered, c = 2: DF and WS run the producer child first: p1, p2, p3,
// then p4 waits for receive 1 (q0, not started); the consumer's q1 then
// runs before p4 in both (DF: q1 is q0's same-task successor; WS: q0
// made q1 and p4 ready, runs q1 and pushes p4), so 3 items. BF's FIFO
// likewise has p1..p3 before q1: 3. Go spawns both tasks first; P, taken
// from the local queue, runs p1..p4 back to back (each its same-task
// successor) before C, in runnext, gets the processor: 4 = c+2.
func TestPipeline(t *testing.T) {
	const b = 100
	tests := []struct {
		c    int
		want want
	}{
		{0, want{DF: {2 * b, 2 * b, 2 * b}, BF: {2 * b, 2 * b, 2 * b}, WS: {2 * b, 2 * b, 2 * b}, Go: {2 * b, 2 * b, 2 * b}}},
		{2, want{DF: {3 * b, 4 * b, 4 * b}, BF: {3 * b, 4 * b, 4 * b}, WS: {3 * b, 4 * b, 4 * b}, Go: {4 * b, 4 * b, 4 * b}}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("cap%d", tc.c), func(t *testing.T) {
			checkPeaks(t, pipeline(t, 6, tc.c, b), Options{}, tc.want)
		})
	}
}

// workerPool builds a root that spawns w workers, sends jobs 1..j on an
// unbuffered channel, closes it and waits for the workers. Job i went to
// worker i mod w in the recorded run (a replay keeps the recorded
// matching). A worker's strand after receiving a job allocates b, works
// 10 ns and frees b (m = b, s = 0); every other strand takes no time.
//
//	root: s0 … s(w-1) (end at the spawns), d0 (ends at send 1),
//	      d1 … d(j-1) (end at the next send), dj (ends at the close),
//	      d(j+1) (ends at the Wait), d(j+2) (after it)
//	worker: x (ends at its first receive), one strand per job (ends at
//	      the next receive), z (after the receive that saw the close)
//
// Deps: Chan from the strand that ended at send i to the strand after the
// matching receive, and back from the strand that ended at that receive
// to d_i (the rendezvous); Chan from dj (the close) to every z.
func workerPool(t *testing.T, w, j int, b int64) *trace.Graph {
	bd := newBuilder(fmt.Sprintf("pool/w%d", w))
	root := bd.task(-1, 0)
	var prev int32 = -1
	rootStrand := func(kind trace.DepKind) int32 {
		s := bd.strand(root, 0)
		if prev >= 0 {
			bd.dep(prev, s, kind)
		}
		prev = s
		return s
	}
	lastRecv := make([]int32, w) // each worker's strand that ended at its last receive
	workers := make([]int32, w)
	for i := range w {
		s := rootStrand(trace.Cont)
		workers[i] = bd.task(root, 10)
		lastRecv[i] = bd.strand(workers[i], 0)
		bd.dep(s, lastRecv[i], trace.Spawn)
	}
	send := rootStrand(trace.Cont) // d0, ends at send 1
	for i := 1; i <= j; i++ {
		k := (i - 1) % w
		job := bd.strand(workers[k], 10, b, -b)
		bd.dep(lastRecv[k], job, trace.Seq)
		bd.dep(send, job, trace.Chan)
		next := rootStrand(trace.Seq) // d_i
		bd.dep(lastRecv[k], next, trace.Chan)
		lastRecv[k], send = job, next
	}
	closeStrand := send
	wait := rootStrand(trace.Seq)
	final := rootStrand(trace.Seq)
	_ = wait
	for k := range w {
		z := bd.strand(workers[k], 0)
		bd.dep(lastRecv[k], z, trace.Seq)
		bd.dep(closeStrand, z, trace.Chan)
		bd.dep(z, final, trace.Join)
	}
	return renumber(t, bd.graph(t))
}

// TestWorkerPool checks a pool of 3 workers and 6 jobs. Memory is b per
// job strand started and not completed. Without preemption at most p run
// at once, and the dispatcher's strands take no time, so the first
// min(p, 3) jobs start together at time 0 under every policy: b·min(p, 3).
// With a 4 ns slice, Go preempts a job strand at 4 ns while it holds b
// and goes on dispatching: on one P, the three workers' first jobs are
// all started by t = 8, 3b; Go exceeds p·b because preemption leaves
// more strands started than processors.
func TestWorkerPool(t *testing.T) {
	const b = 100
	g := workerPool(t, 3, 6, b)
	checkPeaks(t, g, Options{}, want{DF: {b, 2 * b, 3 * b}, BF: {b, 2 * b, 3 * b}, WS: {b, 2 * b, 3 * b}, Go: {b, 2 * b, 3 * b}})
	checkPeaks(t, g, Options{TimeSlice: 4}, want{Go: {3 * b, 3 * b, 3 * b}})
}

// TestDeterminism checks that the same graph and options give the same
// Result, curve included, for every policy.
func TestDeterminism(t *testing.T) {
	g := randomGraph(t, 2000, 42)
	for _, pol := range Policies() {
		for _, p := range []int{1, 3, 8} {
			opt := Options{Seeds: 3, CurvePoints: 50, TimeSlice: 30}
			a, err := Simulate(g, pol, p, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := Simulate(g, pol, p, opt)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%v p=%d: two runs differ", pol, p)
			}
			checkResult(t, g, a)
			if len(a.Curve) > 50 || len(a.Curve) < 2 {
				t.Fatalf("%v p=%d: %d curve points", pol, p, len(a.Curve))
			}
		}
	}
}
