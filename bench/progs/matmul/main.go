// Matmul multiplies two pseudo-random n×n matrices (PCG, fixed seed) by
// recursive divide and conquer, Cilk style, and prints the sum of the
// product's entries. n must halve evenly down to the cutoff (1536 =
// 2^5·48 does with cutoff 64).
//
// Per task: a call on m×m blocks with m > cutoff allocates a temporary T
// of m×m float64s, runs the eight half-size products in parallel (the
// four A_i0·B_0j into the quadrants of C, the four A_i1·B_1j into those
// of T; seven spawned, one called), joins and adds T into C; T is live
// across the spawns. Blocks of at most cutoff rows are multiplied
// serially, without allocating.
//
// Analytic MHWM: with L the number of levels that allocate (m = n/2^k >
// cutoff for k < L) and U = 8n² bytes, the matrices A, B, C hold 3U and
// a call at level k holds U/4^k; a finished call holds nothing. One
// processor holds a chain of temporaries, p ≤ 8 processors the root's
// and p chains below it (L ≥ 2), and from p = 8^(L−1) on every
// temporary is live:
//
//	MHWM_1 = serial peak = U·(3 + (4/3)(1 − 4^−L))
//	MHWM_p = U·(4 + p·(1/3)(1 − 4^−(L−1)))   for 1 ≤ p ≤ 8
//	MHWM_p = U·(2 + 2^L)                     for p ≥ 8^(L−1)
//
// With -n 128 -cutoff 32 (L = 2, U = 128 KiB): 544 KiB at p = 1, 576 KiB
// at p = 2, 640 KiB at p = 4 and 768 KiB from p = 8 on.
//
// Test size: -n 128 -cutoff 32 runs in a few milliseconds.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
)

// mat is an n×n block of a row-major matrix with the given stride.
type mat struct {
	d         []float64
	n, stride int
}

func newMat(n int) mat { return mat{make([]float64, n*n), n, n} }

// row returns row i of m.
func (m mat) row(i int) []float64 { return m.d[i*m.stride : i*m.stride+m.n] }

// quad returns quadrant (i, j) of m.
func (m mat) quad(i, j int) mat {
	h := m.n / 2
	return mat{m.d[i*h*m.stride+j*h:], h, m.stride}
}

var cutoff = flag.Int("cutoff", 64, "multiply blocks of at most cutoff rows serially")

// mul sets c = a·b.
func mul(c, a, b mat) {
	if c.n <= *cutoff {
		for i := range c.n {
			ci, ai := c.row(i), a.row(i)
			clear(ci)
			for k, aik := range ai {
				for j, bkj := range b.row(k) {
					ci[j] += aik * bkj
				}
			}
		}
		return
	}
	t := mat{make([]float64, c.n*c.n), c.n, c.n}
	var wg sync.WaitGroup
	for i := range 2 {
		for j := range 2 {
			wg.Go(func() { mul(c.quad(i, j), a.quad(i, 0), b.quad(0, j)) })
			if i+j < 2 {
				wg.Go(func() { mul(t.quad(i, j), a.quad(i, 1), b.quad(1, j)) })
			}
		}
	}
	mul(t.quad(1, 1), a.quad(1, 1), b.quad(1, 1))
	wg.Wait()
	for i := range c.n {
		for j, v := range t.row(i) {
			c.row(i)[j] += v
		}
	}
}

func main() {
	n := flag.Int("n", 1536, "matrix size (halving evenly down to the cutoff)")
	flag.Parse()
	for m := *n; m > *cutoff; m /= 2 {
		if m%2 != 0 {
			fmt.Printf("matmul: %d does not halve evenly down to %d\n", *n, *cutoff)
			os.Exit(2)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	a, b, c := newMat(*n), newMat(*n), newMat(*n)
	for i := range a.d {
		a.d[i], b.d[i] = r.Float64(), r.Float64()
	}
	mul(c, a, b)
	sum := 0.0
	for _, v := range c.d {
		sum += v
	}
	fmt.Printf("matmul(%d): sum %.6f\n", *n, sum)
}
