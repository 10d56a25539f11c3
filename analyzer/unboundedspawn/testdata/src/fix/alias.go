package fix

import (
	"fmt"
	rt "runtime"

	"golang.org/x/sync/errgroup"
)

func alias(items []Item) error {
	fmt.Println(rt.NumCPU())
	var g errgroup.Group
	for _, it := range items {
		g.Go(func() error { process(it); return nil }) // want `one goroutine per element of items`
	}
	return g.Wait()
}
