// Pipeline reads Records records (-n) through three stages connected by
// unbuffered channels: parse → enrich → sink. Each stage allocates a new
// value of Size bytes per record and drops the one it received.
//
// Analytic MHWM: the channels order the stages, so any schedule holds
// only a few records at once, whatever the number of records: parse's
// next value, enrich's received and new values, main's last one, and at a
// hand-off the value in flight, about 4–6 values of Size bytes. The
// series-parallel relaxation, which drops the channel edges, cannot see
// that: a record made in one goroutine and dropped in another dies only at
// the join, so spgo's MHWM figures are marked inexact and are at most
// everything allocated, 2·Records·Size + small. Schedule simulation
// (spbuild run -simulate) keeps the channel edges: its peaks stay a few
// values, independent of Records; deaths are known only at censuses, one
// allocation apart here, which adds about one value per stage:
//
//	true MHWM_p ≤ 6·Size   simulated ≤ 7·Size + small   MHWM figure ≤ 2·Records·Size + small
package main

import (
	"flag"
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

func parse(n int, out chan<- record) {
	for i := 0; i < n; i++ {
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
	n := flag.Int("n", Records, "records")
	flag.Parse()
	parsed := make(chan record)
	enriched := make(chan record)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); parse(*n, parsed) }()
	go func() { defer wg.Done(); enrich(parsed, enriched) }()
	sum := 0
	for r := range enriched {
		sum += int(r.body[0]) + int(r.body[1])
	}
	wg.Wait()
	fmt.Println("records:", *n, "sum:", sum)
}
