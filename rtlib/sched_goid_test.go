package rtlib

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"unsafe"
)

// TestGoid checks goid against runtime.Stack's header on many goroutines
// at once, and that the offset in g was learnt where getg exists.
func TestGoid(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				if got, want := goid(), goidSlow(); got != want {
					errs <- fmt.Sprintf("goid %d, runtime.Stack says %d", got, want)
					return
				}
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if getg() != nil && goidOff.Load() == 0 {
		t.Errorf("getg works on %s/%s but no offset of the id was learnt", runtime.GOOS, runtime.GOARCH)
	}
	t.Logf("offset of the id in g: %d", goidOff.Load()-1)
}

// TestGoidNarrow narrows offsets on made-up descriptors: a word that
// holds the id in some goroutines only drops out, one that holds it in
// all stays (and keeps the offset ambiguous).
func TestGoidNarrow(t *testing.T) {
	g := func(id uint64, at ...int) unsafe.Pointer {
		var d [goidScan / 8]uint64
		for i := range d {
			d[i] = 1000 + uint64(i) // no id is >= 1000 here
		}
		for _, off := range at {
			d[off/8] = id
		}
		return unsafe.Pointer(&d)
	}
	bit := func(offs ...int) uint32 {
		var b uint32
		for _, off := range offs {
			b |= 1 << (off / 8)
		}
		return b
	}
	tests := []struct {
		name string
		gs   []unsafe.Pointer
		ids  []uint64
		want uint32
	}{
		{"one goroutine, two words", []unsafe.Pointer{g(1, 152, 40)}, []uint64{1}, bit(40, 152)},
		{"decoy drops out", []unsafe.Pointer{g(1, 152, 40), g(7, 152), g(9, 152, 40)}, []uint64{1, 7, 9}, bit(152)},
		{"decoy in all", []unsafe.Pointer{g(1, 152, 40), g(7, 152, 40)}, []uint64{1, 7}, bit(40, 152)},
		{"nothing fits", []unsafe.Pointer{g(1, 152), g(7, 160)}, []uint64{1, 7}, 0},
	}
	for _, tt := range tests {
		var c uint32
		for i := range tt.gs {
			c = goidNarrow(c, i == 0, tt.gs[i], tt.ids[i])
		}
		if c != tt.want {
			t.Errorf("%s: offsets %032b, want %032b", tt.name, c, tt.want)
		}
	}
}

// BenchmarkGoid measures goid against runtime.Stack's header.
func BenchmarkGoid(b *testing.B) {
	goid() // learn the offset if it is not yet known
	for range goidCertain {
		done := make(chan bool)
		go func() { goid(); done <- true }()
		<-done
	}
	b.Run("goid", func(b *testing.B) {
		for b.Loop() {
			goid()
		}
	})
	b.Run("stack", func(b *testing.B) {
		for b.Loop() {
			goidSlow()
		}
	})
}
