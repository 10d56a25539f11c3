package rtlib

import (
	"sync"
	"time"
)

// Lock is sync.Mutex.Lock.
func Lock(site Site, mu *sync.Mutex) { mu.Lock() }

// Unlock is sync.Mutex.Unlock.
func Unlock(mu *sync.Mutex) { mu.Unlock() }

// RWLock is sync.RWMutex.Lock.
func RWLock(site Site, mu *sync.RWMutex) { mu.Lock() }

// RWUnlock is sync.RWMutex.Unlock.
func RWUnlock(mu *sync.RWMutex) { mu.Unlock() }

// RLock is sync.RWMutex.RLock.
func RLock(site Site, mu *sync.RWMutex) { mu.RLock() }

// RUnlock is sync.RWMutex.RUnlock.
func RUnlock(mu *sync.RWMutex) { mu.RUnlock() }

// CondWait is sync.Cond.Wait.
func CondWait(site Site, c *sync.Cond) { c.Wait() }

// Signal is sync.Cond.Signal.
func Signal(c *sync.Cond) { c.Signal() }

// Broadcast is sync.Cond.Broadcast.
func Broadcast(c *sync.Cond) { c.Broadcast() }

// Sleep is time.Sleep.
func Sleep(site Site, d time.Duration) { time.Sleep(d) }

// Token is a released baton, to be taken back with Reacquire.
type Token struct{ site Site }

// Release gives up the baton before a library call that blocks while
// other instrumented goroutines run (testing.T.Run and friends). The
// rewriter turns x.Run(args) into
//
//	rtlib.Reacquire(rtlib.Release(site), x.Run(args))
//
// so that the call runs between the two.
func Release(site Site) Token { return Token{site} }

// Reacquire takes the baton back and returns v.
func Reacquire[T any](t Token, v T) T { return v }

// Reacquired takes the baton back after a call without results.
func Reacquired(t Token) {}
