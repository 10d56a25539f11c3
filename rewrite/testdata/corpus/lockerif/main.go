// Program lockerif exercises locks taken through the sync.Locker
// interface: a sync.Cond's L, and a Locker variable holding a Mutex or
// an RWMutex.
//
// Constructs:
//   - c.L.Lock() in a goroutine while the spawner holds c.L, then
//     c.Broadcast, three rounds (the goroutine runs first and must wait
//     for the lock without holding the baton);
//   - a sync.Locker variable (a Mutex, an RWMutex) locked and unlocked by
//     goroutines in turn;
//   - no watchdog warning: every such Lock parks like mu.Lock().
package main

import (
	"fmt"
	"sync"
)

func main() {
	c := sync.NewCond(&sync.Mutex{})
	for round := 0; round < 3; round++ {
		ready := false
		c.L.Lock()
		go func() {
			c.L.Lock()
			ready = true
			c.L.Unlock()
			c.Broadcast()
		}()
		for !ready {
			c.Wait()
		}
		c.L.Unlock()
		fmt.Println("round", round)
	}

	var rw sync.RWMutex
	for _, l := range []sync.Locker{&sync.Mutex{}, &rw} {
		total := 0
		var wg sync.WaitGroup
		l.Lock()
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l.Lock()
				total += i
				l.Unlock()
			}()
		}
		l.Unlock()
		wg.Wait()
		fmt.Println("total", total)
	}
}
