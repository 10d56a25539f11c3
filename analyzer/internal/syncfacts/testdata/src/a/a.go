package a

import (
	"context"
	"sync"
	"time"
)

// Server runs until Stop: Serve signals on the fields Stop waits on.
type Server struct {
	wg     sync.WaitGroup
	cancel context.CancelFunc
	done   chan struct{}
}

func (s *Server) Serve() { // want Serve:"add\\|done .*wg:add\\|done"
	s.wg.Add(1)
	defer s.wg.Done()
	s.loop()
}

func (s *Server) loop() {}

func (s *Server) Stop() { // want Stop:"recv\\|wait\\|cancel cancel:cancel done:recv wg:wait recv:struct{}"
	s.cancel()
	s.wg.Wait()
	<-s.done
}

// finish closes done one call deeper.
func (s *Server) finish() { s.closeDone() } // want finish:"close done:close sent:struct{}"

func (s *Server) closeDone() { close(s.done) } // want closeDone:"close done:close sent:struct{}"

type result struct{ n int }

// respond sends the goroutine's answer.
func respond(ch chan<- result, n int) { ch <- result{n} } // want respond:"send sent:a.result"

// Sleeper blocks without a channel.
func Sleeper() { time.Sleep(time.Millisecond) } // want Sleeper:"^sleep own:sleep$"

// Spawner's goroutine is not part of its summary.
func Spawner(ch chan int) {
	go func() { ch <- 1 }()
}

// Limit of a string: no synchronisation, no fact.
func Limit(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
