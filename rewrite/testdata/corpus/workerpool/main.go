// Program workerpool exercises a classic channel-based worker pool.
//
// Constructs:
//   - a buffered jobs channel fed by a producer goroutine that closes it;
//   - N worker goroutines ranging over jobs and sending on a results channel;
//   - a goroutine that waits on a sync.WaitGroup and then closes results;
//   - main ranging over results, then sorting them (slices.SortFunc) so the
//     output does not depend on which worker handled which job;
//   - a per-worker count, summed so its total is fixed.
package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
)

type job struct {
	id   int
	text string
}

type result struct {
	id     int
	upper  string
	vowels int
}

func worker(jobs <-chan job, results chan<- result, handled *int, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		n := 0
		for _, r := range j.text {
			if strings.ContainsRune("aeiou", r) {
				n++
			}
		}
		results <- result{id: j.id, upper: strings.ToUpper(j.text), vowels: n}
		*handled++
	}
}

func main() {
	words := []string{
		"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
		"hotel", "india", "juliett", "kilo", "lima", "mike", "november",
	}

	const numWorkers = 4
	jobs := make(chan job, 3)
	results := make(chan result)

	go func() {
		defer close(jobs)
		for i, w := range words {
			jobs <- job{id: i, text: w}
		}
	}()

	handled := make([]int, numWorkers)
	var wg sync.WaitGroup
	for w := range numWorkers {
		wg.Add(1)
		go worker(jobs, results, &handled[w], &wg)
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var all []result
	for r := range results {
		all = append(all, r)
	}
	slices.SortFunc(all, func(a, b result) int { return cmp.Compare(a.id, b.id) })
	for _, r := range all {
		fmt.Printf("%2d %-9s vowels=%d\n", r.id, r.upper, r.vowels)
	}

	total := 0
	for _, h := range handled {
		total += h
	}
	fmt.Println("jobs handled:", total)
}
