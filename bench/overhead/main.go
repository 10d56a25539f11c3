// Command overhead measures what spgo costs on the benchmark programs of
// bench/progs, side by side in one run (bench/run calls it).
//
// For every program it builds an uninstrumented binary and an
// instrumented one (spbuild build), then runs, round after round and
// interleaved so that the machine's drift hits every configuration alike:
//
//	plain-1    uninstrumented, GOMAXPROCS=1 (the baseline: spgo runs serially)
//	plain      uninstrumented, default GOMAXPROCS
//	exact      instrumented, exact mode, SPGO_PMAX=128
//	threshold  instrumented, threshold mode at pmax 128, M = the exact MHWM_128
//	pprof      uninstrumented, GOMAXPROCS=1, GODEBUG=memprofilerate=1
//	           (every allocation recorded, as runtime.MemProfileRate = 1)
//
// It prints a Markdown table of median wall times, overhead ratios
// against plain-1 with their geometric means, the peak RSS of the plain
// and instrumented runs, and each exact run's census count and MHWM.
// Every run's output must equal plain-1's.
//
// Usage:
//
//	go run ./bench/overhead [-runs 5] [-args 'fib=-n 25;nqueens=-n 9'] [program ...]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spgo/spgo/report"
)

// config is one way of running a program.
type config struct {
	name         string
	instrumented bool
	env          []string
}

var configs = []config{
	{name: "plain-1", env: []string{"GOMAXPROCS=1"}},
	{name: "plain"},
	{name: "exact", instrumented: true, env: []string{"SPGO_PMAX=128"}},
	{name: "threshold", instrumented: true, env: []string{"SPGO_PMAX=128"}}, // + SPGO_THRESHOLD
	{name: "pprof", env: []string{"GOMAXPROCS=1", "GODEBUG=memprofilerate=1"}},
}

// result collects one program's runs per configuration.
type result struct {
	prog     string
	args     []string
	secs     map[string][]float64
	rssKiB   map[string][]int64
	mhwm     int64
	serial   int64
	censuses int64
	exact    bool
	thrM     int64
}

func main() {
	runs := flag.Int("runs", 5, "runs of each configuration (the median is reported)")
	argSpec := flag.String("args", "", "program arguments, e.g. 'fib=-n 25;nqueens=-n 9'")
	flag.Parse()
	if err := run(*runs, *argSpec, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "overhead:", err)
		os.Exit(1)
	}
}

