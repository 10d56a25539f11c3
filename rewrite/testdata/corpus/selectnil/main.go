// Program selectnil exercises nil channels used to disable select cases.
//
// Constructs:
//   - merging two channels in a for+select, disabling each receive case by
//     setting its channel variable to nil once it is closed (v, ok := <-ch);
//   - a forwarder that enables its send case only when it has something
//     queued (the send channel is nil otherwise), and disables its receive
//     case when the input is closed;
//   - a select with a case on a nil channel that is never chosen, next to
//     a default case.
//
// Values from each single producer keep their order, so the output is fixed
// even though the select may pick either ready case.
package main

import "fmt"

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

// forward copies in to out through an unbounded queue.
func forward(in <-chan int, out chan<- int) {
	defer close(out)
	var queue []int
	for in != nil || len(queue) > 0 {
		var send chan<- int // nil: send case disabled
		var next int
		if len(queue) > 0 {
			send = out
			next = queue[0]
		}
		select {
		case v, ok := <-in:
			if !ok {
				in = nil
				continue
			}
			queue = append(queue, v)
		case send <- next:
			queue = queue[1:]
		}
	}
}

func main() {
	mergeWithNil()

	in := make(chan int)
	out := make(chan int)
	go forward(in, out)
	go func() {
		defer close(in)
		for i := 1; i <= 6; i++ {
			in <- i * i
		}
	}()
	var got []int
	for v := range out {
		got = append(got, v)
	}
	fmt.Println("forwarded:", got)

	var disabled chan int
	select {
	case v := <-disabled:
		fmt.Println("received from nil channel (unexpected):", v)
	default:
		fmt.Println("nil channel case never ready")
	}
}
