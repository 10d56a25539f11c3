package rtlib

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// slowGroup is a Group that cancels its context a while after a task
// failed, as errgroup does when the machine is loaded.
type slowGroup struct {
	wg     sync.WaitGroup
	once   sync.Once
	err    error
	cancel context.CancelFunc
	delay  time.Duration
}

func (g *slowGroup) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			time.Sleep(g.delay)
			g.once.Do(func() { g.err = err; g.cancel() })
		}
	}()
}

func (g *slowGroup) TryGo(f func() error) bool { g.Go(f); return true }
func (g *slowGroup) SetLimit(int)              {}

func (g *slowGroup) Wait() error {
	g.wg.Wait()
	g.cancel()
	return g.err
}

// progSlowCancel: tasks 0 and 1 wait in a select on the group's context
// and a channel nobody sends on; task 2 fails, and the group cancels the
// context delay later. With seen, rtlib was told the context
// (GroupContext).
func progSlowCancel(delay time.Duration, seen bool, out *recorder) {
	ctx, cancel := context.WithCancel(context.Background())
	g := &slowGroup{cancel: cancel, delay: delay}
	if seen {
		GroupContext(g, ctx)
	}
	never := make(chan int)
	for i := range 3 {
		GroupGo(sGroup, g, func() error {
			if i == 2 {
				return fmt.Errorf("task %d failed", i)
			}
			k := -1
			w := Select(sSelect, "rr")
			for w.Next(k, never, ctx.Done()) {
				if w.Blocking() {
					select {
					case <-never:
						k = 0
					case <-ctx.Done():
						k = 1
					}
				} else {
					select {
					case <-never:
						k = 0
					case <-ctx.Done():
						k = 1
					default:
					}
				}
			}
			out.printf("task %d: case %d", i, k)
			return nil
		})
	}
	out.printf("wait: %v", GroupWait(sWait, g))
}

// TestGroupContextGrace: after a task failed, the tasks waiting on the
// group's context are retried once the group cancelled it, however late
// (within groupCtxGrace), when rtlib saw the context; otherwise only
// groupGrace is waited, and they are found still blocked and go to
// external mode.
func TestGroupContextGrace(t *testing.T) {
	const delay = 100 * time.Millisecond
	want := []string{"task 0: case 1", "task 1: case 1", "wait: task 2 failed"}
	for _, tc := range []struct {
		seen     bool
		external bool
	}{
		{seen: true, external: false},
		{seen: false, external: true},
	} {
		t.Run(fmt.Sprintf("seen=%v", tc.seen), func(t *testing.T) {
			e0 := externals.Load()
			out, _ := traced(func(r *recorder) { progSlowCancel(delay, tc.seen, r) })
			went := externals.Load() != e0
			if tc.seen && !slices.Equal(out, want) {
				t.Errorf("got %q, want %q", out, want)
			}
			if !tc.seen && len(out) != len(want) {
				t.Errorf("got %q, want the lines of %q in some order", out, want)
			}
			if went != tc.external {
				t.Errorf("tasks went to external mode: %v, want %v", went, tc.external)
			}
			quiet(t)
		})
	}
}
