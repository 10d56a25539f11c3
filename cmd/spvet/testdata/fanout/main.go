// Program fanout is a test module for spvet's end-to-end test: go vet
// -vettool must report the two non-series-parallel uses below.
package main

import (
	"fmt"
	"sync"
)

func main() {
	results := make(chan int)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- i * i
		}()
	}
	go func() {
		wg.Wait() // a closer goroutine: not series-parallel
		close(results)
	}()
	sum := 0
	for r := range results {
		sum += r
	}
	go fmt.Println("never joined")
	fmt.Println(sum)
}
