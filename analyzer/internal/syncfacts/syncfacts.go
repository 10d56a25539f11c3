package syncfacts

import (
	_ "embed"
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/spgo/spgo/analyzer/internal/docx"
	"github.com/spgo/spgo/analyzer/internal/typesx"
)

//go:embed doc.go
var doc string

// Analyzer summarises each function's synchronisation as a fact.
var Analyzer = &analysis.Analyzer{
	Name:       "syncfacts",
	Doc:        docx.MustExtract(doc, "syncfacts"),
	URL:        "https://pkg.go.dev/github.com/spgo/spgo/analyzer/internal/syncfacts",
	Run:        run,
	FactTypes:  []analysis.Fact{new(Summary)},
	ResultType: reflect.TypeFor[*Result](),
}

// Result answers questions about the summaries of a package's functions
// and of the functions of other packages it refers to.
type Result struct {
	funcs map[*types.Func]*Summary
	lits  map[*ast.FuncLit]*Summary
	// ssa holds the package's source functions in SSA form once built;
	// build builds them (for a package syncfacts did not need them for).
	ssa   []*ssa.Function
	built bool
	build func() []*ssa.Function
}

// SrcFuncs returns the package's source functions (literals included)
// in SSA form, building them on first use if syncfacts did not: other
// analyzers share this one SSA form rather than build their own (buildssa
// would build a second, with control-flow graphs besides).
func (r *Result) SrcFuncs() []*ssa.Function {
	if !r.built {
		r.ssa, r.built = r.build(), true
	}
	return r.ssa
}

// Func returns the summary of fn (its generic origin), nil if it does
// nothing this package knows of.
func (r *Result) Func(fn *types.Func) *Summary {
	if fn == nil {
		return nil
	}
	return r.funcs[fn.Origin()]
}

// Lit returns the summary of a function literal of the package.
func (r *Result) Lit(lit *ast.FuncLit) *Summary { return r.lits[lit] }

func run(pass *analysis.Pass) (any, error) {
	b := &builder{
		pass: pass,
		sums: map[*ssa.Function]*Summary{},
		busy: map[*ssa.Function]bool{},
		res:  &Result{funcs: map[*types.Func]*Summary{}, lits: map[*ast.FuncLit]*Summary{}},
	}
	if pass.TypesInfo == nil || len(pass.Files) == 0 {
		// A dependency loaded from export data (spbuild's rewriter runs
		// nonsp on its root packages only): no syntax to summarise.
		return b.res, nil
	}
	b.importFacts()
	b.res.build = func() []*ssa.Function { return buildSSA(pass) }
	var funcs []*ssa.Function
	if !inGOROOT(pass) && !quiet(pass, b.res) {
		funcs = b.res.SrcFuncs()
	}
	for _, fn := range funcs {
		s := b.summary(fn)
		switch syn := fn.Syntax().(type) {
		case *ast.FuncLit:
			b.res.lits[syn] = s
		case *ast.FuncDecl:
			obj, ok := fn.Object().(*types.Func)
			if !ok {
				continue
			}
			b.res.funcs[obj] = s
			if obj.Exported() && s.worthExporting() {
				pass.ExportObjectFact(obj, s) // what other packages can call
			}
		}
	}
	return b.res, nil
}

// importFacts reads the summaries of the functions of other packages the
// package refers to, and of the other methods of their receivers' types
// (a Stop that waits for the Serve the package calls).
func (b *builder) importFacts() {
	seen := map[*types.Func]bool{}
	get := func(fn *types.Func) {
		if seen[fn] || fn.Pkg() == nil || fn.Pkg() == b.pass.Pkg {
			return
		}
		seen[fn] = true
		s := new(Summary)
		if b.pass.ImportObjectFact(fn, s) {
			b.res.funcs[fn] = s
		}
	}
	for _, obj := range b.pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		fn = fn.Origin()
		get(fn)
		if named := typesx.RecvNamed(fn); named != nil {
			for m := range named.Origin().Methods() {
				get(m)
			}
		}
	}
}
