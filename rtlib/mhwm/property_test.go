package mhwm

import (
	"math/rand"
	"os"
	"slices"
	"testing"
)

// long reports whether SPGO_LONG=1 asks for the longer random runs.
func long() bool { return os.Getenv("SPGO_LONG") == "1" }

// programs returns how many random programs a property test runs: n by
// default, 10n with SPGO_LONG=1.
func programs(n int) int {
	if long() {
		return 10 * n
	}
	return n
}

func smallConfig(i int) genConfig {
	return genConfig{maxOps: 5, maxDepth: 3, maxSpawns: 5, downset: i%2 == 0, maxAlloc: 20, emptyBias: 15, sites: 4}
}

// TestExactAgreesWithOracleA checks ExactOff (binary recurrences), the
// online Block algebra and the event-driven Engine against antichain
// enumeration: full R arrays without skipping, prefix maxima with it.
func TestExactAgreesWithOracleA(t *testing.T) {
	n := programs(2000)
	checked := 0
	for i := 0; i < n; i++ {
		prog := genProgram(rand.New(rand.NewSource(int64(i))), smallConfig(i))
		tree := buildTree(prog)
		root, leaves := binary(tree)
		if len(leaves) > 16 {
			continue
		}
		checked++
		for p := 1; p <= 5; p++ {
			want := oracleA(root, leaves, p)
			wantQ := prefixMax(want, p)
			if got := evalOff(root, p, true).R; !slices.Equal(got, want) {
				t.Fatalf("program %d p=%d: ExactOff R = %v, oracle A %v\n%s", i, p, got, want, bodyString(prog))
			}
			if got := evalBlocks(tree, p, true).R; !slices.Equal(got, want) {
				t.Fatalf("program %d p=%d: Block R = %v, oracle A %v\n%s", i, p, got, want, bodyString(prog))
			}
			if got := prefixMax(evalOff(root, p, false).R, p); !slices.Equal(got, wantQ) {
				t.Fatalf("program %d p=%d: skipping ExactOff MHWM = %v, oracle A %v\n%s", i, p, got, wantQ, bodyString(prog))
			}
			e, err := New(Config{P: p})
			if err != nil {
				t.Fatal(err)
			}
			res, err := run(e, prog)
			if err != nil {
				t.Fatalf("program %d: %v\n%s", i, err, bodyString(prog))
			}
			if !slices.Equal(res.MHWM, wantQ) {
				t.Fatalf("program %d p=%d: Engine MHWM = %v, oracle A %v\n%s", i, p, res.MHWM, wantQ, bodyString(prog))
			}
		}
	}
	if checked < n/2 {
		t.Fatalf("only %d of %d programs were small enough", checked, n)
	}
}

// TestEngineAgreesWithExactOffLarge compares the Engine with ExactOff on
// programs too large for the oracle.
func TestEngineAgreesWithExactOffLarge(t *testing.T) {
	n := programs(300)
	for i := 0; i < n; i++ {
		cfg := genConfig{maxOps: 8, maxDepth: 5, maxSpawns: 60, downset: i%3 != 0, maxAlloc: 1000, emptyBias: 10, sites: 8}
		prog := genProgram(rand.New(rand.NewSource(int64(1e6+i))), cfg)
		root, _ := binary(buildTree(prog))
		for _, p := range []int{1, 3, 8, 64} {
			want := prefixMax(evalOff(root, p, true).R, p)
			e, _ := New(Config{P: p})
			res, err := run(e, prog)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.MHWM, want) {
				t.Fatalf("program %d p=%d: Engine %v, ExactOff %v\n%s", i, p, res.MHWM, want, bodyString(prog))
			}
		}
	}
}

// TestSerialPeak checks the child-first serial peak against a direct replay.
func TestSerialPeak(t *testing.T) {
	for i := 0; i < programs(500); i++ {
		prog := genProgram(rand.New(rand.NewSource(int64(i))), smallConfig(i))
		var cur, peak int64
		var walk func([]op)
		walk = func(b []op) {
			for _, o := range b {
				switch o.kind {
				case opAlloc:
					cur += o.n
					peak = max(peak, cur)
				case opFree:
					cur -= o.n
				case opSpawn, opCall:
					walk(o.body)
				}
			}
		}
		walk(prog)
		e, _ := New(Config{P: 2})
		res, err := run(e, prog)
		if err != nil {
			t.Fatal(err)
		}
		if res.SerialPeak != peak || res.Net != cur {
			t.Fatalf("program %d: serial peak %d net %d, want %d %d", i, res.SerialPeak, res.Net, peak, cur)
		}
		if res.SerialPeak > res.MHWM[1] && res.SerialPeak > 0 {
			// The child-first order is one 1-processor schedule.
			t.Fatalf("program %d: serial peak %d above MHWM_1 %d", i, res.SerialPeak, res.MHWM[1])
		}
	}
}
