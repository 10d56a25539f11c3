// Package b holds goroutines that are joined in ways nonsp must see
// through: none of them may be reported.
package b

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"golang.org/x/sync/semaphore"
)

// A local closure variable that calls Done.
func closureVar(n int) {
	var wg sync.WaitGroup
	worker := func(i int) {
		defer wg.Done()
		_ = make([]byte, i)
	}
	for i := range n {
		wg.Add(1)
		go worker(i)
	}
	wg.Wait()
}

// A group type of another library: a result-less Done.
type closer struct{ wg sync.WaitGroup }

func (c *closer) Done()          { c.wg.Done() }
func (c *closer) SignalAndWait() { c.wg.Wait() }

func customGroup(c *closer, work func()) {
	go func() {
		defer c.Done()
		work()
	}()
}

// new(sync.WaitGroup) is not a copy.
func newGroup() *sync.WaitGroup { return new(sync.WaitGroup) }

// A flag and a sync.Cond broadcast.
type flag struct {
	mu   sync.Mutex
	cond *sync.Cond
	done bool
}

func condSignal(f *flag, work func()) {
	go func() {
		work()
		f.mu.Lock()
		f.done = true
		f.cond.Broadcast()
		f.mu.Unlock()
	}()
}

// The signal is one call away, in this package.
type group struct {
	wg sync.WaitGroup
}

func (g *group) done() { g.wg.Done() }

func (g *group) spawn(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.done()
		f()
	}()
}

// Add just before the go statement counts the goroutine.
func funcValue(wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	go f()
}

// An Add in another function is not after this Wait.
type server struct {
	mu sync.Mutex
	wg sync.WaitGroup
}

func (s *server) stop() {
	go func() {
		s.wg.Wait() // want `nonsp: wg.Wait in a goroutine other than the one that spawns into wg`
	}()
}

func (s *server) start() {
	s.mu.Lock()
	s.wg.Add(1)
	s.mu.Unlock()
	s.wg.Done()
}

// An atomic flag the spawner polls.
func atomicFlag(work func()) *atomic.Bool {
	var finished atomic.Bool
	go func() {
		work()
		finished.Store(true)
	}()
	return &finished
}

// A method of a generic type.
type cache[K comparable] struct{ wg sync.WaitGroup }

func (c *cache[K]) evict(k K) { c.wg.Done() }

func (c *cache[K]) evictLater(k K) {
	c.wg.Add(2)
	go c.evict(k)
	go c.evict(k)
}

// A semaphore released by the goroutine.
func semaphoreJoin(ctx context.Context, s *semaphore.Weighted, work func()) {
	_ = s.Acquire(ctx, 1)
	go func() {
		defer s.Release(1)
		work()
	}()
}

// Still reported: nothing comes back.
func fireAndForget(work func()) {
	go work() // want `nonsp: goroutine never joined`
}

// The writer's Close is the reader's EOF.
func pipe(work func(w *io.PipeWriter)) *io.PipeReader {
	r, w := io.Pipe()
	go func() {
		work(w)
		w.Close()
	}()
	return r
}

// A counting type of another library: Take before, Give in the child, Wait.
type workers struct{ wg sync.WaitGroup }

func (w *workers) Take() { w.wg.Add(1) }
func (w *workers) Give() { w.wg.Add(-1) }
func (w *workers) Wait() { w.wg.Wait() }

func pool(wk *workers, jobs []func()) {
	for _, job := range jobs {
		wk.Take()
		go func() {
			defer wk.Give()
			job()
		}()
	}
	wk.Wait()
}

// A recursive literal declared first.
func recursive(wg *sync.WaitGroup, n int) {
	var walk func(int)
	walk = func(k int) {
		defer wg.Done()
		if k > 0 {
			wg.Add(1)
			go walk(k - 1)
		}
	}
	wg.Add(1)
	walk(n)
}

// Goroutines in a synctest bubble are waited for by synctest.Test.
func bubble(t *testing.T, work func()) {
	synctest.Test(t, func(t *testing.T) {
		go work()
	})
}

// Still reported: a send deep in a callee is about something else.
type logger struct{ lines chan string }

func (l *logger) log(s string) { l.lines <- s }

func (l *logger) flushLater() {
	go l.flush() // want `nonsp: goroutine never joined`
}

func (l *logger) flush() { l.log("flush") }

// A recursive literal that signals when it reaches the bottom.
func countdown(done chan<- bool, n int) {
	var step func(int)
	step = func(k int) {
		if k == 0 {
			done <- true
			return
		}
		go step(k - 1)
	}
	go step(n)
}
