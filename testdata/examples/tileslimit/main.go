// Tileslimit is Tiles with errgroup.SetLimit(Limit): at most Limit tile
// tasks are unfinished at once, whatever the number of processors.
//
// Analytic MHWM:
//
//	MHWM_p = Tiles·Result + min(p, Tiles, Limit)·Scratch
//
// With Tiles = 16, Limit = 3, Scratch = 2 MiB, Result = 128 KiB: 4 MiB
// at p = 1, 6 MiB at p = 2 and 8 MiB from p = 3 on.
package main

import (
	"fmt"
	"hash/crc32"

	"golang.org/x/sync/errgroup"
)

const (
	Tiles   = 16
	Limit   = 3
	Scratch = 2 << 20
	Result  = 128 << 10
)

// shade computes tile t with a scratch buffer and returns its result.
func shade(t int) []byte {
	work := make([]byte, Scratch)
	for i := range work {
		work[i] = byte(i ^ t)
	}
	res := make([]byte, Result)
	copy(res, work[len(work)-Result:])
	return res
}

func main() {
	var g errgroup.Group
	g.SetLimit(Limit)
	out := make([][]byte, Tiles)
	for t := 0; t < Tiles; t++ {
		g.Go(func() error {
			out[t] = shade(t)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		fmt.Println("error:", err)
		return
	}
	var crc uint32
	for _, tile := range out {
		crc = crc32.Update(crc, crc32.IEEETable, tile)
	}
	fmt.Printf("%d tiles, checksum %08x\n", len(out), crc)
}
