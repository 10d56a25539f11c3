package mhwm

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"
)

// Regression tests for problems found in review.

// A memory-inactive child that set a limit and never spawned is cut from
// the trace together with its limit, so later limits stay aligned.
func TestCutChildDropsItsLimit(t *testing.T) {
	e, _ := New(Config{P: 2, Attribution: true})
	steps := []func() error{
		e.Spawn, func() error { return e.SetLimit(5) }, e.Return, e.Sync,
		func() error { return e.SetLimit(1) },
		e.Spawn, func() error { return e.Alloc(1, 10) }, func() error { return e.Free(1, 10) }, e.Return,
		e.Spawn, func() error { return e.Alloc(1, 10) }, func() error { return e.Free(1, 10) }, e.Return,
		e.Sync,
	}
	for i, s := range steps {
		if err := s(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	res, err := e.Exit()
	if err != nil {
		t.Fatal(err)
	}
	a, err := res.Attribute(2)
	if err != nil || res.MHWM[2] != 10 || a.MHWM != 10 {
		t.Fatalf("MHWM_2 %d, attribution %+v, %v; want 10", res.MHWM[2], a, err)
	}
}

// A strand with m = s = 0 that moves bytes between sites keeps its sites.
func TestSiteMovingStrand(t *testing.T) {
	prog := []op{alloc(5, 2), spawn(alloc(1, 4)), syncOp, free(5, 2), alloc(5, 1), spawn(alloc(10, 3)), syncOp}
	// All 16 bytes are still live at the end: no processor is needed, and
	// site 2's block was freed (its bytes moved to site 1).
	checkAttribution(t, prog, 1, 1, 16, 0, []SiteShare{{Site: 1, Completed: 5}, {Site: 3, Completed: 10}, {Site: 4, Completed: 1}})
}

// Sites must be non-negative; a large one costs nothing special.
func TestSites(t *testing.T) {
	e, _ := New(Config{P: 1, Attribution: true})
	var ee *EventError
	if err := e.Alloc(-1, 5); !errors.As(err, &ee) {
		t.Fatalf("negative site: %v", err)
	}
	if err := e.Free(-1, 0); !errors.As(err, &ee) {
		t.Fatalf("negative site: %v", err)
	}
	if err := e.Alloc(math.MaxInt32, 5); err != nil {
		t.Fatal(err)
	}
	res, err := e.Exit()
	if err != nil {
		t.Fatal(err)
	}
	a, err := res.Attribute(1)
	if err != nil || len(a.Sites) != 1 || a.Sites[0].Site != math.MaxInt32 {
		t.Fatalf("%+v %v", a, err)
	}
}

// Totals that could overflow int64 are rejected.
func TestOverflow(t *testing.T) {
	e, _ := New(Config{P: 2})
	if err := e.Alloc(1, MaxBytes); err != nil {
		t.Fatal(err)
	}
	if err := e.Alloc(1, 1); err == nil {
		t.Error("allocation past MaxBytes accepted")
	}
	if err := e.Work(MaxWork); err != nil {
		t.Fatal(err)
	}
	if err := e.Work(1); err == nil {
		t.Error("work past MaxWork accepted")
	}
}

// Huge limits are cheap; they are exact while a block has at most that many
// children, and flagged otherwise.
func TestHugeLimits(t *testing.T) {
	start := time.Now()
	e, _ := New(Config{P: 8, Attribution: true})
	if err := e.SetLimit(math.MaxInt); err != nil {
		t.Fatal(err)
	}
	res, err := run(e, []op{spawn(alloc(3, 1)), spawn(alloc(3, 1)), syncOp})
	if err != nil || !res.Exact || res.MHWM[2] != 6 {
		t.Fatalf("%+v %v", res, err)
	}
	// A limit above MaxLimit that binds: figures ignore it and say so.
	e, _ = New(Config{P: 2})
	e.SetLimit(MaxLimit + 1)
	var kids []op
	for range MaxLimit + 2 {
		kids = append(kids, spawn(alloc(1, 1), free(1, 1)))
	}
	res, err = run(e, append(kids, syncOp))
	if err != nil || res.Exact || len(res.Inexact) != 1 {
		t.Fatalf("binding huge limit: exact %v %q %v", res.Exact, res.Inexact, err)
	}
	// A limit of MaxLimit is modelled: a block with few children costs
	// O(p·children), not O(p·limit).
	e, _ = New(Config{P: 64})
	e.SetLimit(MaxLimit)
	res, err = run(e, kids[:200])
	if err != nil || !res.Exact || res.MHWM[64] != 64 {
		t.Fatalf("MaxLimit: %v %v", res.MHWM[64], err)
	}
	t.Logf("huge limits took %v (go test's timeout is the hang guard)", time.Since(start))
}

// A scope with many blocks in series, and deep nesting, attribute without
// exhausting the stack.
func TestLongChainsAttribute(t *testing.T) {
	e, _ := New(Config{P: 2, Attribution: true})
	for range 200000 {
		e.Alloc(1, 1)
		e.Spawn()
		e.Alloc(2, 1)
		e.Return()
		e.Sync()
	}
	for range 20000 {
		e.Spawn()
		e.Alloc(3, 1)
	}
	for range 20000 {
		e.Return()
	}
	e.Sync()
	res, err := e.Exit()
	if err != nil {
		t.Fatal(err)
	}
	a, err := res.Attribute(2)
	if err != nil || a.MHWM != res.MHWM[2] {
		t.Fatalf("%v %v", a.MHWM, err)
	}
}

// The strand reported for a merged record is the one holding the peak.
func TestMergedSerial(t *testing.T) {
	e, _ := New(Config{P: 1, Attribution: true})
	res, err := run(e, []op{spawn(), alloc(10, 1), free(10, 1), syncOp})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := res.Attribute(1)
	if !slices.Equal(a.Antichain, []int64{3}) {
		t.Fatalf("antichain %v, want the third strand", a.Antichain)
	}
}
