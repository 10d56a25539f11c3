package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spgo/spgo/driver"
	"github.com/spgo/spgo/internal/report"
	"github.com/spgo/spgo/rtlib/profile"
)

func cmdBuild(args []string, se session) int {
	c := newCommon("build", se, "build [-o file] [build flags] [package]")
	out := c.fs.String("o", "", "output file (default, as go build: the last element of the import path, before a /vN suffix, in the current directory)")
	pos, rest, err := c.parse(args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) > 1 || len(rest) > 0 {
		fmt.Fprintln(os.Stderr, "spbuild build: one package")
		return 2
	}
	cfg := c.config(false)
	p, pkg := c.preparePkg(&cfg, pos)
	if p == nil {
		return 1
	}
	o := *out
	if main, ok := p.IsCommand(); o == "" && ok && !main {
		// As go build does: compile, keep nothing (not an archive in
		// the user's directory).
		o = os.DevNull
	} else if o == "" && len(p.Targets) == 1 {
		o = execName(p.Targets[0].ImportPath)
	} else if o == "" {
		abs, err := filepath.Abs(filepath.Join(cfg.Dir, pkg))
		if err != nil {
			c.fail(err)
			return 1
		}
		o = filepath.Base(abs)
	}
	if o, err = filepath.Abs(o); err != nil {
		c.fail(err)
		return 1
	}
	if err := p.Build(c.ctx, cfg, o, pkg, os.Stderr); err != nil {
		c.fail(err)
		return 1
	}
	return 0
}

// execName is the file go build names a command's executable after: the
// last element of its import path, or the one before a major version
// suffix (example.com/tool/v2 builds tool).
func execName(importPath string) string {
	elems := strings.Split(importPath, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && isMajorVersion(name) {
		name = elems[len(elems)-2]
	}
	return name
}

// isMajorVersion reports whether s is v2, v3, … (a module's major
// version suffix).
func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] == '0' || s == "v1" {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func cmdRun(args []string, se session) int {
	c := newCommon("run", se, "run [-pmax n | -p list] [-threshold M] [-simulate] [-json f] [-html f] [-pprof f] [-dot f] [-q] [build flags] [package] [-- program args]")
	var pf pflags
	pf.register(c.fs)
	var sf simFlags
	c.fs.BoolVar(&sf.on, "simulate", false, "record the run's computation graph and simulate depth-first, breadth-first, work-stealing and Go-like schedules on it for each p shown")
	c.fs.StringVar(&sf.dot, "dot", "", "write the recorded graph of the program's first root as Graphviz DOT to this file, at the high-water step of -dot-at (implies -simulate)")
	c.fs.StringVar(&sf.dotAt, "dot-at", "", "the simulation -dot draws: policy or policy/p (default ws at the largest p)")
	c.fs.StringVar(&sf.trace, "trace", "", "keep the recorded graph (spgo.trace/v1) in this file (implies -simulate)")
	threshold := c.fs.String("threshold", "", "threshold mode: answer whether MHWM_pmax ≥ this size (e.g. 512MiB) instead of computing it")
	quiet := c.fs.Bool("q", false, "print no report (only write the files asked for)")
	pos, progArgs, err := c.parse(args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) > 1 {
		fmt.Fprintf(os.Stderr, "spbuild run: one package (program arguments go after --): %v\n", pos)
		return 2
	}
	pmax, ps, err := pf.resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "spbuild run:", err)
		return 2
	}
	sf.on = sf.on || sf.dot != "" || sf.trace != ""
	if _, _, err := parseAt(sf.dotAt, pmax); err != nil {
		fmt.Fprintln(os.Stderr, "spbuild run:", err)
		return 2
	}
	env := []string{"SPGO_PMAX=" + strconv.Itoa(pmax)}
	if *threshold != "" {
		m, err := parseBytes(*threshold)
		if err != nil {
			fmt.Fprintln(os.Stderr, "spbuild run: -threshold", err)
			return 2
		}
		env = append(env, "SPGO_THRESHOLD="+strconv.FormatInt(m, 10))
	}
	cfg := c.config(false)
	p, pkg := c.preparePkg(&cfg, pos)
	if p == nil {
		return 1
	}
	tmp, err := os.MkdirTemp("", "spbuild-prof-*")
	if err != nil {
		c.fail(err)
		return 1
	}
	defer os.RemoveAll(tmp)
	profPath := filepath.Join(tmp, "spgo-profile.json")
	env = append(env, "SPGO_SOURCE_ROOT="+p.Root)
	tracePath := cmp.Or(sf.trace, filepath.Join(tmp, "spgo.trace"))
	if sf.on {
		if tracePath, err = filepath.Abs(tracePath); err != nil {
			c.fail(err)
			return 1
		}
		env = append(env, "SPGO_TRACE="+tracePath)
	}
	exit, err := p.Run(c.ctx, cfg, pkg, driver.Program{
		Args: progArgs, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Env: env, BuildStderr: os.Stderr, Dir: ".", Profile: profPath,
	})
	if err != nil {
		c.fail(err)
		return 1
	}
	code := exit.Code
	prof, err := profile.ReadFile(profPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = p.MissingProfile(exit, profPath)
		}
		fmt.Fprintln(os.Stderr, "spbuild:", err)
		return max(code, 1)
	}
	if sf.on {
		if err := sf.simulate(prof, tracePath, simPs(ps, pmax)); err != nil {
			// The profile is written all the same, without simulations.
			fmt.Fprintln(os.Stderr, "spbuild:", err)
			code = max(code, 1)
		}
	}
	if err := pf.write(prof, "spbuild run "+strings.Join(args, " ")); err != nil {
		c.fail(err)
		return max(code, 1)
	}
	if !*quiet {
		if err := report.Text(os.Stderr, prof, report.Options{Ps: ps, Lines: pf.lines}); err != nil {
			c.fail(err)
			return max(code, 1)
		}
	}
	return code
}

