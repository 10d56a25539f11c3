package fix

import "golang.org/x/sync/errgroup"

func single(items []Item) error {
	var g errgroup.Group
	for _, it := range items {
		g.Go(func() error { process(it); return nil }) // want `one goroutine per element of items`
	}
	return g.Wait()
}
