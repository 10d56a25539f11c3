package rtlib

// Programs written by hand in the instrumented form the rewriter produces
// (rewrite/README.md, the package documentation): every go statement is
// Fork / go func(){ defer t.Finish(); t.Start(); ...; t.Return() }() /
// Resume, every channel operation, lock, Wait and select goes through
// rtlib. Each returns what it printed, so tests can compare it with what
// the original program prints and across runs.

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

var tb = Register("rtlib", "progs_test.go", []SiteInfo{
	{Line: 1, Func: "rtlib.root", Op: OpRoot},     // 0
	{Line: 2, Func: "rtlib.spawn", Op: OpGo},      // 1
	{Line: 3, Func: "rtlib.prog", Op: OpSend},     // 2
	{Line: 4, Func: "rtlib.prog", Op: OpRecv},     // 3
	{Line: 5, Func: "rtlib.prog", Op: OpSelect},   // 4
	{Line: 6, Func: "rtlib.prog", Op: OpLock},     // 5
	{Line: 7, Func: "rtlib.prog", Op: OpWait},     // 6
	{Line: 8, Func: "rtlib.prog", Op: OpCondWait}, // 7
	{Line: 9, Func: "rtlib.prog", Op: OpSleep},    // 8
	{Line: 10, Func: "rtlib.prog", Op: OpCall},    // 9
	{Line: 11, Func: "rtlib.prog", Op: OpAdd},     // 10
	{Line: 12, Func: "rtlib.prog", Op: OpGroupGo}, // 11
	{Line: 13, Func: "rtlib.prog", Op: OpMake},    // 12
	{Line: 14, Func: "rtlib.stuck", Op: OpCall},   // 13
	{Line: 15, Func: "rtlib.prog", Op: OpWGGo},    // 14
})

var (
	sRoot   = tb + 0
	sGo     = tb + 1
	sSend   = tb + 2
	sRecv   = tb + 3
	sSelect = tb + 4
	sLock   = tb + 5
	sWait   = tb + 6
	sCond   = tb + 7
	sSleep  = tb + 8
	sCall   = tb + 9
	sAdd    = tb + 10
	sGroup  = tb + 11
	sMake   = tb + 12
	sStuck  = tb + 13
	sWGGo   = tb + 14
)

// spawn is `go f()` as the rewriter writes it.
func spawn(f func()) {
	t := Fork(sGo)
	go func() {
		defer t.Finish()
		t.Start()
		f()
		t.Return()
	}()
	t.Resume()
}

// inRoot runs f as a root (a test function's body).
func inRoot(f func()) {
	defer EndRoot(BeginRoot(sRoot))
	f()
}

// recorder is the program's output. Appends happen under the baton only.
type recorder struct{ lines []string }

