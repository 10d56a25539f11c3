// Chains: main starts K chains of L goroutines; each link yields (so
// that, run child first, its parent ends before it), spawns the next
// one and ends without waiting for it, and main waits for all of them
// on one WaitGroup: rtlib reports delayed joins (not exact). Nothing but
// the goroutines' descriptors is allocated. A link's descriptor is
// held until the link ends. Pools whose finished tasks submit the next
// one make such chains (pond's subpools). TestDescriptorChains says
// what the figures must be.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

const (
	K = 256
	L = 16
)

var wg sync.WaitGroup

func link(j int) {
	defer wg.Done()
	runtime.Gosched()
	if j > 1 {
		wg.Add(1)
		go link(j - 1)
	}
}

func main() {
	for range K {
		wg.Add(1)
		go link(L)
	}
	wg.Wait()
	fmt.Println(K * L)
}
