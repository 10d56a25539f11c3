// Mathbig: tasks whose garbage is made by math/big. An errgroup of K = 8
// tasks; each holds an output buffer make([]byte, 0, S), S = 1 MiB (128
// pages), and runs M = 20,000 steps of a Fibonacci recurrence on big.Int
// with a fresh result every step (new(big.Int).Add: the numbers grow to
// about 14,000 bits; 21 MB of small garbage per task, 172 MB over the
// run), appending the hexadecimal digits of every 64th number to the
// buffer (big.Int.Append, base 16: one temporary digit slice per call;
// the buffer is hashed and reset when full). It keeps the hash.
//
// A task holds its buffer until it ends; besides it, at most three
// numbers and one digit slice, ε < 10 KiB (math/big's internals: the
// formula leaves them out; Add, Append in base 16 and SetInt64 use no
// pooled scratch stack). spgo models each goroutine as 480 bytes from its
// go statement to its join (rtlib/dag.go goroutineBytes): all K are
// unjoined at a last task's peak.
//
//	MHWM_p = min(p, 8)·(1 MiB + ε) + 8·480 ≥ min(p, 8)·1,048,576 + 3,840
//	serial = 1 MiB + ε + 3,840 ≥ 1,052,416
package main

import (
	"fmt"
	"math/big"

	"golang.org/x/sync/errgroup"
)

const (
	K = 8
	S = 1 << 20
	M = 20000
)

func hash(h uint64, s []byte) uint64 {
	for _, c := range s {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

func task(i int) uint64 {
	out := make([]byte, 0, S) // out
	h := uint64(14695981039346656037)
	a, b := big.NewInt(int64(i+1)), big.NewInt(1)
	for j := 1; j <= M; j++ {
		a, b = b, new(big.Int).Add(a, b)
		if j%64 == 0 {
			if len(out)+8192 > cap(out) {
				h = hash(h, out)
				out = out[:0]
			}
			out = b.Append(out, 16)
		}
	}
	h = hash(h, out)
	return h ^ uint64(b.BitLen())
}

func main() {
	var g errgroup.Group
	res := make([]uint64, K)
	for i := range K {
		g.Go(func() error {
			res[i] = task(i)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	var sum uint64
	for _, r := range res {
		sum = sum*1000003 + r
	}
	fmt.Println(sum)
}
