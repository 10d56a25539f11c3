package joinbeforeconsume

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// singlePass returns the one range statement that consumes v after the
// Wait call w, or nil if v is ranged over more or less than once after w,
// or used anywhere in a way that needs it as a whole.
func (f *function) singlePass(info *types.Info, v *types.Var, w ast.Node) *ast.RangeStmt {
	var rng *ast.RangeStmt
	for _, u := range f.uses[v] {
		r, ok := parent(u.stack).(*ast.RangeStmt)
		if !ok || u.id.Pos() < w.End() {
			continue
		}
		if rng != nil || !f.sequential(r, u.stack, w) {
			return nil // two passes, or a pass in a closure or loop
		}
		rng = r
	}
	if rng == nil {
		return nil
	}
	for _, u := range f.uses[v] {
		if !allowed(info, v, u, u.id.Pos() >= w.End(), rng) {
			return nil
		}
	}
	return rng
}

// sequential reports whether the range statement r, with ancestors stack,
// runs once in f's own goroutine after w: not in a function literal, nor in
// a loop that does not also contain w.
func (f *function) sequential(r *ast.RangeStmt, stack []ast.Node, w ast.Node) bool {
	if slices.ContainsFunc(stack, func(n ast.Node) bool { _, ok := n.(*ast.FuncLit); return ok }) {
		return false
	}
	for _, l := range f.loops {
		if l != r && within(r, l) && !within(w, l) {
			return false
		}
	}
	return true
}

// allowed reports whether use u of v leaves the results to be consumed one
// at a time. Before Wait: v[k], len(v), cap(v), v = x and v = append(v,
// ...). After Wait: rng itself, len(v), cap(v), and v[k] in rng's body
// with k its key.
func allowed(info *types.Info, v *types.Var, u use, after bool, rng *ast.RangeStmt) bool {
	stack, e := u.stack, ast.Node(u.id)
	for len(stack) > 0 {
		if _, ok := stack[len(stack)-1].(*ast.ParenExpr); !ok {
			break
		}
		e, stack = stack[len(stack)-1], stack[:len(stack)-1]
	}
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.RangeStmt:
		return after && p == rng && p.X == e
	case *ast.CallExpr:
		if typesx.IsBuiltin(info, p, "len") || typesx.IsBuiltin(info, p, "cap") {
			return true
		}
		if after || !typesx.IsBuiltin(info, p, "append") || len(p.Args) == 0 || p.Args[0] != e {
			return false
		}
		a, ok := parent(stack[:len(stack)-1]).(*ast.AssignStmt)
		return ok && len(a.Lhs) == 1 && isVar(info, a.Lhs[0], v)
	case *ast.AssignStmt:
		return !after && slices.Contains(p.Lhs, e.(ast.Expr))
	case *ast.IndexExpr:
		if p.X != e {
			return false
		}
		if !after {
			return true
		}
		k, ok := ast.Unparen(p.Index).(*ast.Ident)
		key, ok2 := ast.Unparen(rng.Key).(*ast.Ident)
		return ok && ok2 && within(p, rng.Body) && info.ObjectOf(k) != nil && info.ObjectOf(k) == info.ObjectOf(key)
	}
	return false
}

// parent returns the innermost node of an ancestors stack that is not a
// parenthesis.
func parent(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		if _, ok := stack[i].(*ast.ParenExpr); !ok {
			return stack[i]
		}
	}
	return nil
}
