// Pool: a sync.Pool of 2 MiB buffers, for TestPoolReuse. With the
// argument "tasks", 16 goroutines (sync.WaitGroup) each Get a buffer,
// fill it and Put it back: the serial run reuses one buffer, while a run
// with p tasks in progress holds min(p, 16) of them (plain runs at
// GOMAXPROCS 2 to 8 call New 13 to 16 times). With "serial", main alone
// does the same 16 times, before any goroutine: every schedule reuses
// the one buffer. With "both", each task also holds a 1 MiB buffer from a
// channel used as a free list while it uses the pool's, and sends it
// back: min(p, 16) of each. The
// program prints on stderr how many times New ran:
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

var free = make(chan []byte, 16)

// take takes a buffer from the free list, or makes one.
func take() []byte {
	select {
	case b := <-free:
		return b
	default:
		return make([]byte, size/2)
	}
}

// give puts b back into the free list, if it has room.
func give(b []byte) {
	select {
	case free <- b:
	default:
	}
}

func main() {
	sums := make([]int, 16)
	both := len(os.Args) > 1 && os.Args[1] == "both"
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
				if !both {
					sums[k] = use(k)
					return
				}
				b := take() // held while the pool's buffer is
				b[k] = byte(k)
				sums[k] = use(k) + int(b[k])
				give(b)
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
