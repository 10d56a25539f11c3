package syncfacts

import (
	"go/ast"
	"go/build"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// srcFuncs builds the package's SSA form and returns its source
// functions, literals included. It builds it itself rather than through
// buildssa, which would also build it (and the control-flow graphs it
// asks ctrlflow for) for every package of the standard library that go
// vet runs the tool on for facts; the standard library is summarised by
// Primitive instead, so for its packages srcFuncs returns nil.
func srcFuncs(pass *analysis.Pass) []*ssa.Function {
	if len(pass.Files) == 0 || inGOROOT(pass) {
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
	if root == "" {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return strings.HasPrefix(filepath.Clean(name), filepath.Join(root, "src")+string(filepath.Separator))
}
