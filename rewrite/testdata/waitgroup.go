// sync.WaitGroup: a local, a struct field, a pointer passed to a helper,
// a group captured by a closure, embedded in a struct, and wg.Go.
package main

import (
	"fmt"
	"sync"
)

type server struct {
	wg sync.WaitGroup
	mu sync.Mutex
	n  int
}

type job struct {
	sync.WaitGroup
	sync.Mutex
	out []int
}

func spawn(wg *sync.WaitGroup, out []int, i int) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		out[i] = i * i
	}()
}

func main() {
	var wg sync.WaitGroup
	out := make([]int, 4)
	for i := range out {
		spawn(&wg, out, i)
	}
	wg.Wait()

	s := &server{}
	for i := 0; i < 3; i++ {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.mu.Lock()
			s.n += i
			s.mu.Unlock()
		}()
	}
	s.wg.Wait()

	var j job
	for i := range 3 {
		j.Add(1)
		go func() {
			defer j.Done()
			j.Lock()
			defer j.Unlock()
			j.out = append(j.out, i)
		}()
	}
	j.Wait()

	var g sync.WaitGroup
	total := 0
	var mu sync.Mutex
	for i := range 5 {
		g.Go(func() {
			mu.Lock()
			total += i
			mu.Unlock()
		})
	}
	g.Wait()
	fmt.Println(out, s.n, len(j.out), total)
}
