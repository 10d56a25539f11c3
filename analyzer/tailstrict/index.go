package tailstrict

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// index is the def-use view of a package's syntax: parents, the function
// each identifier sits in, and each variable's definition and uses.
type index struct {
	info   *types.Info
	parent map[ast.Node]ast.Node
	funcOf map[*ast.Ident]ast.Node // innermost *ast.FuncDecl or *ast.FuncLit
	def    map[*types.Var]*ast.Ident
	uses   map[*types.Var][]*ast.Ident
}

func newIndex(pass *analysis.Pass) *index {
	x := &index{
		info:   pass.TypesInfo,
		parent: map[ast.Node]ast.Node{},
		funcOf: map[*ast.Ident]ast.Node{},
		def:    map[*types.Var]*ast.Ident{},
		uses:   map[*types.Var][]*ast.Ident{},
	}
	for _, f := range pass.Files {
		var stack []ast.Node
		var funcs []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				switch top.(type) {
				case *ast.FuncDecl, *ast.FuncLit:
					funcs = funcs[:len(funcs)-1]
				}
				return true
			}
			if len(stack) > 0 {
				x.parent[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			switch n := n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				funcs = append(funcs, n)
			case *ast.Ident:
				if len(funcs) > 0 {
					x.funcOf[n] = funcs[len(funcs)-1]
				}
				if v, ok := pass.TypesInfo.Defs[n].(*types.Var); ok {
					x.def[v] = n
				}
				if v, ok := pass.TypesInfo.Uses[n].(*types.Var); ok {
					x.uses[v] = append(x.uses[v], n)
				}
			}
			return true
		})
	}
	return x
}

// funcBody returns the body of a *ast.FuncDecl or *ast.FuncLit.
func funcBody(fn ast.Node) *ast.BlockStmt {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Body
	case *ast.FuncLit:
		return fn.Body
	}
	return nil
}

// within reports whether n lies inside outer's source range.
func within(n, outer ast.Node) bool {
	return outer != nil && outer.Pos() <= n.Pos() && n.End() <= outer.End()
}

// up returns the parent of n, skipping parentheses.
func (x *index) up(n ast.Node) ast.Node {
	p := x.parent[n]
	for {
		pe, ok := p.(*ast.ParenExpr)
		if !ok {
			return p
		}
		p = x.parent[pe]
	}
}

// definedBy returns the expression a local variable is initialised with
// in its defining statement ("v := e" or "var v = e"), and whether it is
// defined without one ("var v T").
func (x *index) definedBy(v *types.Var) (init ast.Expr, zero bool, ok bool) {
	id := x.def[v]
	if id == nil {
		return nil, false, false
	}
	switch p := x.parent[id].(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return nil, false, false
		}
		for i, l := range p.Lhs {
			if l == id {
				return p.Rhs[i], false, true
			}
		}
	case *ast.ValueSpec:
		if len(p.Values) == 0 {
			return nil, true, true
		}
		if len(p.Values) != len(p.Names) {
			return nil, false, false
		}
		for i, n := range p.Names {
			if n == id {
				return p.Values[i], false, true
			}
		}
	}
	return nil, false, false
}

// objects returns the variables e mentions.
func (x *index) objects(e ast.Node) map[*types.Var]bool {
	vs := map[*types.Var]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := x.info.Uses[id].(*types.Var); ok {
				vs[v] = true
			}
		}
		return true
	})
	return vs
}

// mentions reports whether n mentions any of vs.
func (x *index) mentions(n ast.Node, vs map[*types.Var]bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := x.info.Uses[id].(*types.Var); ok && vs[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// keyedRead reports whether id is read as id[k] where k is the variable
// key: an element read, not an assignment to it or its address.
func (x *index) keyedRead(id *ast.Ident, key *types.Var) bool {
	ix, ok := x.up(id).(*ast.IndexExpr)
	if !ok || key == nil || ast.Unparen(ix.X) != id {
		return false
	}
	k, ok := ast.Unparen(ix.Index).(*ast.Ident)
	if !ok || x.info.Uses[k] != key {
		return false
	}
	return !x.lvalue(ix)
}

// lvalue reports whether e is assigned, incremented or has its address
// taken where it stands.
func (x *index) lvalue(e ast.Expr) bool {
	switch p := x.up(e).(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if ast.Unparen(l) == e {
				return true
			}
		}
	case *ast.IncDecStmt:
		return true
	case *ast.UnaryExpr:
		return p.Op.String() == "&"
	case *ast.RangeStmt:
		return p.Key == e || p.Value == e
	}
	return false
}
