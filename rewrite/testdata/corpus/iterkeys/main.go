// Program iterkeys uses the iterator functions of maps and slices, whose
// generic instantiations the compiler logs under one file name, iter.go:
// the log of one overwrites the other's, and escape analysis used to stop
// the build (issue 22).
//
// Constructs:
//   - fmt.Println(slices.Sorted(maps.Keys(m))) in main;
//   - slices.Sorted(maps.Values(m)) in goroutines joined by a WaitGroup,
//     each writing its own element of a result slice;
//   - slices.Collect over maps.Keys of a map literal — exit 0
package main

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

func main() {
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	fmt.Println(slices.Sorted(maps.Keys(m)))
	var wg sync.WaitGroup
	vals := make([][]int, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vals[i] = slices.Sorted(maps.Values(m))
		}()
	}
	wg.Wait()
	fmt.Println(vals)
	fmt.Println(slices.Collect(maps.Keys(map[int]bool{1: true})))
}
