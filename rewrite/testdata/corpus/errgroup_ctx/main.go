// Program errgroup_ctx exercises errgroup.WithContext and cancellation.
//
// Constructs:
//   - errgroup.WithContext; one task fails and the others wait in a select
//     on ctx.Done() and a channel that is never ready, so every one of them
//     observes the cancellation (the count does not depend on timing);
//   - a task that fails only after seeing ctx.Done(), so Wait must report
//     the first error;
//   - context.Cause and ctx.Err after Wait;
//   - a producer/consumer pair over an unbuffered channel where the consumer
//     fails and the producer's send is abandoned through select on ctx.Done().
package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

var errBadInput = errors.New("bad input")

func waiters() {
	g, ctx := errgroup.WithContext(context.Background())
	never := make(chan int)
	var observed atomic.Int32
	for i := range 5 {
		g.Go(func() error {
			if i == 2 {
				return fmt.Errorf("task %d: %w", i, errBadInput)
			}
			select {
			case <-ctx.Done():
				observed.Add(1)
				return nil
			case v := <-never:
				return fmt.Errorf("task %d got %d", i, v)
			}
		})
	}
	err := g.Wait()
	fmt.Println("wait:", err)
	fmt.Println("is errBadInput:", errors.Is(err, errBadInput))
	fmt.Println("observed cancellation:", observed.Load())
	fmt.Println("ctx.Err:", ctx.Err())
	fmt.Println("cause:", context.Cause(ctx))
}

func firstErrorWins() {
	g, ctx := errgroup.WithContext(context.Background())
	g.Go(func() error {
		<-ctx.Done()
		return fmt.Errorf("second: stopped after %w", ctx.Err())
	})
	g.Go(func() error {
		return errors.New("first: failed")
	})
	fmt.Println("wait:", g.Wait())
}

func producerConsumer() {
	g, ctx := errgroup.WithContext(context.Background())
	items := make(chan int)
	var sent int
	g.Go(func() error {
		defer close(items)
		for i := 1; ; i++ {
			select {
			case items <- i:
				sent++
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	})
	var got []int
	g.Go(func() error {
		for v := range items {
			got = append(got, v)
			if v == 5 {
				return fmt.Errorf("consumer: cannot handle %d", v)
			}
		}
		return nil
	})
	err := g.Wait()
	fmt.Println("wait:", err)
	fmt.Println("sent:", sent, "got:", got)
}

func main() {
	waiters()
	firstErrorWins()
	producerConsumer()

	// A group whose tasks all succeed cancels its context on Wait.
	g, ctx := errgroup.WithContext(context.Background())
	total := make([]int, 4)
	for i := range total {
		g.Go(func() error {
			total[i] = i * i
			return nil
		})
	}
	fmt.Println("all ok:", g.Wait(), total, ctx.Err())
}
