package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/internal/sim"
	"github.com/spgo/spgo/rtlib/profile"
	"github.com/spgo/spgo/rtlib/trace"
)

// TestSimulate runs spbuild run -simulate on the examples whose peaks
// are known analytically (see each main.go). The profile's simulations
// weigh each strand by its measured duration, which a loaded machine
// skews at will, so their peaks are checked only against bounds that
// hold for any durations; the recorded graph (-trace) is then simulated
// again with durations fixed by each strand's memory and each policy's
// peak checked against the analytic figure: the worker pool's exactly up to
// the runtime's own bytes, the pipeline's within its census lag and
// independent of the number of records, the series-parallel tiles' at
// most MHWM_p under work stealing.
func TestSimulate(t *testing.T) {
	cache := t.TempDir()
	const (
		size                           = 32 * kib // pipeline's
		jobs, workers, scratch, digest = 24, 4, 256 * kib, 8 * kib
		slack                          = 32 * kib // goroutines, channels, size classes
	)
	cases := []struct {
		dir  string
		args []string
		// lo and hi bound policy pol's peak at p when a strand's
		// duration follows its memory; hi also for any durations, and
		// floor is a lower bound for any durations.
		lo, hi, floor func(pol string, p int64) int64
		sync          bool // the graph has non-series-parallel edges
		moved         bool // deaths placed before the series-parallel charge point
	}{
		{
			dir: "workerpool", sync: true,
			// k = min(p, Workers) jobs run at once, the last time
			// after all but the Workers last jobs' digests are kept
			// (all but k when k = Workers), less one: a job's scratch
			// is dead once its hash is taken, before its digest is
			// made, and the recorded run fixes each worker's share of
			// the jobs (one worker took 12 of 24 in a run), so the jobs
			// in progress at the worst point need not be the last k.
			// The small objects the example makes besides once hid
			// that digest (until be10d36 counted rtlib's own bytes as
			// its own).
			// The go policy preempts a worker after its time slice, and
			// the slices follow measured durations: on a loaded machine
			// any number of the workers may be in progress at once, so
			// its peak is bounded by all of them, whatever p.
			lo: func(pol string, p int64) int64 {
				if pol == "go" {
					return scratch
				}
				k := min(p, workers)
				return (jobs-workers-1)*digest + k*scratch
			},
			hi: func(pol string, p int64) int64 {
				k := min(p, workers)
				if pol == "go" {
					k = workers
				}
				return (jobs-k)*digest + k*scratch + slack
			},
			// Main keeps every digest, and each job its scratch.
			floor: func(string, int64) int64 { return max(scratch, jobs*digest) },
		},
		{
			dir: "pipeline", args: []string{"--", "-n", "48"}, sync: true, moved: true,
			lo:    func(string, int64) int64 { return 3 * size },
			hi:    func(string, int64) int64 { return 8*size + slack },
			floor: func(string, int64) int64 { return 3 * size },
		},
		{
			dir: "pipeline", args: []string{"--", "-n", "192"}, sync: true, moved: true,
			lo:    func(string, int64) int64 { return 3 * size },
			hi:    func(string, int64) int64 { return 8*size + slack },
			floor: func(string, int64) int64 { return 3 * size },
		},
		{
			// Work stealing runs at most p tiles at once, each with its
			// 2 MiB of scratch, and never exceeds MHWM_p (whose worst
			// case also keeps all 16 results); the other policies may.
			dir: "tiles",
			lo:  func(_ string, p int64) int64 { return min(p, 16) * 2 * mib },
			hi: func(pol string, p int64) int64 {
				if pol == "ws" {
					return 16*128*kib + min(p, 16)*2*mib + slack
				}
				return 16*128*kib + 16*2*mib + slack // everything
			},
			floor: func(string, int64) int64 { return 2 * mib },
		},
	}
	for _, tc := range cases {
		t.Run(tc.dir+strings.Join(tc.args, ""), func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "examples", tc.dir))
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			prof, dot, tr := filepath.Join(out, "p.json"), filepath.Join(out, "g.dot"), filepath.Join(out, "g.trace")
			args := append([]string{"run", "-q", "-p", "1,2,3,4,8", "-simulate", "-json", prof, "-dot", dot, "-dot-at", "ws/2", "-trace", tr, "."}, tc.args...)
			_, stderr, code := spbuild(t, dir, cache, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			p, err := profile.ReadFile(prof)
			if err != nil {
				t.Fatal(err)
			}
			r := p.Roots[0]
			if r.Simulation == nil || len(r.Simulated) != 4*5 {
				t.Fatalf("simulation %+v, %d simulated runs, want 20", r.Simulation, len(r.Simulated))
			}
			if got := r.Simulation.SyncDeps > 0; got != tc.sync {
				t.Errorf("sync deps %d, want some: %v", r.Simulation.SyncDeps, tc.sync)
			}
			if got := r.Simulation.FreesMoved > 0; got != tc.moved {
				t.Errorf("%d frees moved, want some: %v", r.Simulation.FreesMoved, tc.moved)
			}
			for _, s := range r.Simulated {
				lo, hi := tc.floor(s.Policy, int64(s.P)), tc.hi(s.Policy, int64(s.P))
				if s.PeakBytes < lo || s.PeakBytes > hi {
					t.Errorf("%s p=%d: simulated peak %d outside %d..%d", s.Policy, s.P, s.PeakBytes, lo, hi)
				}
				if m, ok := r.MHWMAt(s.P); ok && s.Policy == "ws" && s.PeakBytes > m {
					t.Errorf("ws p=%d: simulated peak %d above MHWM_p %d", s.P, s.PeakBytes, m)
				}
			}
			b, err := os.ReadFile(dot)
			if err != nil || !strings.HasPrefix(string(b), "digraph ") || !strings.Contains(string(b), "ws p=2") {
				t.Errorf("-dot: %v\n%.200s", err, b)
			}
			f, err := os.Open(tr)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			gs, err := trace.Read(f)
			if err != nil || len(gs) != 1 || gs[0].Name != r.Name {
				t.Fatalf("-trace: %d graphs, %v", len(gs), err)
			}
			if int64(len(gs[0].Strands)) != r.Simulation.Strands {
				t.Errorf("-trace has %d strands, the profile says %d", len(gs[0].Strands), r.Simulation.Strands)
			}
			checkFixedDurations(t, gs[0], &r, tc.lo, tc.hi)
		})
	}
}

