package mhwm

import (
	"math/rand"
	"slices"
	"testing"
)

// TestLimitedEngineAgreesWithOracle checks the Engine with SetLimit, and the
// limited Block algebra offline, against schedule enumeration with blocking
// Go (oracleLimit) on programs whose limits can bind.
func TestLimitedEngineAgreesWithOracle(t *testing.T) {
	n := programs(2000)
	checked := 0
	for i := 0; checked < n; i++ {
		cfg := limitCfg(i)
		cfg.maxSpawns = 8
		prog := genProgram(rand.New(rand.NewSource(int64(3e6+i))), cfg)
		tree := buildTree(prog)
		root, leaves := binary(tree)
		if len(leaves) > 12 || !limitCanBind(root) {
			continue
		}
		checked++
		for p := 1; p <= 3; p++ {
			want := oracleLimit(root, leaves, p)
			e, _ := New(Config{P: p})
			res, err := run(e, prog)
			if err != nil {
				t.Fatalf("program %d: %v\n%s", i, err, bodyString(prog))
			}
			if res.MHWM[p] != want {
				t.Fatalf("program %d p=%d: Engine MHWM %v, oracle %d\n%s", i, p, res.MHWM, want, bodyString(prog))
			}
			if got := evalBlocks(tree, p, false).MHWM(p); got != want {
				t.Fatalf("program %d p=%d: limited Block %d, oracle %d\n%s", i, p, got, want, bodyString(prog))
			}
			for q := 1; q < p; q++ { // every q ≤ p from the one run
				if w := oracleLimit(root, leaves, q); res.MHWM[q] != w {
					t.Fatalf("program %d p=%d q=%d: Engine %d, oracle %d\n%s", i, p, q, res.MHWM[q], w, bodyString(prog))
				}
			}
		}
	}
}

// TestLimitedEngineLarge compares the Engine with the offline limited block
// algebra on programs too large for the oracle.
func TestLimitedEngineLarge(t *testing.T) {
	for i := 0; i < programs(200); i++ {
		cfg := genConfig{maxOps: 8, maxDepth: 4, maxSpawns: 40, downset: i%2 == 0, maxAlloc: 1000, emptyBias: 10, sites: 6, limitPct: 60}
		prog := genProgram(rand.New(rand.NewSource(int64(4e6+i))), cfg)
		tree := buildTree(prog)
		for _, p := range []int{1, 4, 16} {
			want := prefixMax(evalBlocks(tree, p, true).R, p)
			e, _ := New(Config{P: p})
			res, err := run(e, prog)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.MHWM, want) {
				t.Fatalf("program %d p=%d: Engine %v, offline %v\n%s", i, p, res.MHWM, want, bodyString(prog))
			}
		}
	}
}

// TestLimitExamples: constructed programs with analytic answers.
func TestLimitExamples(t *testing.T) {
	lim := func(l int64) op { return op{kind: opLimit, n: l} }
	g := []op{alloc(10, 2), free(10, 2)}
	four := []op{spawn(g...), spawn(g...), spawn(g...), spawn(g...), syncOp}
	tests := []struct {
		name string
		prog []op
		want []int64 // MHWM_1..
	}{
		{"4 children L=2", append([]op{lim(2)}, four...), []int64{10, 20, 20, 20}},
		{"4 children L=1", append([]op{lim(1)}, four...), []int64{10, 10, 10, 10}},
		{"4 children unlimited", four, []int64{10, 20, 30, 40}},
		// The parent allocates 100 and blocks in Go while the first child
		// holds the only slot: 110 on one processor, above the unlimited 100.
		{"blocked parent L=1", []op{lim(1), spawn(g...), alloc(100, 3), spawn(), free(100, 3), syncOp}, []int64{110, 110, 110}},
		{"blocked parent unlimited", []op{spawn(g...), alloc(100, 3), spawn(), free(100, 3), syncOp}, []int64{100, 110, 110}},
		// A limit lowers the peak: the second child starts only after the
		// first freed the parent's 12.
		{"limit lowers", []op{alloc(12, 1), lim(1), spawn(free(12, 1)), spawn(alloc(2, 2)), syncOp}, []int64{12, 12}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := len(tc.want)
			e, _ := New(Config{P: p, Attribution: true})
			res, err := run(e, tc.prog)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.MHWM[1:]; !slices.Equal(got, tc.want) {
				t.Errorf("MHWM_1..%d = %v, want %v", p, got, tc.want)
			}
			root, leaves := binary(buildTree(tc.prog))
			for q := 1; q <= p; q++ {
				if o := oracleLimit(root, leaves, q); o != tc.want[q-1] {
					t.Errorf("oracle q=%d: %d, want %d", q, o, tc.want[q-1])
				}
			}
		})
	}
}

// TestSetLimitErrors: limits the engine cannot take are rejected clearly.
func TestSetLimitErrors(t *testing.T) {
	e, _ := New(Config{P: 2})
	if err := e.SetLimit(0); err == nil {
		t.Error("limit 0 accepted")
	}
	e.Spawn()
	e.Return()
	if err := e.SetLimit(2); err == nil {
		t.Error("limit inside an open block accepted")
	}
	th, _ := New(Config{P: 2, Threshold: 100})
	if err := th.SetLimit(2); err == nil {
		t.Error("limit in threshold mode accepted")
	}
	// A negative limit removes a pending one.
	e, _ = New(Config{P: 2})
	e.SetLimit(1)
	e.SetLimit(-1)
	res, err := run(e, []op{spawn(alloc(1, 1)), spawn(alloc(1, 1)), syncOp})
	if err != nil || res.MHWM[2] != 2 {
		t.Fatalf("after removing the limit: %v %v", res, err)
	}
}

// TestLimitedAttributionBlockedParent: the worst case of the blocked-parent
// example is the child at its peak (running) and the parent's 100 bytes
// held while it is blocked in Go (suspended).
func TestLimitedAttributionBlockedParent(t *testing.T) {
	prog := []op{{kind: opLimit, n: 1}, spawn(alloc(10, 2), free(10, 2)), alloc(100, 3), spawn(), free(100, 3), syncOp}
	checkAttribution(t, prog, 2, 1, 110, 1, []SiteShare{{Site: 2, Running: 10}, {Site: 3, Suspended: 100}})
}

// TestLimitedExample replays the bundled limited stream and checks its
// analytic MHWM (see testdata/limited.ev).
func TestLimitedExample(t *testing.T) {
	res, _ := replayFile(t, "limited.ev", Config{P: 8})
	const mi, s = 1 << 20, 64 << 10
	want := []int64{6*mi + 5*s, 9*mi + 5*s, 9*mi + 5*s, 9*mi + 5*s}
	if got := res.MHWM[1:5]; !slices.Equal(got, want) {
		t.Fatalf("MHWM_1..4 = %v, want %v", got, want)
	}
}
