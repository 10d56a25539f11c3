// Quicksort sorts n pseudo-random int64s (PCG, fixed seed) with a
// parallel quicksort and prints a checksum of the sorted array.
//
// Per task: a call on a slice of m > cutoff elements allocates a scratch
// slice of m int64s, partitions its input into it out of place (smaller
// elements left, equal ones in the middle, larger ones right), spawns
// the sort of the left part, sorts the right part itself, joins and
// copies the scratch back; the scratch is live across the spawn. Slices
// of at most cutoff elements are sorted serially (slices.Sort) and
// allocate nothing.
//
// Analytic MHWM: a finished call holds nothing, so MHWM_p is the input
// (S = 8n bytes) plus the most scratch p root-to-leaf paths of the call
// tree cover. The tree depends on the pivots: no closed form. With even
// splits, p = 2^j processors would hold the input, every scratch of the
// top j levels (S per level) and p chains below (2S in all): about
// (3 + log2 p)·S. Replaying the recursion for -n 100000 (sizes rounded
// to whole 8 KiB pages) gives 3632 KiB at p = 1 (the serial peak), 4448
// KiB at p = 2, 5376 KiB at p = 4, 5952 KiB at p = 8 and 6120 KiB (every
// scratch) from p = 12 on; the first split is uneven (95766 : 4233).
//
// Test size: -n 100000 runs in about 10 ms.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
)

var cutoff = flag.Int("cutoff", 4096, "sort slices of at most cutoff elements serially")

// sort sorts a in place.
func sort(a []int64) {
	if len(a) <= *cutoff {
		slices.Sort(a)
		return
	}
	// Median of three as the pivot.
	x, y, z := a[0], a[len(a)/2], a[len(a)-1]
	pivot := max(min(x, y), min(max(x, y), z))

	scratch := make([]int64, len(a))
	lo, hi := 0, len(a)
	for _, v := range a {
		switch {
		case v < pivot:
			scratch[lo] = v
			lo++
		case v > pivot:
			hi--
			scratch[hi] = v
		}
	}
	for i := lo; i < hi; i++ {
		scratch[i] = pivot
	}
	var wg sync.WaitGroup
	wg.Go(func() { sort(scratch[:lo]) })
	sort(scratch[hi:])
	wg.Wait()
	copy(a, scratch)
}

func main() {
	n := flag.Int("n", 10_000_000, "number of elements")
	flag.Parse()
	r := rand.New(rand.NewPCG(1, 2))
	a := make([]int64, *n)
	for i := range a {
		a[i] = r.Int64()
	}
	sort(a)
	var sum uint64
	for i, v := range a {
		if i > 0 && a[i-1] > v {
			fmt.Println("not sorted at", i)
			return
		}
		sum = sum*31 + uint64(v)
	}
	fmt.Printf("sorted %d elements, checksum %016x\n", *n, sum)
}
