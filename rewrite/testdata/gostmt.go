// go statements: a function with arguments, a method value, a closure,
// a builtin, a multi-value argument, a variadic call, constants.
package main

import (
	"fmt"
	"sync"
)

type counter struct{ n int }

func (c *counter) add(k int, wg *sync.WaitGroup) {
	defer wg.Done()
	c.n += k
}

func pair() (int, string) { return 1, "one" }

func show(k int, s string) { fmt.Println(k, s) }

func sum(xs ...int) {
	t := 0
	for _, x := range xs {
		t += x
	}
	fmt.Println(t)
}

func main() {
	var wg sync.WaitGroup
	c := &counter{}
	wg.Add(1)
	go c.add(next(), &wg) // method value, argument with a side effect
	wg.Wait()

	done := make(chan bool)
	go func() {
		fmt.Println("closure")
		done <- true
	}()
	<-done

	go show(pair())
	go sum(1, 2, 3)
	xs := []int{4, 5}
	go sum(xs...)
	go fmt.Println("constant", 1.5)
	ch := make(chan int)
	go close(ch)
	<-ch
	fmt.Println(c.n)
}

var k int

func next() int { k++; return k }
