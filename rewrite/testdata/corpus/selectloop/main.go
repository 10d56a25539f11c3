// Program selectloop exercises select statements inside loops.
//
// Constructs:
//   - for+select with a default case and a labelled break out of the loop;
//   - non-blocking sends (select with a send case and default);
//   - a labelled continue and a labelled break out of an inner for+select
//     that has a single case;
//   - a worker stopped by closing a done channel;
//   - a select with exactly one case (receive) and one with a send case.
//
// No select ever has two cases ready whose choice would change the output.
// Nil-channel cases are in the selectnil program.
package main

import "fmt"

func drainWithDefault() {
	ch := make(chan int, 5)
	for i := range 5 {
		ch <- i * 10
	}
	var got []int
loop:
	for {
		select {
		case v := <-ch:
			got = append(got, v)
		default:
			break loop
		}
	}
	fmt.Println("drained:", got)
}

func nonBlockingSend() {
	ch := make(chan int, 2)
	var dropped []int
	for i := range 5 {
		select {
		case ch <- i:
		default:
			dropped = append(dropped, i)
		}
	}
	fmt.Println("buffered:", len(ch), "dropped:", dropped)
}

func rounds() {
round:
	for r := range 4 {
		ch := make(chan int)
		go func() {
			defer close(ch)
			for i := range r + 2 {
				ch <- r*10 + i
			}
		}()
		sum := 0
		for {
			select {
			case v, ok := <-ch:
				if !ok {
					fmt.Println("round", r, "sum", sum)
					continue round
				}
				if v%10 == 3 {
					for range ch {
					}
					fmt.Println("round", r, "stopped at", v)
					break round
				}
				sum += v
			}
		}
	}
}

func doneChannel() {
	in := make(chan int)
	done := make(chan struct{})
	finished := make(chan int)
	go func() {
		count := 0
		for {
			select {
			case v := <-in:
				count += v
			case <-done:
				select {
				case finished <- count:
				}
				return
			}
		}
	}()
	for i := 1; i <= 10; i++ {
		in <- i
	}
	close(done)
	select {
	case total := <-finished:
		fmt.Println("worker total:", total)
	}
}

func main() {
	drainWithDefault()
	nonBlockingSend()
	rounds()
	doneChannel()
}
