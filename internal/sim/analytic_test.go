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

// memoryExplosion is docs/algorithms.md's worked example: ME(n) = spawn ME(n-1); x = alloc(1);
// sync; free(x), and ME(0) an empty strand.
func memoryExplosion(n int) []op {
	if n == 0 {
		return nil
	}
	return []op{spawn(memoryExplosion(n - 1)...), alloc(1), sync(), free(1)}
}

// want is the expected peak of every policy at p = 1, 2, 4; -1 is not
// checked.
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
			if exp[i] < 0 { // not asserted
				got[i] = exp[i]
				continue
			}
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
			// child in runnext (c3) runs, inheriting the parent's slice
			// begun at 0, is preempted at 4 and goes to the global
			// queue; the P's schedtick is 0, a multiple of 61, so it
			// looks at the global queue first and takes c3 back with a
			// fresh slice, preempted at 8; then the local queue's head
			// c1 runs until 12, then c2: all three children started at
			// t = 12, 3b on one processor, above MHWM_1 = b. Preemption
			// is how Go can exceed MHWM_p.
			name: "fork3/slice4",
			prog: append(repeat(3, child), sync()),
			opt:  Options{TimeSlice: 4},
			mhwm: [3]int64{b, 2 * b, 3 * b},
			want: want{Go: {3 * b, 3 * b, 3 * b}},
		},
		{
			// MemoryExplosion (docs/algorithms.md, "Worked examples"), n = 4: MHWM_p = 4 for all p. DF and WS on one
			// processor are the child-first serial run: one byte live at a
			// time (each level frees before its parent allocates). With
			// two processors or more, every strand here takes no time and
			// the continuations (alloc 1) run beside the children, one
			// level per step: all four bytes are live before the deepest
			// join. BF's FIFO runs each level's continuation before the
			// next level's tail, and Go runs the parent's continuation
			// first (the child waits in runnext): both reach 4 even on one
			// processor. (Cilkmem: "1 byte serially, n bytes on 2
			// workers"; Go's one-core figure is MHWM_1: docs/algorithms.md,
			// "Busy leaves".)
			name: "MemoryExplosion4",
			prog: memoryExplosion(4),
			mhwm: [3]int64{4, 4, 4},
			want: want{DF: {1, 4, 4}, BF: {4, 4, 4}, WS: {1, 4, 4}, Go: {4, 4, 4}},
		},
		{
			// docs/algorithms.md, "Worked examples": the parent holds 5 and two children allocate
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

// chanOps records, for one channel, the strand that ended at each send
// and receive and the strand that began after it (index i: the i-th
// operation, 1-based; a close is send n+1, the receive that sees it
// receive n+1).
type chanOps struct{ sendEnded, sendNext, recvEnded, recvNext []int32 }

func newChanOps(n int) *chanOps {
	return &chanOps{make([]int32, n+2), make([]int32, n+2), make([]int32, n+2), make([]int32, n+2)}
}

// deps adds a channel's deps for capacity c: Chan from the strand that
// ended at send i (or the close) to the strand after receive i, and Chan
// from the strand that ended at receive i to the strand after send i+c
// (the capacity; for c = 0 the rendezvous).
func (ch *chanOps) deps(bd *builder, n, c int) {
	for i := 1; i <= n+1; i++ {
		bd.dep(ch.sendEnded[i], ch.recvNext[i], trace.Chan)
	}
	for i := 1; i+c <= n; i++ {
		bd.dep(ch.recvEnded[i], ch.sendNext[i+c], trace.Chan)
	}
}

// pipeline builds a k-stage pipeline as a recorder would: the root spawns
// stages 1..k, joined by channels of capacity c, and waits for them.
// Stage 1 allocates n items of b bytes (1 ns each) and sends them, then
// closes its channel; a middle stage receives each item and sends it on
// (no time); stage k receives each item and frees it (10 ns). Every
// channel operation ends a strand; the strand after the last send (or the
// receive that saw the close) closes the next channel and returns.
func pipeline(t *testing.T, k, n, c int, b int64) *trace.Graph {
	bd := newBuilder(fmt.Sprintf("pipeline/k%d/cap%d", k, c))
	root := bd.task(-1, 0)
	chans := make([]*chanOps, k) // chans[s]: from stage s to s+1
	for s := 1; s < k; s++ {
		chans[s] = newChanOps(n)
	}
	var prev int32 = -1
	var lasts []int32
	for s := 1; s <= k; s++ {
		r := bd.strand(root, 0) // ends at spawning stage s
		if prev >= 0 {
			bd.dep(prev, r, trace.Cont)
		}
		prev = r
		task := bd.task(root, int32(s))
		cur := bd.begin(task)
		bd.dep(r, cur, trace.Spawn)
		// op ends the current strand at a channel operation and begins
		// the next one.
		op := func() (ended, next int32) {
			ended = cur
			bd.end(cur)
			cur = bd.begin(task)
			bd.dep(ended, cur, trace.Seq)
			return ended, cur
		}
		for i := 1; i <= n; i++ {
			if s > 1 {
				in := chans[s-1]
				in.recvEnded[i], in.recvNext[i] = op()
			}
			switch {
			case s == 1:
				bd.alloc(cur, 1, b)
				bd.work(cur, 1)
			case s == k:
				bd.free(cur, 1, b)
				bd.work(cur, 10)
			}
			if s < k {
				out := chans[s]
				out.sendEnded[i], out.sendNext[i] = op()
			}
		}
		if s > 1 { // the receive that sees the close
			in := chans[s-1]
			in.recvEnded[n+1], in.recvNext[n+1] = op()
		}
		if s < k { // the close, in the last strand
			chans[s].sendEnded[n+1] = cur
		}
		bd.end(cur)
		lasts = append(lasts, cur)
	}
	wait := bd.strand(root, 0)
	bd.dep(prev, wait, trace.Cont)
	after := bd.strand(root, 0)
	bd.dep(wait, after, trace.Seq)
	for _, l := range lasts {
		bd.dep(l, after, trace.Join)
	}
	for s := 1; s < k; s++ {
		chans[s].deps(bd, n, c)
	}
	return renumber(t, bd.graph(t))
}

// TestPipeline checks channel pipelines of k stages, n items, capacity c.
// Items live = items allocated (stage 1's strands started) − items freed
// (stage k's strands completed). Stage 1's strand after send j needs
// stage 2 to have reached receive j−c; a middle stage reaches receive i
// only after its send i−1, which needs the next stage at receive i−1−c;
// stage k reaches receive i after freeing item i−1. So at most
// k + (k−1)·c items are live, on any number of processors: one per stage,
// c per channel. With two processors or more every policy reaches
// min(n, k + (k−1)·c): the slow last stage (10 ns per item) holds one
// item on one processor while the other runs the producer (1 ns per item)
// and the middle stages (no time) until each is blocked, which is that
// bound.
//
// One processor, k = 2, c = 0: after the rendezvous for item j, the
// sender's next strand (same task) and the receiver's are both ready; DF
// and WS run the sender's first (same task before others), BF queues it
// first, and Go runs the consumer only when the producer blocks; so each
// allocates item j+1 while item j waits: 2.
//
// k = 2, c = 2, n = 6: DF and WS run the producer child first, p1..p3,
// then p4 waits for receive 1 (q0, not yet run); q0 makes q1 and p4
// ready and both run q1 first (DF: q0's same-task successor; WS: runs q1,
// pushes p4), then q2 and q3, each made ready by its predecessor: 3
// items at most so far; then p4, p5, p6 run back to back while q4 waits:
// 3 again (with n ≥ 7, p7 would make it 4). BF's FIFO also has p1..p3
// ahead of q1, and afterwards alternates: 3. Go spawns both tasks first
// (the root runs on, P is kicked from runnext to the local queue by C);
// q0 runs from runnext and blocks; P, from the local queue, runs p1..p4
// back to back (each its same-task successor) while q1, readied by p1,
// waits in runnext: 4.
//
// k = 3, c = 0 (stages P, M, C; M's strands: A_i after receive i, ending
// at send i; B_i after send i, ending at receive i+1): B_i makes ready
// A_(i+1) (its task) and P's strand after send i+1 (which allocates
// item i+2), and A_(i+1) makes ready B_(i+1) and C's strand freeing
// item i+1. DF and WS (the deque's bottom is the last pushed) run A, B,
// then the producer's strand pushed after C's, before C's: items i, i+1
// and i+2 live, 3. Go puts the strand of the other task in runnext and
// the one kicked out in the local queue: the producer's strand comes out
// of runnext before C's, 3. BF runs the released strands in release
// order, and C's strand freeing item i is released before the producer's
// that allocates i+2: 2.
func TestPipeline(t *testing.T) {
	const b = 100
	const x = -1 // not asserted
	tests := []struct {
		k, n, c int
		want    want
	}{
		{2, 6, 0, want{DF: {2 * b, 2 * b, 2 * b}, BF: {2 * b, 2 * b, 2 * b}, WS: {2 * b, 2 * b, 2 * b}, Go: {2 * b, 2 * b, 2 * b}}},
		{2, 6, 2, want{DF: {3 * b, 4 * b, 4 * b}, BF: {3 * b, 4 * b, 4 * b}, WS: {3 * b, 4 * b, 4 * b}, Go: {4 * b, 4 * b, 4 * b}}},
		{3, 6, 0, want{DF: {3 * b, 3 * b, 3 * b}, BF: {2 * b, 3 * b, 3 * b}, WS: {3 * b, 3 * b, 3 * b}, Go: {3 * b, 3 * b, 3 * b}}},
		{3, 12, 1, want{DF: {x, 5 * b, 5 * b}, BF: {x, 5 * b, 5 * b}, WS: {x, 5 * b, 5 * b}, Go: {x, 5 * b, 5 * b}}},
		{4, 12, 2, want{DF: {x, 10 * b, 10 * b}, BF: {x, 10 * b, 10 * b}, WS: {x, 10 * b, 10 * b}, Go: {x, 10 * b, 10 * b}}},
		{4, 6, 2, want{DF: {x, 6 * b, 6 * b}, BF: {x, 6 * b, 6 * b}, WS: {x, 6 * b, 6 * b}, Go: {x, 6 * b, 6 * b}}}, // n < 10
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("k%d/n%d/cap%d", tc.k, tc.n, tc.c), func(t *testing.T) {
			checkPeaks(t, pipeline(t, tc.k, tc.n, tc.c, b), Options{}, tc.want)
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
