// Handoff: objects passed across a join. Round 1: K = 8 tasks
// (sync.WaitGroup Go) each allocate a buffer of B1 = 1 MiB and store it in
// their slot of a shared slice. After the join the parent reads every
// buffer and drops it (slots[i] = nil). Round 2: K tasks each use a
// scratch buffer of B2 = 2 MiB and drop it, keeping an int.
//
// All K round-1 buffers are live at the end of round 1 whatever the
// schedule, and die in the parent before round 2 starts; round 2 holds
// min(p, K) scratch buffers. spgo models each goroutine as 480 bytes from
// its go statement to its join (rtlib/dag.go goroutineBytes): K of them
// in each round.
//
//	MHWM_p = max(K·B1, min(p, K)·B2) + K·480
//	       = max(8 MiB, min(p, 8)·2 MiB) + 3,840
//	serial = K·B1 + K·480 = 8 MiB + 3,840 (the end of round 1)
//
// Not counted: the 192-byte slot slice, the 64-byte results, closures.
package main

import (
	"fmt"
	"sync"
)

const (
	K  = 8
	B1 = 1 << 20
	B2 = 2 << 20
)

func fill(b []byte, seed int) int {
	s := 0
	for j := range b {
		b[j] = byte(seed + j*7)
		s += int(b[j])
	}
	return s
}

func main() {
	slots := make([][]byte, K)
	var wg sync.WaitGroup
	for i := range K {
		wg.Go(func() {
			b := make([]byte, B1) // handed
			fill(b, i)
			slots[i] = b
		})
	}
	wg.Wait()
	sum := 0
	for i := range slots {
		sum += int(slots[i][i*1000]) + len(slots[i])
		slots[i] = nil
	}
	res := make([]int, K)
	for i := range K {
		wg.Go(func() {
			s := make([]byte, B2) // scratch
			res[i] = fill(s, 3*i)
		})
	}
	wg.Wait()
	for _, r := range res {
		sum = sum*31 + r
	}
	fmt.Println(sum)
}
