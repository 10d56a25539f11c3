// Workerpool runs Jobs jobs on Workers workers fed by a channel. A job
// uses a scratch buffer of Scratch bytes and sends back a digest of
// Digest bytes, which main keeps.
//
// Analytic MHWM: at most min(p, Workers) jobs run at once, so the true
// MHWM_p is about Jobs·Digest + min(p, Workers)·Scratch. The job and
// result channels are not series-parallel: spgo reports the
// series-parallel relaxation's figure (a worker's scratch buffers die at
// its join), an upper bound marked inexact, at most everything
// allocated: Jobs·(Scratch + Digest) + small.
package main

import (
	"crypto/sha256"
	"fmt"
	"sync"
)

const (
	Workers = 4
	Jobs    = 24
	Scratch = 256 << 10
	Digest  = 8 << 10
)

func job(n int) []byte {
	scratch := make([]byte, Scratch)
	for i := range scratch {
		scratch[i] = byte(n + i)
	}
	sum := sha256.Sum256(scratch)
	d := make([]byte, Digest)
	for i := range d {
		d[i] = sum[i%len(sum)]
	}
	return d
}

func main() {
	jobs := make(chan int)
	results := make(chan []byte)
	var wg sync.WaitGroup
	for w := 0; w < Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range jobs {
				results <- job(n)
			}
		}()
	}
	go func() {
		for n := 0; n < Jobs; n++ {
			jobs <- n
		}
		close(jobs)
	}()
	kept := make([][]byte, 0, Jobs)
	for len(kept) < Jobs {
		kept = append(kept, <-results)
	}
	wg.Wait()
	x := byte(0)
	for _, d := range kept {
		x ^= d[0]
	}
	fmt.Println("jobs:", len(kept), "xor:", x)
}
