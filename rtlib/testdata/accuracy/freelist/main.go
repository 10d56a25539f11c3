// Freelist: 16 tasks (sync.WaitGroup) each take a buffer from a channel
// used as a free list (a select with a default case, which allocates a
// new buffer of B = 2 MiB, 2 097 152 bytes, when the channel is empty),
// fill it and send it back (dropped when the channel is full). A
// schedule with p tasks in progress holds min(p, 16) buffers; the serial
// run reuses one.
//
//	MHWM_p = min(p, 16)·B + 16·480
//	serial = B + 16·480
//
// (every goroutine is modelled from its go statement to the join, 480
// bytes each, rtlib/dag.go). The figures charge each buffer taken back
// as an allocation at the receive's line: 15 of them in the serial run.
//
// Not counted: the WaitGroup, the channel (96 bytes and a 16-slot
// buffer), the result slice and the go statements' closures (< 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const B = 2 << 20

var free = make(chan []byte, 16)

func get() []byte {
	select {
	case b := <-free: // reuse
		return b
	default:
		return make([]byte, B) // new
	}
}

func put(b []byte) {
	select {
	case free <- b:
	default:
	}
}

func main() {
	var wg sync.WaitGroup
	out := make([]int, 16)
	for k := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := get()
			for i := range b {
				b[i] = byte(i + k)
			}
			out[k] = int(b[k])
			put(b)
		}()
	}
	wg.Wait()
	t := 0
	for _, s := range out {
		t += s
	}
	fmt.Println(t)
}
