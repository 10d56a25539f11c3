// Loopscratch: 4 tasks (sync.WaitGroup), each runs T = 20 000 turns of a
// loop that makes a 3 KiB scratch, make([]byte, k) with k = 3072 not
// constant, and drops it at the end of the turn. The compiler says the
// scratch does not escape; it is on the heap for its size, and dead long
// before the function returns: one scratch per task is live at a time.
//
//	MHWM_p = min(p, 4)·3 072 + 4·480
//	serial = 3 072 + 4·480
//
// (every goroutine is modelled from its go statement to the join, 480
// bytes each, rtlib/dag.go; all four are forked before any is joined).
// Not counted: the WaitGroup, the results and the go statements'
// closures (< 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const T = 20_000

var k = 3072

func work(seed int) int {
	s := 0
	for i := range T {
		b := make([]byte, k) // scratch
		b[i%k] = byte(seed + i)
		s += int(b[i%k])
	}
	return s
}

func main() {
	var wg sync.WaitGroup
	r := make([]int, 4)
	for t := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r[t] = work(t)
		}()
	}
	wg.Wait()
	fmt.Println(r)
}
