// Package semaphore is a test stand-in with the API of golang.org/x/sync/semaphore.
package semaphore

import "context"

// Weighted is a stand-in for semaphore.Weighted.
type Weighted struct{ n int64 }

// NewWeighted returns a semaphore of size n.
func NewWeighted(n int64) *Weighted { return &Weighted{n: n} }

// Acquire takes n.
func (s *Weighted) Acquire(ctx context.Context, n int64) error { s.n -= n; return nil }

// TryAcquire takes n if it can.
func (s *Weighted) TryAcquire(n int64) bool { s.n -= n; return true }

// Release gives back n.
func (s *Weighted) Release(n int64) { s.n += n }
