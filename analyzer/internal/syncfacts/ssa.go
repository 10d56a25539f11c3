package syncfacts

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// buildSSA builds the package's SSA form and returns its source
// functions, literals included. syncfacts builds it itself rather than
// through buildssa, which would also build it (and the control-flow graphs
// it asks ctrlflow for) for every package go vet runs the tool on for
// facts. It does not build it for the standard library, summarised by
// Primitive instead, nor for a package that shows no synchronisation
// (see quiet), whose summaries are all empty: most of the dependencies.
func buildSSA(pass *analysis.Pass) []*ssa.Function {
	if len(pass.Files) == 0 {
		return nil
	}
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	var funcs []*ssa.Function
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if fn := prog.FuncValue(obj); fn != nil {
				add(fn)
			}
		}
	}
	return funcs
}

// inGOROOT reports whether the package's files are the standard
// library's.
func inGOROOT(pass *analysis.Pass) bool {
	root := build.Default.GOROOT
	if root == "" || len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return strings.HasPrefix(filepath.Clean(name), filepath.Join(root, "src")+string(filepath.Separator))
}

// quiet reports whether nothing in the package can synchronise in a way
// a summary passes on (Deep): no channel type, operation, select or range
// over a channel, no variable of a channel type, no call of such a
// primitive (see Primitive) nor of a function of another package whose
// summary records anything (res holds the summaries imported so far). A
// package that only locks mutexes, writes atomics or cancels contexts is
// quiet: what it loses is the Own of its functions.
func quiet(pass *analysis.Pass, res *Result) bool {
	for _, obj := range pass.TypesInfo.Uses {
		switch obj := obj.(type) {
		case *types.Func:
			if Primitive(obj)&Deep != 0 || res.funcs[obj.Origin()] != nil {
				return false
			}
		case *types.Var:
			if _, ok := obj.Type().Underlying().(*types.Chan); ok {
				return false
			}
		}
	}
	found := false
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SendStmt, *ast.SelectStmt, *ast.ChanType:
				found = true
			case *ast.UnaryExpr:
				found = found || n.Op == token.ARROW
			case *ast.RangeStmt:
				if t := pass.TypesInfo.TypeOf(n.X); t != nil {
					_, found = t.Underlying().(*types.Chan)
				}
			}
			return !found
		})
		if found {
			return false
		}
	}
	return true
}
