// Deepstack: main starts K = 8 goroutines; each recurses D = 2,000
// calls deep through a function with a 256-byte array in its frame,
// returns the sum to a result slot and ends; main waits for them
// (sync.WaitGroup) and prints the sums. Nothing is allocated on the heap
// but the result slice (64 bytes) and the go statements' closures.
//
// A goroutine's frames reach about D·(256 + the call's own words) bytes
// deep: its stack grows from the starting 2 KiB by doubling to the first
// size that holds them with the runtime's guard, and stays that large
// until the goroutine exits. Measured uninstrumented (Go 1.26,
// linux/amd64): the stack in use grows to 1 MiB in each goroutine
// (runtime/metrics /memory/classes/heap/stacks:bytes, one goroutine at
// its deepest). The heap is what any fork-join of K goroutines holds,
// and what fmt.Println takes to print the sums after the join (about 28
// KiB of its own state, measured, not derived; within the slack):
//
//	heap:   MHWM_p = 64 + K·(480 + 32)    = 4,160 bytes (+ fmt's)
//	stacks: min(p, K)·1 MiB + (K − min(p, K))·2 KiB at their deepest,
//	        growth seen only where rtlib looks (a goroutine's end), so
//	        the total's figures are upper bounds of at least that.
package main

import (
	"fmt"
	"sync"
)

const (
	K = 8
	D = 2000
)

//go:noinline
func deep(n int, seed int64) int64 {
	var pad [32]int64
	for i := range pad {
		pad[i] = seed + int64(i)
	}
	if n == 0 {
		return pad[31]
	}
	return deep(n-1, pad[n%32]) + pad[0]
}

func main() {
	sums := make([]int64, K)
	var wg sync.WaitGroup
	for k := range K {
		wg.Add(1)
		go func() { // spawn
			defer wg.Done()
			sums[k] = deep(D, int64(k))
		}()
	}
	wg.Wait()
	fmt.Println(sums)
}
