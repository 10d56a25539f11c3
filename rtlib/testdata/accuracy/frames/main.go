// Frames: a binary fork-join of depth D = 12 (4 096 leaves, 8 190 go
// statements, sync.WaitGroup) whose every call allocates a frame buffer
// of variable size that lives until the call returns: make([]int64, n)
// with n = 256 (2 KiB) in an internal call, used again after its join,
// and n = 128 (1 KiB) in a leaf, which also allocates a 4 KiB scratch
// make([]byte, s). The compiler says none of them escapes; it puts them
// on the heap for their non-constant size.
//
// A leaf in progress holds its frame and scratch (5 KiB); every internal
// call above it holds its frame (2 KiB) and, in the worst case, both its
// goroutines' descriptors (spgo's model: 480 bytes from the go statement
// to the join, rtlib/dag.go). With p leaves in progress, the calls above
// them are at most min(2^k, p) at depth k (ancestors in the test):
//
//	MHWM_p = (2 048 + 960)·U(p) + min(p, 4 096)·5 120,
//	U(p)   = Σ_{k<12} min(2^k, p)
//	serial = 12·3 008 + 5 120 = 41 216 (the last leaf: both children of
//	         every call above it forked)
//
// Not counted: a WaitGroup (16 B) and the two results (8 B each) per
// internal call above the leaves, and the go statements' closures until
// their goroutines start (≤ 2 KiB).
package main

import (
	"fmt"
	"sync"
)

const D = 12

var frameN, leafN, scratchN = 256, 128, 4096

func work(depth int, seed int64) int64 {
	if depth == 0 {
		frame := make([]int64, leafN)     // leaf frame
		scratch := make([]byte, scratchN) // scratch
		for i := range frame {
			frame[i] = seed + int64(i)
			scratch[i] = byte(frame[i])
		}
		return frame[len(frame)-1] + int64(scratch[1])
	}
	frame := make([]int64, frameN) // frame
	frame[0] = seed
	var a, b int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a = work(depth-1, 2*seed)
	}()
	go func() {
		defer wg.Done()
		b = work(depth-1, 2*seed+1)
	}()
	wg.Wait()
	frame[1], frame[2] = a, b
	return frame[0] + frame[1] + frame[2]
}

func main() {
	fmt.Println(work(D, 1))
}
