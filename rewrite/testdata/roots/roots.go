// Package roots is a package with tests: each test, benchmark, fuzz
// target and example is a root of its own, and TestMain is one too.
package roots

import "sync"

// Squares computes the squares of xs in parallel.
func Squares(xs []int) []int {
	out := make([]int, len(xs))
	var wg sync.WaitGroup
	for i, x := range xs {
		wg.Go(func() { out[i] = x * x })
	}
	wg.Wait()
	return out
}
