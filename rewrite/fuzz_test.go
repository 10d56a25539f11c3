package rewrite

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

// FuzzRewrite rewrites mutated Go files: File must never panic, and
// whenever the input type-checks, it must succeed and its output must
// parse and type-check (against the real rtlib). Every site is taken to
// be on the heap (no escape analysis), so every hook is exercised.
//
//	go test ./rewrite -run '^$' -fuzz FuzzRewrite -fuzztime 1m
func FuzzRewrite(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.go"))
	corpusSeeds, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "main.go"))
	for _, s := range append(seeds, corpusSeeds...) {
		src, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	imp, err := loadImporter()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "/fuzz/a.go", src, parser.ParseComments)
		if err != nil {
			return
		}
		for _, spec := range file.Imports {
			if spec.Path.Value == `"C"` {
				return // cgo needs the go command
			}
		}
		pkg, info, err := typeCheck(fset, file, imp)
		if err != nil {
			return
		}
		out, err := File(Input{Fset: fset, File: file, Pkg: pkg, Info: info})
		if err != nil {
			t.Fatalf("input type-checks but rewriting fails: %v\n%s", err, src)
		}
		if !out.Changed {
			return
		}
		ofset := token.NewFileSet()
		of, err := parser.ParseFile(ofset, "/fuzz/a.go", out.Src, parser.ParseComments)
		if err != nil {
			t.Fatalf("output does not parse: %v\n--- input\n%s\n--- output\n%s", err, src, out.Src)
		}
		if _, _, err := typeCheck(ofset, of, imp); err != nil {
			t.Fatalf("input type-checks, output does not: %v\n--- input\n%s\n--- output\n%s", err, src, out.Src)
		}
	})
}

// typeCheck type-checks the file as package fuzz and returns its first
// error, if any.
func typeCheck(fset *token.FileSet, file *ast.File, imp types.Importer) (*types.Package, *types.Info, error) {
	return typeCheckAt("", fset, file, imp)
}

// typeCheckAt is typeCheck for a module whose go line is goVersion ("":
// the latest).
func typeCheckAt(goVersion string, fset *token.FileSet, file *ast.File, imp types.Importer) (*types.Package, *types.Info, error) {
	info := newInfo()
	conf := types.Config{Importer: imp, GoVersion: goVersion, Error: func(error) {}}
	pkg, err := conf.Check("fuzz", fset, []*ast.File{file}, info)
	return pkg, info, err
}

// loadedImporter imports the packages of one go/packages load, so that
// the inputs' imports and rtlib's share their types (sync.WaitGroup is
// one type for both).
type loadedImporter map[string]*types.Package

// Import returns the loaded package with the import path.
func (l loadedImporter) Import(path string) (*types.Package, error) {
	if p := l[path]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("package %s is not loaded", path)
}

// loadImporter loads the types of the standard library and rtlib (from
// export data).
func loadImporter() (loadedImporter, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps, Dir: repoRoot}
	pkgs, err := packages.Load(cfg, "std", RTPath, "golang.org/x/sync/errgroup")
	if err != nil {
		return nil, err
	}
	l := loadedImporter{"unsafe": types.Unsafe}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types != nil && len(p.Errors) == 0 {
			l[p.PkgPath] = p.Types
		}
	})
	if l[RTPath] == nil {
		return nil, fmt.Errorf("%s did not load", RTPath)
	}
	return l, nil
}
