// Command realprogs runs public Go programs plain and under spbuild and
// checks that spgo changes nothing they print (issue #22's real-program
// harness; bench/realprogs/run calls it, BENCHMARKS.md quotes its table).
//
// For every program of the pinned list (programs.go: the main package of
// a module at an exact version, its arguments and standard input) it
//
//   - fetches the module through the Go module proxy into the module
//     cache and copies it into a writable scratch directory outside the
//     repository (-dir; nothing fetched is ever committed), writes the
//     program's generated inputs there (deterministic, seeded), and builds
//     it plain with go build;
//   - runs it plain once (the reference), then builds it with spbuild build
//     (a failure is the "build" status) and runs it once as a user would,
//     spbuild run -q -json profile <pkg> -- <args>: its stdout (and the
//     files it writes) must be byte-identical to the plain run's, its exit
//     status the same, and it must end within -timeout; the spgo: warning:
//     lines on its stderr (watchdog events) are counted, the profile's
//     roots read (exact or not, MHWM at -pmax);
//   - runs -runs interleaved rounds of the plain binary and of the
//     instrumented one (what spbuild run runs: the same environment,
//     SPGO_PMAX and SPGO_PROFILE), each checked like the first, and takes
//     the ratio of the median wall times.
//
// One program at a time. It prints a Markdown table on stdout, progress
// on stderr.
//
// Usage:
//
//	go run ./bench/realprogs [-dir $TMPDIR/spgo-realprogs] [-runs 3] [-timeout 5m] [-pmax 64] [program ...]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spgo/spgo/bench/internal/harness"
)

// runner holds the settings of one run of the command.
type runner struct {
	dir     string // the scratch directory
	spbuild string // spbuild built from this repository
	runs    int
	pmax    int
	timeout time.Duration
}

func main() {
	h := &runner{}
	flag.StringVar(&h.dir, "dir", filepath.Join(os.TempDir(), "spgo-realprogs"), "scratch directory, outside the repository")
	flag.IntVar(&h.runs, "runs", 3, "interleaved rounds of plain and instrumented runs (the median is reported)")
	flag.IntVar(&h.pmax, "pmax", 64, "spbuild's -pmax")
	flag.DurationVar(&h.timeout, "timeout", 5*time.Minute, "limit of each build and each run")
	list := flag.Bool("list", false, "list the programs and exit")
	flag.Parse()
	if *list {
		for _, p := range programs {
			fmt.Printf("%-15s %-7s %s %s\n", p.name, p.kind, p.module, p.pkg)
		}
		return
	}
	if err := h.main(flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "realprogs:", err)
		os.Exit(1)
	}
}

// main measures the programs named in only (all if empty) and prints
// the table.
func (h *runner) main(only []string) error {
	root, err := harness.RepoRoot()
	if err != nil {
		return err
	}
	if h.dir, err = harness.ScratchDir(root, h.dir); err != nil {
		return err
	}
	h.spbuild = filepath.Join(h.dir, "spbuild")
	if err := harness.Sh(root, nil, "go", "build", "-o", h.spbuild, "./cmd/spbuild"); err != nil {
		return err
	}
	var results []*result
	for _, p := range programs {
		if len(only) > 0 && !slices.Contains(only, p.name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "realprogs: %s (%s %s)\n", p.name, p.module, p.pkg)
		r := h.measure(p)
		fmt.Fprintf(os.Stderr, "realprogs: %s: %s %s\n", p.name, r.status, r.detail)
		results = append(results, r)
	}
	if len(results) == 0 {
		return fmt.Errorf("no program named %v (-list lists them)", only)
	}
	writeTable(os.Stdout, results, h)
	return nil
}
