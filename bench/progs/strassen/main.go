// Strassen multiplies two pseudo-random n×n matrices (PCG, fixed seed)
// with Strassen's algorithm and prints the sum of the product's entries.
// n must halve evenly down to the cutoff (1536 = 2^5·48 does with
// cutoff 64).
//
// Per task: a call on m×m blocks with m > cutoff computes the seven
// half-size products M1…M7 in parallel, one task each. A task allocates
// the sums its product needs (none to two of (m/2)² float64s) and calls
// strassen on them, which returns the product, M_i, in a new matrix; the
// call keeps the seven until it has combined them into the m² result it
// then allocates. Blocks of at most cutoff rows are multiplied
// classically, into a new result.
//
// Analytic MHWM: no closed form. A call's inputs die at its join (only
// the products are needed after it). In float64s, with h = m/2, s_k the
// sums product k allocates (2, 1, 1, 1, 1, 2, 2) and o the inputs that
// die with the call (its sums; A and B, 2n², at the root), a call's MHWM
// is D(m, p, o) = o + m² at a leaf and otherwise
//
//	D(m, p, o) = max(o + 7h², 11h², o + max over p_1+…+p_7 ≤ p, not all 0,
//	             of Σ_{p_k>0} D(h, p_k, s_k·h²) + #{k : p_k = 0}·h²)
//
// (a finished product holds h², an unstarted one nothing), and MHWM_p =
// 8·D(n, p, 2n²) bytes; MHWM_1 is the serial peak. With -n 256 -cutoff
// 64: 2336 KiB at p = 1, 2752 KiB at p = 2, 3456 KiB at p = 4, 4384 KiB
// at p = 8, 4896 KiB at p = 16, 5568 KiB at p = 32 and 6112 KiB from
// p = 49 on.
//
// Test size: -n 256 -cutoff 64 runs in about 10 ms.
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

// quad returns quadrant q (0 to 3, row-major) of m.
func (m mat) quad(q int) mat {
	h := m.n / 2
	return mat{m.d[q/2*h*m.stride+q%2*h:], h, m.stride}
}

// operand is quadrant q of a matrix, plus sign times quadrant r if r ≥ 0.
type operand struct{ q, r, sign int }

// products are Strassen's M1…M7: M_k = (A operand)·(B operand).
var products = [7][2]operand{
	{{0, 3, 1}, {0, 3, 1}},   // (A11+A22)(B11+B22)
	{{2, 3, 1}, {0, -1, 0}},  // (A21+A22)B11
	{{0, -1, 0}, {1, 3, -1}}, // A11(B12−B22)
	{{3, -1, 0}, {2, 0, -1}}, // A22(B21−B11)
	{{0, 1, 1}, {3, -1, 0}},  // (A11+A12)B22
	{{2, 0, -1}, {0, 1, 1}},  // (A21−A11)(B11+B12)
	{{1, 3, -1}, {2, 3, 1}},  // (A12−A22)(B21+B22)
}

// combine[q][k] is the coefficient of M_k in quadrant q of C.
var combine = [4][7]float64{
	{1, 0, 0, 1, -1, 0, 1},
	{0, 0, 1, 0, 1, 0, 0},
	{0, 1, 0, 1, 0, 0, 0},
	{1, -1, 1, 0, 0, 1, 0},
}

// eval returns the operand o of m, in a new matrix if it is a sum.
func (o operand) eval(m mat) mat {
	x := m.quad(o.q)
	if o.r < 0 {
		return x
	}
	y, s := m.quad(o.r), newMat(x.n)
	for i := range x.n {
		si, yi := s.row(i), y.row(i)
		for j, v := range x.row(i) {
			si[j] = v + float64(o.sign)*yi[j]
		}
	}
	return s
}

var cutoff = flag.Int("cutoff", 64, "multiply blocks of at most cutoff rows classically")

// strassen returns a·b in a new matrix.
func strassen(a, b mat) mat {
	n := a.n
	if n <= *cutoff {
		c := newMat(n)
		for i := range n {
			ci := c.row(i)
			for k, aik := range a.row(i) {
				for j, bkj := range b.row(k) {
					ci[j] += aik * bkj
				}
			}
		}
		return c
	}
	var ms [7]mat
	var wg sync.WaitGroup
	for k, p := range products {
		wg.Go(func() { ms[k] = strassen(p[0].eval(a), p[1].eval(b)) })
	}
	wg.Wait()
	c := newMat(n)
	for q, coef := range combine {
		for k, w := range coef {
			for i := range n / 2 {
				ci, mi := c.quad(q).row(i), ms[k].row(i)
				for j, v := range mi {
					ci[j] += w * v
				}
			}
		}
	}
	return c
}

func main() {
	n := flag.Int("n", 1536, "matrix size (halving evenly down to the cutoff)")
	flag.Parse()
	for m := *n; m > *cutoff; m /= 2 {
		if m%2 != 0 {
			fmt.Printf("strassen: %d does not halve evenly down to %d\n", *n, *cutoff)
			os.Exit(2)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	a, b := newMat(*n), newMat(*n)
	for i := range a.d {
		a.d[i], b.d[i] = r.Float64(), r.Float64()
	}
	sum := 0.0
	for _, v := range strassen(a, b).d {
		sum += v
	}
	fmt.Printf("strassen(%d): sum %.6f\n", *n, sum)
}
