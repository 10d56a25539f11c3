// A semaphore's Acquire blocks until another goroutine calls Release,
// which needs the baton: the call runs without it, as testing's Run
// does (rt.Reacquire(rt.Release(site), sem.Acquire(ctx, n))). TryAcquire
// and Release do not block and stay as they are. In a go statement the
// bracket goes into the new goroutine, with the call: wrapped in place,
// the call would be an operand of the go statement, evaluated (and
// blocking) in the parent. Deferred, the call stays as it is (a warning).
package main

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/semaphore"
)

func main() {
	ctx := context.Background()
	sem := semaphore.NewWeighted(2)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := sem.Acquire(ctx, 1); err != nil {
				return
			}
			defer sem.Release(1)
			fmt.Println(i)
		}()
	}
	wg.Wait()
	fmt.Println(sem.TryAcquire(2))

	big, cancel := context.WithCancel(ctx)
	go sem.Acquire(big, 3) // more than the semaphore holds: blocks until cancelled
	cancel()
	func() {
		defer sem.Acquire(ctx, 1)
	}()
}
