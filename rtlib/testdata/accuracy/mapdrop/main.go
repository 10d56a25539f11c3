// Mapdrop: 8 tasks (sync.WaitGroup), each builds a map of N = 100 000
// ints to ints and drops it, keeping its length. The runtime decides the
// map's memory (tables of up to 1 024 slots, split when full, and a
// directory of them); measured uninstrumented, the live heap after a
// collection grows by F = 2 364 592 bytes with such a map (2 364 704 in
// 6 runs of 20: the hash seed decides how tables split). While the map
// grows, a full table (at most 128 groups of 8 slots of 16 bytes and 8
// control bytes: T = 17 408 bytes) is live until the tables that replace
// it are filled, so a task's peak is at least F + T's worth of its last
// growth; rtlib finds the dropped tables dead at censuses, up to 64 KiB
// of them at once, which the tolerance covers.
//
//	MHWM_p = min(p, 8)·(F + T) + 8·480
//	serial = F + T + 8·480
//
// (every goroutine is modelled from its go statement to the join, 480
// bytes each, rtlib/dag.go).
//
// Not counted: the WaitGroup, the result slice and the go statements'
// closures (< 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const N = 100_000

//go:noinline
func build(n int) int {
	m := make(map[int]int)
	for i := range n {
		m[i] = i // insert
	}
	return len(m)
}

func main() {
	var wg sync.WaitGroup
	out := make([]int, 8)
	for k := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[k] = build(N)
		}()
	}
	wg.Wait()
	fmt.Println(out[7])
}
