package mhwm

import (
	"runtime"
	"testing"
)

// The engine benchmarks feed synthetic programs straight into an Engine (no
// test program in memory) and report strands/s and the engine's heap.
//
//	go test ./rtlib/mhwm -run '^$' -bench Engine -benchtime 3x

// balanced runs a binary fork-join tree with 2^d leaves; each leaf allocates
// and frees, the inner strands allocate before the spawn and free after the
// sync.
func balanced(e *Engine, d int) {
	if d == 0 {
		e.Alloc(1, 64)
		e.Free(1, 64)
		return
	}
	e.Alloc(2, 16)
	e.Spawn()
	balanced(e, d-1)
	e.Return()
	e.Call()
	balanced(e, d-1)
	e.CallReturn()
	e.Sync()
	e.Free(2, 16)
}

// flat runs n spawns under one sync, each child holding 8 bytes until the
// parent frees them after the sync.
func flat(e *Engine, n int) {
	for i := 0; i < n; i++ {
		e.Spawn()
		e.Alloc(1, 8)
		e.Return()
	}
	e.Sync()
	e.Free(1, int64(8*n))
}

// chain runs a call chain of depth d, each level spawning one child and
// calling the next level, repeated reps times.
func chain(e *Engine, d, reps int) {
	for r := 0; r < reps; r++ {
		var rec func(k int)
		rec = func(k int) {
			if k == 0 {
				return
			}
			e.Alloc(3, 32)
			e.Spawn()
			e.Alloc(1, 8)
			e.Free(1, 8)
			e.Return()
			e.Call()
			rec(k - 1)
			e.CallReturn()
			e.Sync()
			e.Free(3, 32)
		}
		rec(d)
	}
}

type shape struct {
	name string
	run  func(e *Engine)
}

var shapes = []shape{
	{"balanced-2^20", func(e *Engine) { balanced(e, 20) }},
	{"flat-10^5x10", func(e *Engine) {
		for i := 0; i < 10; i++ {
			flat(e, 100000)
		}
	}},
	{"chain-d25", func(e *Engine) { chain(e, 25, 20000) }},
}

func benchEngine(b *testing.B, cfg Config) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			var strands int64
			var heap uint64
			for i := 0; i < b.N; i++ {
				e, err := New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				sh.run(e)
				if i == 0 {
					heap = liveHeap()
				}
				res, err := e.Exit()
				if err != nil {
					b.Fatal(err)
				}
				strands = res.Strands
			}
			b.ReportMetric(float64(strands)*float64(b.N)/b.Elapsed().Seconds(), "strands/s")
			b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
		})
	}
}

// liveHeap returns the live heap after a collection: with the engine still
// reachable, it bounds the engine's memory (the test binary's own is small).
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func BenchmarkEngineExact(b *testing.B) {
	for _, p := range []int{1, 8, 64, 128} {
		b.Run("p="+itoa(p), func(b *testing.B) { benchEngine(b, Config{P: p}) })
	}
}

func BenchmarkEngineThreshold(b *testing.B) {
	for _, p := range []int{1, 8, 64, 128} {
		b.Run("p="+itoa(p), func(b *testing.B) { benchEngine(b, Config{P: p, Threshold: 1 << 20}) })
	}
}

func BenchmarkEngineAttribution(b *testing.B) {
	b.Run("p=8", func(b *testing.B) { benchEngine(b, Config{P: 8, Attribution: true}) })
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
