// Smallwork: tasks build and drop small-object working sets while the
// parent holds a long-lived small-object structure. main builds a linked
// list of L = 65,536 items of 32 bytes (size class 32: 2 MiB), then
// spawns K = 8 tasks (sync.WaitGroup Go); each runs R = 4 rounds, and a
// round builds a working set, walks it and drops it:
//   - n = 16,384 records of 32 bytes (&rec{}: 524,288 bytes),
//   - a slice of pointers to them, make([]*rec, n) (131,072 bytes;
//     n is a parameter of round, so both slices are of non-constant size),
//   - n/8 = 2,048 maps of 8 entries, make(map[int32]*rec, 8) (each a
//     48-byte map header and one 136-byte group of 8 slots, size class
//     144: 192 bytes; 393,216 bytes), and the slice holding them,
//     make([]map[int32]*rec, n/8) (16,384 bytes of pointers: the
//     runtime puts an 8-byte header before a pointerful object of 512
//     bytes to 32 KiB, so size class 18,432).
//
// The tasks read the list (shared, read-only); main walks it after the
// join.
//
// A working set is W = 524,288 + 131,072 + 393,216 + 18,432 = 1,067,008
// bytes, complete when its last map is filled; a task's previous one is
// dead before it starts the next. spgo models each goroutine as 480 bytes
// from its go statement to its join (rtlib/dag.go goroutineBytes): all K
// are unjoined at a last task's peak.
//
//	MHWM_p = 2 MiB + min(p, 8)·1,067,008 + 8·480
//	       = 2,097,152 + min(p, 8)·1,067,008 + 3,840
//	serial = 2,097,152 + 1,067,008 + 3,840 = 3,168,000
//
// Sizes are Go 1.26's (internal/runtime/maps: a map of at most 8 entries
// is a header and one group; malloc headers: runtime/malloc.go).
// Not counted: the results slice, closures (≤ 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const (
	L = 65536
	K = 8
	R = 4
	N = 16384
)

type item struct {
	next     *item
	id, a, b int
}

type rec struct {
	id   int
	v    float64
	tag  int
	next *rec
}

func round(list *item, t, r, n int) int {
	ptrs := make([]*rec, n) // ptrs
	var prev *rec
	it := list
	for j := range ptrs {
		x := &rec{id: j, v: float64(it.a) / 7, tag: t*r + j%13, next: prev} // rec
		ptrs[j] = x
		prev = x
		it = it.next
		if it == nil {
			it = list
		}
	}
	idx := make([]map[int32]*rec, n/8) // idx
	for g := range idx {
		m := make(map[int32]*rec, 8) // map
		for k := range 8 {
			x := ptrs[g*8+k]
			m[int32(x.id*3+k)] = x
		}
		idx[g] = m
	}
	s := 0
	for g, m := range idx {
		for k := range 8 {
			x := m[int32((g*8+k)*3+k)]
			s += x.tag + int(x.v)
		}
	}
	for x := prev; x != nil; x = x.next {
		s += x.id & 3
	}
	return s
}

func main() {
	var list *item
	for i := range L {
		list = &item{next: list, id: i, a: i * 7, b: i % 11} // item
	}
	res := make([]int, K)
	var wg sync.WaitGroup
	for t := range K {
		wg.Go(func() {
			for r := range R {
				res[t] += round(list, t, r, N)
			}
		})
	}
	wg.Wait()
	sum := 0
	for x := list; x != nil; x = x.next {
		sum += x.b
	}
	for _, r := range res {
		sum = sum*1000003 + r
	}
	fmt.Println(sum)
}
