package mhwm

import (
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func alloc(n int64, site Site) op { return op{kind: opAlloc, n: n, site: site} }
func free(n int64, site Site) op  { return op{kind: opFree, n: n, site: site} }
func spawn(body ...op) op         { return op{kind: opSpawn, body: body} }
func call(body ...op) op          { return op{kind: opCall, body: body} }

var syncOp = op{kind: opSync}

// explode is MemoryExplosion (docs/algorithms.md, "Worked examples"): ME(n) = spawn ME(n−1); x = alloc 1; sync; free x.
func explode(n int, freeBeforeSync bool) []op {
	if n == 0 {
		return nil
	}
	if freeBeforeSync {
		return []op{spawn(explode(n-1, true)...), alloc(1, 1), free(1, 1), syncOp}
	}
	return []op{spawn(explode(n-1, false)...), alloc(1, 1), syncOp, free(1, 1)}
}

// TestWorkedExamples is every worked example of docs/algorithms.md as a table test:
// MHWM_q for q = 1..len(want), checked on the Engine, ExactOff and oracle A.
func TestWorkedExamples(t *testing.T) {
	g := []op{alloc(10, 2), free(10, 2)}
	keep := []op{alloc(10, 2)}
	tests := []struct {
		name string
		prog []op
		want []int64
	}{
		{"7a MemoryExplosion n=4", explode(4, false), []int64{4, 4, 4, 4, 4}},
		{"7a' free before sync", explode(4, true), []int64{1, 2, 3, 4, 4}},
		{"7b two children free", []op{alloc(5, 1), spawn(g...), spawn(g...), syncOp, free(5, 1)}, []int64{15, 25, 25, 25}},
		{"7b2 children keep", []op{alloc(5, 1), spawn(keep...), spawn(keep...), syncOp, free(25, 1)}, []int64{25, 25, 25}},
		{"7b3 three children", []op{alloc(5, 1), spawn(g...), spawn(g...), spawn(g...), syncOp, free(5, 1)}, []int64{15, 25, 35, 35}},
		{"6 unrestricted example", []op{spawn(alloc(5, 1), free(5, 1)), call(alloc(10, 2), spawn(), syncOp, free(10, 2)), syncOp}, []int64{10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := len(tc.want)
			e, _ := New(Config{P: p})
			res, err := run(e, tc.prog)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.MHWM[1:]; !slices.Equal(got, tc.want) {
				t.Errorf("Engine MHWM_1..%d = %v, want %v", p, got, tc.want)
			}
			root, leaves := binary(buildTree(tc.prog))
			if got := prefixMax(oracleA(root, leaves, p), p)[1:]; !slices.Equal(got, tc.want) {
				t.Errorf("oracle A = %v, want %v", got, tc.want)
			}
			if got := prefixMax(evalOff(root, p, true).R, p)[1:]; !slices.Equal(got, tc.want) {
				t.Errorf("ExactOff = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestMemoryExplosionSerialPeak: the child-first run peaks at 1 byte while
// MHWM_1 = n (docs/algorithms.md, "Busy leaves").
func TestMemoryExplosionSerialPeak(t *testing.T) {
	e, _ := New(Config{P: 2})
	res, err := run(e, explode(6, false))
	if err != nil {
		t.Fatal(err)
	}
	if res.SerialPeak != 1 || res.MHWM[1] != 6 {
		t.Fatalf("serial peak %d, MHWM_1 %d; want 1, 6", res.SerialPeak, res.MHWM[1])
	}
}

// TestThresholdTable is the threshold example of docs/algorithms.md, "Worked examples".
func TestThresholdTable(t *testing.T) {
	g := []op{alloc(10, 2), free(10, 2)}
	prog := []op{alloc(5, 1), spawn(g...), spawn(g...), spawn(g...), syncOp, free(5, 1)}
	for _, tc := range []struct {
		p     int
		m     int64
		value int64
		half  bool
	}{
		{2, 36, 35, true}, {2, 40, 15, false}, {3, 54, 35, true},
		{3, 60, 15, false}, {1, 20, 15, true}, {1, 40, 0, false},
	} {
		e, _ := New(Config{P: tc.p, Threshold: tc.m})
		res, err := run(e, prog)
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Threshold; r.Value != tc.value || r.AtLeastHalf != tc.half {
			t.Errorf("p=%d M=%d: R' = %d answer %v, want %d %v", tc.p, tc.m, r.Value, r.AtLeastHalf, tc.value, tc.half)
		}
	}
}

// TestAttributionExample checks the split of example (b2) for q = 1: A2 at
// its peak (running 10), A1 finished and suspended (10), the parent's 5.
func TestAttributionExample(t *testing.T) {
	prog := []op{alloc(5, 1), spawn(alloc(10, 2)), spawn(alloc(10, 3)), syncOp, free(5, 1), free(10, 2), free(10, 3)}
	// Ties go to the fewest strands, then left first: A1 (site 2) is the
	// suspended companion and A2 (site 3) runs at its peak.
	res := checkAttribution(t, prog, 3, 1, 25, 1, []SiteShare{{Site: 1, Completed: 5}, {Site: 2, Suspended: 10}, {Site: 3, Running: 10}})
	d, err := res.Diff(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 0 || res.MHWM[2] != 25 {
		t.Fatalf("diff 1→2 = %v (MHWM_2 %d)", d, res.MHWM[2])
	}
}

// TestAttributionSumsExactly: for random programs, with and without errgroup
// limits, and every q, the per-site map sums to MHWM_q, the antichain has the
// fewest strands that reach it, and the differential maps sum to the MHWM
// differences.
func TestAttributionSumsExactly(t *testing.T) {
	t.Run("unlimited", func(t *testing.T) { attributionSums(t, smallConfig, 7e5) })
	t.Run("limited", func(t *testing.T) { attributionSums(t, limitCfg, 5e6) })
}

func attributionSums(t *testing.T, config func(int) genConfig, seed int64) {
	for i := 0; i < programs(2000); i++ {
		cfg := config(i)
		cfg.maxSpawns = 10
		prog := genProgram(rand.New(rand.NewSource(seed+int64(i))), cfg)
		p := 1 + i%6
		e, _ := New(Config{P: p, Attribution: true})
		res, err := run(e, prog)
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := New(Config{P: p})
		want, err := run(plain, prog)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.MHWM, want.MHWM) {
			t.Fatalf("program %d: attribution changed MHWM: %v vs %v", i, res.MHWM, want.MHWM)
		}
		for q := 0; q <= p; q++ {
			a, err := res.Attribute(q)
			if err != nil {
				t.Fatalf("program %d q=%d: %v\n%s", i, q, err, bodyString(prog))
			}
			var sum int64
			for _, s := range a.Sites {
				sum += s.Total()
			}
			if a.MHWM != res.MHWM[q] || sum != a.MHWM {
				t.Fatalf("program %d q=%d: MHWM %d, attribution %d, sum %d\n%s", i, q, res.MHWM[q], a.MHWM, sum, bodyString(prog))
			}
			if len(a.Antichain) > q || (q > 0 && len(a.Antichain) > 0 && res.MHWM[len(a.Antichain)-1] == a.MHWM) {
				t.Fatalf("program %d q=%d: antichain %v is not the smallest", i, q, a.Antichain)
			}
			if q > 0 {
				d, err := res.Diff(q-1, q)
				if err != nil {
					t.Fatal(err)
				}
				var ds int64
				for _, x := range d {
					ds += x.Delta
				}
				if ds != res.MHWM[q]-res.MHWM[q-1] {
					t.Fatalf("program %d: diff %d→%d sums to %d, want %d", i, q-1, q, ds, res.MHWM[q]-res.MHWM[q-1])
				}
			}
		}
	}
}

// TestInvalidEvents: events that do not fit the stream return an error
// naming the event, and the engine stays usable.
func TestInvalidEvents(t *testing.T) {
	tests := []struct {
		name  string
		do    func(e *Engine) error
		event string
	}{
		{"sync without spawn", func(e *Engine) error { return e.Sync() }, "sync"},
		{"return without spawn", func(e *Engine) error { return e.Return() }, "return"},
		{"return inside call", func(e *Engine) error { e.Spawn(); e.Call(); return e.Return() }, "return"},
		{"callreturn without call", func(e *Engine) error { return e.CallReturn() }, "callreturn"},
		{"callreturn in spawned task", func(e *Engine) error { e.Call(); e.Spawn(); return e.CallReturn() }, "callreturn"},
		{"negative alloc", func(e *Engine) error { return e.Alloc(1, -3) }, "alloc"},
		{"negative free", func(e *Engine) error { return e.Free(1, -3) }, "free"},
		{"free more than live", func(e *Engine) error { e.Alloc(1, 4); return e.Free(1, 5) }, "free"},
		{"negative work", func(e *Engine) error { return e.Work(-1) }, "work"},
		{"exit with open spawn", func(e *Engine) error { e.Spawn(); _, err := e.Exit(); return err }, "exit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := New(Config{P: 2, Attribution: true})
			err := tc.do(e)
			var ee *EventError
			if !errors.As(err, &ee) || ee.Event != tc.event {
				t.Fatalf("got %v, want an EventError for %q", err, tc.event)
			}
		})
	}
	// After a rejected event the run goes on and gives the right answer.
	e, _ := New(Config{P: 2})
	if err := e.Sync(); err == nil {
		t.Fatal("sync with no block accepted")
	}
	if err := e.Free(0, 1); err == nil {
		t.Fatal("free of nothing accepted")
	}
	res, err := run(e, explode(3, false))
	if err != nil || res.MHWM[1] != 3 {
		t.Fatalf("after rejected events: %v, %v", res, err)
	}
	if err := e.Alloc(0, 1); err == nil {
		t.Fatal("event after exit accepted")
	}
	if _, err := New(Config{P: 0}); err == nil {
		t.Fatal("P = 0 accepted")
	}
	if _, err := New(Config{P: MaxP + 1}); err == nil {
		t.Fatal("P above MaxP accepted")
	}
	if _, err := New(Config{P: 2, Threshold: 10, Attribution: true}); err == nil {
		t.Fatal("attribution in threshold mode accepted")
	}
}

// TestWorkSpan checks work, span and parallelism on constructed programs.
func TestWorkSpan(t *testing.T) {
	// A balanced binary fork-join tree of depth d: 2^d leaves.
	var tree func(d int) []op
	tree = func(d int) []op {
		if d == 0 {
			return []op{{kind: opWork, n: 10}}
		}
		return []op{{kind: opWork, n: 1}, spawn(tree(d - 1)...), call(tree(d - 1)...), syncOp}
	}
	e, _ := New(Config{P: 4})
	res, err := run(e, tree(4))
	if err != nil {
		t.Fatal(err)
	}
	// Each spawn ends a strand and the child's last strand; 15 spawns.
	if res.Spawns != 15 || res.WorkTime != 175 || res.SpanTime != 14 {
		t.Fatalf("spawns %d work time %d span time %d; want 15, 175, 14", res.Spawns, res.WorkTime, res.SpanTime)
	}
	// A flat loop of 100 spawns under one sync: c0, A1, c1, …, A100, c100 and
	// the strand after the sync; the span is the chain of continuations.
	var flat []op
	for i := 0; i < 100; i++ {
		flat = append(flat, spawn(op{kind: opWork, n: 7}))
	}
	flat = append(flat, syncOp)
	e, _ = New(Config{P: 4})
	res, err = run(e, flat)
	if err != nil {
		t.Fatal(err)
	}
	if res.Strands != 202 || res.Span != 102 || res.SpanTime != 7 || res.WorkTime != 700 {
		t.Fatalf("flat: strands %d span %d span time %d work time %d", res.Strands, res.Span, res.SpanTime, res.WorkTime)
	}
}

// TestTilesExample replays the bundled tile stream and checks its analytic
// MHWM (see the comment in testdata/tiles.ev).
func TestTilesExample(t *testing.T) {
	res, names := replayFile(t, "tiles.ev", Config{P: 8})
	const mi, ki = 1 << 20, 1 << 10
	tile := int64(mi + 64*ki)
	for q := 1; q <= 8; q++ {
		k := int64(min(q, 4))
		want := 4*mi + k*3*mi + (4-k)*tile
		if res.MHWM[q] != want {
			t.Errorf("MHWM_%d = %d, want %d", q, res.MHWM[q], want)
		}
	}
	if res.SerialPeak != 4*mi+3*tile+3*mi || names[3] != "tile.go:22 scratch" {
		t.Errorf("serial peak %d, names %v", res.SerialPeak, names)
	}
}

// replayFile replays testdata/name.
func replayFile(t *testing.T, name string, cfg Config) (*Result, map[Site]string) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, names, err := Replay(f, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res, names
}

// checkAttribution runs prog with attribution at processor bound p and
// checks the attribution of MHWM_q: its value, antichain size and sites.
func checkAttribution(t *testing.T, prog []op, p, q int, mhwm int64, strands int, sites []SiteShare) *Result {
	t.Helper()
	e, _ := New(Config{P: p, Attribution: true})
	res, err := run(e, prog)
	if err != nil {
		t.Fatal(err)
	}
	a, err := res.Attribute(q)
	if err != nil {
		t.Fatal(err)
	}
	if a.MHWM != mhwm || !slices.Equal(a.Sites, sites) || len(a.Antichain) != strands {
		t.Fatalf("attribution %+v, want MHWM %d, sites %v, %d strands", a, mhwm, sites, strands)
	}
	return res
}
