// Command validate checks spgo's figures against real runs, the method of
// Spoonhower et al.: it runs each benchmark program of bench/progs
// uninstrumented at GOMAXPROCS = 1, 2, 4 and 8, several times each, under
// a bounded-error collection budget (GOGC=5: a collection whenever the
// heap grew by 5 % of what the last one found live), reads the live heap
// after every collection (a sampler added to the program with go build
// -overlay; the program's files are untouched), and compares the largest
// growth over the heap before main.main with spgo's MHWM_p for p =
// GOMAXPROCS, from an instrumented run at the same size.
//
// Collections stop the world (GODEBUG=gcstoptheworld=1): what one finds
// live is the live heap at one instant, with no floating garbage, so the
// measured peak is at most the true peak. The true peak is at most the heap
// that triggers the next collection: max(L·(1+E), 4 MiB·E) for L the
// live heap the one before found, E = GOGC/100 (the runtime's minimum
// heap goal is 4 MiB·E). The table prints both, and flags a program
// whose measured peak exceeds MHWM_p or MHWM_∞ and one whose bound does.
//
// MHWM_p assumes busy leaves (docs/algorithms.md, "Busy leaves"): no started task is left
// half-done while another starts. Go's scheduler preempts goroutines
// (time slices, and every stop-the-world phase of a collection), after
// which it may start a new goroutine before resuming the preempted one,
// so at GOMAXPROCS = p more than p tasks can be in progress and a real
// peak can exceed MHWM_p; it cannot exceed MHWM_∞ (MHWM at the p from
// which it stops growing), which covers any number of tasks in progress.
//
// A collection whose finalizer did not run before the next (or before
// exit) is not read: the table gives the share read.
//
// Usage:
//
//	go run ./bench/validate [-runs 5] [-gogc 5] [-procs 1,2,4,8] [-args 'fib=-n 25'] [program ...]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spgo/spgo/bench/internal/harness"
	"github.com/spgo/spgo/internal/report"
)

func main() {
	runs := flag.Int("runs", 5, "uninstrumented runs at each GOMAXPROCS")
	gogc := flag.Int("gogc", 5, "GOGC of the uninstrumented runs (the error budget, in percent)")
	procs := flag.String("procs", "1,2,4,8", "GOMAXPROCS values")
	argSpec := flag.String("args", "", "program arguments, e.g. 'fib=-n 25;nqueens=-n 9' (default: the small sizes)")
	flag.Parse()
	ps, err := parseProcs(*procs)
	if err == nil {
		var rows []row
		rows, err = validate(config{runs: *runs, gogc: *gogc, procs: ps, args: harness.ParseArgs(*argSpec)}, flag.Args(), os.Stderr)
		if err == nil {
			writeTable(os.Stdout, rows, *runs, *gogc)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "validate:", err)
		os.Exit(1)
	}
}

// config is one validation run's settings.
type config struct {
	runs  int
	gogc  int
	procs []int
	args  map[string][]string // by program; harness.Sizes otherwise
}

// row is one program at one GOMAXPROCS.
type row struct {
	prog   string
	args   []string
	p      int
	mhwm   int64   // spgo's MHWM_p
	top    int64   // spgo's MHWM at pmax (MHWM_∞ when sat > 0)
	sat    int     // the p from which MHWM stays flat up to pmax; 0 if it does not
	base   int64   // the largest live heap before main.main
	exact  bool    // the instrumented run's figures are exact
	peaks  []int64 // measured peak growth of each run that read a collection
	read   int64   // collections read, over the runs
	cycles int64   // collections, over the runs
}

// max returns the largest measured peak.
func (r row) max() int64 {
	var m int64
	for _, p := range r.peaks {
		m = max(m, p)
	}
	return m
}

