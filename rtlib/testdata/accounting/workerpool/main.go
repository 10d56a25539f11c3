// Worker pool: W workers take K jobs from a channel; each job uses a
// scratch buffer of S bytes and sends back a result of R bytes that main
// keeps. Any schedule holds at most min(p, W) scratch buffers and all
// results: the true MHWM_p is about K·R + min(p, W)·S. The jobs and
// results channels are not series-parallel: spgo's figure is the upper
// bound of the relaxation, marked inexact.
package main

import (
	"fmt"
	"sync"
)

const (
	W = 4
	K = 16
	S = 512 << 10
	R = 16 << 10
)

func main() {
	jobs := make(chan int)
	results := make(chan []byte, K)
	var wg sync.WaitGroup
	for range W {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				scratch := make([]byte, S)
				scratch[0] = byte(j)
				r := make([]byte, R)
				r[0] = scratch[0]
				results <- r
			}
		}()
	}
	for j := range K {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	close(results)
	var kept [][]byte
	for r := range results {
		kept = append(kept, r)
	}
	fmt.Println(len(kept))
}
