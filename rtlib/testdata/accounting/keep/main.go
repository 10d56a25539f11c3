// Keep: N goroutines each allocate a result of R bytes that main keeps
// after the join. All results are live at the end whatever the schedule:
// MHWM_p = N·R for every p, and the serial peak is N·R.
package main

import (
	"fmt"
	"sync"
)

const (
	N = 16
	R = 256 << 10
)

func main() {
	var wg sync.WaitGroup
	res := make([][]byte, N)
	for i := range N {
		wg.Go(func() {
			b := make([]byte, R)
			b[0] = byte(i)
			res[i] = b
		})
	}
	wg.Wait()
	s := 0
	for _, b := range res {
		s += int(b[0])
	}
	fmt.Println(s)
}
