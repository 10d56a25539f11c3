package a

import (
	"sync"

	"golang.org/x/sync/errgroup"
)

func work(i int) []byte { return make([]byte, i) }

// Structured: nothing to report.
func forkJoin(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(i)
		}()
	}
	wg.Wait()
}

func withGo(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Go(func() { work(i) })
	}
	wg.Wait()
}

func errgroupOK(n int) error {
	var g errgroup.Group
	g.SetLimit(4)
	for i := 0; i < n; i++ {
		g.Go(func() error { work(i); return nil })
	}
	return g.Wait()
}

// A reused group: each Wait closes a block.
func reuse() {
	var wg sync.WaitGroup
	wg.Go(func() { work(1) })
	wg.Wait()
	wg.Go(func() { work(2) })
	wg.Wait()
}

func addInside(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		go func() {
			wg.Add(1) // want `nonsp: wg.Add inside a spawned goroutine`
			defer wg.Done()
			work(i)
		}()
	}
	wg.Wait()
}

// A closer goroutine: Wait elsewhere, then Go after it began.
func closer(in []int) <-chan []byte {
	out := make(chan []byte)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		out <- work(in[0])
	}()
	go func() {
		wg.Wait() // want `nonsp: wg.Wait in a goroutine other than the one that spawns into wg`
		close(out)
	}()
	wg.Add(1) // want `nonsp: wg.Add after a concurrent Wait on wg began`
	go func() {
		defer wg.Done()
		out <- work(in[1])
	}()
	return out
}

func byValue(wg sync.WaitGroup) { // want `nonsp: sync.WaitGroup passed by value`
	wg.Wait()
}

func copies(g *errgroup.Group) {
	h := *g // want `nonsp: errgroup.Group copied by value`
	_ = h.Wait()
}

func fireAndForget() {
	go work(3)  // want `nonsp: goroutine never joined`
	go func() { // want `nonsp: goroutine never joined`
		work(4)
	}()
}

func viaChannel() []byte {
	ch := make(chan []byte, 1)
	go func() { ch <- work(5) }()
	go produce(ch)
	return <-ch
}

func produce(ch chan<- []byte) { ch <- work(6) }

type server struct{ wg sync.WaitGroup }

func (s *server) run() { defer s.wg.Done(); work(7) }

func (s *server) start() {
	s.wg.Add(1)
	go s.run()
	s.wg.Wait()
}

func suppressed() {
	//spvet:ignore nonsp the logger lives as long as the process
	go work(8)
	go work(9) //spvet:ignore nonsp same here
	//spvet:ignore nonsp
	go work(10) // want `nonsp: goroutine never joined`
}

// No fix: the Add counts a value the goroutine receives.
func addParam(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		go func(k int) {
			wg.Add(k) // want `nonsp: wg.Add inside a spawned goroutine`
			defer wg.Done()
		}(1)
	}
	wg.Wait()
}
