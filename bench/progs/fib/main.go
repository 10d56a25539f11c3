// Fib computes fib(n) by the doubly recursive definition, Cilk style: a
// call above the cutoff spawns fib(n-1), computes fib(n-2) itself and
// joins; at or below the cutoff it recurses serially and allocates
// nothing.
//
// Per task: each parallel call allocates a frame of Frame int64s (1 KiB)
// on the heap, where both halves store their results; the frame stays
// live until the call returns, across the spawn.
//
// Analytic MHWM: a finished call has released everything it allocated,
// so only the frames of unfinished parallel calls are live and MHWM_p is
// 1 KiB times the most parallel calls that p root-to-leaf paths of the
// call tree cover, U(n, p), where U(m, p) = 0 if m ≤ cutoff or p = 0 and
// otherwise U(m, p) = 1 + max over p1+p2 = p of U(m-1, p1) + U(m-2, p2).
// No closed form beyond MHWM_1 = serial peak = (n − cutoff) KiB. With
// -n 24 (cutoff 15, 88 parallel calls): 9 KiB at p = 1, 16 KiB at p = 2,
// 27 KiB at p = 4, 44 KiB at p = 8, 65 KiB at p = 16, 86 KiB at p = 32
// and 88 KiB from p = 34 on.
//
// Test size: -n 24 runs in about a millisecond.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// Frame is the number of int64s a parallel call allocates.
const Frame = 128

var cutoff = flag.Int("cutoff", 15, "compute fib(n) serially for n ≤ cutoff")

// fibSerial is the plain recursion below the cutoff.
func fibSerial(n int) int64 {
	if n < 2 {
		return int64(n)
	}
	return fibSerial(n-1) + fibSerial(n-2)
}

// fib spawns fib(n-1), computes fib(n-2) and adds them in a heap frame.
func fib(n int) int64 {
	if n <= *cutoff {
		return fibSerial(n)
	}
	frame := make([]int64, Frame)
	var wg sync.WaitGroup
	wg.Go(func() { frame[0] = fib(n - 1) })
	frame[1] = fib(n - 2)
	wg.Wait()
	return frame[0] + frame[1]
}

func main() {
	n := flag.Int("n", 42, "compute fib(n)")
	flag.Parse()
	fmt.Printf("fib(%d) = %d\n", *n, fib(*n))
}
