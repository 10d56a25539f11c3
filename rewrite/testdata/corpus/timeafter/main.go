// Program timeafter exercises timers in select statements.
//
// Constructs:
//   - select between a ready channel and time.After(time.Minute): the
//     result channel is filled before the select, so the timeout never wins;
//   - select between a worker's result and time.After(time.Minute), where the
//     worker finishes in microseconds;
//   - a timeout that must fire: time.After(time.Millisecond) against a
//     channel that is never ready;
//   - time.NewTimer with Stop before it fires, and Reset;
//   - context.WithTimeout whose work finishes first (ctx.Err is nil);
//   - a time.Ticker read exactly three times, then stopped.
//
// Total sleeping/waiting is about 4 ms.
package main

import (
	"context"
	"fmt"
	"time"
)

func main() {
	ready := make(chan string, 1)
	ready <- "value was ready"
	select {
	case v := <-ready:
		fmt.Println(v)
	case <-time.After(time.Minute):
		fmt.Println("timeout (unexpected)")
	}

	result := make(chan int)
	go func() {
		sum := 0
		for i := range 1000 {
			sum += i
		}
		result <- sum
	}()
	select {
	case s := <-result:
		fmt.Println("worker result:", s)
	case <-time.After(time.Minute):
		fmt.Println("worker timed out (unexpected)")
	}

	never := make(chan int)
	select {
	case <-never:
		fmt.Println("never (unexpected)")
	case <-time.After(time.Millisecond):
		fmt.Println("timeout fired as expected")
	}

	t := time.NewTimer(time.Hour)
	fmt.Println("timer stopped before firing:", t.Stop())
	t.Reset(time.Millisecond)
	<-t.C
	fmt.Println("timer fired after reset")

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Microsecond)
	}()
	select {
	case <-done:
		fmt.Println("work finished, ctx.Err:", ctx.Err())
	case <-ctx.Done():
		fmt.Println("context expired (unexpected)")
	}

	tick := time.NewTicker(500 * time.Microsecond)
	defer tick.Stop()
	ticks := 0
	for range tick.C {
		ticks++
		if ticks == 3 {
			break
		}
	}
	fmt.Println("ticks:", ticks)
}
