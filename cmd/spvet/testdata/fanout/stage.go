package main

import (
	"iter"
	"slices"
	"sync"
)

// double drains its whole input before sending anything: tailstrict.
func double(in <-chan int, out chan<- int) {
	var buf []int
	for x := range in {
		buf = append(buf, 2*x)
	}
	for _, y := range buf {
		out <- y
	}
	close(out)
}

// sum collects a sequence to range over it once: tailstrict, with a fix.
func sum(seq iter.Seq[int]) int {
	s := 0
	for _, v := range slices.Collect(seq) {
		s += v
	}
	return s
}

// squares keeps every result until Wait: joinbeforeconsume, when enabled.
func squares(n int) int {
	res := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { res[i] = string(rune('a' + i)) })
	}
	wg.Wait()
	total := 0
	for _, r := range res {
		total += len(r + r)
	}
	return total
}

// fetchAll starts one goroutine per URL with no bound: unboundedspawn.
func fetchAll(urls []string) [][]byte {
	var wg sync.WaitGroup
	out := make([][]byte, len(urls))
	for i, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = []byte(u + "!")
		}()
	}
	wg.Wait()
	return out
}
