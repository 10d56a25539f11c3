// Tilesvar: tiles with a scratch buffer of non-constant size that does
// not escape (the compiler keeps such a make on the stack up to 32
// bytes, on the heap above: rtlib.SmallSlice). An errgroup of N tasks;
// each holds a scratch buffer of S bytes
// while it works and keeps a result of R bytes. MHWM_p = N·R + min(p, N)·S;
// the serial peak is N·R + S (one scratch at a time).
package main

import (
	"fmt"

	"golang.org/x/sync/errgroup"
)

const (
	N = 8
	S = 1 << 20
	R = 64 << 10
)

func tile(i int) []byte {
	scratch := make([]byte, S+i%1)
	for j := range scratch {
		scratch[j] = byte(i + j)
	}
	res := make([]byte, R)
	copy(res, scratch)
	return res
}

func main() {
	var g errgroup.Group
	results := make([][]byte, N)
	for i := range N {
		g.Go(func() error {
			results[i] = tile(i)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	sum := 0
	for _, r := range results {
		sum += int(r[1])
	}
	fmt.Println(sum)
}
