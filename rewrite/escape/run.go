package escape

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Options configure Run. The zero value analyses `go build` of the named
// packages with the go command found in $PATH.
type Options struct {
	// Tests analyses the test build (`go test`): each package with test
	// files is compiled with its _test.go files, as `go test -c` does,
	// the others as `go build` does.
	Tests bool
	// GCFlags are the compiler flags that the real build gives the named
	// packages, for example -l or -N, which change escape decisions. Run
	// adds -m and -json.
	GCFlags []string
	// BuildFlags are other flags of the go command: -tags, -mod, -race,
	// -pgo and so on. A -gcflags here applies only to packages that are not
	// named (Run's own -gcflags comes last and wins for the named ones);
	// -trimpath is dropped, because it makes the compiler's file names
	// unresolvable; -o, -c, -json and -n are rejected.
	BuildFlags []string
	// Env is added to the go command's environment (os.Environ()).
	Env []string
	// Go is the go command; the default is "go", looked up in $PATH.
	Go string
}

// maxProblemLines is how much of a failed build's output an error quotes.
const maxProblemLines = 10

// Run compiles the packages matched by patterns in dir with the compiler's
// diagnostics on and returns the decisions for the named packages (and,
// with opts.Tests, their test files). Every package that inlines
// functions of an instrumented package must be named too: the decisions
// for the copies of a site inlined into a package are found only when that
// package is analysed.
//
// The named packages are always compiled, never taken from the build
// cache: the optimisation log (-json) that attributes inlined copies is
// not replayed from the cache, and the replayed -m output has paths
// relative to the directory of the build that filled the cache.
func Run(ctx context.Context, dir string, opts Options, patterns ...string) (*Result, error) {
	what := strings.Join(patterns, " ")
	if what == "" {
		what = "."
	}
	a, err := run(ctx, dir, opts, patterns)
	if err != nil {
		return nil, fmt.Errorf("escape analysis of %s: %w", what, err)
	}
	r := NewResult(a.sites)
	r.lost = a.lost
	r.inlined = make(map[position]bool)
	for _, p := range a.inlined {
		r.inlined[p] = true
	}
	return r, nil
}

// analysis is what the go commands of a Run find.
type analysis struct {
	sites   []Site     // the decisions, with escaping inlined copies at their sites
	lost    []Site     // escaping inlined copies whose site is not known (lostCopies)
	inlined []position // the calls inlined ("inlining call to f")
}

func run(ctx context.Context, dir string, opts Options, patterns []string) (*analysis, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	goCmd := opts.Go
	if goCmd == "" {
		goCmd = "go"
	}
	path, err := exec.LookPath(goCmd)
	if err != nil {
		return nil, fmt.Errorf("go command %q: %w", goCmd, err)
	}
	flags, err := buildFlags(opts.BuildFlags)
	if err != nil {
		return nil, err
	}
	g := &goTool{path: path, dir: dir, env: opts.Env, flags: flags, gcflags: opts.GCFlags}
	pkgs, err := g.list(ctx, patterns)
	if err != nil {
		return nil, err
	}
	return g.analyseAll(ctx, plan(pkgs, patterns, opts.Tests))
}

// A job is one go command: `go build` or `go test -c` of some packages.
type job struct {
	mode string // "build" or "test"
	args []string
}

// plan divides the packages between go commands so that no two packages
// compiled with -m in one command write the same -json log files: the
// compiler names a package's log directory after its import path, which
// is "main" for every command and for the test main package, and `go
// test` of several packages compiles a package both as itself (for
// another package's test) and with its test files. So every main package
// and, with tests, every package with test files gets a go command of its
// own; the other packages share one.
func plan(pkgs []listed, patterns []string, tests bool) []job {
	var jobs []job
	shared := job{mode: "build"}
	for _, p := range pkgs {
		args := []string{p.ImportPath}
		if p.ImportPath == "command-line-arguments" {
			args = patterns // .go files named on the command line
		}
		switch {
		case tests && len(p.TestGoFiles)+len(p.XTestGoFiles) > 0:
			jobs = append(jobs, job{"test", args})
		case len(p.GoFiles)+len(p.CgoFiles) == 0:
			// only test files, and no tests wanted
		case p.Name == "main" || p.ImportPath == "command-line-arguments":
			jobs = append(jobs, job{"build", args})
		default:
			shared.args = append(shared.args, args...)
		}
	}
	if len(shared.args) > 0 {
		jobs = append([]job{shared}, jobs...)
	}
	return jobs
}

// analyseAll runs the jobs, several at a time, and returns what they
// found in job order, or the error of the first job that failed.
func (g *goTool) analyseAll(ctx context.Context, jobs []job) (*analysis, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	found := make([]*analysis, len(jobs))
	errs := make([]error, len(jobs))
	limit := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			limit <- struct{}{}
			defer func() { <-limit }()
			found[i], errs[i] = g.analyse(ctx, j.mode, j.args)
			if errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	// A job canceled because another failed reports context.Canceled.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, err // the caller canceled
		}
	}
	all := &analysis{}
	for _, a := range found {
		all.sites = append(all.sites, a.sites...)
		all.lost = append(all.lost, a.lost...)
		all.inlined = append(all.inlined, a.inlined...)
	}
	return all, nil
}

