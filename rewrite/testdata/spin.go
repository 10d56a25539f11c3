// Spin loops: a turn that finds nothing is a poll, so that the goroutine
// the loop waits for gets the baton.
package main

import (
	"sync/atomic"
)

var ready atomic.Int32

func try(n int) (int, bool) { return n, n > 3 }

func spin() int {
	for ready.Load() == 0 {
	}
	for {
		if v, ok := try(4); ok {
			return v
		}
	}
}

func spinBreak() (v int) {
	ok := false
	for {
		if v, ok = try(5); ok {
			break
		}
	}
	return v
}

// spinChecking checks something between its loads of ready: it waits for
// another goroutine's Store all the same, and each turn is a poll.
func spinChecking(check func() bool) int {
	n := 0
	for ready.Load() == 0 {
		if !check() {
			continue
		}
		n++
	}
	for i := 0; ready.Load() == 0; i++ {
		n += i
	}
	return n
}

// notSpin does work between its tests: left alone, and so is a counting
// loop whose bound is loaded from an atomic.
func notSpin() int {
	sum := 0
	for i := int32(0); i < ready.Load(); i++ {
		sum++
	}
	for i := 0; i < 10; i++ {
		sum += i
	}
	for {
		sum++
		if sum > 100 {
			break
		}
	}
	return sum
}

func main() {
	ready.Store(1)
	_, _, _, _ = spin(), spinBreak(), notSpin(), spinChecking(func() bool { return true })
}
