// Dropearly: a task drops its first large buffer before allocating the
// second. K = 4 tasks (sync.WaitGroup Go); each fills a buffer of
// SA = 3 MiB, sums it, drops it (a = nil), then fills a second buffer of
// SB = 2 MiB from the sum and sums that. Both makes are of constant size,
// too large for the stack, so on the heap, though neither leaves task.
//
// A task holds one buffer at a time: its peak is SA, not SA + SB (if the
// first buffer's death is found before the second is charged). spgo
// models each goroutine as 480 bytes from its go statement to its join
// (rtlib/dag.go goroutineBytes): all K are unjoined at a last task's peak.
//
//	MHWM_p = min(p, 4)·3 MiB + 4·480 = min(p, 4)·3,145,728 + 1,920
//	serial = 3 MiB + 1,920 = 3,147,648 (the last task's first buffer)
//
// Not counted: the results slice and closures (≤ 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const (
	K  = 4
	SA = 3 << 20
	SB = 2 << 20
)

func task(i int) int {
	a := make([]byte, SA) // first
	for j := range a {
		a[j] = byte(i + j*3 + j>>11)
	}
	s := 0
	for _, c := range a {
		s += int(c)
	}
	a = nil
	b := make([]byte, SB) // second
	for j := range b {
		b[j] = byte(s + j*5)
	}
	t := 0
	for _, c := range b {
		t = t*31 + int(c)
	}
	return s ^ t
}

func main() {
	res := make([]int, K)
	var wg sync.WaitGroup
	for i := range K {
		wg.Go(func() { res[i] = task(i) })
	}
	wg.Wait()
	sum := 0
	for _, r := range res {
		sum = sum*1000003 + r
	}
	fmt.Println(sum)
}
