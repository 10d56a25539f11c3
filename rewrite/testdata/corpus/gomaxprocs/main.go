// gomaxprocs: the program sizes a worker pool by runtime.GOMAXPROCS(0),
// changes the setting and restores it; the instrumented process runs on
// one P but the program must see the same values as the original.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

func main() {
	n := runtime.GOMAXPROCS(0)
	fmt.Println("matches NumCPU:", n == runtime.NumCPU())
	prev := runtime.GOMAXPROCS(3)
	fmt.Println(prev == n, runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(prev)
	fmt.Println(runtime.GOMAXPROCS(0) == n)

	sums := make([]int, n)
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			for i := w; i < 1000; i += n {
				sums[w] += i
			}
		})
	}
	wg.Wait()
	total := 0
	for _, s := range sums {
		total += s
	}
	fmt.Println("workers:", len(sums) == n, "total:", total)
}
