// Program rwmutex exercises shared state protected by sync.Mutex and
// sync.RWMutex.
//
// Constructs:
//   - sync.Mutex protecting a counter incremented by many goroutines
//     (Lock/Unlock pairs);
//   - sync.RWMutex protecting a map with concurrent writers (Lock/Unlock)
//     and readers (RLock/RUnlock), readers only reading keys that are never
//     rewritten so their sums are fixed;
//   - RLock with defer RUnlock in the reporting function;
//   - a struct with a mutex-guarded method (Lock with defer Unlock);
//   - map keys sorted before printing.
package main

import (
	"fmt"
	"sort"
	"sync"
)

type account struct {
	mu      sync.Mutex
	balance int
}

func (a *account) deposit(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += n
}

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

func main() {
	counter()
	cache()

	acct := &account{}
	var wg sync.WaitGroup
	for i := 1; i <= 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acct.deposit(i)
		}()
	}
	wg.Wait()
	fmt.Println("balance:", acct.balance)
}
