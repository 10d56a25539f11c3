// Package joiners holds goroutines joined by a library's or a type's own
// stop method, by a message one call deep, or by a child process's Wait:
// the false positives of issue 24. None may be reported as never joined.
package joiners

import (
	"context"
	"net"
	"net/http"
	"os/exec"
	"sync"

	"google.golang.org/grpc"
)

// net/http: Close makes Serve return.
func httpClose(ln net.Listener) {
	srv := &http.Server{}
	go srv.Serve(ln)
	srv.Close()
}

// net/http: Shutdown, deferred.
func httpShutdown(ctx context.Context, ln net.Listener) {
	srv := &http.Server{}
	defer srv.Shutdown(ctx)
	go func() {
		_ = srv.Serve(ln)
	}()
}

// grpc: Stop and GracefulStop make Serve return.
func grpcStop(lis net.Listener) {
	s := &grpc.Server{}
	go s.Serve(lis)
	s.Stop()
}

func grpcGraceful(lis net.Listener) {
	s := &grpc.Server{}
	go func() { _ = s.Serve(lis) }()
	s.GracefulStop()
}

// A type's own pair: Serve closes done one call deep; Stop cancels and
// receives from done.
type service struct {
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

func (s *service) Serve() {
	<-s.ctx.Done()
	s.finish()
}

func (s *service) finish() { close(s.done) }

func (s *service) Stop() {
	s.cancel()
	<-s.done
}

func runService(s *service) {
	go s.Serve()
}

// Cancel, then Wait, in Close: poll is counted out of the group one call
// deep (the type's own joiner, whatever its name).
type poller struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	ticks  int
}

func (p *poller) poll(ctx context.Context) {
	for ctx.Err() == nil {
		p.ticks++
	}
	p.stopped()
}

func (p *poller) stopped() { p.wg.Done() }

func (p *poller) Close() {
	p.cancel()
	p.wg.Wait()
}

func startPoller(ctx context.Context, p *poller) {
	p.wg.Add(1)
	go p.poll(ctx)
}

// A stop handshake one call deep: loop tells Stop it has ended by a send
// on a field Stop receives from.
type worker struct {
	quit, ended chan bool
	n           int
}

func (w *worker) loop() {
	for w.n < 10 {
		w.n++
	}
	w.report()
}

func (w *worker) report() { w.ended <- true }

func (w *worker) Stop() bool {
	w.quit <- true
	return <-w.ended
}

func startWorker(w *worker) {
	go w.loop()
}

// The goroutine's last act is a response one call deep, which the
// spawner receives.
type reply struct{ v int }

type request struct{ resp chan reply }

func (r *request) respond(v int) { r.resp <- reply{v} }

func compute() int { return 42 }

func ask() int {
	req := &request{resp: make(chan reply, 1)}
	go func() {
		req.respond(compute())
	}()
	return (<-req.resp).v
}

// A pipe closed for a child process the parent waits on.
func feed(data []byte) error {
	cmd := exec.Command("cat")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		_, _ = stdin.Write(data)
		_ = stdin.Close()
	}()
	return cmd.Wait()
}

// A Wait in a goroutine started by a deferred function starts after the
// Adds: no "Add after a concurrent Wait". The Wait is still in another
// goroutine than the spawner's.
func deferredWait(items []int) <-chan int {
	out := make(chan int, len(items))
	var wg sync.WaitGroup
	defer func() {
		go func() {
			wg.Wait() // want `wg.Wait in a goroutine other than the one that spawns into wg`
			close(out)
		}()
	}()
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out <- it
		}()
	}
	return out
}
