// Strconvkeep: 200,000 strings from strconv.Itoa, all kept. main
// allocates out := make([]string, 200000) (3,200,000 bytes: 391 pages,
// 3,203,072 bytes); K = 8 tasks (sync.WaitGroup Go) each fill 25,000
// slots with strconv.Itoa of a 16-digit number: one 16-byte string each
// (size class 16; no tiny-allocator packing, which is for objects under
// 16 bytes), 3,200,000 bytes in all, allocated by uninstrumented code.
// main hashes them after the join.
//
// Everything allocated is live at the end whatever the schedule. spgo
// models each goroutine as 480 bytes from its go statement to its join
// (rtlib/dag.go goroutineBytes): all K are unjoined at the last string.
//
//	MHWM_p = 3,203,072 + 200,000·16 + 8·480 = 6,406,912 for every p
//	serial = 6,406,912
//
// Not counted: the WaitGroup's closures (≤ 1 KiB).
package main

import (
	"fmt"
	"strconv"
	"sync"
)

const (
	N = 200000
	K = 8
)

func main() {
	out := make([]string, N) // slots
	var wg sync.WaitGroup
	for t := range K {
		wg.Go(func() {
			for i := t * (N / K); i < (t+1)*(N/K); i++ {
				out[i] = strconv.Itoa(1_000_000_000_000_000 + i*7919) // itoa
			}
		})
	}
	wg.Wait()
	var h uint64
	for _, s := range out {
		for j := 0; j < len(s); j++ {
			h = h*31 + uint64(s[j])
		}
	}
	fmt.Println(h)
}
