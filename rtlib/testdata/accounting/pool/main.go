// Pool: a sync.Pool of 2 MiB buffers, for TestPoolReuse. With the
// argument "tasks", 16 goroutines (sync.WaitGroup) each Get a buffer,
// fill it and Put it back: the serial run reuses one buffer, while a run
// with p tasks in progress holds min(p, 16) of them (plain runs at
// GOMAXPROCS 2 to 8 call New 13 to 16 times). With "serial", main alone
// does the same 16 times, before any goroutine: every schedule reuses
// the one buffer. The program prints on stderr how many times New ran:
// once, instrumented or not (rtlib's collections must not empty the
// pool).
package main

import (
	"fmt"
	"os"
	"sync"
)

const size = 2 << 20

var news int

var pool = sync.Pool{New: func() any {
	news++
	b := make([]byte, size)
	return &b
}}

func use(k int) int {
	b := pool.Get().(*[]byte)
	(*b)[k] = byte(k)
	s := int((*b)[k])
	pool.Put(b)
	return s
}

func main() {
	sums := make([]int, 16)
	if len(os.Args) > 1 && os.Args[1] == "serial" {
		for k := range 16 {
			sums[k] = use(k)
		}
	} else {
		var wg sync.WaitGroup
		for k := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sums[k] = use(k)
			}()
		}
		wg.Wait()
	}
	t := 0
	for _, s := range sums {
		t += s
	}
	fmt.Println(t)
	fmt.Fprintln(os.Stderr, "new", news)
}
