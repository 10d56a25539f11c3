// Sites inside function literals are named by the literal's position;
// closures over loop variables; defer and go of method values.
package main

import (
	"fmt"
	"sync"
)

type acc struct {
	mu  sync.Mutex
	sum int
}

func (a *acc) add(v int, wg *sync.WaitGroup) {
	defer wg.Done()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sum += v
}

func main() {
	a := &acc{}
	var wg sync.WaitGroup
	add := a.add
	for i := range 4 {
		wg.Add(2)
		go add(i, &wg)
		go a.add(i, &wg)
	}
	wg.Wait()
	mk := func(n int) func() []int {
		return func() []int { return make([]int, n) }
	}
	fmt.Println(a.sum, len(mk(3)()))
}
