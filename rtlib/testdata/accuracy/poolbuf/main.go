// Poolbuf: 16 tasks (sync.WaitGroup) each Get a buffer from a sync.Pool,
// fill it and Put it back. New allocates the buffer, B = 2 MiB
// (2 097 152 bytes), and the slice variable the pool's pointer points
// to (24 bytes). A schedule with p tasks in progress holds min(p, 16)
// buffers: a Get that finds the pool empty calls New (plain runs at
// GOMAXPROCS 2 to 8 call it 2 to 16 times). The serial run reuses one,
// and so does every schedule of main's own Gets and Puts (none here).
//
//	MHWM_p = min(p, 16)·(B + 24) + 16·480
//	serial = B + 24 + 16·480
//
// (every goroutine is modelled from its go statement to the join, 480
// bytes each, rtlib/dag.go; all sixteen are forked before the join).
// The figures charge each Get the run served from the pool as New's
// allocation, at the Get's line: 15 of them in the serial run.
//
// Not counted: the WaitGroup, the result slice and the go statements'
// closures (< 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const B = 2 << 20

var pool = sync.Pool{New: func() any {
	b := make([]byte, B) // new
	return &b
}}

func fill(k int) int {
	bp := pool.Get().(*[]byte) // get
	b := *bp
	for i := range b {
		b[i] = byte(i + k)
	}
	s := int(b[k])
	pool.Put(bp)
	return s
}

func main() {
	var wg sync.WaitGroup
	out := make([]int, 16)
	for k := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[k] = fill(k)
		}()
	}
	wg.Wait()
	t := 0
	for _, s := range out {
		t += s
	}
	fmt.Println(t)
}
