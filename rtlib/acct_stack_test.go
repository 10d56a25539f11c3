package rtlib

import (
	"runtime"
	"sync"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// stackRoot runs prog as a root and returns its profile entry.
func stackRoot(t *testing.T, prog func()) profile.Root {
	t.Helper()
	inRoot(prog)
	prof.mu.Lock()
	defer prof.mu.Unlock()
	return prof.roots[len(prof.roots)-1].build()
}

// stackDeep recurses n calls deep through a frame of 256 bytes.
//
//go:noinline
func stackDeep(n int) int64 {
	var pad [32]int64
	for i := range pad {
		pad[i] = int64(n + i)
	}
	if n == 0 {
		return pad[7]
	}
	return stackDeep(n-1) + pad[n%32]
}

// TestStacks: goroutines hold their starting stack from the fork to the
// join in the total, not in the heap figures; rtlib's own frames, which
// grow a parked goroutine's stack (a runtime/metrics reading at the baton
// switch), count for nothing; frames of the program that go deep count
// as the size they need, charged in the goroutine's strand.
func TestStacks(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("stack sizes are read where getg is (Linux and macOS on amd64 and arm64)")
	}
	const n = 200
	tests := []struct {
		name  string
		prog  func()
		gor   int64 // goroutines started
		grown int64 // goroutines that must be seen grown (-1: at most 2 % of them)
		extra int64 // the least each grown one must need beyond the start
	}{
		{"parked on a channel", parked(n, func() {}), n, -1, 0},
		// rtlib grows a parked goroutine's stack to 4 KiB; frames of the
		// program that need more than 2 KiB but fit in 4 KiB (the
		// original would have grown) are seen only by the paint.
		{"deeper after a park", parked(n, func() {
			sinkI = stackDeep(6) // 7 frames of at least 256 bytes
		}), n, n, 2048},
		{"deep recursion", func() {
			var wg sync.WaitGroup
			for range 4 {
				Add(sAdd, &wg, 1)
				spawn(func() {
					defer Done(&wg)
					sinkI = stackDeep(600) // 600 · ≥ 256 bytes: at least 256 KiB
				})
			}
			Wait(sWait, &wg)
		}, 4, 4, 128 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "deeper after a park" && !stackPainting {
				t.Skip("no paint under the race detector: growth within rtlib's is not seen")
			}
			r := stackRoot(t, tt.prog)
			st := r.Stacks
			if st == nil {
				t.Fatal("no stacks figures")
			}
			t.Logf("start %d, %d goroutines, %d grown by %d; serial %d (heap %d)", st.StartBytes, st.Goroutines, st.Grown, st.GrownBytes, st.SerialPeak, r.SerialPeak)
			if st.Goroutines != tt.gor || st.StartBytes < 2048 {
				t.Errorf("%d goroutines of %d bytes each, want %d of at least 2 KiB", st.Goroutines, st.StartBytes, tt.gor)
			}
			switch {
			case tt.grown < 0 && st.Grown*50 > st.Goroutines:
				t.Errorf("%d of %d goroutines seen grown, by %d bytes: rtlib's own frames counted", st.Grown, st.Goroutines, st.GrownBytes)
			case tt.grown > 0 && (st.Grown != tt.grown || st.GrownBytes < tt.grown*tt.extra):
				t.Errorf("%d goroutines grown by %d bytes, want %d by at least %d each", st.Grown, st.GrownBytes, tt.grown, tt.extra)
			}
			// At pmax every goroutine's starting stack is in the total at
			// once (none is joined before the Wait), and pmax of them grown
			// as far as they were seen to grow (in a strand that runs); none
			// is in the heap, which the total holds besides.
			pmax := len(r.MHWM)
			tot, _, _, _ := r.TotalAt(pmax)
			heap, _ := r.MHWMAt(pmax)
			grown := st.GrownBytes
			if st.Grown > int64(pmax) {
				grown = grown * int64(pmax) / st.Grown
			}
			if least := st.Goroutines*st.StartBytes + grown; tot < least || tot < heap {
				t.Errorf("total at p = %d: %d, want at least the stacks' %d and the heap's %d", pmax, tot, least, heap)
			}
			if least := st.Goroutines*st.StartBytes + st.GrownBytes; heap >= least {
				t.Errorf("heap at p = %d: %d, as much as the stacks (%d): stacks in the heap figures", pmax, heap, least)
			}
		})
	}
}

// parked returns a program of n goroutines that each park on a channel
// until main sends it a value, then run after.
func parked(n int, after func()) func() {
	return func() {
		ch := make(chan int)
		var wg sync.WaitGroup
		for range n {
			Add(sAdd, &wg, 1)
			spawn(func() {
				defer Done(&wg)
				Recv(sRecv, ch)
				after()
			})
		}
		for i := range n {
			Send(sSend, ch, i)
		}
		Wait(sWait, &wg)
	}
}

var sinkI int64

// TestStacksOff: with SPGO_STACKS=off a root has no stacks figures and
// its heap figures are those it has with them.
func TestStacksOff(t *testing.T) {
	prog := parked(50, func() {})
	on := stackRoot(t, prog)
	cfg.stacks = false
	defer func() { cfg.stacks = true }()
	off := stackRoot(t, prog)
	if on.Stacks == nil || off.Stacks != nil {
		t.Fatalf("stacks figures on: %v, off: %v; want them only on", on.Stacks != nil, off.Stacks != nil)
	}
	for q := 1; q <= len(on.MHWM); q *= 2 {
		a, _ := on.MHWMAt(q)
		b, _ := off.MHWMAt(q)
		if a != b {
			t.Errorf("MHWM_%d = %d with stacks, %d without", q, a, b)
		}
	}
}

// TestStacksNoGoroutines: a root that starts no goroutine has a total
// equal to its heap, figure by figure and interval by interval, and is
// exact when its heap is, with or without paint (the race detector).
func TestStacksNoGoroutines(t *testing.T) {
	r := stackRoot(t, func() { sinkB = make([]byte, 1<<20) })
	st := r.Stacks
	if st == nil || st.Goroutines != 0 {
		t.Fatalf("stacks %+v, want figures of no goroutine", st)
	}
	if st.Exact != r.Exact || st.SerialPeak != r.SerialPeak || st.SerialLow != r.SerialLow || st.SerialHigh != r.SerialHigh {
		t.Errorf("total exact %v, serial %d (%d … %d); heap exact %v, serial %d (%d … %d)",
			st.Exact, st.SerialPeak, st.SerialLow, st.SerialHigh, r.Exact, r.SerialPeak, r.SerialLow, r.SerialHigh)
	}
	for i, pt := range r.MHWM {
		if st.Total[i] != pt {
			t.Errorf("total_%d %+v, heap %+v", pt.P, st.Total[i], pt)
		}
	}
}
