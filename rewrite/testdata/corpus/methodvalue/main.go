// Program methodvalue exercises methods as goroutine entry points.
//
// Constructs:
//   - go obj.Method(arg) with a pointer receiver;
//   - go val.Method(arg) with a value receiver (the receiver is copied at
//     the go statement, so later changes are not seen);
//   - a method value stored in a variable and spawned later: f := obj.M;
//     go f(x), including a value-receiver method value bound before the
//     receiver changes;
//   - a method expression: go (*T).M(obj, x);
//   - interface method calls in goroutines: go s.Describe(out) for values of
//     two dynamic types;
//   - a method value passed as a func argument to a spawning helper.
package main

import (
	"fmt"
	"sort"
	"sync"
)

type Counter struct {
	mu    sync.Mutex
	total int
}

func (c *Counter) Add(n int, wg *sync.WaitGroup) {
	defer wg.Done()
	c.mu.Lock()
	c.total += n
	c.mu.Unlock()
}

type Label struct{ name string }

func (l Label) Send(suffix string, out chan<- string) {
	out <- l.name + suffix
}

type Describer interface {
	Describe(out chan<- string)
}

type Circle struct{ r int }
type Square struct{ side int }

func (c Circle) Describe(out chan<- string)  { out <- fmt.Sprintf("circle r=%d", c.r) }
func (s *Square) Describe(out chan<- string) { out <- fmt.Sprintf("square side=%d", s.side) }

func spawnAll(fs []func(chan<- string), out chan<- string) {
	for _, f := range fs {
		go f(out)
	}
}

func collect(out <-chan string, n int) []string {
	got := make([]string, 0, n)
	for range n {
		got = append(got, <-out)
	}
	sort.Strings(got)
	return got
}

func main() {
	var wg sync.WaitGroup
	c := &Counter{}

	wg.Add(1)
	go c.Add(1, &wg)

	add := c.Add
	wg.Add(2)
	go add(10, &wg)
	go add(100, &wg)

	addExpr := (*Counter).Add
	wg.Add(1)
	go addExpr(c, 1000, &wg)
	wg.Wait()
	fmt.Println("counter total:", c.total)

	out := make(chan string)
	l := Label{name: "first"}
	go l.Send("-go", out) // receiver copied now
	fmt.Println("label:", <-out)

	send := l.Send // value receiver bound now
	l.name = "changed"
	go send("-method-value", out)
	fmt.Println("label:", <-out)
	go l.Send("-after-change", out)
	fmt.Println("label:", <-out)

	shapes := []Describer{Circle{r: 2}, &Square{side: 3}, Circle{r: 5}}
	for _, s := range shapes {
		go s.Describe(out)
	}
	fmt.Println("shapes:", collect(out, len(shapes)))

	sq := &Square{side: 7}
	spawnAll([]func(chan<- string){sq.Describe, Circle{r: 9}.Describe, shapes[0].Describe}, out)
	fmt.Println("method values:", collect(out, 3))
}
