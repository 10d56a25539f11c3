package rtlib

import (
	"bytes"
	"fmt"
	"github.com/spgo/spgo/rtlib/profile"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// traced runs prog as a root and returns what it printed and the order in
// which tasks obtained the baton (task ids relative to the root's).
func traced(prog func(*recorder)) ([]string, []uint64) {
	var trace []uint64
	sched.mu.Lock()
	traceBaton = func(t *Task) { trace = append(trace, t.id) }
	sched.mu.Unlock()
	var out recorder
	inRoot(func() { prog(&out) })
	sched.mu.Lock()
	traceBaton = nil
	sched.mu.Unlock()
	if len(trace) > 0 {
		base := trace[0]
		for i := range trace {
			trace[i] -= base
		}
	}
	return out.lines, trace
}

// quiet checks that the scheduler is back to rest after a root.
func quiet(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		sched.mu.Lock()
		c := cur.Load()
		busy := c != nil || sched.nready != 0 || sched.nparked != 0 || sched.nout != 0 || sched.nsel != 0 || sched.extHead != nil || len(sched.windows) != 0 || sched.stolen != 0 || sched.wgs.len() != 0 || sched.groups.len() != 0
		state := fmt.Sprintf("cur=%v ready=%d parked=%d out=%d sel=%d ext=%v windows=%d stolen=%d wgs=%d groups=%d", c != nil, sched.nready, sched.nparked, sched.nout, sched.nsel, sched.extHead != nil, len(sched.windows), sched.stolen, sched.wgs.len(), sched.groups.len())
		sched.mu.Unlock()
		if !busy {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("scheduler not at rest after the root: %s", state)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestChildFirst(t *testing.T) {
	out, _ := traced(progChildFirst)
	want := []string{"parent before", "child 1", "grandchild", "child 1 after grandchild", "parent between", "child 2", "parent after"}
	if !slices.Equal(out, want) {
		t.Errorf("got %q\nwant %q", out, want)
	}
	quiet(t)
}

func TestForkJoinWaitGroup(t *testing.T) {
	var got int
	_, trace := traced(func(*recorder) { got = progFib(12, 0) })
	if got != 144 {
		t.Errorf("fib(12) = %d, want 144", got)
	}
	// Serial elision: no child blocks, every one runs to its end before
	// its parent goes on, so the baton goes child, parent for each of
	// the 2*(F(13)-1) spawns, after the root's first acquisition, and
	// no Wait ever parks.
	if len(trace) != 1+2*2*(233-1) {
		t.Errorf("baton moved %d times, want %d", len(trace), 1+2*2*(233-1))
	}
	quiet(t)
}

func TestErrgroupSetLimit(t *testing.T) {
	out, _ := traced(progErrgroup)
	last := out[len(out)-1]
	if last != "sum 285 most 2" {
		t.Errorf("last line %q, want sum 285 most 2\n%s", last, strings.Join(out, "\n"))
	}
	var tasks, collects int
	for _, l := range out {
		if strings.HasPrefix(l, "task ") {
			tasks++
		}
		if strings.HasPrefix(l, "collect ") {
			collects++
		}
	}
	if tasks != 10 || collects != 10 {
		t.Errorf("%d tasks and %d collects, want 10 and 10", tasks, collects)
	}
	quiet(t)
}

func TestErrgroupContext(t *testing.T) {
	out, _ := traced(progErrgroupCtx)
	want := []string{"task 0: case 1", "task 1: case 1", "wait: task 2 failed"}
	if !slices.Equal(out, want) {
		t.Errorf("got %q\nwant %q", out, want)
	}
	quiet(t)
}

func TestPipeline(t *testing.T) {
	out, _ := traced(func(r *recorder) { progPipeline(20, r) })
	var want []string
	for i := 0; i < 20; i++ {
		want = append(want, fmt.Sprint(i*i+1))
	}
	if !slices.Equal(out, want) {
		t.Errorf("got %q\nwant %q", out, want)
	}
	quiet(t)
}

func TestWorkerPool(t *testing.T) {
	out, _ := traced(func(r *recorder) { progWorkers(4, 30, r) })
	if len(out) != 30 {
		t.Fatalf("%d results, want 30:\n%s", len(out), strings.Join(out, "\n"))
	}
	seen := map[int]bool{}
	for _, l := range out {
		var w, j int
		if _, err := fmt.Sscanf(l, "worker %d job %d", &w, &j); err != nil || seen[j] {
			t.Fatalf("bad or repeated result %q", l)
		}
		seen[j] = true
	}
	quiet(t)
}

func TestSelectLoop(t *testing.T) {
	out, _ := traced(func(r *recorder) { progSelect(10, r) })
	if len(out) != 21 || out[20] != "done" {
		t.Fatalf("got %q", out)
	}
	var as, bs []string
	for _, l := range out[:20] {
		if strings.HasPrefix(l, "a ") {
			as = append(as, l)
		} else {
			bs = append(bs, l)
		}
	}
	for i := 0; i < 10; i++ {
		if as[i] != fmt.Sprint("a ", i) || bs[i] != fmt.Sprint("b", i) {
			t.Fatalf("out of order: %q", out)
		}
	}
	quiet(t)
}

func TestSelectSend(t *testing.T) {
	out, _ := traced(func(r *recorder) { progSelectSend(10, r) })
	got := 0
	quits := 0
	for _, l := range out {
		if strings.Contains(l, " got ") {
			got++
		}
		if strings.HasSuffix(l, "quits") {
			quits++
		}
	}
	if got != 10 || quits != 2 {
		t.Errorf("%d received, %d quits: %q", got, quits, out)
	}
	quiet(t)
}

func TestMutex(t *testing.T) {
	out, _ := traced(func(r *recorder) { progMutex(10, r) })
	if out[len(out)-1] != "counter 30" {
		t.Errorf("got %q", out)
	}
	quiet(t)
}

func TestRWMutex(t *testing.T) {
	out, _ := traced(progRWMutex)
	if len(out) != 12 {
		t.Errorf("got %q", out)
	}
	quiet(t)
}

func TestCond(t *testing.T) {
	out, _ := traced(func(r *recorder) { progCond(10, r) })
	if len(out) != 20 {
		t.Fatalf("got %d lines: %q", len(out), out)
	}
	quiet(t)
}

func TestSleepAndTimer(t *testing.T) {
	out, _ := traced(progSleep)
	want := []string{"parent waits", "timer case 1", "slept"}
	if !slices.Equal(out, want) {
		t.Errorf("got %q\nwant %q", out, want)
	}
	quiet(t)
}

func TestGoexit(t *testing.T) {
	out, _ := traced(progGoexit)
	want := []string{"child exits", "parent goes on", "joined"}
	if !slices.Equal(out, want) {
		t.Errorf("got %q\nwant %q", out, want)
	}
	quiet(t)
}

func TestUninstrumentedSender(t *testing.T) {
	f0 := flushes.Load()
	out, _ := traced(progUninstrumentedSender)
	want := []string{"a 1", "b 2", "a open false"}
	if !slices.Equal(out, want) {
		t.Errorf("got %q\nwant %q", out, want)
	}
	// Everything waited on channels rtlib cannot see fed: a possible
	// deadlock, so the profile was flushed before waiting for real.
	if flushes.Load() == f0 {
		t.Errorf("no flush before the external wait")
	}
	quiet(t)
}

func TestCondLockers(t *testing.T) {
	out, _ := traced(progRLockerCond)
	want := []string{"reader saw ready", "n 7"}
	if !slices.Equal(out, want) {
		t.Errorf("got %q\nwant %q", out, want)
	}
	quiet(t)
}

// TestClosedSpin: a holder that completes channel operations without
// ever blocking yields every lockSlice of them, and yields that find
// nobody ready let parked tasks retry. Before, the loop never ended.
func TestClosedSpin(t *testing.T) {
	out, _ := traced(progClosedSpin)
	if want := []string{"flag seen"}; !slices.Equal(out, want) {
		t.Errorf("got %q, want %q", out, want)
	}
	quiet(t)
}

// TestSpinLockerCond: a Cond on a Locker whose Lock is instrumented code
// that yields. Locked without the baton, its hooks ran as if they were
// the holder's, and the run hung.
func TestSpinLockerCond(t *testing.T) {
	out, _ := traced(progSpinLockerCond)
	if want := []string{"turn 1", "turn 2", "turn 3"}; !slices.Equal(out, want) {
		t.Errorf("got %q\nwant %q", out, want)
	}
	quiet(t)
}

func TestManyGoroutines(t *testing.T) {
	const n = 5000
	start := time.Now()
	out, _ := traced(func(r *recorder) { progFanIn(n, r) })
	if want := fmt.Sprint("sum ", n*(n-1)/2); len(out) != 1 || out[0] != want {
		t.Errorf("got %q, want %q", out, want)
	}
	t.Logf("%d goroutines took %v", n, time.Since(start)) // no assertion: wall-clock time on a loaded machine
	quiet(t)
}

func TestBufferedPool(t *testing.T) {
	out, _ := traced(progBufferedPool)
	if len(out) != 13 || out[12] != "most 2" {
		t.Errorf("got %q", out)
	}
	quiet(t)
}

func TestNestedGroups(t *testing.T) {
	out, _ := traced(progNestedGroups)
	if want := []string{"[3 33 63 93]"}; !slices.Equal(out, want) {
		t.Errorf("got %q, want %q", out, want)
	}
	quiet(t)
}

func TestPingPongSelect(t *testing.T) {
	out, _ := traced(progPingPongSelect)
	var want []string
	for i := 0; i <= 10; i++ {
		want = append(want, fmt.Sprint([]string{"ping", "pong"}[i%2], " ", i))
	}
	want = append(want, "ping stops", "pong stops")
	if !slices.Equal(out, want) {
		t.Errorf("got %q\nwant %q", out, want)
	}
	quiet(t)
}

// progs are the deterministic programs of the determinism test.
var progs = []struct {
	name string
	run  func(*recorder)
}{
	{"childfirst", progChildFirst},
	{"fib", func(r *recorder) { r.printf("%d", progFib(8, 0)) }},
	{"errgroup", progErrgroup},
	{"errgroupctx", progErrgroupCtx},
	{"pipeline", func(r *recorder) { progPipeline(10, r) }},
	{"workers", func(r *recorder) { progWorkers(3, 12, r) }},
	{"select", func(r *recorder) { progSelect(6, r) }},
	{"selectsend", func(r *recorder) { progSelectSend(6, r) }},
	{"mutex", func(r *recorder) { progMutex(4, r) }},
	{"rwmutex", progRWMutex},
	{"cond", func(r *recorder) { progCond(6, r) }},
	{"goexit", progGoexit},
	{"condlockers", progRLockerCond},
	{"fanin", func(r *recorder) { progFanIn(50, r) }},
	{"bufferedpool", progBufferedPool},
	{"nestedgroups", progNestedGroups},
	{"pingpongselect", progPingPongSelect},
}

// TestDeterminism runs every program 50 times with GOMAXPROCS 1 and 4:
// the output and the order in which goroutines obtain the baton must be
// the same every time.
func TestDeterminism(t *testing.T) {
	runs := 50
	if testing.Short() {
		runs = 10
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range progs {
		t.Run(p.name, func(t *testing.T) {
			var out0 []string
			var trace0 []uint64
			for _, procs := range []int{1, 4} {
				runtime.GOMAXPROCS(procs)
				for i := 0; i < runs; i++ {
					out, trace := traced(p.run)
					if out0 == nil {
						out0, trace0 = out, trace
						continue
					}
					if !slices.Equal(out, out0) {
						t.Fatalf("GOMAXPROCS=%d run %d: output differs:\n%s\nfirst run:\n%s", procs, i, strings.Join(out, "\n"), strings.Join(out0, "\n"))
					}
					if !slices.Equal(trace, trace0) {
						t.Fatalf("GOMAXPROCS=%d run %d: baton order differs:\n%v\nfirst run:\n%v", procs, i, trace, trace0)
					}
				}
			}
			quiet(t)
		})
	}
}

// TestWatchdog: a child blocks (for the test: until the end) in
// uninstrumented code while it holds the baton, and the parent goes on.
// Blocked in the Go runtime (a read of an os.Pipe, which waits in the
// network poller), the baton leaves it within a few watchdog ticks and
// without a warning; in a system call (a raw pipe's read), where it may
// as well be busy, after the period and with a warning naming the last
// site. Either way the root says its run was not serial and gives no
// interval.
func TestWatchdog(t *testing.T) {
	tests := []struct {
		name   string
		pipe   func(t *testing.T) (read func(), write func())
		period time.Duration
		warns  bool
		reason string
		beside bool // another goroutine sits in a system call throughout
	}{
		// A period far longer than the blocked-holder rule needs, even
		// on a loaded machine: the period's rule never acts first.
		{"go runtime", osPipe, 30 * time.Second, false, "a goroutine blocked in uninstrumented code 1 time(s) (the first after progs_test.go:14 in rtlib.stuck)", false},
		{"system call", rawPipe, 500 * time.Millisecond, true, "the watchdog took the baton 1 time(s) from a goroutine stuck in uninstrumented code (the first: stuck for", false},
		// As a CPU profile's writer or os/signal's loop: the holder
		// is still found waiting in the Go runtime.
		{"go runtime beside a system call", osPipe, 30 * time.Second, false, "a goroutine blocked in uninstrumented code 1 time(s) (the first after progs_test.go:14 in rtlib.stuck)", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.beside {
				sideRead, sideWrite := rawPipe(t)
				sideDone := make(chan struct{})
				go func() {
					sideRead()
					close(sideDone)
				}()
				defer func() { sideWrite(); <-sideDone }()
				for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
					if n, ok := countOutside(); !ok || n > 0 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatal("the side goroutine never entered its system call")
					}
				}
			}
			read, write := tt.pipe(t)
			old := wdPeriod.Swap(int64(tt.period))
			defer wdPeriod.Store(old)
			buf := captureWarnings(t)
			back := make(chan struct{})
			var out recorder
			inRoot(func() {
				spawn(func() {
					out.printf("child reads")
					Enter(sStuck) // the last site it passes
					read()        // blocks: nobody writes until the end
					out.printf("child back")
					close(back)
				})
				out.printf("parent goes on")
				var wg sync.WaitGroup
				Add(sAdd, &wg, 1)
				spawn(func() {
					defer Done(&wg)
					out.printf("second child")
				})
				Wait(sWait, &wg)
			})
			if got := strings.Join(out.lines, "|"); got != "child reads|parent goes on|second child" {
				t.Errorf("output %q", got)
			}
			msg := buf.String()
			if tt.warns && (strings.Count(msg, "spgo: warning:") != 1 || !strings.Contains(msg, "progs_test.go:14 in rtlib.stuck")) || !tt.warns && msg != "" {
				t.Errorf("warning: %q", msg)
			}
			prof.mu.Lock()
			root := prof.roots[len(prof.roots)-1].build()
			prof.mu.Unlock()
			if why := strings.Join(root.Reasons, "\n"); root.Exact || !strings.Contains(why, tt.reason) {
				t.Errorf("exact %v, reasons %q", root.Exact, root.Reasons)
			}
			if root.HasInterval() {
				t.Errorf("an interval after goroutines ran at once: %+v", root.MHWM)
			}
			// Let the child come back: it queues for the baton again
			// and ends.
			write()
			<-back
			quiet(t)
			sched.mu.Lock()
			st := checking.Load()
			sched.mu.Unlock()
			if st && !forceCheck {
				t.Errorf("identities still checked after the stolen goroutine came back")
			}
		})
	}
}

// osPipe returns the ends of an os.Pipe, whose reads wait in the Go
// runtime's network poller.
func osPipe(t *testing.T) (read, write func()) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return func() {
			var b [1]byte
			r.Read(b[:])
		}, func() {
			w.Write([]byte{1})
		}
}

