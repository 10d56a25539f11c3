// Program maingoexit exercises runtime.Goexit in main.
//
// Constructs:
//   - main.main ends with runtime.Goexit: its deferred calls run, its
//     goroutine exits, and the program goes on with the other goroutines;
//   - goroutines started by main that wait for a channel closed by main's
//     deferred call, and so run only after main's goroutine has gone, in
//     a chain so that stdout is fixed;
//   - when they have ended, the Go runtime stops the process: "fatal
//     error: no goroutines (main called runtime.Goexit) - deadlock!" on
//     stderr, nothing else, and exit status 2.
//
// exit: 2
package main

import (
	"fmt"
	"runtime"
)

func main() {
	start := make(chan struct{})
	prev := start
	for i := 0; i < 3; i++ {
		next := make(chan struct{})
		go func(in <-chan struct{}, out chan<- struct{}) {
			<-in
			buf := make([]byte, (i+1)<<10)
			fmt.Println("worker", i, len(buf))
			close(out)
		}(prev, next)
		prev = next
	}
	defer close(start)
	defer fmt.Println("main's deferred call")
	runtime.Goexit()
}