// buildFlags checks the user's flags of the go command.
func buildFlags(flags []string) ([]string, error) {
	var out []string
	for _, f := range flags {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if !strings.HasPrefix(f, "-") {
			name = ""
		}
		switch name {
		case "trimpath":
			continue
		case "o", "c", "json", "n":
			return nil, fmt.Errorf("build flag %s is not allowed", f)
		}
		out = append(out, f)
	}
	return out, nil
}

// goTool runs the go command.
type goTool struct {
	path, dir string
	env       []string
	flags     []string // build flags
	gcflags   []string // the real build's compiler flags
}

// command returns the go command with the given arguments.
func (g *goTool) command(ctx context.Context, args []string, stdout, stderr io.Writer) *exec.Cmd {
	cmd := exec.CommandContext(ctx, g.path, args...)
	cmd.Dir = g.dir
	cmd.Env = append(cmd.Environ(), g.env...) // Environ sets PWD to Dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// Cancelled (spbuild interrupted): interrupt it, so that it removes
	// its work directory, and kill it only if it has not ended soon.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// analyse compiles pkgs with `go build` or `go test -c` and returns the
// decisions, with escaping inlined copies attributed to their sites.
func (g *goTool) analyse(ctx context.Context, mode string, pkgs []string) (*analysis, error) {
	logDir, err := os.MkdirTemp("", "spgo-escape-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(logDir)
	gcflags, err := joinFlags(append(slices.Clone(g.gcflags), "-m", logFlag(logDir)))
	if err != nil {
		return nil, err
	}
	args := []string{mode}
	if mode == "test" {
		// go test -c vets by default: a package whose tests vet
		// rejects still builds, and spbuild test runs it with
		// -vet=off, as go test -vet=off would.
		args = append(args, "-c", "-vet=off")
	}
	args = append(args, "-o", os.DevNull)
	args = append(args, g.flags...)
	args = append(args, "-gcflags="+gcflags)
	args = append(args, pkgs...)

	var stderr bytes.Buffer
	runErr := g.command(ctx, args, io.Discard, &stderr).Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	out, err := parse(&stderr, g.dir)
	if err != nil {
		return nil, err
	}
	if runErr != nil {
		return nil, &BuildError{Mode: mode, Err: runErr, Problems: out.problems}
	}
	found, err := readLogs(logDir)
	if err != nil {
		return nil, err
	}
	a := &analysis{sites: append(out.sites, found.inlined...), lost: lostCopies(out, found)}
	for p := range out.inlineCalls {
		a.inlined = append(a.inlined, p)
	}
	return a, nil
}

// quote formats the first lines of a failed build's output.
// BuildError is a compilation of the original packages that failed:
// they do not build, instrumented or not.
type BuildError struct {
	Mode     string   // "build" or "test"
	Err      error    // the go command's
	Problems []string // its messages (compile or link errors), with their "# pkg" headers
}

// Error quotes the first maxProblemLines messages.
func (e *BuildError) Error() string {
	return fmt.Sprintf("go %s: %v%s", e.Mode, e.Err, quote(e.Problems))
}

func (e *BuildError) Unwrap() error { return e.Err }

func quote(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	if len(lines) > maxProblemLines {
		lines = append(lines[:maxProblemLines:maxProblemLines], "...")
	}
	return ":\n" + strings.Join(lines, "\n")
}

// lostCopies returns the escapes -m reports at a call that the compiler
// inlined and that the optimisation log does not account for. The
// compiler names a package's log files after their base names only, and
// a file whose name is that of another file with diagnostics in the same
// package (maps/iter.go and slices/iter.go, both instantiated here, say)
// overwrites it. Such an escaping copy cannot be attributed to its site:
// Result.Lost reports it at the call, and the caller must count the code
// inlined there conservatively.
func lostCopies(out *output, found *logs) []Site {
	var lost []Site
	for _, s := range out.sites {
		if s.Kind.Escapes() && out.inlineCalls[s.pos()] && !found.escapes[s.pos()] {
			lost = append(lost, s)
		}
	}
	return lost
}

// joinFlags quotes flags for -gcflags the way the go command splits them.
func joinFlags(flags []string) (string, error) {
	var b strings.Builder
	for i, f := range flags {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case f != "" && !strings.ContainsAny(f, " \t\n\r'\""):
			b.WriteString(f)
		case !strings.Contains(f, "'"):
			b.WriteString("'" + f + "'")
		case !strings.Contains(f, `"`):
			b.WriteString(`"` + f + `"`)
		default:
			return "", fmt.Errorf("cannot quote compiler flag %q", f)
		}
	}
	return b.String(), nil
}

// listed is what `go list` tells Run about a package.
type listed struct {
	ImportPath, Name          string
	GoFiles, CgoFiles         []string
	TestGoFiles, XTestGoFiles []string
}

// list returns the packages matched by patterns.
func (g *goTool) list(ctx context.Context, patterns []string) ([]listed, error) {
	args := append([]string{"list", "-json=ImportPath,Name,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles"}, g.flags...)
	args = append(args, patterns...)
	var stdout, stderr bytes.Buffer
	if err := g.command(ctx, args, &stdout, &stderr).Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("go list: %w%s", err, quote(nonEmptyLines(stderr.String())))
	}
	var pkgs []listed
	for dec := json.NewDecoder(&stdout); ; {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		pkgs = append(pkgs, p)
	}
}

// nonEmptyLines splits s into its non-empty lines.
func nonEmptyLines(s string) []string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
