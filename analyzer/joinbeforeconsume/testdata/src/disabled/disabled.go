// Package disabled holds a pattern the analyzer reports when enabled; the
// test runs it with the analyzer off and expects nothing.
package disabled

import "sync"

func fetch(i int) []byte { return make([]byte, i) }

func gather(n int) int {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	total := 0
	for _, r := range results {
		total += len(r)
	}
	return total
}
