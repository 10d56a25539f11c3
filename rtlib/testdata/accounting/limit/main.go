// Limit: the tiles errgroup with SetLimit(L): at most L tasks hold their
// scratch at once. MHWM_p = N·R + min(p, N, L)·S.
package main

import (
	"fmt"

	"golang.org/x/sync/errgroup"
)

const (
	N = 8
	L = 3
	S = 1 << 20
	R = 64 << 10
)

func tile(i int) []byte {
	scratch := make([]byte, S)
	for j := range scratch {
		scratch[j] = byte(i + j)
	}
	res := make([]byte, R)
	copy(res, scratch)
	return res
}

func main() {
	var g errgroup.Group
	g.SetLimit(L)
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
