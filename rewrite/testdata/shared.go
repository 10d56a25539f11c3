// Objects that die with their function and the goroutines it spawns
// (shared.go): FrameVar and FrameSlice where nothing else can refer to
// them, the plain hooks where something might.
package main

import (
	"fmt"
	"sync"
)

var sink []int

var saved func()

// results: two results and the WaitGroup the goroutines use, a slice
// they fill; all die at the return.
func results(n int) int {
	var a, b int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a = n + 1
	}()
	go func() {
		defer wg.Done()
		b = n + 2
	}()
	wg.Wait()
	out := make([]int, n)
	var mu sync.Mutex
	wg.Go(func() {
		mu.Lock()
		out[0] = a
		mu.Unlock()
	})
	wg.Wait()
	return a + b + len(out) + out[0]
}

// big is moved to the heap for its size alone: no goroutine refers to it.
func big() int {
	var buf [1 << 20]byte
	buf[7] = 1
	return int(buf[7])
}

// kept: each object here may outlive the function.
func kept(n int) {
	var wg sync.WaitGroup
	var a int
	go func() {
		a++
		sink = append(sink, a)
	}()
	p := &a // an address
	_ = p
	out := make([]int, n)
	wg.Go(func() { out[0] = 1 })
	wg.Wait()
	sink = out // a copy of the slice
	var c int
	saved = func() { c++ } // a literal kept
	for i := 0; i < n; i++ {
		loop := make([]int, n) // one per turn
		wg.Go(func() { loop[0] = i })
		wg.Wait()
	}
	var w sync.WaitGroup
	helper(&w) // the WaitGroup's address
	var v sync.WaitGroup
	v.Add(1)
	go v.Wait() // a goroutine refers to it: goes
	v.Done()
}

func helper(wg *sync.WaitGroup) { wg.Wait() }

// turns: a scratch per turn dies with its turn (SmallSliceTurn); one a
// literal mentions, or whose array another variable takes, does not.
func turns(n int) int {
	s := 0
	var keepLast []byte
	for i := 0; i < n; i++ {
		b := make([]byte, n) // a turn's scratch
		b[i%n] = byte(i)
		s += int(b[i%n])
		c := make([]byte, n) // mentioned by a literal
		f := func() int { return len(c) }
		s += f()
		d := make([]byte, n) // taken by another variable
		keepLast = d
	}
	return s + len(keepLast)
}

func main() {
	fmt.Println(results(3), big(), turns(40))
	kept(4)
}
