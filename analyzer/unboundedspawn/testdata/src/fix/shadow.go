package fix

import "golang.org/x/sync/errgroup"

func shadow(items []Item) error {
	runtime := len(items)
	_ = runtime
	var g errgroup.Group
	for _, it := range items {
		g.Go(func() error { process(it); return nil }) // want `one goroutine per element of items`
	}
	return g.Wait()
}
