// Channel operations: send, receive as a statement and in expressions,
// the comma-ok form, close, directional and named channel types, and a
// receive nested in a send.
package main

import "fmt"

type ints chan int

func produce(out chan<- int, n int) {
	for i := 0; i < n; i++ {
		out <- i
	}
	close(out)
}

func main() {
	c := make(ints, 3)
	go produce(c, 3)
	a := <-c
	b, ok := <-c
	var d, ok2 = <-c
	_, ok3 := <-c
	fmt.Println(a, b, ok, d, ok2, ok3)

	cc := make(chan chan string, 1)
	s := make(chan string, 1)
	cc <- s
	(<-cc) <- "via"
	fmt.Println(<-s)
	done := make(chan struct{})
	go func() { <-done }()
	done <- struct{}{}
}
