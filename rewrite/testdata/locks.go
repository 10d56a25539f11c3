// Locks and condition variables: Mutex, RWMutex, Cond, a lock reached
// through a pointer and an embedded field, TryLock (a poll when it fails), a
// method value of Unlock (left alone), and a Cond's Signal and Broadcast
// as values (hooked: code rtlib does not see may call them), and Lock
// through the sync.Locker interface.
package main

import (
	"fmt"
	"sync"
)

type cache struct {
	sync.RWMutex
	m map[string]int
}

func (c *cache) get(k string) int {
	c.RLock()
	defer c.RUnlock()
	return c.m[k]
}

func (c *cache) put(k string, v int) {
	c.Lock()
	c.m[k] = v
	c.Unlock()
}

func main() {
	c := &cache{m: map[string]int{}}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.put(fmt.Sprint(i), i)
		}()
	}
	wg.Wait()

	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	ready := false
	go func() {
		mu.Lock()
		ready = true
		cond.Broadcast()
		mu.Unlock()
	}()
	mu.Lock()
	for !ready {
		cond.Wait()
	}
	mu.Unlock()
	cond.Signal()
	wake, wakeAll := cond.Signal, (*sync.Cond).Broadcast
	wake()
	wakeAll(cond)
	cond.L.Lock() // through the sync.Locker interface
	cond.L.Unlock()
	if mu.TryLock() {
		unlock := mu.Unlock
		unlock()
	}
	fmt.Println(c.get("2"), ready)
}
