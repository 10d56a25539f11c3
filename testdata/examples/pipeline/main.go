// Pipeline reads Records records through three stages connected by
// unbuffered channels: parse → enrich → sink. Each stage allocates a new
// value of Size bytes per record and drops the one it received.
//
// Analytic MHWM: the channels order the stages, so any schedule holds
// only a few records at once (a handful of Size-byte values). spgo does
// not model channel edges yet (issue #9): it computes the
// series-parallel relaxation, in which a record made in one goroutine and
// dropped in another dies only at the join, and marks the figures
// inexact. They are sound upper bounds, at most everything allocated:
//
//	true MHWM_p ≤ 6·Size   spgo's figure ≤ 2·Records·Size + small
package main

import (
	"fmt"
	"sync"
)

const (
	Records = 48
	Size    = 32 << 10
)

type record struct {
	id   int
	body []byte
}

func parse(out chan<- record) {
	for i := 0; i < Records; i++ {
		b := make([]byte, Size)
		b[0] = byte(i)
		out <- record{i, b}
	}
	close(out)
}

func enrich(in <-chan record, out chan<- record) {
	for r := range in {
		b := make([]byte, Size)
		copy(b, r.body)
		b[1] = byte(r.id * 3)
		out <- record{r.id, b}
	}
	close(out)
}

func main() {
	parsed := make(chan record)
	enriched := make(chan record)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); parse(parsed) }()
	go func() { defer wg.Done(); enrich(parsed, enriched) }()
	sum := 0
	for r := range enriched {
		sum += int(r.body[0]) + int(r.body[1])
	}
	wg.Wait()
	fmt.Println("records:", Records, "sum:", sum)
}
