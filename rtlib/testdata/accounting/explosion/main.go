// MemoryExplosion: each of N levels spawns the rest of the recursion and
// allocates U bytes in its continuation, kept until after the join. Any
// schedule that runs continuations first holds all N: MHWM_p = N·U for
// every p; the child-first serial run holds one: serial peak U.
package main

import (
	"fmt"
	"sync"
)

const (
	N = 8
	U = 1 << 20
)

var sink int

func explode(k int) {
	if k == 0 {
		return
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		explode(k - 1)
	}()
	buf := make([]byte, U)
	buf[k] = byte(k)
	wg.Wait()
	sink += int(buf[k])
}

func main() {
	explode(N)
	fmt.Println(sink)
}
