// Tilealign is the tile-alignment case study: an image of T square tiles
// of S×S pixels (side by side, deterministic pseudo-random) is aligned,
// tile by tile, against a reference that is the image shifted by an
// unknown offset per tile plus noise. One errgroup task per tile searches
// every offset in [-R, R]² by brute force (sum of squared differences).
//
// Per task: a scratch buffer of float64s (the zero-mean tile, the
// zero-mean reference window of (S+2R)² pixels and the (2R+1)² score
// surface), Scratch = 8·(S² + (S+2R)² + (2R+1)²) bytes rounded up to the
// allocator's size class, freed when the task ends; and a result it
// keeps, a thumbnail of the aligned window of (S/4)² bytes (Result). main
// keeps every result until all tiles are done, and the image (T·S² bytes)
// and reference ((S+2R)·(T·S+2R) bytes) throughout.
//
// Analytic MHWM: p processors run at most min(p, T) tasks at once, each
// with its scratch, and every result may be kept by then:
//
//	MHWM_p = Image + Ref + T·Result + min(p, T)·Scratch (+ small)
//
// Default (S = 320, T = 48, R = 10): Scratch = 1712 KiB (214 pages),
// Result = 6528 B, Image = 4.69 MiB, Ref = 4.99 MiB: MHWM_1 ≈ 11.7 MiB,
// 1712 KiB more per processor up to MHWM_48 ≈ 90.2 MiB, flat after.
// Small size for tests: -n 64 -tiles 16 (Scratch = 96 KiB, Result =
// 256 B, Image = 64 KiB, Ref = 88 KiB): 156 KiB + min(p, 16)·96 KiB,
// 252 KiB at p = 1 to 1692 KiB from p = 16 on.
package main

import (
	"flag"
	"fmt"
	"hash/crc32"
	"math/rand/v2"

	"golang.org/x/sync/errgroup"
)

const R = 10 // search radius

var (
	S, T  int
	img   []byte // S rows × T·S columns
	ref   []byte // S+2R rows × T·S+2R columns
	truth [][2]int
)

func init() {
	flag.IntVar(&S, "n", 320, "tile side in pixels")
	flag.IntVar(&T, "tiles", 48, "number of tiles")
}

type result struct {
	dx, dy int
	score  float64
	thumb  []byte
}

// align finds the offset of tile t in the reference and returns it with
// a thumbnail of the matching reference window.
func align(t int) result {
	s, w, rw := S, S+2*R, T*S+2*R
	buf := make([]float64, s*s+w*w+(2*R+1)*(2*R+1))
	a, b, score := buf[:s*s], buf[s*s:s*s+w*w], buf[s*s+w*w:]
	var ma, mb float64
	for y := range s {
		for x := range s {
			a[y*s+x] = float64(img[y*(T*s)+t*s+x])
			ma += a[y*s+x]
		}
	}
	for y := range w {
		for x := range w {
			b[y*w+x] = float64(ref[y*rw+t*s+x])
			mb += b[y*w+x]
		}
	}
	ma, mb = ma/float64(s*s), mb/float64(w*w)
	for i := range a {
		a[i] -= ma
	}
	for i := range b {
		b[i] -= mb
	}
	best := 0
	for dy := range 2*R + 1 {
		for dx := range 2*R + 1 {
			var sum float64
			for y := range s {
				row, win := a[y*s:y*s+s], b[(y+dy)*w+dx:(y+dy)*w+dx+s]
				for x, v := range row {
					d := v - win[x]
					sum += d * d
				}
			}
			score[dy*(2*R+1)+dx] = sum
			if sum < score[best] {
				best = dy*(2*R+1) + dx
			}
		}
	}
	dy, dx := best/(2*R+1), best%(2*R+1)
	thumb := make([]byte, (s/4)*(s/4))
	for y := range s / 4 {
		for x := range s / 4 {
			var sum int
			for i := range 4 {
				for j := range 4 {
					sum += int(ref[(4*y+i+dy)*rw+t*s+4*x+j+dx])
				}
			}
			thumb[y*(s/4)+x] = byte(sum / 16)
		}
	}
	return result{dx - R, dy - R, score[best], thumb}
}

// alignAll aligns every tile, in parallel, and keeps every result.
func alignAll() ([]result, error) {
	var g errgroup.Group
	res := make([]result, T)
	for t := range T {
		g.Go(func() error {
			res[t] = align(t)
			return nil
		})
	}
	return res, g.Wait()
}

func main() {
	flag.Parse()
	s, rw := S, T*S+2*R
	rng := rand.New(rand.NewPCG(1, 2))
	ref = make([]byte, (s+2*R)*rw)
	for i := range ref {
		ref[i] = byte(rng.IntN(256))
	}
	img = make([]byte, s*T*s)
	for t := range T {
		dx, dy := rng.IntN(2*R+1), rng.IntN(2*R+1)
		truth = append(truth, [2]int{dx - R, dy - R})
		for y := range s {
			for x := range s {
				v := int(ref[(y+dy)*rw+t*s+x+dx]) + rng.IntN(9) - 4
				img[y*(T*s)+t*s+x] = byte(min(max(v, 0), 255))
			}
		}
	}
	res, err := alignAll()
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	h := crc32.NewIEEE()
	found := 0
	for t, r := range res {
		if truth[t] == [2]int{r.dx, r.dy} {
			found++
		}
		h.Write(r.thumb)
		h.Write(fmt.Appendf(nil, "%d,%d,%.6e;", r.dx, r.dy, r.score))
	}
	fmt.Printf("tilealign S=%d T=%d: %d/%d offsets found, checksum %08x\n", s, T, found, T, h.Sum32())
}