// checkFixedDurations simulates g, the graph recorded for root r, with
// each strand's duration fixed by its memory (100 ns plus 1 ns a byte of
// m(e)), under every policy at the profile's p, and checks each peak
// against lo..hi (and MHWM_p for work stealing): with durations that do
// not depend on the machine's load while the graph was recorded, the
// analytic schedules are the simulated ones.
func checkFixedDurations(t *testing.T, g *trace.Graph, r *profile.Root, lo, hi func(string, int64) int64) {
	t.Helper()
	for i := range g.Strands {
		g.Strands[i].Work = 100 + g.Strands[i].Peak
	}
	for _, s := range r.Simulated {
		pol, err := sim.ParsePolicy(s.Policy)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Simulate(g, pol, s.P, sim.Options{})
		if err != nil {
			t.Fatalf("%s p=%d: %v", s.Policy, s.P, err)
		}
		l, h := lo(s.Policy, int64(s.P)), hi(s.Policy, int64(s.P))
		if res.PeakBytes < l || res.PeakBytes > h {
			t.Errorf("fixed durations, %s p=%d: simulated peak %d outside the analytic %d..%d", s.Policy, s.P, res.PeakBytes, l, h)
		}
		if m, ok := r.MHWMAt(s.P); ok && pol == sim.WS && res.PeakBytes > m {
			t.Errorf("fixed durations, ws p=%d: simulated peak %d above MHWM_p %d", s.P, res.PeakBytes, m)
		}
	}
}

// TestSimulateFlags checks that a bad -dot-at is refused before the
// program is built.
func TestSimulateFlags(t *testing.T) {
	for _, at := range []string{"lifo", "ws/0", "ws/x", "df/70000"} {
		_, stderr, code := spbuild(t, t.TempDir(), t.TempDir(), "run", "-dot", "x.dot", "-dot-at", at, ".")
		if code != 2 || !strings.Contains(stderr, "-dot-at") {
			t.Errorf("-dot-at %s: exit %d, stderr %q; want 2 and a message about -dot-at", at, code, stderr)
		}
	}
}

// TestSimulateUnwritableTrace checks that a trace the program cannot
// write costs the simulation only: one message from the program, the
// program's output and the profile as usual, exit status 1.
func TestSimulateUnwritableTrace(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "examples", "tiles"))
	if err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(t.TempDir(), "p.json")
	tr := filepath.Join(t.TempDir(), "missing", "g.trace")
	stdout, stderr, code := spbuild(t, dir, t.TempDir(), "run", "-q", "-trace", tr, "-json", prof, ".")
	if code != 1 || strings.Count(stderr, "spgo: trace") != 1 || !strings.Contains(stderr, "recorded no trace") {
		t.Errorf("exit %d, stderr:\n%s\nwant 1, one recorder message and spbuild's", code, stderr)
	}
	if !strings.Contains(stdout, "image checksum") {
		t.Errorf("program output lost: %q", stdout)
	}
	p, err := profile.ReadFile(prof)
	if err != nil || len(p.Roots) != 1 || p.Roots[0].Simulated != nil {
		t.Errorf("profile: %v; want one root, no simulations", err)
	}
}
