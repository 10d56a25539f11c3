// Parentdrop: the parent allocates a large object X = 4 MiB, fills it,
// hands it to the first child through a box and clears its own
// reference; the first child reads it and drops the last reference
// (box.buf = nil). The parent then spawns K = 8 siblings (the same
// sync.WaitGroup, one join for all nine), each using a scratch buffer of
// S = 1 MiB and dropping it.
//
// The siblings are in parallel with the first child, so a schedule may
// run any of them before the first child drops X (at p = 1 too: the
// continuation-first order): X is live with min(p, 8) scratch buffers.
// Child-first, the first child runs (and drops X) before any sibling
// starts. spgo models each goroutine as 480 bytes from its go statement
// to its join (rtlib/dag.go goroutineBytes): all nine are unjoined at the
// last sibling's peak, one during the first child.
//
//	MHWM_p = X + min(p, 8)·S + 9·480 = 4 MiB + min(p, 8)·1 MiB + 4,320
//	serial = X + 480 = 4,194,784 (the first child; then S + 9·480)
//
// Not counted: the box, the results slice and closures (≤ 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const (
	X = 4 << 20
	S = 1 << 20
	K = 8
)

type box struct{ buf []byte }

func main() {
	x := make([]byte, X) // big
	for j := range x {
		x[j] = byte(j*7 + j>>12)
	}
	bx := &box{buf: x}
	x = nil
	res := make([]int, K+1)
	var wg sync.WaitGroup
	wg.Go(func() {
		s := 0
		for _, c := range bx.buf {
			s += int(c)
		}
		bx.buf = nil
		res[0] = s
	})
	for i := 1; i <= K; i++ {
		wg.Go(func() {
			b := make([]byte, S) // scratch
			for j := range b {
				b[j] = byte(i*j + j>>9)
			}
			s := 0
			for _, c := range b {
				s = s*31 + int(c)
			}
			res[i] = s
		})
	}
	wg.Wait()
	sum := 0
	for _, r := range res {
		sum = sum*1000003 + r
	}
	fmt.Println(sum)
}
