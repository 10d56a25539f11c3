// Bintrees builds and walks many small binary trees of 16-byte nodes,
// the shape of the binary-trees benchmark: a tree of depth max+1 is built
// and dropped, a long-lived tree of depth max is kept to the end, and for
// each depth d = 4, 6, …, max one goroutine builds and checks 2^(max−d+4)
// trees of depth d one after another (with -depth 16, 7 goroutines,
// joined with a WaitGroup). It prints the node counts, as the benchmark
// does.
//
// What it stresses: small allocations and the collector. Nearly every
// allocation is one 16-byte node (two pointers) that dies within its
// tree's walk: about 1.5·10^7 nodes (240 MiB allocated) with -depth 16,
// made by a handful of goroutines, so spgo's cost is per allocation and
// per census, not per spawn.
//
// Analytic MHWM (nodes of 16 bytes): the stretch tree (2^(max+2) − 1
// nodes) dies before the long-lived one (2^(max+1) − 1) is built; then
// each goroutine in progress holds one tree of its depth d at a time
// (2^(d+1) − 1 nodes). With -depth 16: 4 MiB at p = 1 (the stretch
// tree; the long-lived tree and the depth-16 goroutine's tree make 4 MiB
// too), 4.5 MiB at p = 2 (long-lived, depth 16 and 14), and about
// 4.67 MiB from p = 7 on (every depth at once).
//
// Test size: -depth 10 runs in about 5 ms.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// node is a tree node: 16 bytes.
type node struct{ left, right *node }

// build returns a complete tree of the given depth (depth 0: one node).
func build(depth int) *node {
	if depth == 0 {
		return &node{}
	}
	return &node{left: build(depth - 1), right: build(depth - 1)}
}

// check returns the number of nodes of t.
func (t *node) check() int {
	if t.left == nil {
		return 1
	}
	return 1 + t.left.check() + t.right.check()
}

const minDepth = 4

func main() {
	maxDepth := flag.Int("depth", 16, "depth of the long-lived tree")
	flag.Parse()
	maxD := max(*maxDepth, minDepth+2)
	fmt.Printf("stretch tree of depth %d\t check: %d\n", maxD+1, build(maxD+1).check())
	long := build(maxD)
	lines := make([]string, (maxD-minDepth)/2+1)
	var wg sync.WaitGroup
	for d := minDepth; d <= maxD; d += 2 {
		wg.Go(func() {
			iters := 1 << (maxD - d + minDepth)
			sum := 0
			for range iters {
				sum += build(d).check()
			}
			lines[(d-minDepth)/2] = fmt.Sprintf("%d\t trees of depth %d\t check: %d", iters, d, sum)
		})
	}
	wg.Wait()
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Printf("long lived tree of depth %d\t check: %d\n", maxD, long.check())
}
