// Joined: a binary fork-join of depth D = 11 (2 047 internal calls, 4 094
// go statements, sync.WaitGroup) whose every internal call makes a
// result array res := make([]int64, 256) (2 KiB) that its two
// goroutines fill and that it reads after the join. The goroutines'
// literals capture res, a WaitGroup and a counter, so the compiler puts
// all three on the heap ("escapes to heap", "moved to heap"): nothing
// but the call and the goroutines it joined refers to them, so they die
// at its return (rtlib's acct_shared.go charges them there, with no
// census).
//
// A leaf allocates nothing. A call in progress holds its array (2 048
// B) and, in the worst case, both its goroutines' descriptors (spgo's
// model: 480 bytes from the go statement to the join, rtlib/dag.go).
// With p leaves in progress the calls above them are at most
// min(2^k, p) at depth k (ancestors in the test):
//
//	MHWM_p = (2 048 + 960)·U(p),  U(p) = Σ_{k<11} min(2^k, p)
//	serial = 11·3 008 = 33 088
//
// Not counted: the WaitGroup (16 B) and the counter (8 B) of each call
// in progress, and the go statements' closures until their goroutines
// start (≤ 2 KiB).
package main

import (
	"fmt"
	"sync"
)

const D = 11

func work(depth int, seed int64) int64 {
	if depth == 0 {
		return seed
	}
	res := make([]int64, 256) // res
	var calls int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		res[0] = work(depth-1, 2*seed)
		calls++
	}()
	go func() {
		defer wg.Done()
		res[1] = work(depth-1, 2*seed+1)
	}()
	wg.Wait()
	res[2] = res[0] + res[1] + calls
	return res[2]
}

func main() {
	fmt.Println(work(D, 1))
}
