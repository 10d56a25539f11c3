// Errlimit: an errgroup with SetLimit(L), L = 4, of N = 16 tasks; each
// uses a scratch buffer of S = 1 MiB (make of non-constant size that does
// not escape, in a function not inlined; dead when it returns) and keeps a
// result of R = 64 KiB, which main reads after the join.
//
// At most min(p, L) tasks hold their scratch at once (Go blocks while L
// tasks are unfinished); the results of completed tasks stay live. At a
// last task's peak (its result allocated while its scratch is still
// live) the other N − 1 results are live. spgo models each goroutine as
// 480 bytes from its go statement to its join (rtlib/dag.go
// goroutineBytes): all N are unjoined at the end.
//
//	MHWM_p = N·R + min(p, L)·S + N·480 = 1 MiB + min(p, 4)·1 MiB + 7,680
//	serial = N·R + S + N·480 = 2 MiB + 7,680 = 2,104,832
//
// Not counted: the results slice, errgroup's semaphore and closures
// (≤ 2 KiB).
package main

import (
	"fmt"

	"golang.org/x/sync/errgroup"
)

const (
	N = 16
	L = 4
	S = 1 << 20
	R = 64 << 10
)

//go:noinline
func tile(i, s int) []byte {
	scratch := make([]byte, s) // scratch
	for j := range scratch {
		scratch[j] = byte(i*j + j>>10)
	}
	res := make([]byte, R) // result
	for j := range scratch {
		res[j%R] += scratch[j]
	}
	return res
}

func main() {
	var g errgroup.Group
	g.SetLimit(L)
	results := make([][]byte, N)
	for i := range N {
		g.Go(func() error {
			results[i] = tile(i, S)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	sum := 0
	for i, r := range results {
		sum = sum*31 + int(r[i*1000])
	}
	fmt.Println(sum)
}
