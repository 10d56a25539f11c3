package rtlib

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// stackBoth returns its caller's stack twice, as function:line lists:
// from runtime.Callers, and from callers expanded one return address at
// a time by expandPC, as framesOf does.
//
//go:noinline
func stackBoth() (want, got []string) {
	var buf [64]uintptr
	n := runtime.Callers(2, buf[:])
	frames := runtime.CallersFrames(buf[:n])
	for {
		f, more := frames.Next()
		want = append(want, fmt.Sprintf("%s:%d", f.Function, f.Line))
		if !more {
			break
		}
	}
	n = callers(buf[:])
	for _, pc := range buf[:n] {
		expandPC(pc, func(f runtime.Frame) {
			got = append(got, fmt.Sprintf("%s:%d", f.Function, f.Line))
		})
	}
	return want, got[1:] // got starts with stackBoth itself
}

type stackRecv struct{ depth int }

func (r stackRecv) method() ([]string, []string) { return stackBoth() }

func inlinable() ([]string, []string) { return stackBoth() }

func outer() ([]string, []string)  { return middle() }
func middle() ([]string, []string) { return inner() }
func inner() ([]string, []string)  { return stackBoth() }

func recursive(n int) ([]string, []string) {
	if n == 0 {
		return stackBoth()
	}
	w, g := recursive(n - 1)
	return w, g
}

func generic[T any](T) ([]string, []string) { return stackBoth() }

func deferred() (w, g []string) {
	defer func() { w, g = stackBoth() }()
	return nil, nil
}

func recovered() (w, g []string) {
	defer func() {
		recover()
		w, g = stackBoth()
	}()
	panic("x")
}

// TestCallers: the frame-pointer walk gives the frames runtime.Callers
// gives, inlined calls, closures, methods, generics, deferred calls,
// panics and goroutines included.
func TestCallers(t *testing.T) {
	tests := []struct {
		name string
		f    func() ([]string, []string)
	}{
		{"direct", func() ([]string, []string) { return stackBoth() }},
		{"inlined", inlinable},
		{"inlined chain", func() ([]string, []string) { return outer() }},
		{"method value", stackRecv{}.method},
		{"recursion", func() ([]string, []string) { return recursive(5) }},
		{"generic", func() ([]string, []string) { return generic(1) }},
		{"deferred", deferred},
		{"recovered panic", recovered},
		{"goroutine", func() (w, g []string) {
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); w, g = stackBoth() }()
			wg.Wait()
			return w, g
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, got := tt.f()
			if !slices.Equal(got, want) {
				t.Errorf("frame pointers:\n%q\nruntime.Callers:\n%q", got, want)
			}
		})
	}
}
