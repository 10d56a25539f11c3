// semaphore: golang.org/x/sync/semaphore.Weighted, whose Acquire blocks
// in code rtlib does not see until another goroutine's Release: a
// holder of the whole weight hands it over only after a reply from a
// third goroutine; workers queue for a weight-2 semaphore and print in
// the order Acquire serves them (first come, first served); an Acquire
// with a cancelled context returns its error.
package main

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/semaphore"
)

func main() {
	ctx := context.Background()

	// Hand-over: main blocks in Acquire until the holder, which waits
	// for a reply first, releases.
	sem := semaphore.NewWeighted(1)
	if err := sem.Acquire(ctx, 1); err != nil {
		panic(err)
	}
	ask, reply := make(chan int), make(chan int)
	go func() {
		for v := range ask {
			reply <- v * v
		}
		close(reply)
	}()
	go func() {
		ask <- 7
		fmt.Println("holder got", <-reply)
		close(ask)
		sem.Release(1)
	}()
	if err := sem.Acquire(ctx, 1); err != nil {
		panic(err)
	}
	fmt.Println("main acquired after the hand-over")
	sem.Release(1)

	// Workers: at most two at once, sums checked at the end.
	work := semaphore.NewWeighted(2)
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := work.Acquire(ctx, 1); err != nil {
				panic(err)
			}
			defer work.Release(1)
			buf := make([]int, 100*(i+1))
			for j := range buf {
				buf[j] = j
			}
			s := 0
			for _, v := range buf {
				s += v
			}
			mu.Lock()
			total += s
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println("total", total, "free again:", work.TryAcquire(2))

	// A cancelled context: Acquire of a held semaphore fails at once.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	fmt.Println("cancelled:", work.Acquire(cctx, 1))
}
