// Program logfatal exercises log.Fatalf after goroutine work.
//
// Constructs:
//   - log.SetFlags(0) and log.SetPrefix so stderr has no timestamps;
//   - worker goroutines that validate inputs and send errors on a buffered
//     channel, joined with a WaitGroup and a closing goroutine;
//   - errors collected and sorted, logged from main only (log.Printf);
//   - log.Fatalf, which writes to stderr and exits with status 1 without
//     running deferred calls.
//
// exit: 1
package main

import (
	"fmt"
	"log"
	"sort"
	"strconv"
	"sync"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("logfatal: ")
	defer fmt.Println("deferred in main: must not run")

	inputs := []string{"12", "7", "x1", "40", "", "3"}
	errs := make(chan error, len(inputs))
	sums := make([]int, len(inputs))
	var wg sync.WaitGroup
	for i, in := range inputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := strconv.Atoi(in)
			if err != nil {
				errs <- fmt.Errorf("input %d: %w", i, err)
				return
			}
			sums[i] = n * 2
		}()
	}
	go func() {
		wg.Wait()
		close(errs)
	}()

	var msgs []string
	for err := range errs {
		msgs = append(msgs, err.Error())
	}
	sort.Strings(msgs)
	fmt.Println("doubled:", sums)
	for _, m := range msgs {
		log.Print(m)
	}
	if len(msgs) > 0 {
		log.Fatalf("%d of %d inputs invalid", len(msgs), len(inputs))
	}
	fmt.Println("not reached")
}