func (r *recorder) printf(format string, args ...any) {
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

// progChildFirst: the child's prints come before the parent's
// continuation.
func progChildFirst(out *recorder) {
	out.printf("parent before")
	spawn(func() {
		out.printf("child 1")
		spawn(func() { out.printf("grandchild") })
		out.printf("child 1 after grandchild")
	})
	out.printf("parent between")
	spawn(func() { out.printf("child 2") })
	out.printf("parent after")
}

// progFib: nested fork-join with WaitGroup (go + Add/Done) at even
// depths and WaitGroup.Go at odd ones.
func progFib(n int, depth int) int {
	if n < 2 {
		return n
	}
	var wg sync.WaitGroup
	var a, b int
	if depth%2 == 0 {
		Add(sAdd, &wg, 2)
		spawn(func() {
			defer Done(&wg)
			a = progFib(n-1, depth+1)
		})
		spawn(func() {
			defer Done(&wg)
			b = progFib(n-2, depth+1)
		})
	} else {
		WGGo(sWGGo, &wg, func() { a = progFib(n-1, depth+1) })
		WGGo(sWGGo, &wg, func() { b = progFib(n-2, depth+1) })
	}
	Wait(sWait, &wg)
	return a + b
}

// progErrgroup: SetLimit(2) over 10 tasks that report on an unbuffered
// channel to a collector, so that tasks block and the group fills up.
func progErrgroup(out *recorder) {
	var g errgroup.Group
	GroupSetLimit(sGroup, &g, 2)
	results := make(chan int)
	collected := make(chan struct{})
	sum := 0
	spawn(func() {
		for i := 0; i < 10; i++ {
			v := Recv(sRecv, results)
			out.printf("collect %d", v)
			sum += v
		}
		Close(collected)
	})
	active, most := 0, 0
	for i := 0; i < 10; i++ {
		GroupGo(sGroup, &g, func() error {
			active++
			most = max(most, active)
			out.printf("task %d", i)
			Send(sSend, results, i*i)
			active--
			return nil
		})
	}
	if err := GroupWait(sWait, &g); err != nil {
		out.printf("error %v", err)
	}
	Recv(sRecv, collected)
	out.printf("sum %d most %d", sum, most)
}

// progErrgroupCtx: errgroup.WithContext, a task fails, the others see the
// context cancelled (closed by uninstrumented code: found by a retry
// round).
func progErrgroupCtx(out *recorder) {
	g, ctx := GroupContext(errgroup.WithContext(context.Background()))
	GroupSetLimit(sGroup, g, 3)
	block := make(chan int)
	for i := 0; i < 3; i++ {
		GroupGo(sGroup, g, func() error {
			if i == 2 {
				return fmt.Errorf("task %d failed", i)
			}
			var r0 int
			var r1 struct{}
			k := -1
			c0, c1 := block, ctx.Done()
			w := Select(sSelect, "rr")
			for w.Next(k, c0, c1) {
				if w.Blocking() {
					select {
					case r0 = <-c0:
						k = 0
					case r1 = <-c1:
						k = 1
					}
				} else {
					select {
					case r0 = <-c0:
						k = 0
					case r1 = <-c1:
						k = 1
					default:
					}
				}
			}
			_, _ = r0, r1
			out.printf("task %d: case %d", i, k)
			return nil
		})
	}
	out.printf("wait: %v", GroupWait(sWait, g))
}

// progPipeline: gen -> square -> plus one -> sink over unbuffered
// channels, each stage ranging over its input (the Recv2 loop) and
// closing its output.
func progPipeline(n int, out *recorder) {
	c1, c2, c3 := make(chan int), make(chan int), make(chan int)
	spawn(func() {
		for i := 0; i < n; i++ {
			Send(sSend, c1, i)
		}
		Close(c1)
	})
	spawn(func() {
		for {
			v, ok := Recv2(sRecv, c1)
			if !ok {
				break
			}
			Send(sSend, c2, v*v)
		}
		Close(c2)
	})
	spawn(func() {
		for {
			v, ok := Recv2(sRecv, c2)
			if !ok {
				break
			}
			Send(sSend, c3, v+1)
		}
		Close(c3)
	})
	for {
		v, ok := Recv2(sRecv, c3)
		if !ok {
			break
		}
		out.printf("%d", v)
	}
}

// progWorkers: a pool of workers over an unbuffered jobs channel, results
// on a buffered channel closed after the WaitGroup's Wait.
func progWorkers(workers, jobs int, out *recorder) {
	jobc := make(chan int)
	results := make(chan string, 2)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			for {
				j, ok := Recv2(sRecv, jobc)
				if !ok {
					return
				}
				Send(sSend, results, fmt.Sprintf("worker %d job %d", w, j))
			}
		})
	}
	spawn(func() {
		Wait(sWait, &wg)
		Close(results)
	})
	spawn(func() {
		for j := 0; j < jobs; j++ {
			Send(sSend, jobc, j)
		}
		Close(jobc)
	})
	for {
		r, ok := Recv2(sRecv, results)
		if !ok {
			break
		}
		out.printf("%s", r)
	}
}

// progSelect: a select loop over two producers' channels and a done
// channel closed once both producers finished.
func progSelect(n int, out *recorder) {
	a, b := make(chan int), make(chan string)
	done := make(chan struct{})
	var wg sync.WaitGroup
	Add(sAdd, &wg, 2)
	spawn(func() {
		defer Done(&wg)
		for i := 0; i < n; i++ {
			Send(sSend, a, i)
		}
	})
	spawn(func() {
		defer Done(&wg)
		for i := 0; i < n; i++ {
			Send(sSend, b, fmt.Sprint("b", i))
		}
	})
	spawn(func() {
		Wait(sWait, &wg)
		Close(done)
	})
	for {
		c0, c1, c2 := a, b, done
		r0, r1, r2 := Elem(c0), Elem(c1), Elem(c2)
		i := -1
		w := Select(sSelect, "rrr")
		for w.Next(i, c0, c1, c2) {
			if w.Blocking() {
				select {
				case r0 = <-c0:
					i = 0
				case r1 = <-c1:
					i = 1
				case r2 = <-c2:
					i = 2
				}
			} else {
				select {
				case r0 = <-c0:
					i = 0
				case r1 = <-c1:
					i = 1
				case r2 = <-c2:
					i = 2
				default:
				}
			}
		}
		_ = r2
		switch i {
		case 0:
			out.printf("a %d", r0)
		case 1:
			out.printf("%s", r1)
		default:
			out.printf("done")
			return
		}
	}
}

