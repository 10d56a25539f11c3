package rewrite

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRewrite rewrites mutated Go files: File must never panic, and
// whenever the input type-checks, it must succeed and its output must
// parse. Every site is taken to be on the heap (no escape analysis), so
// every hook is exercised.
//
//	go test ./rewrite -run '^$' -fuzz FuzzRewrite -fuzztime 1m
func FuzzRewrite(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(repoRoot, "testdata/rewrite/*.go"))
	corpusSeeds, _ := filepath.Glob(filepath.Join(repoRoot, "testdata/rewrite/corpus/*/main.go"))
	for _, s := range append(seeds, corpusSeeds...) {
		src, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	imp := importer.Default()
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
		info := &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Implicits:  map[ast.Node]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
			Scopes:     map[ast.Node]*types.Scope{},
			Instances:  map[*ast.Ident]types.Instance{},
		}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		pkg, err := conf.Check("fuzz", fset, []*ast.File{file}, info)
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
		if _, err := parser.ParseFile(token.NewFileSet(), "/fuzz/a.go", out.Src, parser.ParseComments); err != nil {
			t.Fatalf("output does not parse: %v\n--- input\n%s\n--- output\n%s", err, src, out.Src)
		}
	})
}
