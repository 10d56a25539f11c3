package rtlib

import "sync"

// Add is sync.WaitGroup.Add.
func Add(site Site, wg *sync.WaitGroup, delta int) { wg.Add(delta) }

// Done is sync.WaitGroup.Done; it ties the calling goroutine to wg.
func Done(wg *sync.WaitGroup) { wg.Done() }

// Wait is sync.WaitGroup.Wait: a join, and a blocking operation.
func Wait(site Site, wg *sync.WaitGroup) { wg.Wait() }

// WGGo is sync.WaitGroup.Go (Go 1.25), implemented here so that it works
// with older toolchains too: Add(1), then f in a new goroutine that calls
// Done when f returns.
func WGGo(site Site, wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	t := Fork(site)
	go func() {
		defer wg.Done()
		defer t.Finish()
		t.Start()
		f()
		t.Return()
	}()
	t.Resume()
}

// Group is the method set of *errgroup.Group that spgo uses; rtlib is
// standard-library-only and cannot name the type.
type Group interface {
	Go(f func() error)
	TryGo(f func() error) bool
	Wait() error
	SetLimit(n int)
}

// GroupGo is errgroup.Group.Go. Under SetLimit, Go blocks while the group
// is full: GroupGo tries TryGo first and gives up the baton only when the
// group is full.
func GroupGo(site Site, g Group, f func() error) {
	t := Fork(site)
	g.Go(func() error {
		defer t.Finish()
		t.Start()
		err := f()
		t.Return()
		return err
	})
	t.Resume()
}

// GroupTryGo is errgroup.Group.TryGo.
func GroupTryGo(site Site, g Group, f func() error) bool {
	t := Fork(site)
	ok := g.TryGo(func() error {
		defer t.Finish()
		t.Start()
		err := f()
		t.Return()
		return err
	})
	if ok {
		t.Resume()
	}
	return ok
}

// GroupWait is errgroup.Group.Wait: a join, and a blocking operation.
func GroupWait(site Site, g Group) error { return g.Wait() }

// GroupSetLimit is errgroup.Group.SetLimit.
func GroupSetLimit(site Site, g Group, n int) { g.SetLimit(n) }
