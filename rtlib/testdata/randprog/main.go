// Randprog runs a random series-parallel program chosen by its seed
// (the first argument), for the oracle property test (TestOracleRandom):
// a tree of tasks, each of which allocates buffers of random sizes
// (large ones, tracked one by one, and small ones, pooled), spawns up to
// three goroutines joined by a sync.WaitGroup, hands some buffers to its
// parent across the join through a slot, drops others before, between
// or after its spawns, and makes garbage in the standard library
// (strconv, strings). The shape depends on the seed only, so a serial
// run is deterministic; the program prints a checksum of its work, which
// each task computes from its own and its goroutines' (no shared
// variable: the original program runs them in parallel).
package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
)

// node is one task of the program.
type node struct {
	r     *rand.Rand
	depth int
}

// size is a random allocation size: small (pooled) or large (tracked).
func (n *node) size() int {
	if n.r.IntN(3) == 0 {
		return 16 + n.r.IntN(512)
	}
	return 4<<10 + n.r.IntN(512<<10)
}

// touch writes b so that it is really used.
func touch(b []byte) int {
	s := 0
	for i := 0; i < len(b); i += 512 {
		b[i] = byte(i)
		s += int(b[i])
	}
	return s
}

// run is a task: it returns the buffer it hands to its parent (or nil)
// and a checksum of its work.
func (n *node) run() ([]byte, int) {
	sink := 0
	var keep [][]byte
	for range n.r.IntN(3) {
		keep = append(keep, make([]byte, n.size()))
	}
	if n.r.IntN(2) == 0 {
		var sb strings.Builder
		for i := range 5 + n.r.IntN(20) {
			sb.WriteString(strconv.Itoa(i * 7919))
		}
		sink += len(sb.String())
	}
	kids := 0
	if n.depth < 3 {
		kids = n.r.IntN(4)
	}
	slots := make([][]byte, kids)
	sums := make([]int, kids)
	var wg sync.WaitGroup
	for i := range kids {
		c := &node{r: rand.New(rand.NewPCG(n.r.Uint64(), uint64(i))), depth: n.depth + 1}
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots[i], sums[i] = c.run()
		}()
		if n.r.IntN(3) == 0 && len(keep) > 0 {
			sink += touch(keep[0])
			keep = keep[1:] // dropped between spawns
		}
	}
	mid := make([]byte, n.size()) // live across the join
	wg.Wait()
	sink += touch(mid)
	for i, s := range slots {
		if s != nil {
			sink += touch(s)
		}
		sink += sums[i]
	}
	for _, b := range keep {
		sink += touch(b)
	}
	if n.r.IntN(2) == 0 {
		out := make([]byte, n.size())
		sink += touch(out)
		return out, sink
	}
	return nil, sink
}

func main() {
	seed, err := strconv.ParseUint(os.Args[1], 10, 64)
	if err != nil {
		fmt.Println("usage: randprog seed")
		os.Exit(2)
	}
	root := &node{r: rand.New(rand.NewPCG(seed, 1))}
	b, sink := root.run()
	if b != nil {
		sink += touch(b)
	}
	fmt.Println(sink)
}
