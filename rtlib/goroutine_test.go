package rtlib

import (
	"runtime"
	"sync"
	"testing"
)

// TestGoroutineBytes: goroutineBytes is what the running Go allocates
// for a goroutine's descriptor (runtime.malg), read from the allocation
// profile after starting more goroutines at once than the runtime has
// free descriptors for.
func TestGoroutineBytes(t *testing.T) {
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	const n = 512
	block := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-block
		}()
	}
	close(block)
	wg.Wait()
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
	var bytes, objs int64
	for _, r := range recs {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if f.Function == "runtime.malg" {
				bytes += r.AllocBytes
				objs += r.AllocObjects
				break
			}
			if !more {
				break
			}
		}
	}
	if objs == 0 {
		t.Fatal("no allocation by runtime.malg in the profile: has the runtime changed how it allocates goroutines?")
	}
	if got := bytes / objs; got != goroutineBytes {
		t.Errorf("runtime.malg allocates %d bytes per goroutine (%d objects), goroutineBytes is %d: update it for %s", got, objs, goroutineBytes, runtime.Version())
	}
}
