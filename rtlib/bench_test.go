package rtlib

import (
	"bytes"
	"sync"
	"testing"

	"golang.org/x/sync/errgroup"
)

var (
	sinkP   *[64]byte
	sinkS   []int
	sinkB   []byte
	backing [64]byte
	backS   = make([]int, 16)
)

// BenchmarkAllocHook is the cost of two allocation hooks (the values are
// not allocated by the benchmark: the hook is measured, not the
// allocator). census=off is the hot path alone; census=bounded adds the
// censuses the default policy runs, amortised: with nothing live the
// budget is the 64 KiB minimum, so one runtime.GC per 64 KiB hooked.
func BenchmarkAllocHook(b *testing.B) {
	for _, pol := range []int{censusOff, censusBounded} {
		b.Run("census="+censusNames[pol], func(b *testing.B) {
			defer func(old int) { cfg.census = old }(cfg.census)
			cfg.census = pol
			b.ReportAllocs()
			inRoot(func() {
				for i := 0; i < b.N; i++ {
					sinkP = New(sMake, &backing)
					sinkS = Slice(sMake, backS)
				}
			})
		})
	}
}

// BenchmarkAtHook is the cost of the marker the rewriter puts before a
// statement that calls uninstrumented code (rtlib.At: the heartbeat and
// the holder's mark), inside a root, as in an instrumented program.
func BenchmarkAtHook(b *testing.B) {
	b.ReportAllocs()
	inRoot(func() {
		for i := 0; i < b.N; i++ {
			At(sCall)
		}
	})
}

// BenchmarkAllocPlain is the uninstrumented baseline of BenchmarkAllocHook:
// the two allocations themselves, without hooks.
func BenchmarkAllocPlain(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sinkP = new([64]byte)
		sinkS = make([]int, 16)
	}
}

// BenchmarkForkJoinPlain is the uninstrumented baseline of
// BenchmarkForkJoin: a go statement, Add, Done and Wait.
func BenchmarkForkJoinPlain(b *testing.B) {
	b.ReportAllocs()
	var wg sync.WaitGroup
	for i := 0; i < b.N; i++ {
		wg.Add(1)
		go func() { wg.Done() }()
		wg.Wait()
	}
}

// BenchmarkForkJoin is one go statement (Fork, go, Start, Return, Finish,
// Resume) with WaitGroup Add, Done and Wait. The closure of the go
// statement is the instrumented program's own allocation.
func BenchmarkForkJoin(b *testing.B) {
	b.ReportAllocs()
	inRoot(func() {
		var wg sync.WaitGroup
		for i := 0; i < b.N; i++ {
			Add(sAdd, &wg, 1)
			t := Fork(sGo)
			go func() {
				defer t.Finish()
				t.Start()
				Done(&wg)
				t.Return()
			}()
			t.Resume()
			Wait(sWait, &wg)
		}
	})
}

// BenchmarkForkJoinBlocking: the child blocks (on a channel the parent
// then sends on) so that the parent's continuation runs before the child
// ends.
func BenchmarkForkJoinBlocking(b *testing.B) {
	b.ReportAllocs()
	inRoot(func() {
		var wg sync.WaitGroup
		ch := make(chan int)
		for i := 0; i < b.N; i++ {
			Add(sAdd, &wg, 1)
			t := Fork(sGo)
			go func() {
				defer t.Finish()
				t.Start()
				Recv(sRecv, ch)
				Done(&wg)
				t.Return()
			}()
			t.Resume()
			Send(sSend, ch, i)
			Wait(sWait, &wg)
		}
	})
}

// BenchmarkSendRecvPingPong is one round trip over two unbuffered
// channels between two goroutines: two rendezvous, four strand switches.
func BenchmarkSendRecvPingPong(b *testing.B) {
	b.ReportAllocs()
	inRoot(func() {
		ping, pong := make(chan int), make(chan int)
		spawn(func() {
			for {
				v, ok := Recv2(sRecv, ping)
				if !ok {
					return
				}
				Send(sSend, pong, v+1)
			}
		})
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Send(sSend, ping, i)
			Recv(sRecv, pong)
		}
		b.StopTimer()
		Close(ping)
	})
}

// BenchmarkSendRecvPingPongPlain is the uninstrumented baseline of
// BenchmarkSendRecvPingPong (the Go scheduler hands off, on 2 cores).
func BenchmarkSendRecvPingPongPlain(b *testing.B) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
	}()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ping <- i
		<-pong
	}
	close(ping)
}

