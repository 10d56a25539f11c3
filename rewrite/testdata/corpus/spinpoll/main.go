// Program spinpoll exercises goroutines that wait by polling for work
// another goroutine has not done yet: under the baton, the other one runs
// only once the poller gives the baton up.
//
// Constructs:
//   - a select with a default case polled in a loop until a value that a
//     goroutine started after the poller sends;
//   - a TryLock loop on a mutex the spawner still holds;
//   - an RWMutex TryRLock loop while the spawner holds the write lock;
//   - a runtime.Gosched loop on an atomic flag the spawner sets later;
//   - a loop of locks that succeed, reading a flag the spawner sets
//     under the lock later;
//   - a worker that polls a done channel between units of work, beside
//     siblings;
//   - every poll ends, and the output is the same as the original's.
package main

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

func main() {
	var wg sync.WaitGroup

	ch := make(chan int, 1)
	wg.Add(2)
	go func() {
		defer wg.Done()
		for {
			select {
			case v := <-ch:
				fmt.Println("select polled until", v)
				return
			default:
			}
		}
	}()
	go func() {
		defer wg.Done()
		ch <- 42
	}()
	wg.Wait()

	var mu sync.Mutex
	mu.Lock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !mu.TryLock() {
		}
		fmt.Println("TryLock polled until the spawner unlocked")
		mu.Unlock()
	}()
	mu.Unlock()
	wg.Wait()

	var rw sync.RWMutex
	rw.Lock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !rw.TryRLock() {
		}
		fmt.Println("TryRLock polled until the writer left")
		rw.RUnlock()
	}()
	rw.Unlock()
	wg.Wait()

	var ready atomic.Bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !ready.Load() {
			runtime.Gosched()
		}
		fmt.Println("Gosched polled until the flag was set")
	}()
	ready.Store(true)
	wg.Wait()

	var state struct {
		sync.Mutex
		set bool
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			state.Lock()
			set := state.set
			state.Unlock()
			if set {
				break
			}
		}
		fmt.Println("locks polled until the flag was set")
	}()
	state.Lock()
	state.set = true
	state.Unlock()
	wg.Wait()

	done := make(chan struct{})
	results := make([]int, 3)
	for w := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					results[w] = 1
					return
				default:
				}
				if w == 2 && i == 100 {
					close(done)
				}
			}
		}()
	}
	wg.Wait()
	fmt.Println("workers stopped:", results)
}
