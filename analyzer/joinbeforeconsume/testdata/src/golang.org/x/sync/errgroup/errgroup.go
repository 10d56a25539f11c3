// Package errgroup is a test stand-in for golang.org/x/sync/errgroup.
package errgroup

import "context"

// Group is a stand-in for errgroup.Group.
type Group struct{ err error }

// WithContext returns a new Group and ctx.
func WithContext(ctx context.Context) (*Group, context.Context) { return new(Group), ctx }

// Go runs f (here, synchronously).
func (g *Group) Go(f func() error) {
	if err := f(); err != nil && g.err == nil {
		g.err = err
	}
}

// TryGo runs f and reports true.
func (g *Group) TryGo(f func() error) bool { g.Go(f); return true }

// Wait returns the first error.
func (g *Group) Wait() error { return g.err }

// SetLimit does nothing.
func (g *Group) SetLimit(n int) {}
