// Mergesort: a parallel merge sort of N = 2^18 ints (2 MiB). msort spawns
// both halves (sync.WaitGroup, two go statements) down to a cutoff of
// C = 2^11 ints, which it sorts in place (slices.Sort allocates nothing);
// after the join it merges the halves into a helper buffer
// make([]int, n) of the node's length n, copies it back and drops it.
// The recursion tree has 128 leaves and 127 merging nodes (depth 0..6; the
// 64 of depth 6 merge 2^12 ints), 254 spawns.
//
// The data (8N bytes) lives throughout. A merge buffer lives only within
// the strand after its node's join, so the buffers live at once belong to
// nodes none of which is an ancestor of another: disjoint ranges, 8N
// bytes at most, reached by any cut of the merging nodes (the root at
// p = 1, the two halves at p = 2, ..., the 64 nodes of depth 6 at p = 64).
// spgo models each goroutine as 480 bytes from its go statement to its
// join (rtlib/dag.go goroutineBytes): every node above a cut of c nodes
// (c − 1 of them) has both children unjoined, 960 bytes; the merging
// node's own children are joined before its buffer is allocated.
//
//	MHWM_p = 16N + 960·(min(p, 64) − 1)
//	       = 4 MiB + 960·(min(p, 64) − 1)
//	serial = 16N = 4 MiB (the root's merge; its children are joined)
//
// Not counted: a 16-byte WaitGroup per node above the cut and the 48-byte
// closure of a go statement until its goroutine starts (≤ 2 KiB).
package main

import (
	"fmt"
	"slices"
	"sync"
)

const (
	N = 1 << 18
	C = 1 << 11
)

func msort(a []int) {
	if len(a) <= C {
		slices.Sort(a)
		return
	}
	h := len(a) / 2
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		msort(a[:h])
	}()
	go func() {
		defer wg.Done()
		msort(a[h:])
	}()
	wg.Wait()
	buf := make([]int, len(a)) // merge
	i, j, k := 0, h, 0
	for i < h && j < len(a) {
		if a[j] < a[i] {
			buf[k] = a[j]
			j++
		} else {
			buf[k] = a[i]
			i++
		}
		k++
	}
	k += copy(buf[k:], a[i:h])
	copy(buf[k:], a[j:])
	copy(a, buf)
}

func main() {
	a := make([]int, N) // data
	x := uint64(88172645463325252)
	for i := range a {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		a[i] = int(x >> 40)
	}
	msort(a)
	sum := 0
	for i := range a {
		if i > 0 && a[i] < a[i-1] {
			panic("not sorted")
		}
		sum = sum*31 + a[i]
	}
	fmt.Println(sum)
}
