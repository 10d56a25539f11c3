package a

import (
	"context"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

func tryGo(items []Item) error {
	var g errgroup.Group
	for _, it := range items {
		g.TryGo(func() error { process(it); return nil }) // want `one goroutine per element of items with no bound on how many run at once; each holds per-item memory, so the peak grows with len\(items\): bound the concurrency with g.SetLimit\(n\) before the loop, a semaphore, or a fixed pool of n workers reading from a channel`
	}
	return g.Wait()
}

// Quiet: limited, or a group we cannot see all of.

func limited(ctx context.Context, items []Item) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, it := range items {
		g.Go(func() error { process(it); return ctx.Err() })
	}
	return g.Wait()
}

func limitedLater(items []Item, n int) error {
	var g errgroup.Group
	if n > 0 {
		g.SetLimit(n)
	}
	for _, it := range items {
		g.Go(func() error { process(it); return nil })
	}
	return g.Wait()
}

func param(g *errgroup.Group, items []Item) {
	for _, it := range items {
		g.Go(func() error { process(it); return nil })
	}
}

type pool struct{ g errgroup.Group }

func (p *pool) field(items []Item) {
	for _, it := range items {
		p.g.Go(func() error { process(it); return nil })
	}
}

func configure(g *errgroup.Group) {}

func handedOn(items []Item) error {
	g := new(errgroup.Group)
	configure(g)
	for _, it := range items {
		g.Go(func() error { process(it); return nil })
	}
	return g.Wait()
}

func fromElsewhere(p *pool, items []Item) error {
	g := &p.g
	for _, it := range items {
		g.Go(func() error { process(it); return nil })
	}
	return g.Wait()
}

func xsyncSemaphore(ctx context.Context, items []Item) error {
	sem := semaphore.NewWeighted(4)
	var g errgroup.Group
	for _, it := range items {
		if err := sem.Acquire(ctx, 1); err != nil {
			return err
		}
		g.Go(func() error {
			defer sem.Release(1)
			process(it)
			return nil
		})
	}
	return g.Wait()
}

func xsyncTryAcquire(items []Item) error {
	sem := semaphore.NewWeighted(4)
	var g errgroup.Group
	for _, it := range items {
		for !sem.TryAcquire(1) {
		}
		g.Go(func() error {
			defer sem.Release(1)
			process(it)
			return nil
		})
	}
	return g.Wait()
}
