package a

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Server runs until Stop: Serve signals on the fields Stop waits on.
type Server struct {
	wg     sync.WaitGroup
	cancel context.CancelFunc
	done   chan struct{}
}

func (s *Server) Serve() { // want Serve:"^add\\|done own:add\\|done wg:add\\|done$"
	s.wg.Add(1)
	defer s.wg.Done()
	s.loop()
}

func (s *Server) loop() {}

func (s *Server) Stop() { // want Stop:"^recv\\|wait\\|cancel own:recv\\|wait\\|cancel cancel:cancel done:recv wg:wait$"
	s.cancel()
	s.wg.Wait()
	<-s.done
}

// finish closes done one call deeper.
func (s *Server) finish() { s.closeDone() }

func (s *Server) closeDone() { close(s.done) }

type result struct{ n int }

// respond sends the goroutine's answer.
func respond(ch chan<- result, n int) { ch <- result{n} }

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

// Finish closes done one call deeper: exported, so its summary is a fact.
func (s *Server) Finish() { s.finish() } // want Finish:"^close done:close sent:struct{}$"

// Respond sends the goroutine's answer.
func Respond(ch chan<- result, n int) { respond(ch, n) } // want Respond:"^send sent:a.result$"

// counter only writes an atomic: no fact.
type counter struct{ n atomic.Int64 }

// Inc writes an atomic, which stays in Own; no fact is exported for it.
func (c *counter) Inc() { c.n.Add(1) }
