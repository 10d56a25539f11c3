// Command realsuites runs the test suites of public modules plain and
// under spbuild test, side by side (issue #22's real-suite harness;
// bench/realsuites/run calls it).
//
// For every module of the pinned list (modules.go; the held-out list
// with the argument heldout) it downloads the
// exact version through the Go module proxy into the go command's module
// cache, copies it into a writable directory under a scratch directory
// outside the repository (-dir; nothing of it is ever committed), and
// checks that its packages and tests resolve with go.mod as published
// (go mod download completes a go.sum that lacks entries; go.mod is never
// changed, a missing go line included, and the table says so). Then,
// one module at a time:
//
//	warm-up  go test -run '^$' and spbuild test -run '^$', so that the
//	         timed runs find the build caches warm
//	plain    go test -count=1 -vet=off -p 1 -timeout=10m -json ./...
//	spgo     spbuild test -q ./... -- -p 1 -timeout=10m -json
//	         (spbuild adds -count=1 -vet=off itself)
//
// each under a timeout (-timeout, per module and mode) that kills the
// command's process group. go test's own -timeout (-pkgtimeout, per test
// binary) stops a package that hangs first, with a goroutine dump in the
// log, so that the module's other packages still run. With -runs > 1 the
// two modes alternate round after round and the times are medians; a
// test counts as passed only if it passed in every round. spbuild is
// built from this repository.
//
// It prints a Markdown table: tests passed plain and instrumented (the
// goal: equal lists), tests lost (passed plain, failed or missing
// instrumented), the wall-time ratio (goal ≤ 5×), watchdog events (lines
// "spgo: warning:" in the output, goal 0) and spbuild's errors; then,
// per module, the lost tests, the tests instrumentation slowed most,
// where the watchdog stepped in, and spbuild's messages. The logs of
// every run are kept under -dir/logs.
//
// It needs the module proxy and takes long: it is not part of go test.
//
// Usage:
//
//	go run ./bench/realsuites [-dir $TMPDIR/spgo-realsuites] [-timeout 25m] [-pkgtimeout 10m] [-runs 1] [module ...]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spgo/spgo/bench/internal/harness"
)

// result is one module's runs.
type result struct {
	mod   module
	ws    *workspace
	err   error // the module could not be fetched or prepared
	plain []*outcome
	spgo  []*outcome
	trim  *strings.Replacer // shortens the scratch paths in messages
}

func main() {
	dir := flag.String("dir", filepath.Join(os.TempDir(), "spgo-realsuites"), "scratch directory (outside the repository)")
	timeout := flag.Duration("timeout", 25*time.Minute, "time allowed to one module's suite in one mode")
	pkgTimeout := flag.Duration("pkgtimeout", 10*time.Minute, "go test -timeout: time allowed to one package's test binary (go test's own default)")
	runs := flag.Int("runs", 1, "timed rounds per module (the median time is reported)")
	flag.Parse()
	lim := limits{module: *timeout, pkg: *pkgTimeout}
	results, err := run(*dir, lim, *runs, flag.Args())
	if err == nil {
		writeTable(os.Stdout, results, *runs, lim)
		writeDetails(os.Stdout, results)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realsuites:", err)
		os.Exit(1)
	}
}

// limits are the timeouts of the suites.
type limits struct {
	module time.Duration // one module in one mode (the harness kills it)
	pkg    time.Duration // one package's test binary (go test -timeout)
}

func run(dir string, lim limits, runs int, only []string) ([]*result, error) {
	root, err := harness.RepoRoot()
	if err != nil {
		return nil, err
	}
	if dir, err = harness.ScratchDir(root, dir); err != nil {
		return nil, err
	}
	mods, err := selectModules(only)
	if err != nil {
		return nil, err
	}
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return nil, fmt.Errorf("scratch directory: %w", err)
	}
	spbuild := filepath.Join(dir, "spbuild")
	if err := harness.Sh(root, nil, "go", "build", "-o", spbuild, "./cmd/spbuild"); err != nil {
		return nil, err
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local", "SPGO_CACHE="+filepath.Join(dir, "spgo-cache"))
	var results []*result
	for _, m := range mods {
		r := &result{mod: m, trim: strings.NewReplacer(dir+"/src/", "", dir+"/spgo-cache/", "")}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "%s@%s: fetching\n", m.Path, m.Version)
		if r.ws, r.err = fetch(m, dir, env); r.err != nil {
			fmt.Fprintln(os.Stderr, r.err)
			continue
		}
		pt := "-timeout=" + lim.pkg.String()
		plainArgs := []string{"test", "-count=1", "-vet=off", "-p", "1", pt, "-json", "./..."}
		spgoArgs := []string{"test", "-q", "./...", "--", "-p", "1", pt, "-json"}
		base := filepath.Join(logs, strings.ReplaceAll(m.Short, "/", "_"))
		fmt.Fprintf(os.Stderr, "%s: warming the build caches\n", m.Short)
		if _, err := runSuite(r.ws.Dir, env, lim.module, base+".warm-plain.log", "go", "test", "-count=1", "-vet=off", "-p", "1", "-run", "^$", "./..."); err != nil {
			return nil, err
		}
		if _, err := runSuite(r.ws.Dir, env, lim.module, base+".warm-spgo.log", spbuild, "test", "-q", "-run", "^$", "./...", "--", "-p", "1"); err != nil {
			return nil, err
		}
		for round := 1; round <= runs; round++ {
			p, err := runSuite(r.ws.Dir, env, lim.module, fmt.Sprintf("%s.plain.%d.log", base, round), "go", plainArgs...)
			if err != nil {
				return nil, err
			}
			s, err := runSuite(r.ws.Dir, env, lim.module, fmt.Sprintf("%s.spgo.%d.log", base, round), spbuild, spgoArgs...)
			if err != nil {
				return nil, err
			}
			r.plain, r.spgo = append(r.plain, p), append(r.spgo, s)
			fmt.Fprintf(os.Stderr, "%s round %d: plain %.1f s (%d passed), spgo %.1f s (%d passed, %d watchdog events)\n",
				m.Short, round, p.Secs, p.count("pass"), s.Secs, s.count("pass"), len(s.Warnings))
		}
	}
	return results, nil
}

// selectModules returns the modules named by short name or path, or all.
func selectModules(only []string) ([]module, error) {
	if len(only) == 0 {
		return modules, nil
	}
	all := slices.Concat(modules, heldout)
	var mods []module
	for _, name := range only {
		switch name {
		case "tuning":
			mods = append(mods, modules...)
			continue
		case "heldout":
			mods = append(mods, heldout...)
			continue
		}
		i := slices.IndexFunc(all, func(m module) bool { return m.Short == name || m.Path == name })
		if i < 0 {
			return nil, fmt.Errorf("no module %q in the pinned lists", name)
		}
		mods = append(mods, all[i])
	}
	return mods, nil
}
