// Program pipeline exercises a three-stage channel pipeline.
//
// Constructs:
//   - stage functions returning receive-only channels (<-chan T) created
//     inside them, each stage run by its own goroutine;
//   - an unbuffered channel (generate -> square) and buffered channels
//     (square -> format, format -> main);
//   - range over a channel in every consumer, close by every producer
//     (with defer close and with an explicit close);
//   - a single goroutine per stage, so the order of items is preserved and
//     main can print as it receives.
package main

import (
	"fmt"
	"strconv"
)

// generate emits 1..n on an unbuffered channel.
func generate(n int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for i := 1; i <= n; i++ {
			out <- i
		}
	}()
	return out
}

// square squares its inputs, skipping multiples of 5.
func square(in <-chan int) <-chan int {
	out := make(chan int, 4)
	go func() {
		for v := range in {
			if v%5 == 0 {
				continue
			}
			out <- v * v
		}
		close(out)
	}()
	return out
}

// format renders each value together with a running total.
func format(in <-chan int) <-chan string {
	out := make(chan string, 2)
	go func() {
		defer close(out)
		total := 0
		for v := range in {
			total += v
			out <- strconv.Itoa(v) + " (running " + strconv.Itoa(total) + ")"
		}
	}()
	return out
}

func main() {
	lines := format(square(generate(12)))
	count := 0
	for line := range lines {
		count++
		fmt.Println(line)
	}
	fmt.Println("lines:", count)

	// A closed, drained channel yields the zero value and ok == false.
	v, ok := <-lines
	fmt.Printf("after close: %q %v\n", v, ok)
}