// captureWarnings sends the watchdog's warnings to a buffer until the
// test ends.
func captureWarnings(t *testing.T) *syncBuffer {
	buf := new(syncBuffer)
	warnMu.Lock()
	old := warnOut
	warnOut = buf
	warnMu.Unlock()
	t.Cleanup(func() {
		warnMu.Lock()
		warnOut = old
		warnMu.Unlock()
	})
	return buf
}

// plainSend is uninstrumented code (a dependency) that sends on a
// channel.
func plainSend(ch chan<- int, v int) { ch <- v }

// TestWatchdogParked: the holder blocks in uninstrumented code on a
// channel whose receiver is parked in rtlib and nobody is ready. The
// original program goes on (the receiver takes the value); so must the
// instrumented one, without a warning (the holder waits in the Go
// runtime), and not die of a false deadlock; the root says why it is not
// exact.
func TestWatchdogParked(t *testing.T) {
	// Long: the blocked-holder rule acts, not the period's (which
	// would warn).
	old := wdPeriod.Swap(int64(30 * time.Second))
	defer wdPeriod.Store(old)
	buf := captureWarnings(t)
	var out recorder
	inRoot(func() {
		ch := make(chan int)
		var wg sync.WaitGroup
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			out.printf("got %d", Recv(sRecv, ch))
		})
		Enter(sStuck)
		plainSend(ch, 42)
		Wait(sWait, &wg) // a hook: the holder takes the baton back
		out.printf("sent")
	})
	if got := strings.Join(out.lines, "|"); got != "got 42|sent" {
		t.Errorf("output %q", got)
	}
	if msg := buf.String(); msg != "" {
		t.Errorf("warning: %q", msg)
	}
	prof.mu.Lock()
	root := prof.roots[len(prof.roots)-1].build()
	prof.mu.Unlock()
	if why := strings.Join(root.Reasons, "\n"); !strings.Contains(why, "blocked in uninstrumented code 1 time(s) (the first after progs_test.go:14") {
		t.Errorf("reasons %q", root.Reasons)
	}
	quiet(t)
	if checking.Load() && !forceCheck {
		t.Errorf("identities still checked after the holder came back")
	}
}

