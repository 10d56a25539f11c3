// Program generics exercises generic code that spawns goroutines.
//
// Constructs:
//   - a generic parallel Map[T, U any] using a WaitGroup and one goroutine
//     per element, instantiated with (int, string) and (string, int);
//   - a generic channel stage Stage[In, Out any] returning <-chan Out,
//     chained twice with different type arguments;
//   - a generic type Collector[T cmp.Ordered] with a mutex and a method that
//     spawns goroutines, instantiated with int and with string;
//   - a generic function with explicit type arguments used as a go target.
package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Map applies f to every element of xs concurrently.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	var wg sync.WaitGroup
	for i, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = f(x)
		}()
	}
	wg.Wait()
	return out
}

// Stage runs f over every value of in in a new goroutine.
func Stage[In, Out any](in <-chan In, f func(In) Out) <-chan Out {
	out := make(chan Out)
	go func() {
		defer close(out)
		for v := range in {
			out <- f(v)
		}
	}()
	return out
}

// Collector gathers values produced concurrently.
type Collector[T cmp.Ordered] struct {
	mu    sync.Mutex
	items []T
}

func (c *Collector[T]) add(v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items = append(c.items, v)
}

// Run calls produce(0..n-1) in n goroutines and returns the sorted results.
func (c *Collector[T]) Run(n int, produce func(int) T) []T {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.add(produce(i))
		}()
	}
	wg.Wait()
	slices.Sort(c.items)
	return c.items
}

func send[T any](ch chan<- T, vs ...T) {
	for _, v := range vs {
		ch <- v
	}
	close(ch)
}

func main() {
	words := Map([]int{3, 1, 4, 1, 5}, func(n int) string { return strings.Repeat("*", n) })
	fmt.Printf("%q\n", words)
	lengths := Map(words, func(s string) int { return len(s) })
	fmt.Println(lengths)

	src := make(chan int)
	go send[int](src, 1, 2, 3, 4)
	labels := Stage(Stage(src, func(n int) float64 { return float64(n) / 2 }),
		func(f float64) string { return fmt.Sprintf("%.1f", f) })
	for l := range labels {
		fmt.Println("stage:", l)
	}

	var ints Collector[int]
	fmt.Println(ints.Run(6, func(i int) int { return (i * 37) % 11 }))
	var strs Collector[string]
	fmt.Println(strs.Run(4, func(i int) string { return string(rune('d' - i)) }))
}
