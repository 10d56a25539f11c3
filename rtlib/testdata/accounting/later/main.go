// Later: main allocates A and keeps it while a goroutine allocates B
// (kept); after the join main drops A, then a second goroutine allocates
// C. Memory is A+B, then B, then B+C: MHWM_p = max(A+B, B+C) for every p.
package main

import (
	"fmt"
	"sync"
)

const (
	A = 2 << 20
	B = 1 << 20
	C = 1 << 20
)

var a, b, c []byte

func main() {
	a = make([]byte, A)
	var wg sync.WaitGroup
	wg.Go(func() { b = make([]byte, B) })
	wg.Wait()
	a = nil
	wg.Go(func() { c = make([]byte, C) })
	wg.Wait()
	fmt.Println(len(a), len(b), len(c))
}
