// Program errgroup_limit exercises errgroup.Group with a concurrency limit.
//
// Constructs:
//   - errgroup.Group (zero value) with SetLimit(3) and 20 tasks started with
//     Go, each allocating a buffer (make) and storing a small result into a
//     pre-sized slice at its own index;
//   - an atomic counter checking that at most 3 tasks are active at once;
//   - TryGo on a second group with SetLimit(2), where the number of active
//     tasks is forced by a release channel, so TryGo's result is fixed;
//   - an error returned by one task and reported by Wait.
package main

import (
	"errors"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

func checksum(buf []byte) int {
	s := 0
	for i, b := range buf {
		s += (i + 1) * int(b)
	}
	return s % 10007
}

func main() {
	var g errgroup.Group
	g.SetLimit(3)

	var active, peak atomic.Int32
	results := make([]int, 20)
	for i := range results {
		g.Go(func() error {
			n := active.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			defer active.Add(-1)

			buf := make([]byte, 256*(i+1))
			for j := range buf {
				buf[j] = byte(i + j)
			}
			results[i] = checksum(buf)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		fmt.Println("unexpected error:", err)
	}
	fmt.Println("results:", results)
	fmt.Println("peak within limit:", peak.Load() >= 1 && peak.Load() <= 3)

	// TryGo: the number of active tasks is controlled by release.
	var g2 errgroup.Group
	g2.SetLimit(2)
	release := make(chan struct{})
	started := make(chan int, 2)
	g2.Go(func() error {
		started <- 1
		<-release
		return nil
	})
	ok1 := g2.TryGo(func() error {
		started <- 2
		<-release
		return errors.New("task 2 failed")
	})
	ok2 := g2.TryGo(func() error {
		started <- 3
		return nil
	})
	fmt.Println("TryGo with one free slot:", ok1)
	fmt.Println("TryGo with no free slot:", ok2)
	a, b := <-started, <-started
	fmt.Println("started:", a+b)
	close(release)
	fmt.Println("g2.Wait:", g2.Wait())
}
