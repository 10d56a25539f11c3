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
// early: 0 B), and a poller stopped by an unbuffered send (the sender
// waited inside rtlib, the poller's select never saw it: a hang).
var figuresPkg = map[string]string{
	"go.mod": "module example.com/figs\n\ngo 1.22\n",
	"f_test.go": `package figs

import (
	"context"
	"sync"
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

var pmu sync.Mutex

func TestSubParallel(t *testing.T) {
	defer reset()
	for _, n := range []string{"a", "b"} {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			b := make([]byte, 4<<20)
			pmu.Lock()
			sink = append(sink, b)
			pmu.Unlock()
		})
	}
}
`,
}

// TestFigures runs figuresPkg under spbuild test, all tests in one
// binary and each waiting test alone (first in its binary), and checks
// every figure: 8 MiB live at the end, so MHWM_1 and the serial peak
// are within 8 MiB and 8 MiB + 256 KiB (the test's own small
// allocations), labelled exact except where the program is not
// series-parallel (the poller's channel). A parallel subtest runs after
// its test function returned: its root says it has no bound.
func TestFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	dir := writeTree(t, figuresPkg)
	cache := t.TempDir()
	const mib = 1 << 20
	exact := map[string]bool{
		"TestSubLock": true, "TestSubChan": true, "TestSubSpawn": true, "TestSubNested": true,
		"TestTimer": true, "TestAfter": true, "TestDeadline": true, "TestAfterFunc": true,
		"TestPoller": false,
	}
	check := func(t *testing.T, p *profile.Profile, names map[string]bool) {
		t.Helper()
		seen := map[string]bool{}
		for i := range p.Roots {
			r := &p.Roots[i]
			name := r.Name[strings.LastIndex(r.Name, ".")+1:]
			seen[name] = true
			if name == "TestSubParallel" {
				if r.Exact || !r.Unbounded {
					t.Errorf("%s: exact %v, unbounded %v: its subtests' memory is not in the figure", name, r.Exact, r.Unbounded)
				}
				continue
			}
			want, ok := names[name]
			if !ok {
				continue
			}
			m1, _ := r.MHWMAt(1)
			if m1 < 8*mib || m1 > 8*mib+256<<10 || r.SerialPeak < 8*mib || r.SerialPeak > 8*mib+256<<10 {
				t.Errorf("%s: MHWM_1 %d, serial %d, want 8 MiB (+256 KiB); reasons %q", name, m1, r.SerialPeak, r.Reasons)
			}
			if r.Exact != want {
				t.Errorf("%s: exact %v, want %v; reasons %q", name, r.Exact, want, r.Reasons)
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
	t.Run("all", func(t *testing.T) { check(t, run(t), exact) })
	for _, name := range []string{"TestTimer", "TestAfter", "TestDeadline", "TestAfterFunc"} {
		t.Run(name, func(t *testing.T) {
			check(t, run(t, "-run", "^"+name+"$"), map[string]bool{name: true})
		})
	}
}
