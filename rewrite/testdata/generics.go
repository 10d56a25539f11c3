// Generic functions and types that spawn and allocate: the site names the
// generic function once; go with an explicit instantiation.
package main

import (
	"fmt"
	"sync"
)

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func ParMap[T, U any](xs []T, f func(T) U) []U {
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

func send[T any](c chan<- T, v T) { c <- v }

func (p *Pair[K, V]) Clone() *Pair[K, V] {
	return &Pair[K, V]{p.Key, p.Val}
}

func main() {
	sq := ParMap([]int{1, 2, 3}, func(x int) int { return x * x })
	names := ParMap([]int{1, 2}, func(x int) string { return fmt.Sprint(x) })
	c := make(chan string, 1)
	go send[string](c, "hi")
	p := &Pair[string, int]{"a", 1}
	fmt.Println(sq, names, <-c, p.Clone().Val)
}