// BenchmarkBufferedSendRecv: operations on a buffered channel that never
// block (the fast path).
func BenchmarkBufferedSendRecv(b *testing.B) {
	b.ReportAllocs()
	inRoot(func() {
		ch := make(chan int, 1)
		for i := 0; i < b.N; i++ {
			Send(sSend, ch, i)
			Recv(sRecv, ch)
		}
	})
}

// BenchmarkMutexHandoff: the parent holds a mutex while its child tries
// to lock it (and parks); the parent's Unlock wakes the child, the
// parent's Wait parks until the child is done.
func BenchmarkMutexHandoff(b *testing.B) {
	b.ReportAllocs()
	inRoot(func() {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := 0; i < b.N; i++ {
			Lock(sLock, &mu)
			Add(sAdd, &wg, 1)
			t := Fork(sGo)
			go func() {
				defer t.Finish()
				t.Start()
				Lock(sLock, &mu)
				Unlock(&mu)
				Done(&wg)
				t.Return()
			}()
			t.Resume()
			Unlock(&mu)
			Wait(sWait, &wg)
		}
	})
}

// TestSwitchesDoNotAllocate: strand switches (rendezvous, parking, the
// baton moving), the allocation hooks and the external-call marker
// allocate nothing.
func TestSwitchesDoNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(1000, func() { sinkP = New(sMake, &backing) }); n != 0 {
		t.Errorf("allocation hook: %v allocations", n)
	}
	inRoot(func() {
		if n := testing.AllocsPerRun(1000, func() { At(sCall) }); n != 0 {
			t.Errorf("rtlib.At: %v allocations", n)
		}
	})
	inRoot(func() {
		ping, pong := make(chan int), make(chan int)
		spawn(func() {
			for {
				v, ok := Recv2(sRecv, ping)
				if !ok {
					return
				}
				Send(sSend, pong, v+1)
			}
		})
		for i := 0; i < 100; i++ { // warm up the pools
			Send(sSend, ping, i)
			Recv(sRecv, pong)
		}
		if n := testing.AllocsPerRun(1000, func() {
			Send(sSend, ping, 1)
			Recv(sRecv, pong)
		}); n != 0 {
			t.Errorf("ping-pong: %v allocations per round trip", n)
		}
		Close(ping)
	})
	quiet(t)
}

// TestAtMark: At stores the heartbeat and marks the holder; the next
// reading charges what uninstrumented code allocated to the marked site,
// not to the last hook's, and clears the mark.
func TestAtMark(t *testing.T) {
	At(sCall) // no root: the heartbeat only
	if Site(hb.Load()) != sCall {
		t.Errorf("heartbeat %d, want %d", hb.Load(), sCall)
	}
	inRoot(func() {
		d := holderDnode()
		if d == nil {
			t.Fatal("no holder in a root")
		}
		d.lastSite = sMake // as after an allocation hook
		At(sCall)
		if d.extSite != sCall {
			t.Fatalf("mark %d, want %d", d.extSite, sCall)
		}
		sinkB = bytes.Repeat([]byte{1}, 1<<20) // uninstrumented: seen at once
		chargeUninstrumented(d)
		if d.extSite != 0 {
			t.Errorf("mark %d after a reading, want 0", d.extSite)
		}
		if n := d.root.allocB[sCall]; n < 1<<20 || n > 1<<20+64<<10 {
			t.Errorf("%d bytes charged to the marked site, want 1 MiB", n)
		}
		if n := d.root.allocB[sMake]; n > 64<<10 {
			t.Errorf("%d bytes charged to the hook's site", n)
		}
	})
}

// BenchmarkSelectPingPong: a round trip where the receiving side is a
// select over two channels (the loop the rewriter generates).
func BenchmarkSelectPingPong(b *testing.B) {
	b.ReportAllocs()
	inRoot(func() {
		ping, pong := make(chan int), make(chan int)
		quit := make(chan struct{})
		spawn(func() {
			for {
				c0, c1 := ping, quit
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
					return
				}
				Send(sSend, pong, r0)
			}
		})
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			Send(sSend, ping, i)
			Recv(sRecv, pong)
		}
		b.StopTimer()
		Close(quit)
	})
}

// BenchmarkGroupGo: errgroup Go and Wait, one task (the closures are the
// program's and GroupGo's own).
func BenchmarkGroupGo(b *testing.B) {
	b.ReportAllocs()
	inRoot(func() {
		for i := 0; i < b.N; i++ {
			var g errgroup.Group
			GroupGo(sGroup, &g, func() error { return nil })
			GroupWait(sWait, &g)
		}
	})
}
