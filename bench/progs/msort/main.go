// Msort sorts n pseudo-random int32s (PCG, fixed seed) with a merge sort
// that starts a goroutine for every half above a small cutoff, with no
// bound on how many run at once, and prints a checksum of the result.
//
// What it stresses: spawns and their memory. Each call on more than
// cutoff elements spawns two goroutines (one per half), waits for both
// and merges their results into a new slice it returns; the halves'
// slices die at the merge. With -n 2000000 and -cutoff 8 that is about
// 5.2·10^5 goroutines (each with its stack and closure), most of them
// alive at once under Go's own scheduler, which starts children before
// it finishes parents. Serially (spgo's run) at most one root-to-leaf
// path is in progress.
//
// Analytic MHWM: a finished call holds only the slice it returns, so at
// p = 1 the peak is the input (4n bytes) plus the results of a
// root-to-leaf path's finished left halves and the merge being done:
// about 4n + 4n + 4n/2 + … ≈ 3·4n bytes, 24 MiB for the default n, plus
// stacks and closures, which spgo counts as the goroutines' runtime
// records.
//
// Test size: -n 20000 runs in about 5 ms.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
)

var cutoff = flag.Int("cutoff", 8, "sort slices of at most cutoff elements serially")

// msort returns a sorted copy of a.
func msort(a []int32) []int32 {
	if len(a) <= *cutoff {
		s := slices.Clone(a)
		slices.Sort(s)
		return s
	}
	mid := len(a) / 2
	var left, right []int32
	var wg sync.WaitGroup
	wg.Go(func() { left = msort(a[:mid]) })
	wg.Go(func() { right = msort(a[mid:]) })
	wg.Wait()
	return merge(left, right)
}

// merge returns the merge of two sorted slices in a new slice.
func merge(l, r []int32) []int32 {
	out := make([]int32, 0, len(l)+len(r))
	for len(l) > 0 && len(r) > 0 {
		if l[0] <= r[0] {
			out, l = append(out, l[0]), l[1:]
		} else {
			out, r = append(out, r[0]), r[1:]
		}
	}
	return append(append(out, l...), r...)
}

func main() {
	n := flag.Int("n", 2000000, "how many int32s")
	flag.Parse()
	rng := rand.New(rand.NewPCG(7, 11))
	a := make([]int32, *n)
	for i := range a {
		a[i] = rng.Int32()
	}
	s := msort(a)
	var sum uint64
	for i, v := range s {
		if i > 0 && s[i-1] > v {
			panic("not sorted")
		}
		sum = sum*31 + uint64(v)
	}
	fmt.Printf("msort: %d int32s, checksum %d\n", len(s), sum)
}
