package rtlib

import (
	"strconv"
	"strings"
	"sync"
	"testing"
)

// other is a lock only the pollers of TestPollYields take.
var other sync.Mutex

// TestPollYields: a child that polls for what its parent has not done
// yet yields the baton after pollYield fruitless polls (select default,
// TryLock), lockSlice locks, or at once (Gosched), the parent runs, and
// the child sees it done: the same output in the same order every time.
func TestPollYields(t *testing.T) {
	polls := []struct {
		name string
		poll func(mu *sync.Mutex) bool // reports whether the parent was done
		want int                       // polls before the parent ran
	}{
		{"select default", func(*sync.Mutex) bool { Polled(sSelect); return false }, pollYield},
		{"TryLock", func(mu *sync.Mutex) bool {
			if TryLock(sLock, mu) {
				Unlock(mu)
				return true
			}
			return false
		}, pollYield},
		{"Gosched", func(*sync.Mutex) bool { Gosched(sCall); return false }, 1},
		{"locks that succeed", func(*sync.Mutex) bool {
			Lock(sLock, &other)
			Unlock(&other)
			return false
		}, lockSlice},
	}
	for _, p := range polls {
		t.Run(p.name, func(t *testing.T) {
			for range 3 {
				var out recorder
				var mu sync.Mutex
				inRoot(func() {
					Lock(sLock, &mu)
					done := false
					var wg sync.WaitGroup
					Add(sAdd, &wg, 1)
					spawn(func() {
						defer Done(&wg)
						n := 0
						for !done {
							if p.poll(&mu) {
								break
							}
							n++
						}
						out.printf("child: %d polls", n)
					})
					out.printf("parent done")
					done = true
					Unlock(&mu)
					Wait(sWait, &wg)
				})
				want := "parent done|child: " + strconv.Itoa(p.want) + " polls"
				if got := strings.Join(out.lines, "|"); got != want {
					t.Errorf("got %q, want %q", got, want)
				}
			}
			quiet(t)
		})
	}
}

// TestPollAlone: with nobody else to run, a poller keeps the baton.
func TestPollAlone(t *testing.T) {
	inRoot(func() {
		sched.mu.Lock()
		before := yields
		sched.mu.Unlock()
		for range 3 * pollYield {
			Polled(sSelect)
		}
		Gosched(sCall)
		sched.mu.Lock()
		after := yields
		sched.mu.Unlock()
		if after != before {
			t.Errorf("%d yields with nobody ready", after-before)
		}
	})
	quiet(t)
}
