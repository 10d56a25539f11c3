// Program condforeign exercises sync.Cond Signal and Broadcast called
// through function values, which run where the rewriter sees no call.
//
// Constructs:
//   - c.Broadcast passed to time.AfterFunc (a timer goroutine calls it);
//   - c.Signal stored in a variable and called from a goroutine;
//   - c.Broadcast called through reflect;
//   - the method expression (*sync.Cond).Signal stored and called;
//   - a Cond embedded in a struct value (the method value takes its
//     address);
//   - every Wait returns as in the original: no false "all goroutines are
//     asleep - deadlock!".
package main

import (
	"fmt"
	"reflect"
	"sync"
	"time"
)

type gate struct {
	mu sync.Mutex
	sync.Cond
	open bool
}

func main() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)

	mu.Lock()
	time.AfterFunc(time.Millisecond, c.Broadcast)
	// A second timer, in case main was descheduled for the first one's
	// millisecond before it waited (a loaded machine); the later Waits
	// are in loops, which a spare Broadcast does not disturb.
	time.AfterFunc(100*time.Millisecond, c.Broadcast)
	c.Wait()
	mu.Unlock()
	fmt.Println("after AfterFunc")

	ready := false
	signal := c.Signal
	mu.Lock()
	go func() {
		mu.Lock()
		ready = true
		mu.Unlock()
		signal()
	}()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	fmt.Println("after a method value")

	ready = false
	mu.Lock()
	go func() {
		mu.Lock()
		ready = true
		mu.Unlock()
		reflect.ValueOf(c.Broadcast).Call(nil)
	}()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	fmt.Println("after reflect")

	ready = false
	wake := (*sync.Cond).Signal
	mu.Lock()
	go func() {
		mu.Lock()
		ready = true
		mu.Unlock()
		wake(c)
	}()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	fmt.Println("after a method expression")

	var g gate
	g.L = &g.mu
	g.mu.Lock()
	time.AfterFunc(time.Millisecond, func() {
		g.mu.Lock()
		g.open = true
		g.mu.Unlock()
		// Only now: a Broadcast on a timer of its own could come
		// first on a loaded machine, before main waits, and be lost.
		time.AfterFunc(time.Millisecond, g.Broadcast)
	})
	for !g.open {
		g.Wait()
	}
	g.mu.Unlock()
	fmt.Println("after an embedded Cond")
}