// progSelectSend: a select that sends (to two consumers) or stops on a
// quit channel; the consumers are selects too.
func progSelectSend(n int, out *recorder) {
	c := make(chan int)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for k := 0; k < 2; k++ {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			for {
				c0, c1 := c, quit
				r0, r1 := Elem(c0), Elem(c1)
				i := -1
				w := Select(sSelect, "rr")
				for w.Next(i, c0, c1) {
					if w.Blocking() {
						select {
						case r0 = <-c0:
							i = 0
						case r1 = <-c1:
							i = 1
						}
					} else {
						select {
						case r0 = <-c0:
							i = 0
						case r1 = <-c1:
							i = 1
						default:
						}
					}
				}
				_ = r1
				if i == 1 {
					out.printf("consumer %d quits", k)
					return
				}
				out.printf("consumer %d got %d", k, r0)
			}
		})
	}
	for v := 0; v < n; v++ {
		c0, v0 := c, v
		i := -1
		w := Select(sSelect, "s")
		for w.Next(i, c0) {
			if w.Blocking() {
				select {
				case c0 <- v0:
					i = 0
				}
			} else {
				select {
				case c0 <- v0:
					i = 0
				default:
				}
			}
		}
	}
	Close(quit)
	Wait(sWait, &wg)
}

// progMutex: three goroutines increment a counter under a mutex they hold
// across a blocking receive from a ticker, so that the others park on the
// lock and are handed it by Unlock.
func progMutex(iters int, out *recorder) {
	var mu sync.Mutex
	tick := make(chan int)
	counter := 0
	var wg sync.WaitGroup
	spawn(func() {
		for i := 0; i < 3*iters; i++ {
			Send(sSend, tick, i)
		}
	})
	for g := 0; g < 3; g++ {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			for i := 0; i < iters; i++ {
				Lock(sLock, &mu)
				c := counter
				k := Recv(sRecv, tick)
				counter = c + 1
				out.printf("g%d tick %d counter %d", g, k, counter)
				Unlock(&mu)
			}
		})
	}
	Wait(sWait, &wg)
	out.printf("counter %d", counter)
}

// progRWMutex: readers and a writer on an RWMutex, with the writer and
// readers holding it across channel operations.
func progRWMutex(out *recorder) {
	var mu sync.RWMutex
	gate := make(chan int)
	value := 0
	var wg sync.WaitGroup
	for r := 0; r < 3; r++ {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			for i := 0; i < 3; i++ {
				RLock(sLock, &mu)
				v := value
				Recv(sRecv, gate)
				out.printf("reader %d sees %d", r, v)
				RUnlock(&mu)
			}
		})
	}
	Add(sAdd, &wg, 1)
	spawn(func() {
		defer Done(&wg)
		for i := 0; i < 3; i++ {
			RWLock(sLock, &mu)
			value++
			Recv(sRecv, gate)
			out.printf("writer sets %d", value)
			RWUnlock(&mu)
		}
	})
	for i := 0; i < 12; i++ {
		Send(sSend, gate, i)
	}
	Wait(sWait, &wg)
}

// progCond: a bounded buffer with two Conds, two producers and two
// consumers.
func progCond(items int, out *recorder) {
	var mu sync.Mutex
	notFull, notEmpty := sync.NewCond(&mu), sync.NewCond(&mu)
	var buf []int
	const size = 2
	producing := 2
	var wg sync.WaitGroup
	for p := 0; p < 2; p++ {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			for i := 0; i < items; i++ {
				Lock(sLock, &mu)
				for len(buf) == size {
					CondWait(sCond, notFull)
				}
				buf = append(buf, p*1000+i)
				Signal(notEmpty)
				Unlock(&mu)
			}
			Lock(sLock, &mu)
			producing--
			Broadcast(notEmpty)
			Unlock(&mu)
		})
	}
	for c := 0; c < 2; c++ {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			for {
				Lock(sLock, &mu)
				for len(buf) == 0 && producing > 0 {
					CondWait(sCond, notEmpty)
				}
				if len(buf) == 0 {
					Unlock(&mu)
					return
				}
				v := buf[0]
				buf = buf[1:]
				Signal(notFull)
				Unlock(&mu)
				out.printf("consumer %d got %d", c, v)
			}
		})
	}
	Wait(sWait, &wg)
}

