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
func balanced(e *Engine, d int, probe func()) {
	if d == 0 {
		if probe != nil {
			probe()
		}
		e.Alloc(1, 64)
		e.Free(1, 64)
		return
	}
	e.Alloc(2, 16)
	e.Spawn()
	balanced(e, d-1, probe)
	e.Return()
	e.Call()
	balanced(e, d-1, probe)
	e.CallReturn()
	e.Sync()
	e.Free(2, 16)
}

// flat runs n spawns under one sync, each child holding 8 bytes until the
// parent frees them after the sync.
func flat(e *Engine, n int, probe func()) {
	for i := 0; i < n; i++ {
		e.Spawn()
		e.Alloc(1, 8)
		e.Return()
	}
	if probe != nil {
		probe()
	}
	e.Sync()
	e.Free(1, int64(8*n))
}

// chain runs a call chain of depth d, each level spawning one child and
// calling the next level, repeated reps times.
func chain(e *Engine, d, reps int, probe func()) {
	for r := 0; r < reps; r++ {
		var rec func(k int)
		rec = func(k int) {
			if k == 0 {
				if probe != nil && r == 0 {
					probe()
				}
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

// shape is a synthetic program; it calls probe at its deepest points (every
// leaf of the tree, the end of the flat loop, the bottom of the chain).
type shape struct {
	name string
	run  func(e *Engine, probe func())
}

var shapes = []shape{
	{"balanced-2^20", func(e *Engine, probe func()) { balanced(e, 20, probe) }},
	{"flat-10^5x10", func(e *Engine, probe func()) {
		for i := 0; i < 10; i++ {
			flat(e, 100000, probe)
			probe = nil
		}
	}},
	{"chain-d25", func(e *Engine, probe func()) { chain(e, 25, 20000, probe) }},
}

// heapProbe returns a probe that samples the live heap growth over the heap
// now at every 4096th call (and the first), keeping the maximum in *peak.
func heapProbe(peak *uint64) func() {
	base := liveHeap()
	calls := 0
	return func() {
		if calls%4096 == 0 {
			if h := liveHeap(); h > base {
				*peak = max(*peak, h-base)
			}
		}
		calls++
	}
}

func benchEngine(b *testing.B, cfg Config) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) { measure(b, cfg, sh.run) })
	}
}

// measure reports strands/s over b.N timed runs of prog, and the engine's
// heap from one extra untimed run whose probes sample it (their collections
// would distort the timing).
func measure(b *testing.B, cfg Config, prog func(e *Engine, probe func())) {
	runOnce := func(probe func()) int64 {
		e, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		prog(e, probe)
		res, err := e.Exit()
		if err != nil {
			b.Fatal(err)
		}
		return res.Strands
	}
	var heap uint64
	runOnce(heapProbe(&heap))
	b.ResetTimer()
	var strands int64
	for i := 0; i < b.N; i++ {
		strands = runOnce(func() {})
	}
	b.ReportMetric(float64(strands)*float64(b.N)/b.Elapsed().Seconds(), "strands/s")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
}

// liveHeap returns the live heap after a collection. The benchmarks report
// the largest growth over the heap just after New that the probes saw: the
// engine's state, O(p·D) (plus the trace with Attribution).
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

// BenchmarkEngineHeap10M runs a balanced tree of 2^23 leaves (≈ 1.7·10^7
// strands, depth 23) at p = 128 and reports the engine's heap at the deepest
// point; the target is under 64 MiB.
func BenchmarkEngineHeap10M(b *testing.B) {
	for _, cfg := range []Config{{P: 128}, {P: 128, Threshold: 1 << 20}} {
		name := "exact"
		if cfg.Threshold > 0 {
			name = "threshold"
		}
		b.Run(name, func(b *testing.B) {
			measure(b, cfg, func(e *Engine, probe func()) { balanced(e, 23, probe) })
		})
	}
}

// BenchmarkTraceSize reports the attribution trace's heap at the end of each
// shape (p = 8), where it is largest.
func BenchmarkTraceSize(b *testing.B) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			var heap uint64
			for i := 0; i < b.N; i++ {
				e, _ := New(Config{P: 8, Attribution: true})
				base := liveHeap()
				sh.run(e, func() {})
				if h := liveHeap(); h > base {
					heap = h - base
				}
				if _, err := e.Exit(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(heap)/(1<<20), "trace-MiB")
		})
	}
}

// BenchmarkEngineLimited runs 10 × 10^4 spawns under one sync each, with an
// errgroup limit on every block: limited blocks cost O(p·L) per spawn.
func BenchmarkEngineLimited(b *testing.B) {
	for _, p := range []int{8, 64, 128} {
		for _, limit := range []int{4, 64} {
			b.Run("p="+itoa(p)+"/L="+itoa(limit), func(b *testing.B) {
				var strands int64
				for i := 0; i < b.N; i++ {
					e, _ := New(Config{P: p})
					for r := 0; r < 10; r++ {
						e.SetLimit(limit)
						flat(e, 10000, nil)
					}
					res, err := e.Exit()
					if err != nil {
						b.Fatal(err)
					}
					strands = res.Strands
				}
				b.ReportMetric(float64(strands)*float64(b.N)/b.Elapsed().Seconds(), "strands/s")
			})
		}
	}
}

// holding runs a balanced tree of depth d whose every level holds 100
// bytes at its own site across its children (suspended and completed
// components with bytes everywhere: the backtrack's worst case) and whose
// leaves use 1,000 bytes of scratch.
func holding(e *Engine, d int) {
	e.Alloc(Site(d), 100)
	if d == 0 {
		e.Alloc(99, 1000)
		e.Free(99, 1000)
		return
	}
	e.Spawn()
	holding(e, d-1)
	e.Return()
	holding(e, d-1)
	e.Sync()
	e.Free(Site(d), 100)
}

// BenchmarkAttribute measures what a profile's per-line table costs after
// a run: one backtrack per attributed q (the tree is rebuilt once, before
// the timer), and the serial heap series. holding(16) at p = 128, where
// MHWM_q changes at every q.
func BenchmarkAttribute(b *testing.B) {
	e, _ := New(Config{P: 128, Attribution: true, Clock: func() int64 { return 0 }})
	holding(e, 16)
	res, err := e.Exit()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := res.Attribute(1); err != nil { // the replay, once
		b.Fatal(err)
	}
	b.Run("one-q", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := res.Attribute(1 + i%128); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(res.Strands), "strands")
	})
	b.Run("heap-series", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			res.SerialHeap(400)
		}
	})
}
