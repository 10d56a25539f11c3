package fix

import (
	"context"
	"os"
	"sync"

	"golang.org/x/sync/errgroup"
)

type Item struct{ Name string }

func process(it Item) []byte { return make([]byte, len(it.Name)) }

// Fixed: a local group, children that wait on nothing.

func plain(items []Item) error {
	var g errgroup.Group
	for _, it := range items {
		g.Go(func() error { // want `one goroutine per element of items with no bound on how many run at once; each holds per-item memory, so the peak grows with len\(items\): bound the concurrency with g.SetLimit\(n\) before the loop`
			process(it)
			return nil
		})
	}
	return g.Wait()
}

func withContext(ctx context.Context, names []string) error {
	g, ctx := errgroup.WithContext(ctx) // one group per call
	for _, name := range names {
		g.Go(func() error { // want `one goroutine per element of names`
			_, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			return ctx.Err()
		})
	}
	return g.Wait()
}

func twoLoops(a, b []Item) error {
	g := new(errgroup.Group)
	for _, it := range a {
		g.Go(func() error { process(it); return nil }) // want `one goroutine per element of a`
	}
	for _, it := range b {
		g.Go(func() error { process(it); return nil }) // want `one goroutine per element of b`
	}
	return g.Wait()
}

// Not fixed: a limit could deadlock, change behaviour, or we cannot see.

func channels(items []Item) error {
	var g errgroup.Group
	out := make(chan []byte)
	for _, it := range items {
		g.Go(func() error { out <- process(it); return nil }) // want `one goroutine per element of items`
	}
	go func() {
		for range out {
		}
	}()
	return g.Wait()
}

func mutex(items []Item) error {
	var mu sync.Mutex
	var all [][]byte
	var g errgroup.Group
	for _, it := range items {
		g.Go(func() error { // want `one goroutine per element of items`
			b := process(it)
			mu.Lock()
			defer mu.Unlock()
			all = append(all, b)
			return nil
		})
	}
	return g.Wait()
}

func task(it Item) func() error { return func() error { process(it); return nil } }

func notLiteral(items []Item) error {
	var g errgroup.Group
	for _, it := range items {
		g.Go(task(it)) // want `one goroutine per element of items`
	}
	return g.Wait()
}

func producer(items []Item) error {
	var g errgroup.Group
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, it := range items {
			g.Go(func() error { process(it); return nil }) // want `one goroutine per element of items`
		}
	}()
	<-done
	return g.Wait()
}

var ready = make(chan struct{})

func ensureReady() { <-ready }

func helperWaits(items []Item) error {
	var g errgroup.Group
	for _, it := range items {
		g.Go(func() error { // want `one goroutine per element of items`
			ensureReady()
			process(it)
			return nil
		})
	}
	return g.Wait()
}

func ifInit(items []Item) error {
	if g := new(errgroup.Group); len(items) > 0 {
		for _, it := range items {
			g.Go(func() error { process(it); return nil }) // want `one goroutine per element of items`
		}
		return g.Wait()
	}
	return nil
}

func mixed(items []Item) error {
	var g errgroup.Group
	for _, it := range items {
		g.Go(func() error { process(it); return nil }) // want `one goroutine per element of items`
	}
	for _, it := range items {
		if !g.TryGo(func() error { process(it); return nil }) { // want `one goroutine per element of items`
			process(it)
		}
	}
	return g.Wait()
}
