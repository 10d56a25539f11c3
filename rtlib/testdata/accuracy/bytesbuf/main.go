// Bytesbuf: 8 tasks (sync.WaitGroup), each writes N = 1 500 000 bytes
// into a bytes.Buffer (WriteString of 10 bytes at a time) and keeps only
// its length. The Buffer doubles its array inside the standard library:
// the program prints the last two capacities a task saw, the same
// uninstrumented:
// O = 1 048 576 bytes before the last growth and F = 2 097 152 after
// it.
//
// During a growth the old and the new array are both live; the old one
// dies right after. A task's peak is its last growth, O + F, and it
// drops everything at its end:
//
//	MHWM_p = min(p, 8)·(O + F) + 8·480
//	serial = O + F + 8·480
//
// (every goroutine is modelled from its go statement to the join, 480
// bytes each, rtlib/dag.go).
//
// The write line allocates every capacity the Buffer takes, 64 bytes
// doubled up to F, summed: 4 194 240 bytes a task.
//
// Not counted: the WaitGroup, the result slice, the go statements'
// closures, and each Buffer's arrays below 4 KiB (< 80 KiB in all).
package main

import (
	"bytes"
	"fmt"
	"sync"
)

const N = 1_500_000

// caps are the last two capacities task 7 saw.
var caps [2]int

//go:noinline
func fill(k, n int) int {
	var b bytes.Buffer
	for range n / 10 {
		b.WriteString("0123456789") // write
		if c := b.Cap(); k == 7 && c != caps[1] {
			caps[0], caps[1] = caps[1], c
		}
	}
	return b.Len()
}

func main() {
	var wg sync.WaitGroup
	out := make([]int, 8)
	for k := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[k] = fill(k, N)
		}()
	}
	wg.Wait()
	fmt.Println(out[7], caps[0], caps[1])
}
