package joinbeforeconsume

import (
	"go/ast"
	"go/types"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// gathers reports whether the pass rng copies the results into another
// collection that outlives it: its body appends to, or stores by index
// into, a variable declared outside it (out = append(out, r.items...),
// out[k] = r, s.all = append(s.all, r)), with a value that mentions the
// range's key or value, and that variable is not a local of the function
// or is used after the pass (returned, sorted, handed on). The results
// are then wanted whole, and streaming them would keep as much live.
func gathers(info *types.Info, rng *ast.RangeStmt, body *ast.BlockStmt) bool {
	iter := map[types.Object]bool{}
	for _, e := range []ast.Expr{rng.Key, rng.Value} {
		if id, ok := e.(*ast.Ident); ok && info.ObjectOf(id) != nil {
			iter[info.ObjectOf(id)] = true
		}
	}
	found := false
	ast.Inspect(rng.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if found || !ok || len(as.Lhs) != len(as.Rhs) {
			return !found
		}
		for i, l := range as.Lhs {
			v := storeTarget(info, l, as.Rhs[i])
			if v != nil && (v.Pos() < rng.Pos() || v.Pos() >= rng.End()) && mentions(info, as.Rhs[i], iter) && outlives(info, v, rng, body) {
				found = true
			}
		}
		return !found
	})
	return found
}

// storeTarget returns the root variable of l when "l = rhs" stores into a
// collection: l is out[k] (or a field's), or rhs is append(l, ...).
func storeTarget(info *types.Info, l, rhs ast.Expr) *types.Var {
	if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
		return rootVar(info, ix.X)
	}
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok || !typesx.IsBuiltin(info, call, "append") || len(call.Args) == 0 {
		return nil
	}
	if types.ExprString(call.Args[0]) != types.ExprString(l) {
		return nil
	}
	return rootVar(info, l)
}

// rootVar returns the variable at the root of e: x of x, x.f, x[i].f.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			return v
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// mentions reports whether e refers to any of objs.
func mentions(info *types.Info, e ast.Expr, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && objs[info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// outlives reports whether v lives beyond the pass rng: it is not a local
// of the function's body (a parameter, named result, receiver or package
// variable is handed on), or it is used after rng.
func outlives(info *types.Info, v *types.Var, rng *ast.RangeStmt, body *ast.BlockStmt) bool {
	if v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return true
	}
	for id, obj := range info.Uses {
		if obj == v && id.Pos() >= rng.End() && id.Pos() < body.End() {
			return true
		}
	}
	return false
}
