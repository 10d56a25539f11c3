package mhwm

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestTraceLimit runs random programs with and without Config.TraceLimit:
// the figures never change; a trace that would pass the limit is dropped
// (Attribute says so) and one that fits answers as without a limit; and
// the storage Grown reports, counting both arrays while one is copied,
// never passes the limit and is all given back when the trace is dropped.
func TestTraceLimit(t *testing.T) {
	cfg := genConfig{maxOps: 6, maxDepth: 5, maxSpawns: 200, downset: true, maxAlloc: 1000, emptyBias: 10, sites: 6, limitPct: 10}
	limits := []int64{1, 200, 1 << 10, 4 << 10, 16 << 10, 1 << 30}
	dropped, kept := 0, 0
	for seed := range uint64(40) {
		prog := genProgram(rand.New(rand.NewSource(int64(seed))), cfg)
		free, err := New(Config{P: 6, Attribution: true})
		if err != nil {
			t.Fatal(err)
		}
		want, err := run(free, prog)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, limit := range limits {
			var held, peak int64
			e, err := New(Config{P: 6, Attribution: true, TraceLimit: limit, Grown: func(a, d int64) {
				peak = max(peak, held+a) // the old array is reachable while copied
				held += a - d
			}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := run(e, prog)
			if err != nil {
				t.Fatalf("seed %d, limit %d: %v", seed, limit, err)
			}
			if !slices.Equal(got.MHWM, want.MHWM) || got.SerialPeak != want.SerialPeak || got.Strands != want.Strands {
				t.Errorf("seed %d, limit %d: MHWM %v, serial peak %d, %d strands; without a limit %v, %d, %d",
					seed, limit, got.MHWM, got.SerialPeak, got.Strands, want.MHWM, want.SerialPeak, want.Strands)
			}
			if peak > limit {
				t.Errorf("seed %d, limit %d: the trace held %d bytes", seed, limit, peak)
			}
			a, err := got.Attribute(6)
			if got.TraceDropped > 0 {
				dropped++
				if held != 0 {
					t.Errorf("seed %d, limit %d: dropped after %d strands, but Grown says %d bytes are still held", seed, limit, got.TraceDropped, held)
				}
				if err == nil || !strings.Contains(err.Error(), "TraceLimit") {
					t.Errorf("seed %d, limit %d: dropped, and Attribute says %v", seed, limit, err)
				}
				if _, _, ok := got.SerialHeap(10); ok {
					t.Errorf("seed %d, limit %d: dropped, and SerialHeap answers", seed, limit)
				}
				continue
			}
			kept++
			wa, werr := want.Attribute(6)
			if err != nil || werr != nil {
				t.Fatalf("seed %d, limit %d: Attribute: %v; without a limit: %v", seed, limit, err, werr)
			}
			if a.MHWM != wa.MHWM || !slices.Equal(a.Sites, wa.Sites) {
				t.Errorf("seed %d, limit %d: attribution %d %v; without a limit %d %v", seed, limit, a.MHWM, a.Sites, wa.MHWM, wa.Sites)
			}
			got.DropTrace()
			if _, err := got.Attribute(6); err == nil || !strings.Contains(err.Error(), "DropTrace") {
				t.Errorf("seed %d, limit %d: after DropTrace, Attribute says %v", seed, limit, err)
			}
		}
	}
	t.Logf("%d traces dropped, %d kept", dropped, kept)
	if dropped == 0 || kept == 0 {
		t.Errorf("%d traces dropped and %d kept: the limits do not test both", dropped, kept)
	}
}

// TestDropTraceGivesBack: Exit gives back the recorder's working arrays
// and DropTrace every array of the trace: Grown's balance is the trace's
// bytes after Exit and 0 after DropTrace.
func TestDropTraceGivesBack(t *testing.T) {
	var held int64
	e, err := New(Config{P: 4, Attribution: true, Grown: func(a, d int64) { held += a - d }})
	if err != nil {
		t.Fatal(err)
	}
	prog := genProgram(rand.New(rand.NewSource(3)), genConfig{maxOps: 6, maxDepth: 4, maxSpawns: 100, downset: true, maxAlloc: 100, sites: 4})
	res, err := run(e, prog)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.trace
	if want := bytesOf(tr.toks) + bytesOf(tr.strands) + bytesOf(tr.sites) + bytesOf(tr.limits); held != want || want == 0 {
		t.Errorf("after Exit Grown says %d bytes held; the trace holds %d", held, want)
	}
	res.DropTrace()
	if held != 0 {
		t.Errorf("after DropTrace Grown says %d bytes held", held)
	}
}
