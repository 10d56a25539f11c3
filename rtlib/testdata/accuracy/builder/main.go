// Builder: 8 tasks (sync.WaitGroup), each builds a string of
// N = 1 500 000 bytes with a strings.Builder (WriteString of 10 bytes at
// a time) and keeps it. The Builder grows its array by append's rule
// inside the standard library: the program prints the last two
// capacities a task saw, the same uninstrumented: O = 1 400 832 bytes
// before the last growth and F = 1 753 088 after it.
//
// During a growth the old and the new array are both live; the old one
// dies right after (no String result refers to it yet). A task's peak is
// its last growth, O + F, and it keeps F:
//
//	MHWM_p = 8F + min(p, 8)·O + 8·480
//	serial = 8F + O + 8·480
//
// (the serial run's last task grows while the seven before keep theirs;
// every goroutine is modelled from its go statement to the join, 480
// bytes each, rtlib/dag.go).
//
// The write line allocates every capacity the Builder takes, summed:
// 8 395 504 bytes a task (uninstrumented, the same rule).
//
// Not counted: the WaitGroup, the result slice, the go statements'
// closures, and each Builder's arrays below 4 KiB (< 80 KiB in all).
package main

import (
	"fmt"
	"strings"
	"sync"
)

const N = 1_500_000

// caps are the last two capacities task 7 saw.
var caps [2]int

//go:noinline
func build(k, n int) string {
	var b strings.Builder
	for range n / 10 {
		b.WriteString("0123456789") // write
		if c := b.Cap(); k == 7 && c != caps[1] {
			caps[0], caps[1] = caps[1], c
		}
	}
	return b.String()
}

func main() {
	var wg sync.WaitGroup
	out := make([]string, 8)
	for k := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[k] = build(k, N)
		}()
	}
	wg.Wait()
	fmt.Println(len(out[7]), caps[0], caps[1])
}
