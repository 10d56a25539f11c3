// Bintrees: binary-trees style, small objects only. The parent builds a
// long-lived tree of depth LD = 17 (2^18 − 1 nodes of 16 bytes, size
// class 16: 4,194,288 bytes), then spawns K = 8 tasks (sync.WaitGroup
// Go); each builds and drops R = 4 trees of depth TD = 15 in turn
// (2^16 − 1 nodes: 1,048,560 bytes, all live once the tree is complete;
// the previous tree is dead before the next is begun) and sums their
// node counts into its slot of a shared slice. The long-lived tree is
// checked after the join.
//
// At most one short-lived tree per task is live, and min(p, K) tasks can
// hold a complete one at once. spgo models each goroutine as 480 bytes
// from its go statement to its join (rtlib/dag.go goroutineBytes): all K
// are unjoined at a last task's peak.
//
//	MHWM_p = (2^18 − 1)·16 + min(p, 8)·(2^16 − 1)·16 + 8·480
//	       = 4,194,288 + min(p, 8)·1,048,560 + 3,840
//	serial = 4,194,288 + 1,048,560 + 3,840 = 5,246,688 (the last task's tree)
//
// Not counted: the 64-byte slice of sums, the WaitGroup's closures (≤ 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const (
	LD = 17
	TD = 15
	K  = 8
	R  = 4
)

type node struct{ l, r *node }

func build(d int) *node {
	if d == 0 {
		return &node{} // node
	}
	return &node{build(d - 1), build(d - 1)}
}

func (n *node) check() int {
	if n.l == nil {
		return 1
	}
	return 1 + n.l.check() + n.r.check()
}

func main() {
	long := build(LD)
	sums := make([]int, K)
	var wg sync.WaitGroup
	for i := range K {
		wg.Go(func() {
			for range R {
				t := build(TD)
				sums[i] += t.check() + i
			}
		})
	}
	wg.Wait()
	total := long.check()
	for _, s := range sums {
		total = total*7 + s
	}
	fmt.Println(total)
}