// progSleep: goroutines that sleep give the baton up; a select with a
// timer (time.After, fed by the runtime) is completed in external mode.
func progSleep(out *recorder) {
	var wg sync.WaitGroup
	never := make(chan int)
	Add(sAdd, &wg, 2)
	spawn(func() {
		defer Done(&wg)
		Sleep(sSleep, 100*time.Millisecond) // well after the timer, even on a loaded machine
		out.printf("slept")
	})
	spawn(func() {
		defer Done(&wg)
		c0, c1 := never, time.After(5*time.Millisecond)
		r0, r1 := Elem(c0), Elem(c1)
		i := -1
		w := Select(sSelect, "rr")
		for w.Next(i, c0, c1) {
			if w.Blocking() {
				select {
				case r0 = <-c0:
					i = 0
				case r1 = <-c1:
					i = 1
				}
			} else {
				select {
				case r0 = <-c0:
					i = 0
				case r1 = <-c1:
					i = 1
				default:
				}
			}
		}
		_, _ = r0, r1
		out.printf("timer case %d", i)
	})
	out.printf("parent waits")
	Wait(sWait, &wg)
}

// progGoexit: a child that leaves through runtime.Goexit (Finish without
// Return) still passes the baton on.
func progGoexit(out *recorder) {
	var wg sync.WaitGroup
	Add(sAdd, &wg, 1)
	spawn(func() {
		defer Done(&wg)
		out.printf("child exits")
		runtime.Goexit()
	})
	out.printf("parent goes on")
	Wait(sWait, &wg)
	out.printf("joined")
}

// progUninstrumentedSender: a goroutine rtlib does not know (it calls no
// hook) sends on channels, later, and closes one; the receivers are
// completed in external mode.
func progUninstrumentedSender(out *recorder) {
	a, b := make(chan int), make(chan int)
	go func() { // uninstrumented; the sleeps leave a loaded machine time to settle
		time.Sleep(5 * time.Millisecond)
		a <- 1
		time.Sleep(20 * time.Millisecond)
		b <- 2
		close(a)
	}()
	var wg sync.WaitGroup
	Add(sAdd, &wg, 1)
	spawn(func() {
		defer Done(&wg)
		out.printf("b %d", Recv(sRecv, b))
	})
	out.printf("a %d", Recv(sRecv, a))
	Wait(sWait, &wg)
	_, ok := Recv2(sRecv, a)
	out.printf("a open %v", ok)
}

// progRLockerCond: a Cond on an RWMutex's RLocker, and one on a Locker
// with TryLock of the program's own.
func progRLockerCond(out *recorder) {
	var rw sync.RWMutex
	c := sync.NewCond(rw.RLocker())
	ready := false
	var wg sync.WaitGroup
	Add(sAdd, &wg, 1)
	spawn(func() {
		defer Done(&wg)
		RLock(sLock, &rw)
		for !ready {
			CondWait(sCond, c)
		}
		RUnlock(&rw)
		out.printf("reader saw ready")
	})
	RWLock(sLock, &rw)
	ready = true
	RWUnlock(&rw)
	Broadcast(c)
	Wait(sWait, &wg)

	var ml myLocker
	c2 := sync.NewCond(&ml)
	n := 0
	Add(sAdd, &wg, 1)
	spawn(func() {
		defer Done(&wg)
		ml.Lock()
		for n == 0 {
			CondWait(sCond, c2)
		}
		ml.Unlock()
		out.printf("n %d", n)
	})
	ml.Lock()
	n = 7
	Signal(c2)
	ml.Unlock()
	Wait(sWait, &wg)
}

// progSpinLockerCond: a Cond whose L is a spin lock written in Go, as
// instrumented code (runtime.Gosched while the lock is taken; ants's
// pkg/sync): waiters take it back after CondWait while the others hold
// it.
func progSpinLockerCond(out *recorder) {
	var l spinLock
	c := sync.NewCond(&l)
	turn := 0
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			LockerLock(sLock, &l)
			for turn != i {
				CondWait(sCond, c)
			}
			out.printf("turn %d", i)
			turn++
			Broadcast(c)
			Gosched(sCall) // the woken spin for the lock meanwhile
			LockerUnlock(&l)
		})
	}
	LockerLock(sLock, &l)
	turn = 1
	Broadcast(c)
	Gosched(sCall)
	LockerUnlock(&l)
	Wait(sWait, &wg)
}

