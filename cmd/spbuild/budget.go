package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/spgo/spgo/driver"
	"github.com/spgo/spgo/internal/report"
	"github.com/spgo/spgo/rtlib/profile"
)

// markerPrefix starts a budget marker in a test function's doc comment.
const markerPrefix = "//spgo:budget"

// budgetSets returns the budgets spbuild test checks, in precedence
// order: the //spgo:budget markers of the targets' test functions, then
// the budget file's (when file is set). It returns nil when there are
// none.
func budgetSets(file string, targets []driver.Target) ([][]report.Budget, error) {
	var marked []report.Budget
	for _, t := range targets {
		bs, err := markers(t)
		if err != nil {
			return nil, err
		}
		marked = append(marked, bs...)
	}
	var sets [][]report.Budget
	if len(marked) > 0 {
		sets = append(sets, marked)
	}
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("-budget: %w", err)
		}
		defer f.Close()
		bs, err := report.ParseBudgets(f, file)
		if err != nil {
			return nil, fmt.Errorf("-budget: %w", err)
		}
		sets = append(sets, bs)
	}
	return sets, nil
}

// markers reads the //spgo:budget markers in the doc comments of the
// test functions of package t's _test.go files.
func markers(t driver.Target) ([]report.Budget, error) {
	files, err := filepath.Glob(filepath.Join(t.Dir, "*_test.go"))
	if err != nil {
		return nil, fmt.Errorf("budget markers of %s: %w", t.ImportPath, err)
	}
	var out []report.Budget
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue // go test reports it
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			for _, c := range fd.Doc.List {
				args, ok := strings.CutPrefix(c.Text, markerPrefix)
				if !ok || args != "" && args[0] != ' ' && args[0] != '\t' {
					continue
				}
				pos := displayPos(fset.Position(c.Slash))
				if !isTestFunc(fd) {
					return nil, fmt.Errorf("%s: %s on %s, which is not a test, benchmark, fuzz target or example", pos, markerPrefix, fd.Name.Name)
				}
				b, err := report.ParseMarker(args, t.ImportPath, fd.Name.Name, pos)
				if err != nil {
					return nil, err
				}
				out = append(out, b)
			}
		}
	}
	return out, nil
}

// isTestFunc reports whether fd is a function go test runs as a root.
func isTestFunc(fd *ast.FuncDecl) bool {
	if fd.Recv != nil {
		return false
	}
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(fd.Name.Name, prefix) {
			return true
		}
	}
	return false
}

// displayPos is file:line, the file relative to the current directory
// when it is below it.
func displayPos(p token.Position) string {
	name := p.Filename
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, name); err == nil && filepath.IsLocal(rel) {
			name = rel
		}
	}
	return fmt.Sprintf("%s:%d", name, p.Line)
}

// checkBudgets checks the merged profile of spbuild test against sets
// and prints the results on standard error (only the failures when
// quiet); it reports whether every budget was met.
func checkBudgets(merged *profile.Profile, sets [][]report.Budget, lines int, quiet bool) (bool, error) {
	res, err := report.CheckBudgets(merged, sets...)
	if err != nil {
		return false, err
	}
	if err := report.WriteBudgets(os.Stderr, res, lines, !quiet); err != nil {
		return false, err
	}
	for i := range res {
		if res[i].Failed() {
			return false, nil
		}
	}
	return true, nil
}
