// numgoroutine: a leak check by goroutine counts, as test suites write
// them (runtime.NumGoroutine before, while goroutines block, and after
// they end); the instrumented program must not count rtlib's watchdog,
// which runs while goroutines wait and ends when the run is idle.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

func main() {
	before := runtime.NumGoroutine()
	fmt.Println("before:", before)

	start := make(chan struct{})
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
		}()
	}
	fmt.Println("blocked:", runtime.NumGoroutine()-before)
	close(start)
	wg.Wait()

	for runtime.NumGoroutine() > before {
		runtime.Gosched()
	}
	fmt.Println("after:", runtime.NumGoroutine()-before)
}