// TestWatchdogQuiet: the holder blocks in slow uninstrumented I/O while
// a worker is parked (it cannot run anyway): no warning, the same output.
func TestWatchdogQuiet(t *testing.T) {
	old := wdPeriod.Swap(int64(50 * time.Millisecond))
	defer wdPeriod.Store(old)
	buf := captureWarnings(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() { // the slow "device"
		time.Sleep(300 * time.Millisecond)
		w.Write([]byte{7})
		w.Close()
	}()
	var out recorder
	steals0 := steals.Load()
	inRoot(func() {
		jobs := make(chan int)
		var wg sync.WaitGroup
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			for {
				j, ok := Recv2(sRecv, jobs)
				if !ok {
					return
				}
				out.printf("job %d", j)
			}
		})
		var b [1]byte
		r.Read(b[:]) // slow I/O, uninstrumented
		Send(sSend, jobs, int(b[0]))
		Close(jobs)
		Wait(sWait, &wg)
	})
	if got := strings.Join(out.lines, "|"); got != "job 7" {
		t.Errorf("output %q", got)
	}
	if steals.Load() == steals0 {
		t.Errorf("the watchdog did not take the baton from the blocked holder")
	}
	if msg := buf.String(); msg != "" {
		t.Errorf("warning: %q", msg)
	}
	quiet(t)
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestNoWatchdogWarning: a well-behaved program that computes for longer
// than the watchdog period without hooks, while others wait, gets no
// warning (the process is busy).
func TestNoWatchdogWarning(t *testing.T) {
	if testing.Short() {
		t.Skip("computes for a while")
	}
	old := wdPeriod.Swap(int64(50 * time.Millisecond))
	defer wdPeriod.Store(old)
	buf := captureWarnings(t)
	inRoot(func() {
		spawn(func() {
			x := uint64(1)
			for start := time.Now(); time.Since(start) < 200*time.Millisecond; {
				for i := 0; i < 1000; i++ {
					x = x*6364136223846793005 + 1442695040888963407
				}
			}
			_ = x
		})
	})
	if s := buf.String(); s != "" {
		t.Errorf("warning for a busy holder: %q", s)
	}
	quiet(t)
}

