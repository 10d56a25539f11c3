// Command deadlock is an instrumented program (written by hand in the
// rewriter's shapes) whose goroutines all end up waiting on each other:
// the original dies with "fatal error: all goroutines are asleep -
// deadlock!" and exit status 2, and so must the instrumented one.
package main

import (
	"fmt"
	"sync"

	"github.com/spgo/spgo/rtlib"
)

var base = rtlib.Register("main", "main.go", []rtlib.SiteInfo{
	{Line: 20, Func: "main.main", Op: rtlib.OpRoot},
	{Line: 21, Func: "main.main", Op: rtlib.OpGo},
	{Line: 22, Func: "main.main", Op: rtlib.OpRecv},
	{Line: 23, Func: "main.main", Op: rtlib.OpWait},
	{Line: 24, Func: "main.main", Op: rtlib.OpLock},
})

func main() {
	defer rtlib.EndRoot(rtlib.BeginRoot(base + 0))
	var wg sync.WaitGroup
	var mu sync.Mutex
	ch := make(chan int)
	rtlib.Add(base+3, &wg, 1)
	t := rtlib.Fork(base + 1)
	go func() {
		defer t.Finish()
		t.Start()
		func() {
			defer rtlib.Done(&wg)
			rtlib.Lock(base+4, &mu)
			fmt.Println("child waits")
			rtlib.Recv(base+2, ch) // nobody sends
			rtlib.Unlock(&mu)
		}()
		t.Return()
	}()
	t.Resume()
	fmt.Println("main waits")
	rtlib.Lock(base+4, &mu)
	rtlib.Wait(base+3, &wg)
}
