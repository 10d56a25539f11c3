// Nested: two levels of fork-join, each level holding a buffer while its
// children run. main allocates B0 = 2 MiB, spawns K1 = 4 children
// (sync.WaitGroup Go) and reads B0 after their join. Each child
// allocates B1 = 1 MiB, spawns K2 = 4 grandchildren and reads B1 after
// their join. Each grandchild uses a scratch buffer of B2 = 512 KiB and
// drops it, keeping an int.
//
// A child's B1 is live while any of its grandchildren runs and dead once
// it completes. An antichain of p strands touches at most min(p, K1)
// children (B1 each) and holds at most min(p, K1·K2) scratch buffers;
// taking the last grandchildren of each child touched, all of that
// child's K2 go statements precede them. spgo models each goroutine as
// 480 bytes from its go statement to its join (rtlib/dag.go
// goroutineBytes): main's K1, and K2 for each child touched.
//
//	MHWM_p = B0 + min(p, 4)·(B1 + 4·480) + min(p, 16)·B2 + 4·480
//	       = 2 MiB + min(p, 4)·1,050,496 + min(p, 16)·512 KiB + 1,920
//	serial = B0 + B1 + B2 + 8·480 = 3.5 MiB + 3,840 = 3,673,856
//	         (the last grandchild of the last child)
//
// Not counted: the result slices and closures (≤ 2 KiB).
package main

import (
	"fmt"
	"sync"
)

const (
	K1 = 4
	K2 = 4
	B0 = 2 << 20
	B1 = 1 << 20
	B2 = 512 << 10
)

func fill(b []byte, seed int) {
	for j := range b {
		b[j] = byte(seed*13 + j*7 + j>>9)
	}
}

func leaf(i, j int) int {
	s := make([]byte, B2) // leaf
	fill(s, i*K2+j)
	n := 0
	for _, c := range s {
		n += int(c)
	}
	return n
}

func child(i int) int {
	b := make([]byte, B1) // level1
	fill(b, i)
	res := make([]int, K2)
	var wg sync.WaitGroup
	for j := range K2 {
		wg.Go(func() { res[j] = leaf(i, j) })
	}
	wg.Wait()
	n := int(b[i*100])
	for _, r := range res {
		n = n*31 + r
	}
	return n
}

func main() {
	b := make([]byte, B0) // level0
	fill(b, 99)
	res := make([]int, K1)
	var wg sync.WaitGroup
	for i := range K1 {
		wg.Go(func() { res[i] = child(i) })
	}
	wg.Wait()
	n := int(b[12345])
	for _, r := range res {
		n = n*1000003 + r
	}
	fmt.Println(n)
}
