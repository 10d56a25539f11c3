// Bandbuf: a row renderer. The output image, make([]uint32, W·H) with
// W = H = 1024 (4 MiB), lives throughout. K = 8 tasks (sync.WaitGroup Go)
// each render a band of H/K = 128 rows: band() allocates a float buffer
// make([]float64, w·(rows+2)) of non-constant size that does not escape
// (the band with a row of halo on each side: 1024·130·8 = 1,064,960
// bytes, 130 pages), blurs it vertically into the image and drops it when
// it returns.
//
// min(p, K) band buffers can be live at once. spgo models each goroutine
// as 480 bytes from its go statement to its join (rtlib/dag.go
// goroutineBytes): all K are unjoined at a last task's peak.
//
//	MHWM_p = 4 MiB + min(p, 8)·1,064,960 + 8·480
//	       = 4,194,304 + min(p, 8)·1,064,960 + 3,840
//	serial = 4,194,304 + 1,064,960 + 3,840 = 5,263,104
//
// Not counted: the WaitGroup's closures (≤ 1 KiB).
package main

import (
	"fmt"
	"sync"
)

const (
	W = 1024
	H = 1024
	K = 8
)

func band(out []uint32, y0, rows, w int) {
	buf := make([]float64, w*(rows+2)) // band
	for r := range rows + 2 {
		y := y0 + r - 1
		for x := range w {
			buf[r*w+x] = float64((x*x + y*y*3 + x*y) % 1021)
		}
	}
	for r := 1; r <= rows; r++ {
		for x := range w {
			v := (buf[(r-1)*w+x] + 2*buf[r*w+x] + buf[(r+1)*w+x]) / 4
			out[(y0+r-1)*w+x] = uint32(v * 16)
		}
	}
}

func main() {
	out := make([]uint32, W*H) // image
	var wg sync.WaitGroup
	for b := range K {
		wg.Go(func() { band(out, b*H/K, H/K, W) })
	}
	wg.Wait()
	var sum uint64
	for i, v := range out {
		sum = sum*1000003 + uint64(v) + uint64(i&7)
	}
	fmt.Println(sum)
}
