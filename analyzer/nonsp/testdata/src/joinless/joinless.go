// Package joinless holds goroutines that only look joined: each must
// still be reported.
package joinless

import (
	"net"
	"net/http"
	"sync"
)

// A net/http server nobody closes.
func httpForever(ln net.Listener) {
	srv := &http.Server{}
	go srv.Serve(ln) // want `goroutine never joined`
}

// A type whose Stop only cancels: nothing waits for Serve.
type service struct {
	stop chan struct{}
	hits int
}

func (s *service) Serve() {
	for range s.stop {
		s.hits++
	}
}

func (s *service) Stop() { s.stop = nil }

func runService(s *service) {
	go s.Serve() // want `goroutine never joined`
}

// A message one call deep of a type the spawner does not receive.
type note struct{ s string }

type logger struct{ notes chan note }

func (l *logger) log(s string) { l.notes <- note{s} }

func spawnLogger(l *logger) int {
	go func() { // want `goroutine never joined`
		l.log("started")
	}()
	return 0
}

// A Wait in a goroutine started before the Adds, not from a defer.
func waitFirst(items []int) {
	var wg sync.WaitGroup
	done := make(chan struct{})
	go func() {
		wg.Wait() // want `wg.Wait in a goroutine other than the one that spawns into wg`
		close(done)
	}()
	for range items {
		wg.Add(1) // want `wg.Add after a concurrent Wait on wg began`
		go func() { defer wg.Done() }()
	}
	<-done
}
