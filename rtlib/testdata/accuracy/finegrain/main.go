// Finegrain: fine-grained fork-join, 2^17 − 2 = 131,070 spawns. tree(d)
// allocates a frame (a WaitGroup and two ints: 32 bytes), spawns
// tree(d−1) twice (two go statements) and sums the results after the join;
// tree(0) returns 1. main calls tree(D), D = 16, and prints the node
// count. Nothing is kept but ints.
//
// The heap is frames, the closures of the go statements (the compiler
// wraps "go f.left(d−1)" in a closure of f and d−1: 24 bytes, dead when
// the goroutine starts) and the goroutines' descriptors: spgo models each
// unjoined goroutine as 480 bytes, from its go statement to its join
// (rtlib/dag.go goroutineBytes; the runtime keeps a descriptor for every
// goroutine alive at once). A call in progress with both children
// spawned holds 32 + 2·480 = 992 bytes until its join.
//
// Worst case: the antichain of p strands that spawn a second child
// (closure and descriptor: 504 bytes) at p nodes of depth D − 1 whose
// first child has not started (its closure, 24 bytes, still live): each
// holds 992 + 48, and each node above them 992. p leaves of the tree
// have at most min(2^k, p) ancestors at depth k, so with
// U(p) = Σ_{k=0}^{D−1} min(2^k, p) (U(1) = 16, U(2) = 31, U(4) = 59,
// U(8) = 111, U(64) = 703):
//
//	MHWM_p = 992·U(p) + 48·min(p, 2^(D−1))
//	       = 15,920 (p = 1), 30,848 (2), 58,720 (4), 110,496 (8), 700,448 (64)
//	serial = 992·D + 24 = 15,896
//
// (child-first, the first child has run when the second is spawned; the
// deepest path holds D frames, 2·D descriptors and one closure).
// Without descriptors (the uninstrumented live heap, child-first):
// 32·D + 24 = 536 bytes.
package main

import (
	"fmt"
	"sync"
)

const D = 16

type frame struct {
	wg   sync.WaitGroup
	a, b int
}

func (f *frame) left(d int) {
	defer f.wg.Done()
	f.a = tree(d)
}

func (f *frame) right(d int) {
	defer f.wg.Done()
	f.b = tree(d)
}

func tree(d int) int {
	if d == 0 {
		return 1
	}
	f := &frame{} // frame
	f.wg.Add(2)
	go f.left(d - 1)
	go f.right(d - 1)
	f.wg.Wait()
	return f.a + f.b + 1
}

func main() {
	fmt.Println(tree(D))
}
