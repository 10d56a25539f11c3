// Program osexit exercises os.Exit with pending deferred calls.
//
// Constructs:
//   - goroutines that run and report through a channel before main exits;
//   - a deferred call in main that must NOT run, because os.Exit terminates
//     the program immediately;
//   - a deferred call in a goroutine that does run (the goroutine returns
//     normally before main exits);
//   - a message on stderr, then os.Exit(3) from main.
//
// exit: 3
package main

import (
	"fmt"
	"os"
)

func main() {
	defer fmt.Println("deferred in main: must not run")

	results := make(chan string)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer fmt.Println("deferred in goroutine: runs")
		for _, name := range []string{"a", "b", "c"} {
			results <- "processed " + name
		}
		close(results)
	}()
	var lines []string
	for r := range results {
		lines = append(lines, r)
	}
	<-done
	for _, l := range lines {
		fmt.Println(l)
	}

	fmt.Fprintln(os.Stderr, "exiting with status 3")
	os.Exit(3)
}
