// Appendesc: 8 tasks (sync.WaitGroup), each appends N = 200 000 int64s
// one at a time to a nil slice in a function that returns it (the slice
// escapes); the task keeps only its length. Go grows the backing array by
// its own rule (doubling, then by about 1.25, rounded up to a size class
// or whole pages): the program prints the last two capacities, measured
// uninstrumented: O = 175 104 elements (1 400 832 B) before the last
// growth and F = 219 136 (1 753 088 B) after it.
//
// During a growth the old and the new array are both live; the old one
// dies right after (nothing else refers to it). A task's peak is its
// last growth, O + F bytes, and it drops everything at its end:
//
//	MHWM_p = min(p, 8)·(8O + 8F) + 8·480 = min(p, 8)·3 153 920 + 3 840
//	serial = 3 153 920 + 3 840
//
// (every goroutine is modelled from its go statement to the join, 480
// bytes each, rtlib/dag.go; all eight are forked before any is joined).
// After the join, main measures the growth once more: O + F again.
//
// Not counted: the WaitGroup and the go statements' closures (< 1 KiB).
// Spawned eight at once, all 8 tasks are in progress together at p ≥ 8.
package main

import (
	"fmt"
	"sync"
)

const N = 200_000

//go:noinline
func build(n int) []int64 {
	var s []int64
	for i := range n {
		s = append(s, int64(i)) // append
	}
	return s
}

func main() {
	var wg sync.WaitGroup
	lens := make([]int, 8)
	for k := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lens[k] = len(build(N))
		}()
	}
	wg.Wait()
	// The last two capacities of the growth (the figures above).
	var s []int64
	last, prev := 0, 0
	for i := range N {
		if len(s) == cap(s) {
			prev = cap(s)
		}
		s = append(s, int64(i))
		last = cap(s)
	}
	fmt.Println(lens[0], lens[7], prev, last)
}