func run(runs int, argSpec string, only []string) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	progsDir := filepath.Join(root, "bench", "progs")
	progs := only
	if len(progs) == 0 {
		entries, err := os.ReadDir(progsDir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.IsDir() {
				progs = append(progs, e.Name())
			}
		}
	}
	args := map[string][]string{}
	for _, kv := range strings.Split(argSpec, ";") {
		if name, a, ok := strings.Cut(strings.TrimSpace(kv), "="); ok {
			args[name] = strings.Fields(a)
		}
	}
	tmp, err := os.MkdirTemp("", "spgo-overhead-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	spbuild := filepath.Join(tmp, "spbuild")
	if err := sh(root, nil, "go", "build", "-o", spbuild, "./cmd/spbuild"); err != nil {
		return err
	}
	env := []string{"SPGO_CACHE=" + filepath.Join(tmp, "cache")}
	var results []*result
	for _, p := range progs {
		bin := filepath.Join(tmp, p)
		if err := sh(progsDir, nil, "go", "build", "-o", bin, "./"+p); err != nil {
			return err
		}
		if err := sh(root, env, spbuild, "build", "-o", bin+".spgo", "./bench/progs/"+p); err != nil {
			return err
		}
		results = append(results, &result{prog: p, args: args[p], secs: map[string][]float64{}, rssKiB: map[string][]int64{}})
	}
	for round := 0; round < runs; round++ {
		for _, r := range results {
			var want string
			for _, c := range configs {
				bin := filepath.Join(tmp, r.prog)
				if c.instrumented {
					bin += ".spgo"
				}
				prof := filepath.Join(tmp, r.prog+"."+c.name+".json")
				cenv := append(slices.Clone(c.env), "SPGO_PROFILE="+prof)
				if c.name == "threshold" {
					cenv = append(cenv, "SPGO_THRESHOLD="+strconv.FormatInt(max(r.thrM, 1), 10))
				}
				out, secs, rss, err := timed(bin, r.args, cenv)
				if err != nil {
					return fmt.Errorf("%s (%s): %w", r.prog, c.name, err)
				}
				if c.name == "plain-1" {
					want = out
				} else if out != want {
					return fmt.Errorf("%s (%s): output %q differs from plain-1's %q", r.prog, c.name, out, want)
				}
				r.secs[c.name] = append(r.secs[c.name], secs)
				r.rssKiB[c.name] = append(r.rssKiB[c.name], rss)
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
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: the exact run wrote no profile: %w", r.prog, err)
	}
	var p struct {
		Roots []struct {
			Exact      bool  `json:"exact"`
			SerialPeak int64 `json:"serial_peak"`
			Censuses   int64 `json:"censuses"`
			MHWM       []struct {
				Bytes int64 `json:"bytes"`
			} `json:"mhwm"`
		} `json:"roots"`
	}
	if err := json.Unmarshal(data, &p); err != nil || len(p.Roots) == 0 || len(p.Roots[0].MHWM) == 0 {
		return fmt.Errorf("%s: the exact run's profile: %v", r.prog, err)
	}
	root := p.Roots[0]
	r.mhwm, r.serial, r.censuses, r.exact = root.MHWM[len(root.MHWM)-1].Bytes, root.SerialPeak, root.Censuses, root.Exact
	r.thrM = r.mhwm
	return nil
}

// timed runs bin and returns its output, wall time and peak RSS.
func timed(bin string, args, env []string) (string, float64, int64, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	secs := time.Since(start).Seconds()
	if err != nil {
		return "", 0, 0, fmt.Errorf("%v\n%s", err, errb.String())
	}
	rss := int64(0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss // KiB on Linux
	}
	return out.String(), secs, rss, nil
}

func median[T int64 | float64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func writeTable(w *os.File, results []*result, runs int) {
	fmt.Fprintf(w, "Medians of %d interleaved runs; ratios against plain-1 (GOMAXPROCS=1).\n\n", runs)
	fmt.Fprintln(w, "| program | plain-1 s | plain s | exact × | threshold × | pprof × | RSS plain-1 / exact MiB | censuses | MHWM_128 | serial peak | exact |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	logs := map[string]float64{}
	for _, r := range results {
		base := median(r.secs["plain-1"])
		ratio := func(c string) float64 { return median(r.secs[c]) / base }
		for _, c := range []string{"exact", "threshold", "pprof"} {
			logs[c] += math.Log(ratio(c))
		}
		name := r.prog
		if len(r.args) > 0 {
			name += " " + strings.Join(r.args, " ")
		}
		fmt.Fprintf(w, "| %s | %.3f | %.3f | %.2f | %.2f | %.2f | %.0f / %.0f | %d | %s | %s | %v |\n", name,
			base, median(r.secs["plain"]), ratio("exact"), ratio("threshold"), ratio("pprof"),
			float64(median(r.rssKiB["plain-1"]))/1024, float64(median(r.rssKiB["exact"]))/1024,
			r.censuses, report.Bytes(r.mhwm), report.Bytes(r.serial), r.exact)
	}
	n := float64(len(results))
	fmt.Fprintf(w, "| **geometric mean** | | | **%.2f** | **%.2f** | **%.2f** | | | | | |\n",
		math.Exp(logs["exact"]/n), math.Exp(logs["threshold"]/n), math.Exp(logs["pprof"]/n))
}

// sh runs a command, with its output on error.
func sh(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// repoRoot is the directory of the spgo module (the one holding cmd/spbuild).
func repoRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m: %v (run from the spgo repository)", err)
	}
	return strings.TrimSpace(string(out)), nil
}
