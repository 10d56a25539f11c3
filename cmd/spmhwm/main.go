// Command spmhwm computes the p-processor memory high-water mark of a
// recorded event stream (the text format of mhwm.Replay) and explains the
// worst case line by line. It is the engine's own front end: spbuild
// produces the same figures from a running program.
//
// Usage:
//
//	spmhwm [-p pmax] [-threshold M] [-lines n] file.ev
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/spgo/spgo/rtlib/mhwm"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spmhwm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pmax := fs.Int("p", 8, "largest processor count `pmax`; MHWM_q is computed for every q ≤ pmax")
	threshold := fs.Int64("threshold", 0, "answer only whether MHWM_pmax ≥ `M`/2 or < M (threshold mode)")
	lines := fs.Int("lines", 10, "show the `n` largest sites of the worst case")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: spmhwm [-p pmax] [-threshold M] [-lines n] file.ev\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	name := fs.Arg(0)
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintf(stderr, "spmhwm: %v\n", err)
		return 1
	}
	defer f.Close()
	cfg := mhwm.Config{P: *pmax, Threshold: *threshold, Attribution: *threshold == 0}
	res, names, err := mhwm.Replay(f, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "spmhwm: %s: %v\n", name, err)
		return 1
	}
	if err := report(stdout, name, res, names, *lines); err != nil {
		fmt.Fprintf(stderr, "spmhwm: %s: %v\n", name, err)
		return 1
	}
	return 0
}

func report(w io.Writer, name string, res *mhwm.Result, names map[mhwm.Site]string, lines int) error {
	fmt.Fprintf(w, "%s: %d strands, %d spawns, span %d strands, parallelism %.2f\n",
		name, res.Strands, res.Spawns, res.Span, res.Parallelism())
	fmt.Fprintf(w, "serial (child-first) peak: %s\n", human(res.SerialPeak))
	for _, why := range res.Inexact {
		fmt.Fprintf(w, "exact: false: %s\n", why)
	}
	if t := res.Threshold; t != nil {
		verdict := fmt.Sprintf("MHWM_%d < %s", t.P, human(t.M))
		if t.AtLeastHalf {
			verdict = fmt.Sprintf("MHWM_%d ≥ %s", t.P, human(t.M/2))
		}
		fmt.Fprintf(w, "threshold M = %s, p = %d: %s (robust value %s)\n", human(t.M), t.P, verdict, human(t.Value))
		return nil
	}
	fmt.Fprintf(w, "\n%6s  %14s\n", "p", "MHWM_p bytes")
	for q := 1; q <= res.PMax; q++ {
		if q&(q-1) == 0 || q == res.PMax {
			fmt.Fprintf(w, "%6d  %14d  %12s\n", q, res.MHWM[q], human(res.MHWM[q]))
		}
	}
	a, err := res.Attribute(res.PMax)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nworst case for p = %d: %s with %d strands running\n", a.Q, human(a.MHWM), len(a.Antichain))
	sites := slices.Clone(a.Sites)
	slices.SortStableFunc(sites, func(x, y mhwm.SiteShare) int {
		switch {
		case x.Total() > y.Total():
			return -1
		case x.Total() < y.Total():
			return 1
		}
		return 0
	})
	fmt.Fprintf(w, "%-24s %12s %12s %12s %12s\n", "site", "running", "completed", "suspended", "total")
	for i, s := range sites {
		if i == lines {
			fmt.Fprintf(w, "(%d more sites)\n", len(sites)-lines)
			break
		}
		n := names[s.Site]
		if n == "" {
			n = fmt.Sprintf("site %d", s.Site)
		}
		fmt.Fprintf(w, "%-24s %12s %12s %12s %12s\n", n, human(s.Running), human(s.Completed), human(s.Suspended), human(s.Total()))
	}
	return nil
}

// human formats n for reading, in binary units when it is large.
func human(n int64) string {
	const ki, mi, gi = 1 << 10, 1 << 20, 1 << 30
	switch a := max(n, -n); {
	case a >= gi:
		return fmt.Sprintf("%.2f GiB", float64(n)/gi)
	case a >= mi:
		return fmt.Sprintf("%.2f MiB", float64(n)/mi)
	case a >= 10*ki:
		return fmt.Sprintf("%.1f KiB", float64(n)/ki)
	}
	return fmt.Sprintf("%d B", n)
}
