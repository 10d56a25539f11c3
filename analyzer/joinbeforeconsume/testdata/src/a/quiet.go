package a

import (
	"fmt"
	"sort"
	"sync"

	"golang.org/x/sync/errgroup"
)

func spawnAll(n int) ([][]byte, *sync.WaitGroup) {
	results := make([][]byte, n)
	wg := new(sync.WaitGroup)
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	return results, wg
}

// Sorted after Wait: all results are needed at once.
func sorted(n int) {
	results := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fmt.Sprint(i) })
	}
	wg.Wait()
	sort.Strings(results)
	for _, r := range results {
		fmt.Println(r)
	}
}

// Returned.
func returned(n int) [][]byte {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	for _, r := range results {
		fmt.Println(len(r))
	}
	return results
}

// Passed to a function.
func passed(n int) {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	consume(results)
}

func consume(rs [][]byte) {}

// Stored in a field before the children run.
type holder struct{ rs [][]byte }

func stored(h *holder, n int) {
	results := make([][]byte, n)
	h.rs = results
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	for _, r := range results {
		fmt.Println(len(r))
	}
}

// Scalar results: the sum is small.
func scalars(n int) {
	sizes := make([]int, n)
	ok := make([]bool, n)
	boxed := make([]any, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			b := fetch(i)
			sizes[i] = len(b)
			ok[i] = b != nil
			boxed[i] = len(b)
		})
	}
	wg.Wait()
	for i := range sizes {
		fmt.Println(sizes[i], ok[i])
	}
	for _, x := range boxed {
		fmt.Println(x)
	}
}

// Errors: most often nil.
func errorsOnly(n int) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { _, errs[i] = load(i) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Two passes.
func twoPasses(n int) {
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
	for _, r := range results {
		fmt.Println(len(r) * 100 / total)
	}
}

// Consumed in the child under a mutex: already streaming.
func inChild(n int) int {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			b := fetch(i)
			mu.Lock()
			total += len(b)
			mu.Unlock()
		})
	}
	wg.Wait()
	return total
}

// Indexed outside the pass.
func indexedOutside(n int) {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	first := results[0]
	for _, r := range results {
		fmt.Println(len(r), len(first))
	}
}

// Indexed in the pass by something other than its key.
func indexedNeighbour(n int) {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	for i := range results {
		if i > 0 {
			fmt.Println(len(results[i-1]))
		}
	}
}

// Streaming through a channel.
func streaming(n int) int {
	ch := make(chan []byte)
	var g errgroup.Group
	for i := range n {
		g.Go(func() error { ch <- fetch(i); return nil })
	}
	go func() { g.Wait(); close(ch) }()
	total := 0
	for b := range ch {
		total += len(b)
	}
	return total
}

// No loop around the spawn: a fixed, small number of results.
func pair() {
	var results [2][]byte
	var wg sync.WaitGroup
	wg.Go(func() { results[0] = fetch(1) })
	wg.Go(func() { results[1] = fetch(2) })
	wg.Wait()
	for _, r := range results {
		fmt.Println(len(r))
	}
}

// Wait in the loop: one child at a time.
func serial(n int) {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
		wg.Wait()
	}
	for _, r := range results {
		fmt.Println(len(r))
	}
}

// A parameter: the caller owns it.
func param(results [][]byte) {
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	for _, r := range results {
		fmt.Println(len(r))
	}
}

// The pass runs in a closure or inside a loop of its own.
func passInClosure(n int) {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	func() {
		for _, r := range results {
			fmt.Println(len(r))
		}
	}()
}

func passInLoop(n int) {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	for range 3 {
		for _, r := range results {
			fmt.Println(len(r))
		}
	}
}

// Children started by a named function: nothing to see.
func named(n int) {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go fill(&wg, results, i)
	}
	wg.Wait()
	for _, r := range results {
		fmt.Println(len(r))
	}
}

func fill(wg *sync.WaitGroup, rs [][]byte, i int) { defer wg.Done(); rs[i] = fetch(i) }

// Suppressed.
func suppressed(n int) {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = fetch(i) })
	}
	wg.Wait()
	//spvet:ignore joinbeforeconsume each result is a few bytes in practice
	for _, r := range results {
		fmt.Println(len(r))
	}
}
