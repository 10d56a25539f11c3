// Tiles renders an image in Tiles tiles, one errgroup task per tile. A
// task holds a scratch buffer of Scratch bytes while it works and keeps
// a result of Result bytes, which main holds until every tile is done.
//
// Analytic MHWM: p processors run at most min(p, Tiles) tasks at once,
// each with its scratch, and every result may be kept by then:
//
//	MHWM_p = Tiles·Result + min(p, Tiles)·Scratch
//
// With Tiles = 16, Scratch = 2 MiB, Result = 128 KiB: 4 MiB at p = 1,
// 6 MiB at p = 2, 10 MiB at p = 4, 18 MiB at p = 8, 34 MiB from p = 16
// on. The serial run's peak is Tiles·Result + Scratch = 4 MiB.
package main

import (
	"fmt"
	"hash/crc32"

	"golang.org/x/sync/errgroup"
)

const (
	Tiles   = 16
	Scratch = 2 << 20
	Result  = 128 << 10
)

// render computes tile t in a scratch buffer and returns its
// downsampled result.
func render(t int) []byte {
	scratch := make([]byte, Scratch)
	for i := range scratch {
		scratch[i] = byte(i*7 + t*13)
	}
	out := make([]byte, Result)
	for i := range out {
		out[i] = scratch[i*(Scratch/Result)]
	}
	return out
}

// renderAll renders every tile, in parallel.
func renderAll() ([][]byte, error) {
	var g errgroup.Group
	tiles := make([][]byte, Tiles)
	for t := range Tiles {
		g.Go(func() error {
			tiles[t] = render(t)
			return nil
		})
	}
	return tiles, g.Wait()
}

func main() {
	tiles, err := renderAll()
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	h := crc32.NewIEEE()
	for _, tile := range tiles {
		h.Write(tile)
	}
	fmt.Printf("image checksum %08x\n", h.Sum32())
}