// TestAdoption: goroutines started by uninstrumented code during a
// Release window call hooks; they are adopted and take turns.
func TestAdoption(t *testing.T) {
	var out recorder
	inRoot(func() {
		ch := make(chan int)
		tok := Release(sCall)
		// The "library call": plain goroutines running instrumented
		// callbacks.
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if i == 0 {
					for k := 0; k < 2; k++ {
						out.printf("got %d", Recv(sRecv, ch))
					}
					return
				}
				Send(sSend, ch, i)
			}()
		}
		wg.Wait()
		Reacquired(tok)
		out.printf("back")
	})
	slices.Sort(out.lines[:2])
	if got := strings.Join(out.lines, "|"); got != "got 1|got 2|back" {
		t.Errorf("got %q", got)
	}
	quiet(t)
}

// TestSubtestsCheap: inside t.Run between Release and Reacquire, once the
// subtest's goroutine is known, hooks do not identify their caller.
// A goroutine that anything else in the process starts meanwhile (a
// timer of an earlier test firing late on a loaded machine) rightly makes
// them identify callers until the window closes: a run gets three tries,
// and one with at most 5 slow identifications passes.
func TestSubtestsCheap(t *testing.T) {
	if _, ok := goroutinesCreated(); !ok || forceCheck {
		t.Skip("no /sched/goroutines-created metric, or SPGO_CHECK=1")
	}
	sched.mu.Lock()
	stolen, guests := sched.stolen, sched.guestsOutside
	sched.mu.Unlock()
	if stolen > 0 || guests > 0 {
		// An earlier test of this process left a task the watchdog
		// took the baton from, or a goroutine adopted outside a
		// window, alive: every hook identifies its caller until it
		// ends, whatever the window rule.
		t.Skipf("identities are checked for the whole process now (%d stolen tasks, %d guests outside a window, left by earlier tests)", stolen, guests)
	}
	for _, asRoot := range []bool{true, false} {
		var slow []int64
		var why []string // what made hooks slow, per try
		for try := 0; try < 3; try++ {
			var sum int
			var n int64
			inRoot(func() {
				Reacquire(Release(sCall), t.Run(fmt.Sprint("root=", asRoot), func(t *testing.T) {
					if asRoot {
						defer EndRoot(BeginRoot(sRoot))
					}
					before := slowSelves.Load()
					var out recorder
					progPipeline(200, &out)
					sum = len(out.lines)
					n = slowSelves.Load() - before
					c, _ := goroutinesCreated()
					sched.mu.Lock()
					why = append(why, fmt.Sprintf("checking %v (stolen %d, guests outside %d), %d created and %d accounted since the window opened",
						checking.Load(), sched.stolen, sched.guestsOutside, c-baseCreated.Load(), acct.Load()-baseAcct.Load()))
					sched.mu.Unlock()
				}))
			})
			if sum != 200 {
				t.Errorf("pipeline printed %d lines", sum)
			}
			quiet(t)
			if slow = append(slow, n); n <= 5 {
				break
			}
		}
		if slow[len(slow)-1] > 5 {
			t.Errorf("root=%v: callers identified by id in a subtest, in %d tries: %v; %q", asRoot, len(slow), slow, why)
		}
	}
}

