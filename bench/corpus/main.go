// Command corpus measures what spgo costs on the accuracy corpus of
// rtlib/testdata/accuracy (issue 36: the everyday shapes), side by side
// in one run: each program uninstrumented at GOMAXPROCS=1 and
// instrumented in exact mode, round after round, interleaved. It prints
// a Markdown table: the median CPU time (user + system) of each, their
// ratio and the geometric mean of the ratios, and each instrumented
// run's exactness, censuses and censuses per strand. Every instrumented
// run's output must equal the plain run's.
//
// Usage:
//
//	go run ./bench/corpus [-runs 5] [program ...]
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spgo/spgo/bench/internal/harness"
)

func main() {
	runs := flag.Int("runs", 5, "runs of each configuration (the median is reported)")
	flag.Parse()
	if err := run(*runs, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
}

// result is one program's measurements.
type result struct {
	prog       string
	plain, spg []float64 // CPU seconds
	root       harness.Root
}

func run(runs int, progs []string) error {
	b, done, err := harness.TempBuilder("spgo-corpus-*")
	if err != nil {
		return err
	}
	defer done()
	dir := filepath.Join("rtlib", "testdata", "accuracy")
	if len(progs) == 0 {
		entries, err := os.ReadDir(filepath.Join(b.Root, dir))
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.IsDir() {
				progs = append(progs, e.Name())
			}
		}
	}
	// spbuild instruments a main module's packages, which testdata
	// directories are not: the programs (standard library only) are
	// copied into a module of their own.
	spbuild := filepath.Join(b.Dir, "spbuild") // harness.NewBuilder put it there
	mod := filepath.Join(b.Dir, "mod")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		return err
	}
	// Some import golang.org/x/sync: the module requires what spgo's does.
	gomod, err := os.ReadFile(filepath.Join(b.Root, "go.mod"))
	if err != nil {
		return err
	}
	goLine, req := "go 1.25\n", ""
	for _, l := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "go" {
			goLine = l + "\n"
		} else if len(f) >= 2 && f[0] == "golang.org/x/sync" {
			req = "require golang.org/x/sync " + f[1] + "\n"
		}
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module corpus\n\n"+goLine+"\n"+req), 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(b.Root, "go.sum"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644); err != nil {
		return err
	}
	var rs []*result
	for _, p := range progs {
		src, err := os.ReadFile(filepath.Join(b.Root, dir, p, "main.go"))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(mod, p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(mod, p, "main.go"), src, 0o644); err != nil {
			return err
		}
		if err := harness.Sh(mod, nil, "go", "build", "-o", filepath.Join(b.Dir, p), "./"+p); err != nil {
			return err
		}
		env := []string{"SPGO_CACHE=" + filepath.Join(b.Dir, "cache")}
		if err := harness.Sh(mod, env, spbuild, "build", "-o", filepath.Join(b.Dir, p+".spgo"), "./"+p); err != nil {
			return err
		}
		rs = append(rs, &result{prog: p})
	}
	for range runs {
		for _, r := range rs {
			plain, err := harness.Timed(filepath.Join(b.Dir, r.prog), nil, []string{"GOMAXPROCS=1"})
			if err != nil {
				return err
			}
			prof := filepath.Join(b.Dir, r.prog+".json")
			inst, err := harness.Timed(filepath.Join(b.Dir, r.prog+".spgo"), nil, []string{"SPGO_PROFILE=" + prof})
			if err != nil {
				return err
			}
			if inst.Stdout != plain.Stdout {
				return fmt.Errorf("%s: instrumented output %q, plain %q", r.prog, inst.Stdout, plain.Stdout)
			}
			if r.root, err = harness.ReadRoot(prof); err != nil {
				return err
			}
			r.plain, r.spg = append(r.plain, plain.CPUSecs), append(r.spg, inst.CPUSecs)
		}
	}
	fmt.Println("| program | plain-1 CPU s | spgo CPU s | ratio | exact | censuses | per strand |")
	fmt.Println("|---|---|---|---|---|---|---|")
	logSum := 0.0
	for _, r := range rs {
		p, s := harness.Median(r.plain), harness.Median(r.spg)
		ratio := s / max(p, 1e-3)
		logSum += math.Log(ratio)
		fmt.Printf("| %s | %.3f | %.3f | %.2f | %v | %d | %.3f |\n", r.prog, p, s, ratio, r.root.Exact, r.root.Censuses,
			float64(r.root.Censuses)/float64(max(r.root.Strands, 1)))
	}
	fmt.Printf("| geometric mean | | | %.2f | | | |\n", math.Exp(logSum/float64(len(rs))))
	return nil
}
