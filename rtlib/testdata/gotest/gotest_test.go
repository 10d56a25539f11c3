// Package gotest is a test package written by hand in the instrumented
// form, run with go test by rtlib's TestGoTest: roots begun by the testing
// package's goroutines, t.Run and b.RunParallel between Release and
// Reacquire, subtests that are roots and subtests that are not (their
// goroutines are adopted), parallel subtests with t.Parallel released,
// an example on the main goroutine.
package gotest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/spgo/spgo/rtlib"
)

var base = rtlib.Register("gotest", "gotest_test.go", []rtlib.SiteInfo{
	{Line: 1, Func: "gotest.TestA", Op: rtlib.OpRoot},       // 0
	{Line: 2, Func: "gotest.TestA", Op: rtlib.OpGo},         // 1
	{Line: 3, Func: "gotest.TestA", Op: rtlib.OpSend},       // 2
	{Line: 4, Func: "gotest.TestA", Op: rtlib.OpRecv},       // 3
	{Line: 5, Func: "gotest.TestA", Op: rtlib.OpCall},       // 4
	{Line: 6, Func: "gotest.TestA", Op: rtlib.OpWGGo},       // 5
	{Line: 7, Func: "gotest.TestA", Op: rtlib.OpWait},       // 6
	{Line: 8, Func: "gotest.TestA", Op: rtlib.OpLock},       // 7
	{Line: 9, Func: "gotest.TestA.func1", Op: rtlib.OpRoot}, // 8
})

// fanIn is an instrumented function: n children send to one channel.
func fanIn(n int) int {
	ch := make(chan int)
	for i := 0; i < n; i++ {
		t := rtlib.Fork(base + 1)
		go func() {
			defer t.Finish()
			t.Start()
			rtlib.Send(base+2, ch, i)
			t.Return()
		}()
		t.Resume()
	}
	sum := 0
	for i := 0; i < n; i++ {
		sum += rtlib.Recv(base+3, ch)
	}
	return sum
}

func TestA(t *testing.T) {
	defer rtlib.EndRoot(rtlib.BeginRoot(base + 0))
	if got := fanIn(10); got != 45 {
		t.Errorf("fanIn(10) = %d", got)
	}
	for _, name := range []string{"root", "guest"} {
		rtlib.Reacquire(rtlib.Release(base+4), t.Run(name, func(t *testing.T) {
			if name == "root" {
				defer rtlib.EndRoot(rtlib.BeginRoot(base + 8))
			}
			var wg sync.WaitGroup
			sums := make([]int, 3)
			for k := range sums {
				rtlib.WGGo(base+5, &wg, func() { sums[k] = fanIn(5 + k) })
			}
			rtlib.Wait(base+6, &wg)
			if sums[0] != 10 || sums[1] != 15 || sums[2] != 21 {
				t.Errorf("sums %v", sums)
			}
		}))
	}
}

func TestParallel(t *testing.T) {
	defer rtlib.EndRoot(rtlib.BeginRoot(base + 0))
	var mu sync.Mutex
	total := 0
	for i := 0; i < 3; i++ {
		rtlib.Reacquire(rtlib.Release(base+4), t.Run(fmt.Sprint("p", i), func(t *testing.T) {
			defer rtlib.EndRoot(rtlib.BeginRoot(base + 8))
			tok := rtlib.Release(base + 4)
			t.Parallel()
			rtlib.Reacquired(tok)
			s := fanIn(4 + i)
			rtlib.Lock(base+7, &mu)
			total += s
			rtlib.Unlock(&mu)
		}))
	}
}

func TestB(t *testing.T) {
	defer rtlib.EndRoot(rtlib.BeginRoot(base + 0))
	if got := fanIn(100); got != 4950 {
		t.Errorf("fanIn(100) = %d", got)
	}
}

func BenchmarkParallel(b *testing.B) {
	defer rtlib.EndRoot(rtlib.BeginRoot(base + 0))
	var mu sync.Mutex
	n := 0
	tok := rtlib.Release(base + 4)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rtlib.Lock(base+7, &mu)
			n++
			rtlib.Unlock(&mu)
		}
	})
	rtlib.Reacquired(tok)
}

func Example() {
	defer rtlib.EndRoot(rtlib.BeginRoot(base + 0))
	fmt.Println(fanIn(3))
	// Output: 3
}
