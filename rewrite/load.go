package rewrite

import (
	"context"
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/spgo/spgo/rewrite/escape"
)

// Config says which packages to rewrite and how to build them.
type Config struct {
	// Dir is the directory the patterns are relative to (in the module).
	Dir string
	// Tests rewrites the packages' test files too.
	Tests bool
	// BuildFlags are passed to the go command (-tags and the like).
	BuildFlags []string
	// Env is the go command's environment; nil means os.Environ().
	Env []string
	// NoEscape skips the escape analysis and hooks every allocation site
	// (for tests: the counts are then too high).
	NoEscape bool
	// Check are analyzers run over the loaded packages; their
	// diagnostics become warnings. spbuild passes spvet's nonsp: the
	// figures of goroutine groups that are not series-parallel are not
	// exact, and the user is told where.
	Check []*analysis.Analyzer
}

// Result is the rewriting of a set of packages.
type Result struct {
	// Files maps the absolute path of every instrumented file to its
	// output; files with nothing to instrument are absent and build as
	// they are.
	Files map[string]*Output
	// Warnings lists what was not instrumented, sorted by position.
	Warnings []Warning
	// Escape is the compiler's escape analysis of the original packages
	// (nil with Config.NoEscape).
	Escape *escape.Result
}

// Paths returns the instrumented files' paths, sorted.
func (r *Result) Paths() []string {
	var ps []string
	for p := range r.Files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// LoadError is a package that does not load or type-check; Errors are
// the go command's or the type checker's messages, with positions.
type LoadError struct {
	Errors []string
}

func (e *LoadError) Error() string {
	return strings.Join(e.Errors, "\n")
}

// Packages loads the packages matched by patterns, runs the compiler's
// escape analysis on them, and rewrites every file that has something to
// instrument.
func Packages(ctx context.Context, cfg Config, patterns ...string) (*Result, error) {
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
		packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedTypesSizes |
		packages.NeedImports | packages.NeedModule
	pcfg := &packages.Config{
		Context:    ctx,
		Mode:       mode,
		Dir:        cfg.Dir,
		Env:        cfg.Env,
		BuildFlags: cfg.BuildFlags,
		Tests:      cfg.Tests,
	}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) > 0 {
		sort.Strings(msgs)
		return nil, &LoadError{Errors: slices.Compact(msgs)}
	}
	var esc Escapes
	var escRes *escape.Result
	if !cfg.NoEscape {
		res, err := escape.Run(ctx, cfg.Dir, escape.Options{Tests: cfg.Tests, BuildFlags: cfg.BuildFlags, Env: cfg.Env}, patterns...)
		if err != nil {
			return nil, err
		}
		esc, escRes = res, res
	}
	// Test variants first: they hold every file of the package, so the
	// generated names are checked against the test files' names too.
	sort.SliceStable(pkgs, func(i, j int) bool {
		ti, tj := strings.Contains(pkgs[i].ID, "["), strings.Contains(pkgs[j].ID, "[")
		if ti != tj {
			return ti
		}
		return pkgs[i].ID < pkgs[j].ID
	})
	out := &Result{Files: map[string]*Output{}, Escape: escRes}
	if escRes != nil {
		var lost []Warning
		esc, lost = conservative(esc, escRes, pkgs)
		out.Warnings = append(out.Warnings, lost...)
	}
	done := map[string]bool{}
	warned := map[string]bool{} // modelled packages
	instrumented := map[string]bool{}
	for _, p := range pkgs {
		if !isTestMain(p) && p.Types != nil && !modelled[p.Types.Path()] {
			instrumented[p.Types.Path()] = true
		}
	}
	for _, p := range pkgs {
		if isTestMain(p) {
			continue
		}
		cgo, err := cgoPackage(p, done)
		if err != nil {
			// Leave the cgo files as they are: the rest of the package
			// is instrumented all the same.
			for _, g := range cgo.names {
				done[g] = true
				out.Warnings = append(out.Warnings, Warning{Pos: token.Position{Filename: g}, Reason: "cgo file: not instrumented (" + err.Error() + ")"})
			}
			cgo = nil
		}
		names := newNamer(append(slices.Clip(p.Syntax), cgo.files()...))
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			if done[name] || !isGoSource(name, p) {
				continue
			}
			if p.Types != nil && modelled[p.Types.Path()] && !strings.HasSuffix(name, "_test.go") {
				// Its callers' calls are hooked; instrumenting its own
				// goroutines and channels too would run each task twice.
				done[name] = true
				if !warned[p.Types.Path()] {
					warned[p.Types.Path()] = true
					out.Warnings = append(out.Warnings, Warning{Pos: token.Position{Filename: name}, Reason: p.Types.Path() + " not instrumented: rtlib implements its API, at the calls into it (only its tests are instrumented)"})
				}
				continue
			}
			done[name] = true
			o, err := File(Input{Fset: p.Fset, File: f, Pkg: p.Types, Info: p.TypesInfo, Names: names, Esc: esc, Sizes: p.TypesSizes, Instrumented: instrumented})
			if err != nil {
				return nil, err
			}
			out.Warnings = append(out.Warnings, o.Warnings...)
			if o.Changed {
				out.Files[name] = o
			}
		}
		for i, f := range cgo.files() {
			name := cgo.names[i]
			done[name] = true
			o, err := cgo.rewrite(Input{Fset: p.Fset, File: f, Names: names, Esc: esc, Sizes: p.TypesSizes, Instrumented: instrumented})
			if err != nil {
				out.Warnings = append(out.Warnings, Warning{Pos: token.Position{Filename: name}, Reason: "cgo file: not instrumented (" + err.Error() + ")"})
				continue
			}
			out.Warnings = append(out.Warnings, o.Warnings...)
			if o.Changed {
				out.Files[name] = o
			}
		}
	}
	sp, err := checkWarnings(pkgs, cfg.Check)
	if err != nil {
		return nil, err
	}
	out.Warnings = append(out.Warnings, sp...)
	sort.SliceStable(out.Warnings, func(i, j int) bool {
		a, b := out.Warnings[i].Pos, out.Warnings[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	return out, nil
}

// modelled are the packages whose API rtlib implements itself (hooks at
// the call sites, hookedCalls): in a run that rewrites them (x/sync's
// own module), only their test files are instrumented.
var modelled = map[string]bool{"golang.org/x/sync/errgroup": true}

// isTestMain reports whether p is the main package go test generates.
func isTestMain(p *packages.Package) bool {
	return strings.HasSuffix(p.PkgPath, ".test") && p.Name == "main" && strings.HasSuffix(p.ID, ".test")
}

// checkWarnings runs the analyzers of Config.Check over pkgs and
// returns their diagnostics as warnings, each once.
func checkWarnings(pkgs []*packages.Package, check []*analysis.Analyzer) ([]Warning, error) {
	if len(check) == 0 {
		return nil, nil
	}
	g, err := checker.Analyze(check, pkgs, nil)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	seen := map[string]bool{}
	var ws []Warning
	for _, act := range g.Roots {
		if !slices.Contains(check, act.Analyzer) || act.Err != nil {
			continue
		}
		for _, d := range act.Diagnostics {
			w := Warning{Pos: act.Package.Fset.Position(d.Pos), Reason: d.Message}
			if !seen[w.String()] {
				seen[w.String()] = true
				ws = append(ws, w)
			}
		}
	}
	return ws, nil
}

// isGoSource reports whether name is one of p's own .go files (not a file
// cgo generated in the build cache).
func isGoSource(name string, p *packages.Package) bool {
	for _, g := range p.GoFiles {
		if g == name {
			return true
		}
	}
	return false
}
