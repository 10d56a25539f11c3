// Package b holds goroutines that are joined in ways nonsp must see
// through: none of them may be reported.
package b

import (
	"context"
	"sync"
	"sync/atomic"

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
