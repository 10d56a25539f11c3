// Program structwg exercises WaitGroups and mutexes in unusual places, and
// the evaluation order of go statements.
//
// Constructs:
//   - a sync.WaitGroup as a named struct field (s.wg.Add, s.wg.Wait);
//   - a *sync.WaitGroup passed to a helper that spawns the goroutines;
//   - a WaitGroup captured by a closure that is itself spawned;
//   - a struct embedding sync.Mutex and sync.WaitGroup, used through
//     promoted methods (s.Lock(), s.Add(1), s.Done(), s.Wait());
//   - go f(next()) and go obj.m(next()): the arguments (and the receiver)
//     are evaluated in the parent at the go statement, so next's printed
//     side effects appear in program order.
package main

import (
	"fmt"
	"sort"
	"sync"
)

type batch struct {
	wg      sync.WaitGroup
	results []int
}

func (b *batch) run(n int) {
	b.results = make([]int, n)
	for i := range n {
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			b.results[i] = i + 100
		}()
	}
	b.wg.Wait()
}

func spawnSquares(wg *sync.WaitGroup, out []int) {
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = i * i
		}()
	}
}

type registry struct {
	sync.Mutex
	sync.WaitGroup
	names []string
}

func (r *registry) register(name string) {
	defer r.Done()
	r.Lock()
	defer r.Unlock()
	r.names = append(r.names, name)
}

var counter int

func next() int {
	counter++
	fmt.Println("next() evaluated in parent:", counter)
	return counter
}

func report(n int, out chan<- string) {
	out <- fmt.Sprint("goroutine got ", n)
}

func main() {
	var b batch
	b.run(4)
	fmt.Println("struct field:", b.results)

	var wg sync.WaitGroup
	squares := make([]int, 5)
	spawnSquares(&wg, squares)
	wg.Wait()
	fmt.Println("pointer param:", squares)

	var cwg sync.WaitGroup
	total := 0
	var mu sync.Mutex
	work := func(k int) {
		defer cwg.Done()
		mu.Lock()
		total += k
		mu.Unlock()
	}
	for k := 1; k <= 4; k++ {
		cwg.Add(1)
		go work(k)
	}
	cwg.Wait()
	fmt.Println("captured WaitGroup:", total)

	r := &registry{}
	for _, name := range []string{"delta", "alpha", "charlie", "bravo"} {
		r.Add(1)
		go r.register(name)
	}
	r.Wait()
	r.Lock()
	sort.Strings(r.names)
	fmt.Println("embedded:", r.names)
	r.Unlock()

	out := make(chan string)
	go report(next(), out)
	fmt.Println(<-out)
	go report(next()*10, out)
	fmt.Println(<-out)
	regs := []*registry{r, {}}
	pick := func() *registry { fmt.Println("receiver evaluated in parent"); return regs[1] }
	regs[1].Add(1)
	go pick().register(fmt.Sprint("name", next()))
	regs[1].Wait()
	fmt.Println("second registry:", regs[1].names)
}
