// Command overhead measures what spgo costs on the benchmark programs of
// bench/progs, side by side in one run (bench/run calls it).
//
// For every program it builds an uninstrumented binary and an
// instrumented one (spbuild build), then runs, round after round and
// interleaved so that the machine's drift hits every configuration alike:
//
//	plain-1    uninstrumented, GOMAXPROCS=1 (the baseline: spgo runs serially)
//	exact      instrumented, exact mode, SPGO_PMAX=128
//	threshold  instrumented, threshold mode at pmax 128, M = the exact MHWM_128
//	pprof-1    the pprof peer (harness.Builder.Profiled: runtime/pprof
//	           linked, a heap profile written at exit), GOMAXPROCS=1,
//	           runtime.MemProfileRate = 1: every allocation recorded
//	pprof-512k the same at the default rate (a sample per 512 KiB)
//
// Every pprof run's heap profile is checked (harness.CheckHeapProfile,
// in a process of its own so that this one stays small: see
// harness.Run.RSSKiB): sampled at the rate set, with allocation samples;
// a peer that profiles nothing is an error, not a figure.
//
// It prints a Markdown table of overhead ratios against plain-1 with
// their geometric means, in CPU time (user + system: on a shared,
// loaded machine far steadier than wall time, which it gives for the
// exact runs), the peak RSS of the plain, instrumented and pprof-1 runs,
// and each exact run's census count and MHWM.
// Every run's output must equal plain-1's.
//
// Usage:
//
//	go run ./bench/overhead [-runs 5] [-args 'fib=-n 25;nqueens=-n 9'] [program ...]
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spgo/spgo/bench/internal/harness"
	"github.com/spgo/spgo/internal/report"
)

// config is one way of running a program.
type config struct {
	name         string
	instrumented bool
	peer         bool  // the pprof peer's binary
	rate         int64 // the peer's MemProfileRate (0: the default)
	env          []string
}

var configs = []config{
	{name: "plain-1", env: []string{"GOMAXPROCS=1"}},
	{name: "exact", instrumented: true, env: []string{"SPGO_PMAX=128"}},
	{name: "threshold", instrumented: true, env: []string{"SPGO_PMAX=128"}}, // + SPGO_THRESHOLD
	{name: "pprof-1", peer: true, rate: 1, env: []string{"GOMAXPROCS=1", harness.PeerRateEnv + "=1"}},
	{name: "pprof-512k", peer: true, rate: 512 << 10, env: []string{"GOMAXPROCS=1"}},
}

// ratioCols are the configurations whose time the table gives as a
// ratio to plain-1.
var ratioCols = []string{"exact", "threshold", "pprof-1", "pprof-512k"}

// result collects one program's runs per configuration.
type result struct {
	prog     string
	args     []string
	secs     map[string][]float64 // wall
	cpu      map[string][]float64 // user + system
	rssKiB   map[string][]int64
	mhwm     int64
	serial   int64
	censuses int64
	exact    bool
	thrM     int64
	samples  map[string]int // heap profile samples of the peers' first runs
}

func main() {
	harness.ServeCheck()
	runs := flag.Int("runs", 5, "runs of each configuration (the median is reported)")
	argSpec := flag.String("args", "", "program arguments, e.g. 'fib=-n 25;nqueens=-n 9'")
	flag.Parse()
	if err := run(*runs, *argSpec, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "overhead:", err)
		os.Exit(1)
	}
}

