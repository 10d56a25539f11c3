// Samplesort sorts n pseudo-random int64s by parallel sample sort:
//
//  1. pick B−1 splitters from a sorted random sample of 16·B elements;
//  2. one task per chunk of -cutoff elements (C = ⌈n/cutoff⌉ tasks)
//     finds each element's bucket by binary search, counts them and
//     partitions the chunk by bucket in place, through a scratch copy;
//  3. one task per bucket allocates the bucket's slice, gathers its
//     elements from every chunk and sorts it;
//  4. main concatenates the buckets back into the input, in order.
//
// Phases 2 and 3 are fork-joins of a sync.WaitGroup. A chunk task holds
// a scratch of 10 bytes per element (bucket ids and the copy) and keeps
// its B+1 bucket offsets; a bucket task keeps its slice (≈ 8n/B bytes)
// until main has concatenated them all.
//
// Analytic MHWM (approximately; bucket sizes are random): phase 2 holds
// the input and up to min(p, C) scratches, phase 3 the input and every
// bucket, whatever p:
//
//	MHWM_p ≈ max(8n + min(p, C)·10·cutoff, 16n) (+ offsets, small)
//
// Default n = 2²⁴, cutoff = 2²⁰, B = 256 (C = 16): 256 MiB for p ≤ 12,
// then 10 MiB more per processor, 288 MiB from p = 16 on. Small size for
// tests: -n 200000 -cutoff 25000 -buckets 16 (C = 8, 256 KiB scratch):
// ≈ 3.1 MiB for p ≤ 6, 3.3 MiB at p = 7, 3.5 MiB from p = 8 on.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
)

var (
	n      = flag.Int("n", 1<<24, "number of elements")
	cutoff = flag.Int("cutoff", 1<<20, "elements per partitioning task")
	nb     = flag.Int("buckets", 256, "number of buckets")
)

// partition reorders chunk by bucket and returns where each bucket
// starts in it (and its end, last).
func partition(chunk, spl []int64) []int {
	ids := make([]uint16, len(chunk))
	start := make([]int, len(spl)+2)
	for i, x := range chunk {
		j, found := slices.BinarySearch(spl, x)
		if found {
			j++
		}
		ids[i] = uint16(j)
		start[j+1]++
	}
	for j := 1; j < len(start); j++ {
		start[j] += start[j-1]
	}
	next := slices.Clone(start[:len(spl)+1])
	tmp := make([]int64, len(chunk))
	for i, x := range chunk {
		tmp[next[ids[i]]] = x
		next[ids[i]]++
	}
	copy(chunk, tmp)
	return start
}

// sampleSort sorts data in place.
func sampleSort(data []int64, rng *rand.Rand) {
	const over = 16
	sample := make([]int64, over**nb)
	for i := range sample {
		sample[i] = data[rng.IntN(len(data))]
	}
	slices.Sort(sample)
	spl := make([]int64, *nb-1)
	for i := range spl {
		spl[i] = sample[(i+1)*over]
	}

	chunks := (len(data) + *cutoff - 1) / *cutoff
	starts := make([][]int, chunks)
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Go(func() {
			starts[c] = partition(data[c**cutoff:min((c+1)**cutoff, len(data))], spl)
		})
	}
	wg.Wait()

	buckets := make([][]int64, *nb)
	for j := range buckets {
		wg.Go(func() {
			size := 0
			for _, st := range starts {
				size += st[j+1] - st[j]
			}
			out := make([]int64, 0, size)
			for c, st := range starts {
				out = append(out, data[c**cutoff+st[j]:c**cutoff+st[j+1]]...)
			}
			slices.Sort(out)
			buckets[j] = out
		})
	}
	wg.Wait()

	data = data[:0]
	for _, b := range buckets {
		data = append(data, b...)
	}
}

func main() {
	flag.Parse()
	if *n <= 0 || *cutoff <= 0 || *nb < 1 || *nb > 1<<16 {
		fmt.Println("need -n > 0, -cutoff > 0, 1 ≤ -buckets ≤ 65536")
		return
	}
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]int64, *n)
	for i := range data {
		data[i] = rng.Int64()
	}
	sampleSort(data, rng)
	var sum uint64
	for _, x := range data {
		sum = sum*1000003 + uint64(x)
	}
	fmt.Printf("samplesort n=%d: sorted %v, checksum %016x\n", *n, slices.IsSorted(data), sum)
}
