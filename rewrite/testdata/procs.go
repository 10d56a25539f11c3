// runtime.GOMAXPROCS becomes rtlib.GOMAXPROCS: the instrumented process
// runs on one P, the program sees the setting it would have had;
// runtime.NumGoroutine becomes rtlib.NumGoroutine, which leaves out
// rtlib's own goroutines, and runtime.Stack rtlib.Stack, which leaves
// out their frames too. Here
// runtime and time are used only in calls the rewriter replaces: their
// imports must stay used.
package main

import (
	"fmt"
	"runtime"
	"sync"
	"time"
)

func main() {
	n := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	out := make([]int, n)
	for i := range n {
		wg.Go(func() { out[i] = i * i })
	}
	wg.Wait()
	time.Sleep(1000)
	prev := runtime.GOMAXPROCS(2)
	fmt.Println(len(out) == prev, runtime.GOMAXPROCS(0), runtime.NumGoroutine())
	var buf [64]byte
	fmt.Println(runtime.Stack(buf[:], false) == len(buf))
}