// TestRootsInRelease mimics go test with a TestMain: the TestMain root
// releases the baton around m.Run, which runs a test root on a goroutine
// of its own, an example root on the TestMain goroutine itself, and a
// benchmark root on another goroutine; each takes the baton and gives it
// back.
func TestRootsInRelease(t *testing.T) {
	var out recorder
	runOn := func(f func()) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			f()
		}()
		<-done
	}
	inRoot(func() { // TestMain
		out.printf("main")
		tok := Release(sCall) // m.Run
		runOn(func() {
			inRoot(func() {
				ch := make(chan int)
				spawn(func() { out.printf("test child %d", Recv(sRecv, ch)) })
				Send(sSend, ch, 1)
				out.printf("test")
			})
		})
		inRoot(func() { // an example, on the same goroutine
			spawn(func() { out.printf("example child") })
			out.printf("example")
		})
		runOn(func() {
			inRoot(func() {
				var wg sync.WaitGroup
				WGGo(sWGGo, &wg, func() { out.printf("bench child") })
				Wait(sWait, &wg)
				out.printf("bench")
			})
		})
		Reacquired(tok)
		out.printf("main again")
	})
	want := "main|test|test child 1|example child|example|bench child|bench|main again"
	if got := strings.Join(out.lines, "|"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	quiet(t)
}

