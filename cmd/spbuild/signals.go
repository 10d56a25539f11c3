package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// graceDelay is how long interrupted work has to unwind (the go commands
// interrupted: they have goWaitDelay to end) before spbuild exits
// without waiting for it.
const graceDelay = 10 * time.Second

// interrupts is spbuild's handling of SIGINT and SIGTERM.
//
// While a child program runs (the instrumented program, or go test) they
// are the child's: a terminal sends SIGINT to it too, the driver passes
// SIGTERM on, and spbuild reports as usual once the child has ended
// (with its exit status). Otherwise the first cancels the run's context:
// the go commands running are interrupted and the work unwinds; spbuild
// then removes its scratch directory and exits with 128+n, as a shell
// reports a process signal n ended. If the work has not unwound within
// graceDelay, or at a second signal, spbuild removes the directory and
// exits at once.
type interrupts struct {
	mu      sync.Mutex
	child   bool
	sig     syscall.Signal // the signal that interrupted the run; 0 if none
	said    bool           // whether status said so
	cancel  context.CancelFunc
	cleanup func() // removes the scratch directory; safe to call twice
}

// handleInterrupts starts the handling of SIGINT and SIGTERM and returns
// it with the run's context.
func handleInterrupts(cleanup func()) (*interrupts, context.Context) {
	ctx, cancel := context.WithCancel(context.Background())
	in := &interrupts{cancel: cancel, cleanup: cleanup}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range ch {
			in.signal(s.(syscall.Signal))
		}
	}()
	return in, ctx
}

// signal handles one signal.
func (in *interrupts) signal(s syscall.Signal) {
	in.mu.Lock()
	if in.child {
		in.mu.Unlock()
		return
	}
	first := in.sig == 0
	if first {
		in.sig = s
	}
	in.mu.Unlock()
	in.cancel()
	if first {
		time.AfterFunc(graceDelay, in.exit)
	} else {
		in.exit()
	}
}

// running is driver.Config.Child: whether a child program runs.
func (in *interrupts) running(b bool) {
	in.mu.Lock()
	in.child = b
	in.mu.Unlock()
}

// status returns code, or 128+n if signal n interrupted the run (and
// says so).
func (in *interrupts) status(code int) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.sig == 0 {
		return code
	}
	if !in.said {
		fmt.Fprintf(os.Stderr, "spbuild: interrupted (%v); temporary files removed\n", in.sig)
		in.said = true
	}
	return 128 + int(in.sig)
}

// exit removes the scratch directory and exits as interrupted.
func (in *interrupts) exit() {
	in.cleanup()
	os.Exit(in.status(1))
}
