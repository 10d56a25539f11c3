// Program mutexhandoff exercises locks and condition variables.
//
// Constructs:
//   - sync.Mutex protecting a counter incremented by many goroutines
//     (Lock/Unlock and defer Unlock);
//   - sync.RWMutex protecting a map with concurrent readers (RLock/RUnlock)
//     and writers (Lock/Unlock);
//   - a ping-pong hand-off between two goroutines using two mutexes, each
//     unlocked by the other goroutine (allowed: a Mutex is not owned);
//   - a ping-pong using sync.Cond (Wait in a loop, Signal);
//   - a gate opened with sync.Cond.Broadcast that releases many waiters.
package main

import (
	"fmt"
	"sort"
	"sync"
)

func counter() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	fmt.Println("counter:", n)
}

func cache() {
	var rw sync.RWMutex
	m := map[int]int{}
	for k := range 50 {
		m[k] = k * k
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				rw.Lock()
				m[1000+w*100+i] = i
				rw.Unlock()
			}
		}()
	}
	sums := make([]int, 4)
	for r := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				rw.RLock()
				sums[r] += m[k] // keys below 50 are never written again
				rw.RUnlock()
			}
		}()
	}
	wg.Wait()
	rw.RLock()
	defer rw.RUnlock()
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	fmt.Println("reader sums:", sums)
	fmt.Println("cache size:", len(m), "first:", keys[:3], "last:", keys[len(keys)-2:])
}

func mutexPingPong() {
	var pingTurn, pongTurn sync.Mutex
	pongTurn.Lock() // pong waits until ping hands over
	var log []string
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 3 {
			pingTurn.Lock()
			log = append(log, fmt.Sprint("ping ", i))
			pongTurn.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 3 {
			pongTurn.Lock()
			log = append(log, fmt.Sprint("pong ", i))
			pingTurn.Unlock()
		}
	}()
	wg.Wait()
	fmt.Println("mutex hand-off:", log)
}

func condPingPong() {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	turn := 0 // 0: ping, 1: pong
	done := make(chan struct{})
	player := func(me int, name string) {
		for i := range 3 {
			mu.Lock()
			for turn != me {
				cond.Wait()
			}
			fmt.Println(name, i)
			turn = 1 - me
			cond.Signal()
			mu.Unlock()
		}
		done <- struct{}{}
	}
	go player(1, "pong")
	go player(0, "ping")
	<-done
	<-done
}

func gate() {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	open := false
	var wg sync.WaitGroup
	passed := make([]int, 0, 6)
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			for !open {
				cond.Wait()
			}
			passed = append(passed, i)
		}()
	}
	mu.Lock()
	open = true
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
	sort.Ints(passed)
	fmt.Println("through the gate:", passed)
}

func main() {
	counter()
	cache()
	mutexPingPong()
	condPingPong()
	gate()
}
