// Program panicexit exercises an unrecovered panic in main.
//
// Constructs:
//   - goroutines that compute results and finish (joined by a WaitGroup)
//     before main panics, so stdout is fixed;
//   - a deferred function in main that runs while the panic unwinds and
//     prints to stdout;
//   - a panic that is recovered in a nested call first, then an unrecovered
//     panic with a string value.
//
// exit: 2
// stderr-prefix: panic: boom
package main

import (
	"fmt"
	"sync"
)

func tryRecover() (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint("recovered ", r)
		}
	}()
	panic("first")
}

func main() {
	defer fmt.Println("deferred in main runs during panicking")

	var wg sync.WaitGroup
	cubes := make([]int, 5)
	for i := range cubes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cubes[i] = i * i * i
		}()
	}
	wg.Wait()
	fmt.Println("cubes:", cubes)
	fmt.Println(tryRecover())

	total := 0
	for _, c := range cubes {
		total += c
	}
	if total > 0 {
		panic("boom")
	}
	fmt.Println("not reached")
}