func parseProcs(s string) ([]int, error) {
	var ps []int
	for _, f := range strings.Split(s, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 1 || p > 128 {
			return nil, fmt.Errorf("-procs: %q is not a GOMAXPROCS between 1 and 128", f)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// validate builds and runs the programs (all of bench/progs when progs is
// empty), logging progress to log.
func validate(c config, progs []string, log io.Writer) ([]row, error) {
	root, err := harness.RepoRoot()
	if err != nil {
		return nil, err
	}
	if len(progs) == 0 {
		if progs, err = harness.Programs(root); err != nil {
			return nil, err
		}
	}
	tmp, err := os.MkdirTemp("", "spgo-validate-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	b, err := harness.NewBuilder(root, tmp)
	if err != nil {
		return nil, err
	}
	pmax := 64 // for MHWM_∞: the programs are narrower at the small sizes
	for _, p := range c.procs {
		pmax = max(pmax, p)
	}
	sampler := filepath.Join(tmp, "spgo_peak_sampler.go")
	if err := os.WriteFile(sampler, []byte(samplerSource), 0o644); err != nil {
		return nil, err
	}
	var rows []row
	for _, prog := range progs {
		args, ok := c.args[prog]
		if !ok {
			args = harness.Sizes[prog]
		}
		overlay, err := writeOverlay(tmp, sampler, filepath.Join(root, "bench", "progs", prog))
		if err != nil {
			return nil, err
		}
		plain, err := b.Plain(prog, overlay)
		if err != nil {
			return nil, err
		}
		inst, err := b.Instrumented(prog)
		if err != nil {
			return nil, err
		}
		prof := filepath.Join(tmp, prog+".json")
		if err := harness.Sh("", []string{"SPGO_PMAX=" + strconv.Itoa(pmax), "SPGO_PROFILE=" + prof}, inst, args...); err != nil {
			return nil, fmt.Errorf("%s instrumented: %w", prog, err)
		}
		res, err := harness.ReadRoot(prof)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", prog, err)
		}
		mhwm := map[int]int64{}
		for _, x := range res.MHWM {
			mhwm[x.P] = x.Bytes
		}
		top, sat := saturation(mhwm, pmax)
		for _, p := range c.procs {
			r := row{prog: prog, args: args, p: p, mhwm: mhwm[p], top: top, sat: sat, exact: res.Exact}
			for i := 0; i < c.runs; i++ {
				s, err := measure(plain, args, p, c.gogc, filepath.Join(tmp, "peak"))
				if err != nil {
					return nil, fmt.Errorf("%s at GOMAXPROCS=%d: %w", prog, p, err)
				}
				r.read += s.readings
				r.cycles += s.cycles - s.first
				if s.readings > 0 {
					r.peaks = append(r.peaks, max(s.peak-s.base, 0))
					r.base = max(r.base, s.base)
				}
			}
			rows = append(rows, r)
			fmt.Fprintf(log, "%s GOMAXPROCS=%d: MHWM %d, measured %v\n", prog, p, r.mhwm, r.peaks)
		}
	}
	return rows, nil
}

// writeOverlay writes a go build -overlay file adding the sampler file to
// the main package in dir, and returns its path.
func writeOverlay(tmp, sampler, dir string) (string, error) {
	o, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(dir, "spgo_peak_sampler.go"): sampler}})
	if err != nil {
		return "", err
	}
	path := filepath.Join(tmp, filepath.Base(dir)+".overlay.json")
	return path, os.WriteFile(path, o, 0o644)
}

// sample is what the sampler of one run wrote.
type sample struct {
	base, peak, readings, cycles int64
	first                        int64 // cycles before main.main
}

// measure runs bin at GOMAXPROCS=p under GOGC=gogc and reads its sampler's
// file.
func measure(bin string, args []string, p, gogc int, out string) (sample, error) {
	os.Remove(out)
	env := []string{"GOMAXPROCS=" + strconv.Itoa(p), "GOGC=" + strconv.Itoa(gogc), "GODEBUG=gcstoptheworld=1", "SPGO_PEAK_OUT=" + out}
	if err := harness.Sh("", env, bin, args...); err != nil {
		return sample{}, err
	}
	var s sample
	data, err := os.ReadFile(out)
	if err == nil {
		_, err = fmt.Sscan(string(data), &s.base, &s.peak, &s.readings, &s.cycles, &s.first)
	}
	if err != nil {
		return sample{}, fmt.Errorf("the sampler's file: %w", err)
	}
	return s, nil
}

// saturation returns MHWM at pmax and the smallest p from which it stays
// there (0 when MHWM still grows at pmax: MHWM_∞ is not known).
func saturation(mhwm map[int]int64, pmax int) (int64, int) {
	top := mhwm[pmax]
	sat := pmax
	for sat > 1 && mhwm[sat-1] == top {
		sat--
	}
	if sat == pmax {
		sat = 0
	}
	return top, sat
}

// bound is the most the true peak growth can be when the largest live
// heap a collection found was base+m: the heap that triggers the next
// collection, max(L·(1+E), 4 MiB·E), less base.
func bound(m, base int64, gogc int) int64 {
	e := float64(gogc) / 100
	return int64(max(float64(base+m)*(1+e), 4<<20*e)) - base
}

func writeTable(w io.Writer, rows []row, runs, gogc int) {
	fmt.Fprintf(w, "%d uninstrumented runs per GOMAXPROCS, GOGC=%d, stop-the-world collections; peaks are live-heap growth over the heap before main.main.\n\n", runs, gogc)
	fmt.Fprintln(w, "| program | p | MHWM_p | MHWM_∞ | measured peak (max) | median | max / MHWM_p | ≤ MHWM_p | ≤ MHWM_∞ | collections read |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|---|---:|")
	for _, r := range rows {
		m := r.max()
		name := r.prog
		if len(r.args) > 0 {
			name += " " + strings.Join(r.args, " ")
		}
		med := int64(0)
		if len(r.peaks) > 0 {
			med = harness.Median(r.peaks)
		}
		top := report.Bytes(r.top)
		if r.sat == 0 {
			top = "≥ " + top
		} else {
			top += fmt.Sprintf(" (p ≥ %d)", r.sat)
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %.2f | %s | %s | %d / %d |\n", name, r.p, report.Bytes(r.mhwm), top,
			report.Bytes(m), report.Bytes(med), float64(m)/float64(max(r.mhwm, 1)),
			verdict(r, r.mhwm, gogc), verdict(r, r.top, gogc), r.read, r.cycles)
	}
}

// verdict compares a row's measured peak with a bound.
func verdict(r row, limit int64, gogc int) string {
	m := r.max()
	switch {
	case len(r.peaks) == 0:
		return "no collection read"
	case m > limit:
		return "**no**"
	case bound(m, r.base, gogc) > limit:
		return "yes (bound above)"
	}
	return "yes"
}