func cmdTest(args []string, se session) int {
	c := newCommon("test", se, "test [-pmax n | -p list] [-budget file] [-json f] [-html f] [-pprof f] [-run regexp] [build flags] [packages] [-- go test flags]")
	usage := c.fs.Usage
	c.fs.Usage = func() { usage(); fmt.Fprint(c.fs.Output(), testNotes) }
	var pf pflags
	pf.register(c.fs)
	runRe := c.fs.String("run", "", "run only the tests matching this regexp (go test -run)")
	budgetFile := c.fs.String("budget", "", "fail the tests whose MHWM_p exceeds their budget in this file (lines ROOT P SIZE; docs/budgets.md)")
	quiet := c.fs.Bool("q", false, "print no report (only write the files asked for)")
	pkgs, testArgs, err := c.parse(args)
	if err != nil {
		return flagErr(err)
	}
	pmax, ps, err := pf.resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "spbuild test:", err)
		return 2
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	if *runRe != "" {
		testArgs = append([]string{"-run=" + *runRe}, testArgs...)
	}
	cfg := c.config(true)
	if len(pkgs) == 1 {
		cfg.Dir, pkgs[0] = inDir(pkgs[0])
	}
	p := c.prepare(cfg, pkgs)
	if p == nil {
		return 1
	}
	budgets, err := budgetSets(*budgetFile, p.Targets)
	if err == nil {
		err = report.ValidateBudgets(pmax, budgets...)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "spbuild test:", err)
		return 2
	}
	tmp, err := os.MkdirTemp("", "spbuild-prof-*")
	if err != nil {
		c.fail(err)
		return 1
	}
	defer os.RemoveAll(tmp)
	p.Env = append(p.Env, "SPGO_PMAX="+strconv.Itoa(pmax), "SPGO_SOURCE_ROOT="+p.Root)
	code, err := p.Test(c.ctx, cfg, pkgs, testArgs, tmp, os.Stdout, os.Stderr)
	if err != nil {
		c.fail(err)
		return 1
	}
	merged, per := collect(p, tmp, pmax)
	if len(merged.Roots) == 0 {
		if pf.json != "" || pf.html != "" || pf.pprof != "" {
			fmt.Fprintln(os.Stderr, "spbuild test: no test wrote a profile; -json, -html and -pprof not written")
		}
	} else if err := pf.write(merged, "spbuild test "+strings.Join(args, " ")); err != nil {
		c.fail(err)
		return max(code, 1)
	}
	if !*quiet {
		for _, pp := range per {
			if err := report.Tests(os.Stderr, pp.path, pp.prof, report.Options{Ps: ps}); err != nil {
				c.fail(err)
				return max(code, 1)
			}
		}
	}
	if len(budgets) > 0 {
		ok, err := checkBudgets(merged, budgets, pf.lines, *quiet)
		if err != nil {
			c.fail(err)
			return max(code, 1)
		}
		if !ok {
			code = max(code, 1)
		}
	}
	return code
}

