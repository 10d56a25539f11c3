package rtlib

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestThreadState(t *testing.T) {
	for in, want := range map[string]byte{
		"12 (go) R 1 2":          'R',
		"13 (a) b) S 1":          'S',
		"14 (weird (name)) D 0 ": 'D',
		"garbage":                0,
	} {
		if got := threadState([]byte(in)); got != want {
			t.Errorf("threadState(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOthersRunnable: a goroutine spinning on another thread is seen.
func TestOthersRunnable(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two threads running at once")
	}
	var stop atomic.Bool
	go func() {
		for !stop.Load() {
		}
	}()
	defer stop.Store(true)
	deadline := time.Now().Add(2 * time.Second)
	for !othersRunnable() {
		if time.Now().After(deadline) {
			t.Fatal("a spinning thread was never seen runnable")
		}
		time.Sleep(time.Millisecond)
	}
}
