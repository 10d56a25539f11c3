// Program closechan exercises closing channels as a broadcast.
//
// Constructs:
//   - a start channel closed once to release many waiting goroutines;
//   - a quit channel closed to stop many goroutines blocked in a select;
//   - receives from a closed channel: zero value and ok == false, repeated;
//   - sync.OnceFunc guarding a close that several goroutines may request;
//   - a buffered channel closed with values still in it (they are still
//     delivered before the close is observed).
package main

import (
	"fmt"
	"sort"
	"sync"
)

func main() {
	start := make(chan struct{})
	quit := make(chan struct{})
	ticks := make(chan int)
	var wg sync.WaitGroup
	stopped := make([]bool, 5)

	for id := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start // every waiter is released by the single close below
			for {
				select {
				case ticks <- id:
				case <-quit:
					stopped[id] = true
					return
				}
			}
		}()
	}

	close(start)
	seen := make(map[int]bool)
	for len(seen) < 5 {
		seen[<-ticks] = true
	}
	close(quit)
	wg.Wait()
	fmt.Println("all waiters ticked:", len(seen), "stopped:", stopped)

	v, ok := <-quit
	fmt.Println("closed receive:", v, ok)
	v, ok = <-quit
	fmt.Println("closed receive again:", v, ok)

	done := make(chan struct{})
	stop := sync.OnceFunc(func() { close(done) })
	var requesters sync.WaitGroup
	for range 4 {
		requesters.Add(1)
		go func() {
			defer requesters.Done()
			stop() // only the first call closes
		}()
	}
	requesters.Wait()
	<-done
	fmt.Println("done closed once")

	buf := make(chan string, 3)
	buf <- "b"
	buf <- "a"
	buf <- "c"
	close(buf)
	var rest []string
	for s := range buf {
		rest = append(rest, s)
	}
	sort.Strings(rest)
	fmt.Println("drained after close:", rest)
}