// testNotes follows the flags in spbuild test -h.
const testNotes = `
Budgets: -budget FILE has lines "ROOT P SIZE", such as "TestRender 8 64MiB"
(ROOT a test's name, importpath.TestName, a pattern such as Test*, or * for
any; P a processor count or max; the first ROOT that matches a test wins),
and a test function's doc comment may hold "//spgo:budget 64MiB p=8", which
wins over the file. A test fails its budget when MHWM_P, or the high end of
its interval, exceeds it; the lines responsible are printed.

Exit status: 0 when every test passed and met its budgets; 1 when a test
failed or did not build (go test's status), when every test passed but one
exceeded its budget, or when spbuild could not instrument the packages; 2
for bad usage, a bad budget file or marker; otherwise go test's status.
`

type pkgProfile struct {
	path string
	prof *profile.Profile
}

// collect reads the profiles the test binaries wrote, one per package,
// and merges them into one whose roots are named by package.
func collect(p *driver.Prepared, dir string, pmax int) (*profile.Profile, []pkgProfile) {
	merged := &profile.Profile{Schema: profile.Schema, Program: "go test", PMax: pmax}
	var per []pkgProfile
	for _, ip := range slices.Sorted(maps.Keys(p.Packages)) {
		prof, err := profile.ReadFile(driver.ProfileFor(dir, p.Packages[ip]))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "spbuild: %s: %v\n", ip, err)
			continue
		}
		per = append(per, pkgProfile{ip, prof})
		merged.Census = prof.Census
		merged.Threshold = prof.Threshold
		merged.Partial = merged.Partial || prof.Partial
		merged.SourceRoot = prof.SourceRoot
		for _, r := range prof.Roots {
			r.Name = ip + " " + r.Name
			merged.Roots = append(merged.Roots, r)
		}
		merged.Warnings = append(merged.Warnings, prof.Warnings...)
	}
	return merged, per
}

// preparePkg instruments the one package of pos ("." if none), in its
// own directory (see inDir), setting cfg.Dir.
func (c *common) preparePkg(cfg *driver.Config, pos []string) (*driver.Prepared, string) {
	pkg := "."
	if len(pos) == 1 {
		pkg = pos[0]
	}
	cfg.Dir, pkg = inDir(pkg)
	return c.prepare(*cfg, []string{pkg}), pkg
}

// inDir turns a package given as a local directory into that directory
// and ".": the package is then built in its own module, even one nested
// in the current one (as the examples under testdata/ are). Other
// patterns stay relative to the current directory.
func inDir(pkg string) (dir, pattern string) {
	local := pkg == "." || strings.HasPrefix(pkg, "./") || strings.HasPrefix(pkg, "../") || filepath.IsAbs(pkg)
	if !local || strings.Contains(pkg, "...") {
		return "", pkg
	}
	if st, err := os.Stat(pkg); err != nil || !st.IsDir() {
		return "", pkg
	}
	return pkg, "."
}

func flagErr(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
