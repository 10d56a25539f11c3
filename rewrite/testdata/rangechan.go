// range over a channel: define and assign forms, no variables, a label
// with break and continue, a body that redeclares the variable, and a
// channel expression evaluated once.
package main

import "fmt"

func gen(n int) <-chan int {
	c := make(chan int)
	go func() {
		for i := range n {
			c <- i
		}
		close(c)
	}()
	return c
}

func main() {
	sum := 0
	for v := range gen(5) {
		sum += v
	}
	var last int
	for last = range gen(3) {
	}
	count := 0
	for range gen(4) {
		count++
	}
outer:
	for v := range gen(10) {
		if v%2 == 0 {
			continue outer
		}
		if v > 6 {
			break outer
		}
		v := v * 10
		sum += v
	}
	fmt.Println(sum, last, count)
}
