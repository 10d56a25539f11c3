// Program forkjoin exercises recursive fork-join parallelism.
//
// Constructs:
//   - recursive functions that spawn goroutines at every level and join
//     them with a per-level sync.WaitGroup (Add, Done, Wait);
//   - one branch spawned, the other computed inline by the parent (fib);
//   - results written to variables captured by the spawned closures;
//   - allocations inside each task: make of slices and append (merge sort).
package main

import (
	"fmt"
	"sync"
)

const cutoff = 16

// sum adds xs by splitting it in two halves that are summed in parallel.
func sum(xs []int) int {
	if len(xs) <= cutoff {
		total := 0
		for _, x := range xs {
			total += x
		}
		return total
	}
	mid := len(xs) / 2
	var left, right int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		left = sum(xs[:mid])
	}()
	go func() {
		defer wg.Done()
		right = sum(xs[mid:])
	}()
	wg.Wait()
	return left + right
}

// fib forks fib(n-1) and computes fib(n-2) itself.
func fib(n int) int {
	if n < 12 {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	var a int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		a = fib(n - 1)
	}()
	b := fib(n - 2)
	wg.Wait()
	return a + b
}

// mergeSort returns a sorted copy of xs; every task allocates its output.
func mergeSort(xs []int) []int {
	if len(xs) <= cutoff {
		out := make([]int, 0, len(xs))
		for _, x := range xs {
			i := len(out)
			out = append(out, x)
			for i > 0 && out[i-1] > x {
				out[i] = out[i-1]
				i--
			}
			out[i] = x
		}
		return out
	}
	mid := len(xs) / 2
	var left, right []int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		left = mergeSort(xs[:mid])
	}()
	go func() {
		defer wg.Done()
		right = mergeSort(xs[mid:])
	}()
	wg.Wait()

	var merged []int // grows by append
	for len(left) > 0 && len(right) > 0 {
		if left[0] <= right[0] {
			merged = append(merged, left[0])
			left = left[1:]
		} else {
			merged = append(merged, right[0])
			right = right[1:]
		}
	}
	merged = append(merged, left...)
	return append(merged, right...)
}

func main() {
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = (i*7919 + 13) % 1009
	}
	fmt.Println("sum:", sum(xs))
	fmt.Println("fib(22):", fib(22))

	sorted := mergeSort(xs)
	ok := true
	for i := 1; i < len(sorted); i++ {
		if sorted[i-1] > sorted[i] {
			ok = false
		}
	}
	fmt.Println("sorted:", ok, "len:", len(sorted), "first:", sorted[:5], "last:", sorted[len(sorted)-3:])
	fmt.Println("sum after sort:", sum(sorted))
}
