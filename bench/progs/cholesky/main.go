// Cholesky factors a dense symmetric positive-definite n×n matrix (random
// entries in [0, 1) off the diagonal, n on it, so diagonally dominant)
// as A = L·Lᵀ with the tiled right-looking algorithm: the lower triangle
// is stored as nt×nt tiles of b×b float64s (b = -cutoff, nt = n/b), and
// for each k in turn
//
//	potrf: L_kk = chol(A_kk)                      (serially)
//	trsm:  A_ik = A_ik·L_kk⁻ᵀ for i > k           (one task per tile, in place)
//	gemm:  A_ij -= A_ik·A_jkᵀ for k < j ≤ i       (one task per tile)
//
// each phase a fork-join of a sync.WaitGroup. A gemm task allocates the
// product A_ik·A_jkᵀ as a fresh b×b block (B = 8b² bytes), subtracts it
// and drops it; nothing else is allocated per task. The checksum is the
// CRC-32 of L's bits, row-major, and log det A, summed in a fixed order.
//
// Analytic MHWM: the tiles (Matrix = 8b²·nt(nt+1)/2 bytes, plus the
// small tile index) live throughout; the widest phase is the first gemm
// phase, with m = nt(nt−1)/2 tasks, each holding one block:
//
//	MHWM_p = Matrix + min(p, m)·B (+ small)
//
// Default n = 2560, b = 256 (nt = 10, m = 45, B = 512 KiB): Matrix =
// 27.5 MiB, MHWM_1 = 28 MiB, growing by 512 KiB per processor to 50 MiB
// from p = 45 on. Small size for tests: -n 256 -cutoff 32
// (nt = 8, m = 28, B = 8 KiB: Matrix = 288 KiB, MHWM_p = 288 KiB +
// min(p, 28)·8 KiB).
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"sync"
)

var (
	n = flag.Int("n", 2560, "matrix order")
	b = flag.Int("cutoff", 256, "tile order (n must be a multiple)")
)

type tile []float64 // b×b, row-major

// potrf factors a in place: a = l·lᵀ, l lower triangular.
func potrf(a tile, b int) {
	for j := range b {
		d := a[j*b+j]
		for k := range j {
			d -= a[j*b+k] * a[j*b+k]
		}
		d = math.Sqrt(d)
		a[j*b+j] = d
		for i := j + 1; i < b; i++ {
			s := a[i*b+j]
			for k := range j {
				s -= a[i*b+k] * a[j*b+k]
			}
			a[i*b+j] = s / d
		}
		for k := j + 1; k < b; k++ {
			a[j*b+k] = 0
		}
	}
}

// trsm solves x·lᵀ = a for x in place of a, l lower triangular.
func trsm(l, a tile, b int) {
	for i := range b {
		row := a[i*b : i*b+b]
		for j := range b {
			s := row[j]
			for k := range j {
				s -= row[k] * l[j*b+k]
			}
			row[j] = s / l[j*b+j]
		}
	}
}

// mulT returns the new block x·yᵀ.
func mulT(x, y tile, b int) tile {
	p := make(tile, b*b)
	for i := range b {
		xi := x[i*b : i*b+b]
		for j := range b {
			yj := y[j*b : j*b+b]
			var s float64
			for k, v := range xi {
				s += v * yj[k]
			}
			p[i*b+j] = s
		}
	}
	return p
}

// cholesky factors the tiled lower triangle a in place.
func cholesky(a [][]tile, b int) {
	nt := len(a)
	for k := range nt {
		potrf(a[k][k], b)
		var wg sync.WaitGroup
		for i := k + 1; i < nt; i++ {
			wg.Go(func() { trsm(a[k][k], a[i][k], b) })
		}
		wg.Wait()
		for i := k + 1; i < nt; i++ {
			for j := k + 1; j <= i; j++ {
				wg.Go(func() {
					p := mulT(a[i][k], a[j][k], b)
					for x, v := range p {
						a[i][j][x] -= v
					}
				})
			}
		}
		wg.Wait()
	}
}

func main() {
	flag.Parse()
	if *b <= 0 || *n%*b != 0 {
		fmt.Println("-n must be a positive multiple of -cutoff")
		return
	}
	nt, bs := *n / *b, *b
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([][]tile, nt)
	for i := range a {
		a[i] = make([]tile, i+1)
		for j := range a[i] {
			a[i][j] = make(tile, bs*bs)
		}
	}
	for r := range *n { // the lower triangle, row by row
		for c := 0; c <= r; c++ {
			v := rng.Float64()
			if r == c {
				v = float64(*n)
			}
			a[r/bs][c/bs][r%bs*bs+c%bs] = v
			if r/bs == c/bs { // diagonal tiles are stored whole
				a[r/bs][c/bs][c%bs*bs+r%bs] = v
			}
		}
	}
	cholesky(a, bs)
	h := crc32.NewIEEE()
	var logdet float64
	var buf [8]byte
	for r := range *n {
		for c := 0; c <= r; c++ {
			v := a[r/bs][c/bs][r%bs*bs+c%bs]
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			h.Write(buf[:])
			if r == c {
				logdet += 2 * math.Log(v)
			}
		}
	}
	fmt.Printf("cholesky n=%d b=%d: log det %.10e, checksum %08x\n", *n, bs, logdet, h.Sum32())
}
