// Appendlocal: 8 tasks (sync.WaitGroup), each appends N = 200 000 int64s
// one at a time to a nil slice that does not escape its function, and
// returns their sum. Go grows the backing array by its own rule
// (doubling, then by about 1.25, rounded up to a size class or whole
// pages): the program prints the last two capacities, measured
// uninstrumented: O = 175 104 elements (1 400 832 B) before the last
// growth and F = 219 136 (1 753 088 B) after it.
//
// During a growth the old and the new array are both live; the old one
// dies right after (only the slice's variable referred to it), and the
// last one at the function's return. A task's peak is its last growth,
// O + F bytes:
//
//	MHWM_p = min(p, 8)·(8O + 8F) + 8·480 = min(p, 8)·3 153 920 + 3 840
//	serial = 3 153 920 + 3 840
//
// (every goroutine is modelled from its go statement to the join, 480
// bytes each, rtlib/dag.go; all eight are forked before any is joined).
// After the join, main measures the growth once more: O + F again.
//
// Not counted: the WaitGroup and the go statements' closures (< 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const N = 200_000

//go:noinline
func sum(n int) int64 {
	var s []int64
	for i := range n {
		s = append(s, int64(i)) // append
	}
	var t int64
	for _, v := range s {
		t += v
	}
	return t
}

func main() {
	var wg sync.WaitGroup
	sums := make([]int64, 8)
	for k := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[k] = sum(N)
		}()
	}
	wg.Wait()
	var s []int64
	last, prev := 0, 0
	for i := range N {
		if len(s) == cap(s) {
			prev = cap(s)
		}
		s = append(s, int64(i))
		last = cap(s)
	}
	fmt.Println(sums[0], sums[7], prev, last)
}
