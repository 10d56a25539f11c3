// errgroup: Go, TryGo, SetLimit, Wait, WithContext.
package main

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
)

func main() {
	g, ctx := errgroup.WithContext(context.Background())
	g.SetLimit(2)
	res := make([]int, 8)
	for i := range res {
		g.Go(func() error {
			buf := make([]byte, 1<<16)
			res[i] = len(buf) + i
			return ctx.Err()
		})
	}
	if !g.TryGo(func() error { return nil }) {
		fmt.Println("full")
	}
	if err := g.Wait(); err != nil {
		fmt.Println(err)
	}
	var h errgroup.Group
	h.Go(func() error { return fmt.Errorf("boom") })
	fmt.Println(h.Wait(), res[7])
}
