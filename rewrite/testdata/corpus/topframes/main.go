// topframes: a leak check that names each goroutine by the function on
// top of its stack in runtime.Stack's trace of all goroutines, as
// goleak's IgnoreTopFunction does. Instrumented, the goroutines park in
// rtlib's channel hooks and rtlib's watchdog runs while they wait:
// neither may show. A trace cut by a small buffer fills the buffer.
package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

func recvWait(ch chan int) { <-ch }

func sendWait(ch chan int) { ch <- 1 }

func selectWait(a, b chan int) {
	select {
	case <-a:
	case <-b:
	}
}

func main() {
	a, b, c := make(chan int), make(chan int), make(chan int)
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); recvWait(a) }()
	go func() { defer wg.Done(); sendWait(b) }()
	go func() { defer wg.Done(); selectWait(c, c) }()

	want := []string{"main.recvWait", "main.selectWait", "main.sendWait"}
	var tops []string
	for try := 0; try < 1000; try++ { // until all three have parked
		if tops = topFunctions(); slices.Equal(tops, want) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	fmt.Println(strings.Join(tops, "\n"))

	small := make([]byte, 10)
	n := runtime.Stack(small, true)
	fmt.Printf("%d of %d bytes: %q\n", n, len(small), small[:n])

	a <- 1
	<-b
	c <- 1
	wg.Wait()
}

// topFunctions returns the function on top of every goroutine's stack
// but the caller's, sorted.
func topFunctions() []string {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	blocks := strings.Split(strings.TrimSpace(string(buf[:n])), "\n\n")
	var tops []string
	for _, b := range blocks[1:] { // the caller's comes first
		lines := strings.Split(b, "\n")
		if len(lines) > 1 {
			fn := lines[1]
			if i := strings.LastIndex(fn, "("); i > 0 {
				fn = fn[:i]
			}
			tops = append(tops, fn)
		}
	}
	slices.Sort(tops)
	return tops
}
