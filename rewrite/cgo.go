package rewrite

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// cgoFiles are the cgo files (import "C") of a package, parsed from the
// user's source, with the package type-checked again from them.
//
// go/packages gives a cgo file's syntax only as cgo's output (a file in
// the build cache, where C.f has become _Cfunc_f), which cannot be
// overlaid on the user's file: cgo must see what the user wrote. So the
// originals are parsed, and the package is type-checked from them and
// its other files with package C faked (go/types' FakeImportC): C's
// names have no type, and the expressions that use them are rewritten
// only where the rewriter needs no type (it never names one it does not
// know).
type cgoFiles struct {
	names  []string    // the files' paths
	syntax []*ast.File // their syntax, in the package's file set
	pkg    *types.Package
	info   *types.Info
}

// files returns the parsed cgo files (none for a nil c).
func (c *cgoFiles) files() []*ast.File {
	if c == nil {
		return nil
	}
	return c.syntax
}

// cgoPackage returns p's cgo files that are not done yet, parsed and
// type-checked (nil if there are none). When they cannot be, it returns
// their names with the error.
func cgoPackage(p *packages.Package, done map[string]bool) (*cgoFiles, error) {
	var files []*ast.File // the package's pure Go files, as written
	inSyntax := map[string]bool{}
	for _, f := range p.Syntax {
		name := p.Fset.File(f.Pos()).Name()
		inSyntax[name] = true
		if isGoSource(name, p) {
			files = append(files, f)
		}
	}
	c := &cgoFiles{}
	for _, g := range p.GoFiles {
		if !inSyntax[g] && !done[g] {
			c.names = append(c.names, g)
		}
	}
	if len(c.names) == 0 {
		return nil, nil
	}
	for _, name := range c.names {
		f, err := parser.ParseFile(p.Fset, name, nil, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return c, err
		}
		c.syntax = append(c.syntax, f)
	}
	var first error
	conf := types.Config{
		FakeImportC: true,
		Importer:    importsOf(p),
		Sizes:       p.TypesSizes,
		Error: func(err error) {
			if first == nil {
				first = err
			}
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	c.info = newInfo()
	c.pkg, _ = conf.Check(p.PkgPath, p.Fset, append(files, c.syntax...), c.info)
	if first != nil {
		return c, fmt.Errorf("it does not type-check with C's names unknown: %v", first)
	}
	return c, nil
}

// rewrite rewrites one of c's files (in.File) with c's types. The
// rewriter was made for fully typed code: should it fail on an
// expression of C's, which has none, the file is left as it is.
func (c *cgoFiles) rewrite(in Input) (out *Output, err error) {
	in.Pkg, in.Info = c.pkg, c.info
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("the rewriter failed on it: %v", r)
		}
	}()
	return File(in)
}

// newInfo returns a types.Info that records everything the rewriter
// reads.
func newInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		Instances:    map[*ast.Ident]types.Instance{},
		FileVersions: map[*ast.File]string{},
	}
}

// importsOf imports the packages p imports, as loaded with it (so that
// their types are the ones p's other files see).
func importsOf(p *packages.Package) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		if ip := p.Imports[path]; ip != nil && ip.Types != nil {
			return ip.Types, nil
		}
		return nil, fmt.Errorf("package %s was not loaded", path)
	})
}

// importerFunc is a types.Importer made of a function.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
