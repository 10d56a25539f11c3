// External: an errgroup of N tasks; each makes a head of H bytes (an
// instrumented allocation site) and then a body of B bytes with
// bytes.Repeat (uninstrumented code: the standard library), and keeps
// both after the join. MHWM_p = N·(H + B) for every p; the serial peak is
// the same. Per line: N·B bytes allocated at the bytes.Repeat call (the
// line marked "external"), N·H at the make (marked "hooked"), whose line
// must not be charged the bodies.
package main

import (
	"bytes"
	"fmt"

	"golang.org/x/sync/errgroup"
)

const (
	N = 8
	H = 64 << 10
	B = 1 << 20
)

type item struct{ head, body []byte }

func main() {
	var g errgroup.Group
	items := make([]item, N)
	for i := range N {
		g.Go(func() error {
			head := make([]byte, H) // hooked
			head[0] = byte(i + 1)
			body := bytes.Repeat(head[:1], B) // external
			items[i] = item{head, body}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		panic(err)
	}
	sum := 0
	for _, it := range items {
		sum += int(it.head[0]) + int(it.body[B-1]) + len(it.body)
	}
	fmt.Println(sum)
}
