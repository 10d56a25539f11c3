package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// figuresPkg holds tests that each keep 8 MiB live at their end, in the
// shapes of real suites that once lost their figures: a subtest that
// synchronises before it allocates (its allocations went to no root,
// labelled exact), waits on timers and deadlines (every goroutine
// waited, the profile was flushed as for a deadlock and the root closed
// early: 0 B), a poller stopped by an unbuffered send (the sender
// waited inside rtlib, the poller's select never saw it: a hang), and
// parallel subtests, which run after their test function returned
// (their memory was in no root, labelled exact).
var figuresPkg = map[string]string{
	"go.mod": "module example.com/figs\n\ngo 1.22\n",
	"f_test.go": `package figs

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var sink [][]byte

func hold(mib int) {
	for i := 0; i < mib; i++ {
		sink = append(sink, make([]byte, 1<<20))
	}
}

func reset() { sink = nil }

func TestSubLock(t *testing.T) {
	defer reset()
	var mu sync.Mutex
	t.Run("x", func(t *testing.T) { mu.Lock(); mu.Unlock(); hold(8) })
}

func TestSubChan(t *testing.T) {
	defer reset()
	t.Run("x", func(t *testing.T) {
		c := make(chan int, 1)
		c <- 1
		<-c
		hold(8)
	})
}

func TestSubSpawn(t *testing.T) {
	defer reset()
	t.Run("x", func(t *testing.T) {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done() }()
		wg.Wait()
		hold(8)
	})
}

func TestSubNested(t *testing.T) {
	defer reset()
	t.Run("outer", func(t *testing.T) {
		var mu sync.Mutex
		mu.Lock()
		mu.Unlock()
		t.Run("inner", func(t *testing.T) {
			c := make(chan int, 1)
			c <- 1
			<-c
			hold(4)
		})
		hold(4)
	})
}

func TestTimer(t *testing.T) {
	defer reset()
	tm := time.NewTimer(10 * time.Millisecond)
	<-tm.C
	hold(8)
}

func TestAfter(t *testing.T) {
	defer reset()
	<-time.After(10 * time.Millisecond)
	hold(8)
}

func TestDeadline(t *testing.T) {
	defer reset()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	<-ctx.Done()
	hold(8)
}

func TestAfterFunc(t *testing.T) {
	defer reset()
	c := make(chan struct{})
	time.AfterFunc(10*time.Millisecond, func() { close(c) })
	<-c
	hold(8)
}

func TestPoller(t *testing.T) {
	defer reset()
	stop := make(chan struct{})
	done := make(chan struct{})
	n := 0
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				n++
			}
		}
	}()
	time.Sleep(10 * time.Millisecond)
	stop <- struct{}{}
	<-done
	hold(8)
}

func TestSubParallel(t *testing.T) {
	defer reset()
	var slots [2][]byte
	for i, n := range []string{"a", "b"} {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			slots[i] = make([]byte, 4<<20)
		})
	}
	t.Cleanup(func() { sink = append(sink, slots[:]...) })
}

// TestSpinSpawns: a loop that starts a goroutine every turn until
// another goroutine sets a flag (a cache that schedules each write's
// drain on a goroutine of its own). The loop's goroutine got the baton
// back from each child and never yielded to the test's: a hang.
func TestSpinSpawns(t *testing.T) {
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			go func() { used += 0 }()
		}
	}()
	time.Sleep(10 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
}

var used int

func use(b []byte) {
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	used += len(b)
}

func TestSubParallelTransient(t *testing.T) {
	for _, n := range []string{"a", "b"} {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			b := make([]byte, 4<<20)
			use(b)
		})
	}
}
`,
}

// TestFigures runs figuresPkg under spbuild test, all tests in one
// binary and each waiting test alone (first in its binary), and checks
// every figure against the truth: MHWM_1 and MHWM_2 within 256 KiB
// above it (the test's own small allocations), and the serial peak,
// labelled exact except where the program is not series-parallel (the
// poller's channel). Two parallel subtests that each keep 4 MiB hold 8
// MiB at any p; two that each use 4 MiB and drop it hold 4 MiB at p = 1
// and 8 MiB at p = 2.
func TestFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	dir := writeTree(t, figuresPkg)
	cache := t.TempDir()
	const mib = 1 << 20
	type want struct {
		m1, m2 int64 // MiB
		exact  bool
	}
	eight := want{8, 8, true}
	all := map[string]want{
		"TestSubLock": eight, "TestSubChan": eight, "TestSubSpawn": eight, "TestSubNested": eight,
		"TestTimer": eight, "TestAfter": eight, "TestDeadline": eight, "TestAfterFunc": eight,
		"TestPoller": {8, 8, false}, "TestSubParallel": eight, "TestSubParallelTransient": {4, 8, true},
	}
	check := func(t *testing.T, p *profile.Profile, names map[string]want) {
		t.Helper()
		seen := map[string]bool{}
		for i := range p.Roots {
			r := &p.Roots[i]
			name := r.Name[strings.LastIndex(r.Name, ".")+1:]
			w, ok := names[name]
			if !ok {
				continue
			}
			seen[name] = true
			m1, _ := r.MHWMAt(1)
			m2, _ := r.MHWMAt(2)
			near := func(got, want int64) bool { return got >= want*mib && got <= want*mib+256<<10 }
			if !near(m1, w.m1) || !near(m2, w.m2) || !near(r.SerialPeak, w.m1) {
				t.Errorf("%s: MHWM_1 %d, MHWM_2 %d, serial %d, want %d, %d and %d MiB (+256 KiB); reasons %q", name, m1, m2, r.SerialPeak, w.m1, w.m2, w.m1, r.Reasons)
			}
			if r.Exact != w.exact {
				t.Errorf("%s: exact %v, want %v; reasons %q", name, r.Exact, w.exact, r.Reasons)
			}
		}
		for name := range names {
			if !seen[name] {
				t.Errorf("%s: no root in the profile", name)
			}
		}
		if p.Partial {
			t.Errorf("profile partial: the binary ended normally")
		}
	}
	run := func(t *testing.T, args ...string) *profile.Profile {
		t.Helper()
		prof := filepath.Join(t.TempDir(), "p.json")
		args = append([]string{"test", "-json", prof}, args...)
		args = append(args, ".", "--", "-timeout=120s")
		stdout, stderr, code := spbuild(t, dir, cache, args...)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		p, err := profile.ReadFile(prof)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// TestSpinSpawns only has to end: its goroutines are never joined.
	t.Run("all", func(t *testing.T) { check(t, run(t), all) })
	for _, name := range []string{"TestTimer", "TestAfter", "TestDeadline", "TestAfterFunc", "TestSubParallel"} {
		t.Run(name, func(t *testing.T) {
			check(t, run(t, "-run", "^"+name+"$"), map[string]want{name: all[name]})
		})
	}
}
