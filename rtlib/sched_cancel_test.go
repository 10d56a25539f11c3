package rtlib

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// TestCancelWakes: a task parked on a context's Done channel is ready to
// retry as soon as Cancel (or CancelCause) returns, whatever the holder
// does next; a plain cancel leaves it parked until a retry round.
func TestCancelWakes(t *testing.T) {
	tests := []struct {
		name   string
		cancel func(context.Context) (context.Context, func())
	}{
		{"Cancel", func(parent context.Context) (context.Context, func()) {
			ctx, cancel := context.WithCancel(parent)
			return ctx, func() { Cancel(cancel) }
		}},
		{"CancelCause", func(parent context.Context) (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(parent)
			return ctx, func() { CancelCause(cancel, errors.New("stop")) }
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inRoot(func() {
				ctx, cancel := tt.cancel(context.Background())
				var wg sync.WaitGroup
				Add(sAdd, &wg, 1)
				spawn(func() {
					defer Done(&wg)
					Recv(sRecv, ctx.Done())
				})
				sched.mu.Lock()
				before := sched.nparked
				sched.mu.Unlock()
				cancel()
				sched.mu.Lock()
				after := sched.nparked
				sched.mu.Unlock()
				if before != 1 || after != 0 {
					t.Errorf("parked tasks: %d before the cancel, %d after (want 1, 0)", before, after)
				}
				Wait(sWait, &wg)
			})
			quiet(t)
		})
	}
}
