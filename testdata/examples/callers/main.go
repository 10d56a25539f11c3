// Callers allocates all its memory in one helper, buffer, called from
// two places: render, which each of Workers goroutines runs with a
// buffer of Frame bytes, and encode, which main runs meanwhile with two
// buffers of Chunk bytes, both held until it returns. A profile that
// knows only lines puts everything on buffer's make; the call paths
// split it between render and encode.
//
// Analytic MHWM: main's encode runs in parallel with every worker, and
// the workers with each other, so p processors can hold encode's two
// chunks and p−1 frames, or p frames, whichever is more:
//
//	MHWM_p = 2·Chunk + min(p−1, Workers)·Frame   (2·Chunk ≥ Frame)
//
// With Workers = 4, Frame = 1 MiB, Chunk = 768 KiB: 1.5 MiB at p = 1,
// 2.5 MiB at p = 2, 4.5 MiB at p = 4, 5.5 MiB from p = 5 on, of which
// render's share is min(p−1, 4) MiB and encode's 1.5 MiB. The serial
// run's peak is 2·Chunk = 1.5 MiB.
package main

import (
	"fmt"
	"hash/crc32"
	"sync"
)

const (
	Workers = 4
	Frame   = 1 << 20
	Chunk   = 768 << 10
)

// buffer returns a zeroed buffer of n bytes, filled with a pattern.
//
//go:noinline
func buffer(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*seed + seed)
	}
	return b
}

// render draws frame f and returns its checksum.
func render(f int) uint32 {
	b := buffer(Frame, f+1)
	return crc32.ChecksumIEEE(b)
}

// encode encodes two chunks and returns their checksum.
func encode() uint32 {
	a := buffer(Chunk, 7)
	b := buffer(Chunk, 11)
	return crc32.Update(crc32.ChecksumIEEE(a), crc32.IEEETable, b)
}

func main() {
	var wg sync.WaitGroup
	sums := make([]uint32, Workers)
	for w := range Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[w] = render(w)
		}()
	}
	e := encode()
	wg.Wait()
	fmt.Println(sums, e)
}
