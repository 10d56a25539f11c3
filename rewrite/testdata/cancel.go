// Calls of a context's cancel functions: tasks parked on its Done
// channel retry after them.
package main

import (
	"context"
	"errors"
)

type pool struct {
	stop context.CancelFunc
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan bool)
	go func() {
		<-ctx.Done()
		done <- true
	}()
	p := pool{stop: cancel}
	p.stop()
	<-done
	cctx, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(errors.New("stopped"))
	<-cctx.Done()
}