// progClosedSpin: the parent polls a flag between receives from a
// closed channel, which never block; the child that sets the flag is
// parked on a channel closed outside rtlib (as context's cancel closes
// its done channel). The parent must yield, and the child retry.
func progClosedSpin(out *recorder) {
	done := make(chan struct{})
	stop := make(chan struct{})
	var flag atomic.Bool
	var wg sync.WaitGroup
	Add(sAdd, &wg, 1)
	spawn(func() {
		defer Done(&wg)
		Recv(sRecv, stop)
		flag.Store(true)
	})
	close(done)
	close(stop) // not through rtlib: its parked receiver is not woken
	for !flag.Load() {
		Recv(sRecv, done)
	}
	Wait(sWait, &wg)
	out.printf("flag seen")
}

// spinLock is a Locker without TryLock that spins, yielding.
type spinLock struct{ v atomic.Int32 }

func (l *spinLock) Lock() {
	for !l.v.CompareAndSwap(0, 1) {
		Gosched(sCall)
	}
}

func (l *spinLock) Unlock() { l.v.Store(0) }

type myLocker struct{ mu sync.Mutex }

func (l *myLocker) Lock()         { l.mu.Lock() }
func (l *myLocker) Unlock()       { l.mu.Unlock() }
func (l *myLocker) TryLock() bool { return l.mu.TryLock() }

// progFanIn: many goroutines send to one unbuffered channel, then wait
// on a channel closed at the end (a close that wakes them all).
func progFanIn(n int, out *recorder) {
	results := make(chan int)
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			Send(sSend, results, i)
			Recv(sRecv, release)
		})
	}
	sum := 0
	for i := 0; i < n; i++ {
		sum += Recv(sRecv, results)
	}
	Close(release)
	Wait(sWait, &wg)
	out.printf("sum %d", sum)
}

// progBufferedPool: a buffered jobs channel ranged over by workers that
// append results to a slice under a mutex; a buffered channel used as a
// semaphore bounds how many hold a "connection" at once.
func progBufferedPool(out *recorder) {
	jobs := make(chan int, 5)
	sem := make(chan struct{}, 2)
	gate := make(chan int)
	var mu sync.Mutex
	var results []string
	inUse, most := 0, 0
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			for {
				j, ok := Recv2(sRecv, jobs)
				if !ok {
					return
				}
				Send(sSend, sem, struct{}{})
				inUse++
				most = max(most, inUse)
				g := Recv(sRecv, gate) // hold the slot across a block
				inUse--
				Recv(sRecv, sem)
				Lock(sLock, &mu)
				results = append(results, fmt.Sprintf("w%d j%d g%d", w, j, g))
				Unlock(&mu)
			}
		})
	}
	spawn(func() {
		for g := 0; g < 12; g++ {
			Send(sSend, gate, g)
		}
	})
	for j := 0; j < 12; j++ {
		Send(sSend, jobs, j)
	}
	Close(jobs)
	Wait(sWait, &wg)
	out.lines = append(out.lines, results...)
	out.printf("most %d", most)
}

// progNestedGroups: errgroups inside errgroup tasks, with limits.
func progNestedGroups(out *recorder) {
	var outer errgroup.Group
	GroupSetLimit(sGroup, &outer, 2)
	sums := make([]int, 4)
	for i := range sums {
		GroupGo(sGroup, &outer, func() error {
			var inner errgroup.Group
			GroupSetLimit(sGroup, &inner, 2)
			ch := make(chan int)
			got := make(chan struct{})
			spawn(func() { // the receiver first: the senders block
				for {
					v, ok := Recv2(sRecv, ch)
					if !ok {
						break
					}
					sums[i] += v
				}
				Close(got)
			})
			for k := 0; k < 3; k++ {
				GroupGo(sGroup, &inner, func() error {
					Send(sSend, ch, i*10+k)
					return nil
				})
			}
			GroupWait(sWait, &inner)
			Close(ch)
			Recv(sRecv, got)
			return nil
		})
	}
	if err := GroupWait(sWait, &outer); err != nil {
		out.printf("%v", err)
	}
	out.printf("%v", sums)
}

