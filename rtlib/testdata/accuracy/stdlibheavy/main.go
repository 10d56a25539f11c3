// Stdlibheavy: tasks that allocate almost only through the standard
// library. An errgroup of K = 8 tasks; each writes J = 50,000 records
// (strconv.Itoa and fmt.Sprintf results, garbage at once) into a
// bytes.Buffer, whose length ends between 512 KiB and 1 MiB (813,838
// bytes in every task), then builds strings.Repeat(chunk, 1024) of
// a 1,024-byte chunk copied from the buffer (R = 1 MiB) and hashes both.
// It keeps a hash and a 48-byte clone of a part of the repeat.
//
// Sizes the runtime allocates: bytes.Buffer starts at 64 bytes and
// doubles (growSlice: 2·cap, an append of a power of two: exact), so its
// capacity ends at C = 1 MiB; its last growth holds 512 KiB + 1 MiB.
// strings.Repeat allocates its result once (strings.Builder.Grow(n),
// n = 1 MiB: whole pages). A task's peak is at that allocation: the
// buffer (C), the chunk (1,024) and the result (R):
// P = 1 MiB + 1,024 + 1 MiB = 2,098,176 bytes (> 1.5 MiB). fmt's and
// strconv's garbage is a few dozen bytes at a time. spgo models each
// goroutine as 480 bytes from its go statement to its join
// (rtlib/dag.go goroutineBytes): all K are unjoined at a last task's peak.
//
//	MHWM_p = min(p, 8)·2,098,176 + 8·480
//	serial = 2,098,176 + 3,840 = 2,102,016
//
// Not counted: the kept clones (48 bytes each), fmt's pooled printer
// state, errgroup's closures (≤ 2 KiB in all).
package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"
)

const (
	K = 8
	J = 50000
)

func hash(s []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range s {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

func work(i int) (uint64, string) {
	var buf bytes.Buffer
	for j := range J {
		buf.WriteString(strconv.Itoa((i+1)*1_000_003 + j))
		buf.WriteString(fmt.Sprintf(" %x,", j*7919))
	}
	chunk := string(buf.Bytes()[:1024])
	big := strings.Repeat(chunk, 1024) // repeat
	h := hash(buf.Bytes()) ^ hash([]byte(big[4096:4096+64]))*31 + uint64(len(big))
	return h, strings.Clone(big[100 : 100+48])
}

func main() {
	var g errgroup.Group
	hs := make([]uint64, K)
	keep := make([]string, K)
	for i := range K {
		g.Go(func() error {
			hs[i], keep[i] = work(i)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	var h uint64
	for i := range K {
		h = h*1000003 + hs[i] + uint64(len(keep[i])) + uint64(keep[i][i])
	}
	fmt.Println(h)
}