func run(runs int, argSpec string, only []string) error {
	b, done, err := harness.TempBuilder("spgo-overhead-*")
	if err != nil {
		return err
	}
	defer done()
	tmp := b.Dir
	progs := only
	if len(progs) == 0 {
		if progs, err = harness.Programs(b.Root); err != nil {
			return err
		}
	}
	args := harness.ParseArgs(argSpec)
	var results []*result
	for _, p := range progs {
		if _, err := b.Plain(p, ""); err != nil {
			return err
		}
		if _, err := b.Instrumented(p); err != nil {
			return err
		}
		if _, err := b.Profiled(p); err != nil {
			return err
		}
		results = append(results, &result{prog: p, args: args[p], secs: map[string][]float64{}, cpu: map[string][]float64{}, rssKiB: map[string][]int64{}, samples: map[string]int{}})
	}
	for round := 0; round < runs; round++ {
		for _, r := range results {
			var want string
			var allocated int64 // bytes the program allocates, from this round's pprof-1 run
			for _, c := range configs {
				bin := filepath.Join(tmp, r.prog)
				prof := filepath.Join(tmp, r.prog+"."+c.name+".json")
				cenv := append(slices.Clone(c.env), "SPGO_PROFILE="+prof)
				switch {
				case c.instrumented:
					bin += ".spgo"
				case c.peer:
					bin += ".pprof"
					prof = filepath.Join(tmp, r.prog+"."+c.name+".pb.gz")
					os.Remove(prof)
					cenv = append(cenv, harness.PeerHeapEnv+"="+prof)
				}
				if c.name == "threshold" {
					cenv = append(cenv, "SPGO_THRESHOLD="+strconv.FormatInt(max(r.thrM, 1), 10))
				}
				run, err := harness.Timed(bin, r.args, cenv)
				out := run.Stdout
				if err != nil {
					return fmt.Errorf("%s (%s): %w", r.prog, c.name, err)
				}
				if c.name == "plain-1" {
					want = out
				} else if out != want {
					return fmt.Errorf("%s (%s): output %q differs from plain-1's %q", r.prog, c.name, out, want)
				}
				if c.peer {
					h, err := harness.CheckHeapProfileApart(prof, c.rate, allocated)
					if err != nil {
						return fmt.Errorf("%s (%s): %w", r.prog, c.name, err)
					}
					if c.rate == 1 {
						allocated = h.AllocBytes // pprof-1 runs before pprof-512k
					}
					if round == 0 {
						r.samples[c.name] = h.Samples
					}
				}
				r.secs[c.name] = append(r.secs[c.name], run.Secs)
				r.cpu[c.name] = append(r.cpu[c.name], run.CPUSecs)
				r.rssKiB[c.name] = append(r.rssKiB[c.name], run.RSSKiB)
				if c.name == "exact" && round == 0 {
					if err := r.readExact(prof); err != nil {
						return err
					}
				}
			}
			fmt.Fprintf(os.Stderr, "round %d: %s done\n", round+1, r.prog)
		}
	}
	writeTable(os.Stdout, results, runs)
	return nil
}

// readExact takes the exact run's figures; the threshold runs ask about
// M = MHWM_128.
func (r *result) readExact(path string) error {
	root, err := harness.ReadRoot(path)
	if err != nil {
		return fmt.Errorf("%s: the exact run: %w", r.prog, err)
	}
	r.mhwm, r.serial, r.censuses, r.exact = root.MHWM[len(root.MHWM)-1].Bytes, root.SerialPeak, root.Censuses, root.Exact
	r.thrM = r.mhwm
	return nil
}

func writeTable(w *os.File, results []*result, runs int) {
	fmt.Fprintf(w, "Medians of %d interleaved runs; ratios of CPU time (user + system) against plain-1 (GOMAXPROCS=1), and of wall time for exact.\n\n", runs)
	fmt.Fprintln(w, "| program | plain-1 CPU s | exact × | threshold × | pprof-1 × | pprof-512k × | exact wall × | RSS plain-1 / exact / pprof-1 MiB | heap samples 1 / 512k | censuses | MHWM_128 | serial peak | exact |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	logs := map[string]float64{}
	for _, r := range results {
		base := harness.Median(r.cpu["plain-1"])
		ratio := func(c string) float64 { return harness.Median(r.cpu[c]) / base }
		mib := func(c string) float64 { return float64(harness.Median(r.rssKiB[c])) / 1024 }
		for _, c := range ratioCols {
			logs[c] += math.Log(ratio(c))
		}
		wall := harness.Median(r.secs["exact"]) / harness.Median(r.secs["plain-1"])
		logs["wall"] += math.Log(wall)
		name := r.prog
		if len(r.args) > 0 {
			name += " " + strings.Join(r.args, " ")
		}
		fmt.Fprintf(w, "| %s | %.3f | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f / %.0f / %.0f | %d / %d | %d | %s | %s | %v |\n", name,
			base, ratio("exact"), ratio("threshold"), ratio("pprof-1"), ratio("pprof-512k"), wall,
			mib("plain-1"), mib("exact"), mib("pprof-1"), r.samples["pprof-1"], r.samples["pprof-512k"],
			r.censuses, report.Bytes(r.mhwm), report.Bytes(r.serial), r.exact)
	}
	n := float64(len(results))
	geo := func(c string) float64 { return math.Exp(logs[c] / n) }
	fmt.Fprintf(w, "| **geometric mean** | | **%.2f** | **%.2f** | **%.2f** | **%.2f** | **%.2f** | | | | | | |\n",
		geo("exact"), geo("threshold"), geo("pprof-1"), geo("pprof-512k"), geo("wall"))
}