// TestGoTest runs testdata/gotest, tests written in the instrumented form,
// with go test: roots begun by the testing package's goroutines, subtests
// between Release and Reacquire (roots, adopted goroutines, parallel),
// b.RunParallel, an example on the main goroutine.
func TestGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", "-bench=.", "-benchtime=20x", "./testdata/gotest")
	cmd.Env = append(os.Environ(), "SPGO_WATCHDOG=1s", "SPGO_PROFILE="+filepath.Join(t.TempDir(), "p.json"))
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	t.Logf("took %v", time.Since(start)) // no assertion: wall-clock time on a loaded machine
	if strings.Contains(string(out), "spgo: warning") {
		t.Errorf("watchdog warning:\n%s", out)
	}
	for _, want := range []string{"--- PASS: TestA/guest", "--- PASS: TestParallel/p2", "--- PASS: Example", "BenchmarkParallel"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// TestDeadlock: a program whose goroutines all wait on each other ends
// like the original would: the Go runtime's message and exit status 2.
func TestDeadlock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := buildTestdata(t, "deadlock")
	cmd := exec.Command(bin)
	pf := filepath.Join(t.TempDir(), "p.json")
	cmd.Env = append(os.Environ(), "SPGO_PROFILE="+pf)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit: %v; stderr:\n%s", err, stderr.String())
	}
	if !strings.HasPrefix(stderr.String(), "fatal error: all goroutines are asleep - deadlock!") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if got := string(out); got != "child waits\nmain waits\n" {
		t.Errorf("stdout %q", got)
	}
	p, err := profile.ReadFile(pf)
	if err != nil {
		t.Fatalf("no profile after the deadlock: %v", err)
	}
	if !p.Partial || len(p.Roots) != 1 || p.Roots[0].Exact {
		t.Errorf("profile after a deadlock: partial %v, %d roots, want partial, 1 inexact root", p.Partial, len(p.Roots))
	}
}

