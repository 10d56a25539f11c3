// Spawnwide: main starts N = 10,000 goroutines in a loop and then waits
// for them all (sync.WaitGroup). Each goroutine only marks itself done:
// it allocates nothing and its frames stay far inside a starting stack.
//
// The worst case over schedules has every goroutine started and none
// run yet: Go's scheduler gives that on one processor (a new goroutine
// waits in the run queue while its parent runs on), and MHWM_p is the
// same for every p, since a goroutine holds its memory from its go
// statement, not from when it runs. Each one holds
//
//   - its descriptor, 480 bytes (runtime.malg; spgo models it from the
//     go statement to the join, rtlib/dag.go goroutineBytes),
//
//   - the go statement's closure, 16 bytes (the code pointer and &wg),
//     until it ends,
//
//   - its stack, 2,048 bytes (the runtime's starting size), until it
//     exits.
//
//     heap:   MHWM_p = serial = N·(480 + 16)        =  4,960,000
//     stacks: N·2,048                               = 20,480,000
//     total:  MHWM_p = serial = N·(480 + 16 + 2048) = 25,440,000
//
// Measured uninstrumented (Go 1.26, linux/amd64, GOMAXPROCS=1, all N
// started and none run): runtime/metrics /memory/classes/heap/stacks:bytes
// grew by 2,048 bytes per goroutine, and the live heap by 497.
package main

import (
	"fmt"
	"sync"
)

const N = 10000

func main() {
	var wg sync.WaitGroup
	for range N {
		wg.Add(1)
		go func() { // spawn
			defer wg.Done()
		}()
	}
	wg.Wait()
	fmt.Println("done", N)
}
