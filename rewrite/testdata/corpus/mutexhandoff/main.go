// Program mutexhandoff exercises hand-offs between goroutines with locks and
// condition variables.
//
// Constructs:
//   - a ping-pong hand-off between two goroutines using two mutexes, each
//     unlocked by the other goroutine (allowed: a Mutex is not owned);
//   - a ping-pong using sync.Cond (Wait in a loop, Signal);
//   - a gate opened with sync.Cond.Broadcast that releases many waiters
//     (Lock with defer Unlock around the Wait loop).
//
// Shared state protected by Mutex and RWMutex is in the rwmutex program.
package main

import (
	"fmt"
	"sort"
	"sync"
)

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
	mutexPingPong()
	condPingPong()
	gate()
}
