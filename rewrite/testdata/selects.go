// select: blocking selects with receives, comma-ok receives, sends with
// computed values and constants; a labelled select left with break; a
// select reached by goto; a select with default (left alone but for
// rt.Polled first in its default case); the last
// statement of a function returning from every case; select {} is not
// reached.
package main

import "fmt"

func pick(a, b chan int) int {
	select {
	case v := <-a:
		return v
	case v, ok := <-b:
		if !ok {
			return -1
		}
		return v
	}
}

func next() int { return 42 }

func main() {
	a, b := make(chan int, 1), make(chan int, 1)
	b <- 7
	fmt.Println(pick(a, b))

	out := make(chan int, 1)
	quit := make(chan bool)
	var got []int
loop:
	for {
		select {
		case out <- next():
		case v := <-out:
			got = append(got, v)
			if len(got) == 2 {
				break loop
			}
		case <-quit:
			return
		}
	}
	n := 0
again:
	select {
	case out <- 1:
		n++
		goto again
	case <-out:
		if n < 3 {
			goto again
		}
	}
sel:
	select {
	case a <- 5:
		break sel
	}
	select {
	case v := <-a:
		fmt.Println("got", v)
	default:
		fmt.Println("none")
	}
	fmt.Println(got, n)
}
