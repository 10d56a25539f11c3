package tailstrict

import (
	_ "embed"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/spgo/spgo/analyzer/internal/docx"
	"github.com/spgo/spgo/analyzer/internal/ignore"
	"github.com/spgo/spgo/analyzer/internal/syncfacts"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

//go:embed doc.go
var doc string

// Analyzer reports tail-strict folds: code that drains a whole stream into
// memory before passing anything on.
var Analyzer = &analysis.Analyzer{
	Name:     "tailstrict",
	Doc:      docx.MustExtract(doc, "tailstrict"),
	URL:      "https://pkg.go.dev/github.com/spgo/spgo/analyzer/tailstrict",
	Requires: []*analysis.Analyzer{inspect.Analyzer, syncfacts.Analyzer},
	Run:      run,
}

// checker holds what one pass's checks share.
type checker struct {
	pass *analysis.Pass
	rep  *ignore.Reporter
	idx  *index
	sums *syncfacts.Result // the package's SSA form, shared
	ssa  *ssaIndex         // built on first use
}

// ssaIndex returns the index of the package's SSA calls, building it (and
// the SSA form, if syncfacts has not) on first use: most packages have no
// ReadAll to follow.
func (c *checker) ssaIndex() *ssaIndex {
	if c.ssa == nil {
		c.ssa = newSSAIndex(c.sums.SrcFuncs())
	}
	return c.ssa
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass: pass,
		rep:  ignore.New(pass),
		idx:  newIndex(pass),
		sums: pass.ResultOf[syncfacts.Analyzer].(*syncfacts.Result),
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.BlockStmt)(nil), (*ast.CaseClause)(nil), (*ast.CommClause)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.BlockStmt:
			c.drains(n.List)
		case *ast.CaseClause:
			c.drains(n.Body)
		case *ast.CommClause:
			c.drains(n.Body)
		case *ast.CallExpr:
			switch {
			case c.isFunc(n, "slices", "Collect") && len(n.Args) == 1:
				c.collect(n)
			case (c.isFunc(n, "io", "ReadAll") || c.isFunc(n, "io/ioutil", "ReadAll")) && len(n.Args) == 1:
				c.readAll(n)
			}
		}
	})
	return nil, nil
}

// callee returns the function or method a call names (interface methods
// included; nil for a call of a function value).
func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return fn
}

// isFunc reports whether call calls the package-level function path.name.
func (c *checker) isFunc(call *ast.CallExpr, path, name string) bool {
	fn := c.callee(call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == path && fn.Name() == name &&
		fn.Type().(*types.Signature).Recv() == nil
}

// isBuiltin reports whether call calls the builtin name.
func (c *checker) isBuiltin(call *ast.CallExpr, name string) bool {
	return typesx.IsBuiltin(c.pass.TypesInfo, call, name)
}

// localVar returns the local variable e names, if it is one declared in a
// function body (not a parameter, result, package variable or field).
func (c *checker) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	fn := c.idx.funcOf[c.idx.def[v]]
	if fn == nil {
		return nil
	}
	if body := funcBody(fn); body == nil || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return nil // a parameter or result
	}
	return v
}
