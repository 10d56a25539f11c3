package driver

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
)

// target returns the one package the patterns matched, if there is
// exactly one.
func (p *Prepared) target() (Target, bool) {
	if len(p.Targets) != 1 {
		return Target{}, false
	}
	return p.Targets[0], true
}

// IsCommand reports whether the patterns matched one package and it is
// a main package; ok is false when they matched several or none.
func (p *Prepared) IsCommand() (main, ok bool) {
	t, ok := p.target()
	return t.Name == "main", ok
}

// checkMain returns an error saying what to do when pkg is one package
// that is not a program.
func (p *Prepared) checkMain(pkg string) error {
	t, ok := p.target()
	if !ok || t.Name == "main" {
		return nil
	}
	return fmt.Errorf("%s (package %s) is not a main package: spbuild run runs a program; to measure this package, run its tests with spbuild test %s", t.ImportPath, t.Name, pkg)
}

// overlay returns the instrumented files of p: the user's file → its
// instrumented copy.
func (p *Prepared) overlay() (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(p.Entry, "overlay", "overlay.json"))
	if err != nil {
		return nil, fmt.Errorf("read the overlay: %w", err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		return nil, fmt.Errorf("read the overlay: %w", err)
	}
	return ov.Replace, nil
}

// MissingProfile explains why a program that Run ran, ending as e, left
// no profile at path (Program.Profile), and says what to do.
func (p *Prepared) MissingProfile(e Exit, path string) error {
	switch {
	case e.ProfileErr != "":
		return fmt.Errorf("the program could not write its profile: %s%s", e.ProfileErr, lossHint(e.ProfileErr, filepath.Dir(path)))
	case e.Signal != 0:
		return fmt.Errorf("the program was ended by signal %d (%v) before it could write its profile: nothing to report", int(e.Signal), e.Signal)
	}
	if err := p.uninstrumentedMain(); err != nil {
		return err
	}
	return fmt.Errorf("the program exited (status %d) without writing its profile: it ended in code spbuild does not instrument, such as an os.Exit in a dependency or in the standard library (flag's -h); nothing to report", e.Code)
}

// uninstrumentedMain returns an error naming the file of the target's
// main function when that file was not instrumented (so no root was
// measured), and why; nil otherwise.
func (p *Prepared) uninstrumentedMain() error {
	t, ok := p.target()
	if !ok || t.Name != "main" {
		return nil
	}
	ov, err := p.overlay()
	if err != nil {
		return nil
	}
	for _, name := range t.Files {
		file := filepath.Join(t.Dir, name)
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil || !declaresMain(f) {
			continue
		}
		if _, ok := ov[file]; ok {
			return nil
		}
		if importsC(f) {
			return fmt.Errorf("the program wrote no profile: its main function is in %s, a cgo file (import \"C\") that spbuild could not instrument, so nothing was measured (spbuild -v says why); move func main and the code that starts goroutines to a file of the package without import \"C\"", file)
		}
		return fmt.Errorf("the program wrote no profile: its main function, in %s, was not instrumented (spbuild -v lists what was not), so nothing was measured", file)
	}
	return nil
}

// declaresMain reports whether f declares func main.
func declaresMain(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			return true
		}
	}
	return false
}

// importsC reports whether f is a cgo file.
func importsC(f *ast.File) bool {
	for _, imp := range f.Imports {
		if path, err := strconv.Unquote(imp.Path.Value); err == nil && path == "C" {
			return true
		}
	}
	return false
}
