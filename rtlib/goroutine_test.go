package rtlib

import (
	"runtime"
	"sync"
	"testing"
)

// allocProfile runs f at MemProfileRate 1 and returns the bytes and
// objects the allocation profile has under a frame of function fn.
func allocProfile(t *testing.T, fn string, f func()) (bytes, objs int64) {
	t.Helper()
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	f()
	runtime.GC() // the profile is published two cycles later
	runtime.GC()
	recs := make([]runtime.MemProfileRecord, 1024)
	for {
		k, ok := runtime.MemProfile(recs, true)
		if ok {
			recs = recs[:k]
			break
		}
		recs = make([]runtime.MemProfileRecord, k+k/2)
	}
	for _, r := range recs {
		frames := runtime.CallersFrames(r.Stack())
		for {
			fr, more := frames.Next()
			if fr.Function == fn {
				bytes += r.AllocBytes
				objs += r.AllocObjects
				break
			}
			if !more {
				break
			}
		}
	}
	return bytes, objs
}

// TestWGGoBytes: wgGoBytes is the closure the running Go's
// sync.WaitGroup.Go allocates for each goroutine (the model charges it
// at every wg.Go, whose instrumented form does not allocate it).
func TestWGGoBytes(t *testing.T) {
	const n = 256
	var wg sync.WaitGroup
	bytes, objs := allocProfile(t, "sync.(*WaitGroup).Go", func() {
		for range n {
			wg.Go(func() {})
		}
		wg.Wait()
	})
	if objs < n {
		t.Fatalf("%d allocations by sync.(*WaitGroup).Go for %d calls: has it changed how it starts goroutines?", objs, n)
	}
	if got := bytes / objs; got != wgGoBytes {
		t.Errorf("sync.(*WaitGroup).Go allocates %d bytes per call, wgGoBytes is %d: update it for %s", got, wgGoBytes, runtime.Version())
	}
}

// TestGoroutineBytes: goroutineBytes is what the running Go allocates
// for a goroutine's descriptor (runtime.malg), read from the allocation
// profile after starting more goroutines at once than the runtime has
// free descriptors for.
func TestGoroutineBytes(t *testing.T) {
	const n = 512
	block := make(chan struct{})
	var wg sync.WaitGroup
	bytes, objs := allocProfile(t, "runtime.malg", func() {
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-block
			}()
		}
		close(block)
		wg.Wait()
	})
	if objs == 0 {
		t.Fatal("no allocation by runtime.malg in the profile: has the runtime changed how it allocates goroutines?")
	}
	if got := bytes / objs; got != goroutineBytes {
		t.Errorf("runtime.malg allocates %d bytes per goroutine (%d objects), goroutineBytes is %d: update it for %s", got, objs, goroutineBytes, runtime.Version())
	}
}