// progPingPongSelect: two goroutines bounce a counter, each in a select
// with a done channel and a timeout that never fires.
func progPingPongSelect(out *recorder) {
	ping, pong := make(chan int), make(chan int)
	done := make(chan struct{})
	player := func(name string, in <-chan int, outc chan<- int) {
		for {
			c0, c1, c2 := in, done, time.After(time.Hour)
			r0, r1, r2 := Elem(c0), Elem(c1), Elem(c2)
			i := -1
			w := Select(sSelect, "rrr")
			for w.Next(i, c0, c1, c2) {
				if w.Blocking() {
					select {
					case r0 = <-c0:
						i = 0
					case r1 = <-c1:
						i = 1
					case r2 = <-c2:
						i = 2
					}
				} else {
					select {
					case r0 = <-c0:
						i = 0
					case r1 = <-c1:
						i = 1
					case r2 = <-c2:
						i = 2
					default:
					}
				}
			}
			_, _ = r1, r2
			if i != 0 {
				out.printf("%s stops", name)
				return
			}
			out.printf("%s %d", name, r0)
			if r0 == 10 {
				Close(done)
				out.printf("%s stops", name)
				return
			}
			Send(sSend, outc, r0+1)
		}
	}
	var wg sync.WaitGroup
	Add(sAdd, &wg, 2)
	spawn(func() { defer Done(&wg); player("ping", ping, pong) })
	spawn(func() { defer Done(&wg); player("pong", pong, ping) })
	Send(sSend, ping, 0)
	Wait(sWait, &wg)
}

// progBufferedFIFO: three senders block in turn on a full buffered
// channel; the receiver then drains it. Go serves blocked senders first
// come, first served, and moves the first one's value into the buffer
// as a receive frees a slot: the receiver reads -1 0 1 2.
func progBufferedFIFO(out *recorder) {
	c := make(chan int, 1)
	Send(sSend, c, -1)
	ready := make(chan bool)
	var wg sync.WaitGroup
	for i := range 3 {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			Send(sSend, ready, true)
			Send(sSend, c, i)
		})
		Recv(sRecv, ready)
	}
	for range 4 {
		out.printf("%d", Recv(sRecv, c))
	}
	Wait(sWait, &wg)
}

// progBufferedPass: a receiver parks on an empty buffered channel; two
// sends fill it. In Go the first value went to the parked receiver at
// once, so a second receiver that comes before it ran gets the second
// value. The same for senders: a sender that comes while the first
// parked sender's value is, in Go, already in the buffer waits.
func progBufferedPass(out *recorder) {
	c := make(chan string, 2)
	var wg sync.WaitGroup
	Add(sAdd, &wg, 1)
	spawn(func() {
		defer Done(&wg)
		out.printf("first receiver %s", Recv(sRecv, c))
	})
	Send(sSend, c, "a")
	Send(sSend, c, "b")
	out.printf("main %s", Recv(sRecv, c))
	Wait(sWait, &wg)

	d := make(chan int, 1)
	Send(sSend, d, 1)
	Add(sAdd, &wg, 1)
	spawn(func() {
		defer Done(&wg)
		Send(sSend, d, 2)
	})
	out.printf("got %d", Recv(sRecv, d)) // 1; in Go 2 is buffered now
	Add(sAdd, &wg, 1)
	spawn(func() {
		defer Done(&wg)
		out.printf("second receiver %d", Recv(sRecv, d))
	})
	Send(sSend, d, 3) // waits until the second receiver took 2
	out.printf("got %d", Recv(sRecv, d))
	Wait(sWait, &wg)
}

// progSleptFIFO: goroutines get a tick each, one per millisecond of the
// sender's sleep, and block in turn sending their number on an
// unbuffered channel. While the sender sleeps nothing can run, the
// blocked sends wait for real (external mode) and come back, and retry
// rounds wake them: they must keep the order they blocked in, as Go's
// channels do.
func progSleptFIFO(out *recorder) {
	results := make(chan int)
	tick := make(chan struct{}, 1)
	var wg sync.WaitGroup
	for i := range 5 {
		Add(sAdd, &wg, 1)
		spawn(func() {
			defer Done(&wg)
			Recv(sRecv, tick)
			Send(sSend, results, i)
		})
	}
	for range 5 {
		Send(sSend, tick, struct{}{})
		Sleep(sSleep, time.Millisecond)
	}
	for range 5 {
		out.printf("%d", Recv(sRecv, results))
	}
	Wait(sWait, &wg)
}
