// Program selectloop exercises select statements inside loops.
//
// Constructs:
//   - for+select with a default case and a labelled break out of the loop;
//   - non-blocking sends (select with a send case and default);
//   - merging two channels, disabling each case by setting its channel to
//     nil once it is closed (v, ok := <-ch);
//   - a labelled continue and a labelled break out of an inner for+select
//     that has a single case;
//   - a worker stopped by closing a done channel;
//   - a select with exactly one case (receive) and one with a send case.
//
// No select ever has two cases ready whose choice would change the output.
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

func mergeWithNil() {
	a := make(chan int)
	b := make(chan string)
	go func() {
		defer close(a)
		for i := range 4 {
			a <- i
		}
	}()
	go func() {
		defer close(b)
		for _, s := range []string{"x", "y", "z"} {
			b <- s
		}
	}()
	var ints []int
	var strs []string
	for a != nil || b != nil {
		select {
		case v, ok := <-a:
			if !ok {
				a = nil
				continue
			}
			ints = append(ints, v)
		case s, ok := <-b:
			if !ok {
				b = nil
				continue
			}
			strs = append(strs, s)
		}
	}
	fmt.Println("merged:", ints, strs)
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
	mergeWithNil()
	rounds()
	doneChannel()
}