var (
	buildOnce sync.Map // name -> *buildResult
)

type buildResult struct {
	once sync.Once
	bin  string
	err  error
	out  []byte
}

func buildTestdata(t *testing.T, name string) string {
	v, _ := buildOnce.LoadOrStore(name, new(buildResult))
	b := v.(*buildResult)
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "rtlib-"+name)
		if err != nil {
			b.err = err
			return
		}
		b.bin = filepath.Join(dir, name)
		cmd := exec.Command("go", "build", "-o", b.bin, "./testdata/"+name)
		b.out, b.err = cmd.CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("building testdata/%s: %v\n%s", name, b.err, b.out)
	}
	return b.bin
}

// initTask is the task TestMain's hooks adopted the main goroutine as.
var initTask *Task

// TestInitTask: hooks called before any root adopt the main goroutine as
// the init task, which ends when the first test's root begins on another
// goroutine. Adopted as a guest, it made every hook of the run identify
// its caller from then on (a stack walk each: 83 % of ants's tests).
func TestInitTask(t *testing.T) {
	if initTask == nil || initTask.goid != 1 {
		t.Fatalf("TestMain's hooks adopted %+v, want the main goroutine", initTask)
	}
	inRoot(func() {
		sched.mu.Lock()
		outside, checked, state := sched.guestsOutside, checking.Load(), initTask.state
		sched.mu.Unlock()
		if outside != 0 || checked && !forceCheck || state != stDone {
			t.Errorf("in a test's root: %d guests outside windows, identities checked %v, init task state %v (want 0, false, done)", outside, checked, state)
		}
	})
	quiet(t)
}

func TestMain(m *testing.M) {
	cfg.path = "off" // the tests that read profiles set their own
	// Package initialisation that calls a hook before any root (a
	// package-level pool that locks, ants's default pool): the main
	// goroutine is adopted then (TestInitTask).
	var mu sync.Mutex
	Lock(sLock, &mu)
	Unlock(&mu)
	initTask = cur.Load()
	code := m.Run()
	buildOnce.Range(func(_, v any) bool {
		if b := v.(*buildResult); b.bin != "" {
			os.RemoveAll(filepath.Dir(b.bin))
		}
		return true
	})
	os.Exit(code)
}

// TestBufferedFIFO: blocked senders and receivers are served in the
// order they blocked, as by Go's channels: on a buffered channel whose
// slot a receive frees, and after retries and external waits.
func TestBufferedFIFO(t *testing.T) {
	tests := []struct {
		name string
		prog func(*recorder)
		want []string
	}{
		{"senders", progBufferedFIFO, []string{"-1", "0", "1", "2"}},
		{"no passing", progBufferedPass, []string{"first receiver a", "main b", "got 1", "second receiver 2", "got 3"}},
		{"after sleeps", progSleptFIFO, []string{"0", "1", "2", "3", "4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := traced(tt.prog)
			if !slices.Equal(out, tt.want) {
				t.Errorf("got %q, want %q", out, tt.want)
			}
			quiet(t)
		})
	}
}
