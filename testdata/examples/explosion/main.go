// Explosion is the MemoryExplosion program of the Cilkmem paper, in Go:
// level k spawns the rest of the recursion (levels k-1 … 1), then
// allocates a unit of Unit bytes in its own continuation and keeps it
// until after it has joined its child.
//
// Analytic MHWM: a schedule that runs every continuation before the
// spawned children holds all Levels units at once, even on one
// processor, so
//
//	MHWM_p = Levels·Unit for every p (8 MiB with Levels = 8, Unit = 1 MiB)
//
// while the child-first serial run (Go's own order here: the child runs
// to its end first) holds one unit at a time: serial peak = Unit. A
// profile of one run would never show the 8 MiB.
//
// The module's go line is 1.21 on purpose: spbuild must build it without
// changing its language version.
package main

import (
	"fmt"
	"sync"
)

const (
	Levels = 8
	Unit   = 1 << 20
)

type level struct {
	depth int
	total int
}

func (l *level) run() {
	if l.depth == 0 {
		return
	}
	child := &level{depth: l.depth - 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		child.run()
	}()
	unit := make([]byte, Unit)
	for i := 0; i < len(unit); i += 4096 {
		unit[i] = byte(l.depth)
	}
	wg.Wait()
	l.total = child.total + int(unit[0])
}

func main() {
	top := &level{depth: Levels}
	top.run()
	fmt.Println("levels summed:", top.total)
}
