// Uses of a WaitGroup that are not series-parallel: Add inside the child,
// Wait from another goroutine, and a goroutine never joined. They run
// correctly instrumented, with warnings.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	results := make(chan int, 3)
	for i := range 3 {
		go func() {
			wg.Add(1)
			defer wg.Done()
			results <- i
		}()
	}
	done := make(chan bool)
	go func() {
		wg.Wait()
		close(results)
		done <- true
	}()
	go fmt.Print("")
	<-done
	sum := 0
	for v := range results {
		sum += v
	}
	fmt.Println(sum >= 0)
}
