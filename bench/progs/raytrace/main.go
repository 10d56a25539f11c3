// Raytrace renders a fixed scene of reflective spheres over a ground
// sphere, lit by one point light with hard shadows, into an n×(3n/4)
// RGB image with ss×ss samples per pixel on a fixed sub-pixel grid, and
// prints the CRC-32 of the image's bytes.
//
// One sync.WaitGroup task per band of -cutoff rows. A task allocates a
// band buffer of colors (24 bytes a pixel) and a small slice for the
// bounces along a ray's path (-depth+1 entries of 40 bytes, reused for
// each of its rays), traces its pixels into the band, then filters it
// horizontally (1-2-1) and gamma-corrects it into the shared image
// (3 bytes a pixel, disjoint per task).
//
// Analytic MHWM, approximately: the image lives throughout, and p
// processors run at most min(p, bands) tasks, each with its band buffer
// and path slice:
//
//	MHWM_p ≈ 3·n·(3n/4) + min(p, bands)·24·n·cutoff (+ small)
//
// Default n = 1024, ss = 4, cutoff = 8 (96 tasks, 192 KiB bands):
// 2.25 MiB + min(p, 96)·192 KiB. Small size for tests: -n 256 -ss 1
// (24 tasks, 48 KiB bands): 144 KiB + min(p, 24)·48 KiB.
package main

import (
	"flag"
	"fmt"
	"hash/crc32"
	"math"
	"sync"
)

var (
	n      = flag.Int("n", 1024, "image width (height is 3n/4)")
	ss     = flag.Int("ss", 4, "samples per pixel side")
	cutoff = flag.Int("cutoff", 8, "rows per task")
	depth  = flag.Int("depth", 5, "most reflections per ray")
)

type vec struct{ x, y, z float64 }

func (a vec) add(b vec) vec             { return vec{a.x + b.x, a.y + b.y, a.z + b.z} }
func (a vec) sub(b vec) vec             { return vec{a.x - b.x, a.y - b.y, a.z - b.z} }
func (a vec) mul(s float64) vec         { return vec{a.x * s, a.y * s, a.z * s} }
func (a vec) dot(b vec) float64         { return a.x*b.x + a.y*b.y + a.z*b.z }
func (a vec) norm() vec                 { return a.mul(1 / math.Sqrt(a.dot(a))) }
func (a vec) times(b vec) vec           { return vec{a.x * b.x, a.y * b.y, a.z * b.z} }
func (a vec) reflect(n vec) vec         { return a.sub(n.mul(2 * a.dot(n))) }
func gamma(c float64) byte              { return byte(255 * math.Pow(min(max(c, 0), 1), 1/2.2)) }
func (a vec) lerp(b vec, t float64) vec { return a.mul(1 - t).add(b.mul(t)) }

type sphere struct {
	c    vec
	r    float64
	col  vec
	refl float64
}

var (
	scene = []sphere{
		{vec{0, -1000, 0}, 999, vec{0.6, 0.6, 0.5}, 0.1},
		{vec{0, 0, 5}, 1, vec{0.9, 0.2, 0.2}, 0.5},
		{vec{-2.2, -0.3, 6}, 0.7, vec{0.2, 0.9, 0.3}, 0.3},
		{vec{2.1, -0.2, 4.5}, 0.8, vec{0.2, 0.3, 0.9}, 0.6},
		{vec{-0.8, -0.7, 3.2}, 0.3, vec{0.9, 0.9, 0.2}, 0},
		{vec{1, 1.5, 8}, 1.2, vec{0.8, 0.8, 0.8}, 0.9},
		{vec{-3, 1, 9}, 1.5, vec{0.7, 0.3, 0.8}, 0.4},
	}
	light = vec{-5, 8, -2}
)

// hit returns the nearest sphere o+t·d meets, if any, and t.
func hit(o, d vec) (*sphere, float64) {
	var best *sphere
	bt := math.Inf(1)
	for i := range scene {
		s := &scene[i]
		oc := o.sub(s.c)
		b, c := oc.dot(d), oc.dot(oc)-s.r*s.r
		if disc := b*b - c; disc > 0 {
			if t := -b - math.Sqrt(disc); t > 1e-6 && t < bt {
				best, bt = s, t
			}
		}
	}
	return best, bt
}

type bounce struct {
	col         vec
	light, refl float64
}

// trace follows the ray o+t·d through up to -depth reflections,
// recording them in path (empty, with room for -depth+1), and returns
// its color.
func trace(path []bounce, o, d vec) vec {
	for len(path) <= *depth {
		s, t := hit(o, d)
		if s == nil {
			path = append(path, bounce{vec{0.5, 0.7, 1}.lerp(vec{1, 1, 1}, 1-d.y), 1, 0})
			break
		}
		p := o.add(d.mul(t))
		nrm := p.sub(s.c).mul(1 / s.r)
		l := light.sub(p).norm()
		diff := max(nrm.dot(l), 0)
		if sh, _ := hit(p, l); sh != nil {
			diff *= 0.2
		}
		path = append(path, bounce{s.col, 0.1 + 0.9*diff, s.refl})
		if s.refl == 0 {
			break
		}
		o, d = p, d.reflect(nrm)
	}
	var c vec
	for i := len(path) - 1; i >= 0; i-- {
		b := path[i]
		c = b.col.mul(b.light * (1 - b.refl)).add(c.times(b.col).mul(b.refl))
	}
	return c
}

// renderRows renders rows [y0, y1) of the w×h image into img.
func renderRows(img []byte, w, h, y0, y1 int) {
	band := make([]vec, w*(y1-y0))
	k := *ss
	path := make([]bounce, 0, *depth+1)
	for y := y0; y < y1; y++ {
		for x := range w {
			var c vec
			for i := range k * k {
				px := (float64(x)+(float64(i%k)+0.5)/float64(k))/float64(w) - 0.5
				py := (float64(h)/2 - float64(y) - (float64(i/k)+0.5)/float64(k)) / float64(w)
				c = c.add(trace(path[:0], vec{0, 0.2, 0}, vec{px, py, 1}.norm()))
			}
			band[(y-y0)*w+x] = c.mul(1 / float64(k*k))
		}
	}
	for y := y0; y < y1; y++ {
		row := band[(y-y0)*w : (y-y0+1)*w]
		for x := range w {
			c := row[x].mul(2).add(row[max(x-1, 0)]).add(row[min(x+1, w-1)]).mul(0.25)
			img[3*(y*w+x)], img[3*(y*w+x)+1], img[3*(y*w+x)+2] = gamma(c.x), gamma(c.y), gamma(c.z)
		}
	}
}

func main() {
	flag.Parse()
	if *n < 4 || *ss < 1 || *cutoff < 1 || *depth < 0 {
		fmt.Println("need -n ≥ 4, -ss ≥ 1, -cutoff ≥ 1, -depth ≥ 0")
		return
	}
	w, h := *n, 3**n/4
	img := make([]byte, 3*w*h)
	var wg sync.WaitGroup
	for y := 0; y < h; y += *cutoff {
		wg.Go(func() { renderRows(img, w, h, y, min(y+*cutoff, h)) })
	}
	wg.Wait()
	fmt.Printf("raytrace %dx%d ss=%d: checksum %08x\n", w, h, *ss, crc32.ChecksumIEEE(img))
}
