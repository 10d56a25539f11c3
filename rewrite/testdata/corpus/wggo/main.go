// Program wggo exercises sync.WaitGroup.Go (Go 1.25).
//
// Constructs:
//   - wg.Go(func() {...}) fan-out over a range-over-int loop, results stored
//     by index;
//   - wg.Go with a named function value and with a method value;
//   - nested fan-out: a task started with wg.Go starts its own WaitGroup;
//   - a WaitGroup reused after Wait for a second round;
//   - mixing wg.Go with classic Add/Done on the same WaitGroup.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type tally struct {
	mu    sync.Mutex
	words []string
}

func (t *tally) addWord() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.words = append(t.words, "w")
}

func main() {
	var wg sync.WaitGroup

	squares := make([]int, 8)
	for i := range 8 {
		wg.Go(func() {
			squares[i] = i * i
		})
	}
	wg.Wait()
	fmt.Println("squares:", squares)

	// Second round on the same WaitGroup: nested fan-out.
	rows := make([][]int, 4)
	for r := range rows {
		wg.Go(func() {
			row := make([]int, 5)
			var inner sync.WaitGroup
			for c := range row {
				inner.Go(func() {
					row[c] = (r + 1) * (c + 1)
				})
			}
			inner.Wait()
			rows[r] = row
		})
	}
	wg.Wait()
	for r, row := range rows {
		fmt.Println("row", r, row)
	}

	// A function value and a method value passed to Go.
	var hits [3]string
	first := func() { hits[0] = "first" }
	t := &tally{}
	wg.Go(first)
	for range 5 {
		wg.Go(t.addWord)
	}
	// Classic Add/Done mixed with Go.
	wg.Add(1)
	go func() {
		defer wg.Done()
		hits[2] = "classic"
	}()
	wg.Go(func() { hits[1] = "second" })
	wg.Wait()
	fmt.Println("hits:", hits)
	fmt.Println("words:", strings.Join(t.words, ""))
}
