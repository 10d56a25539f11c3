package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// An append to a slice that does not escape allocates each growth on the
// heap (past a 32-byte stack buffer), and every such array dies with the
// function's frame (rtlib.AppendFrame). The old array dies earlier, at
// the growth itself, when nothing but the slice's variable refers to it:
// rtlib.AppendOwned then charges its death there. owned decides that from
// the source, conservatively: x = append(x, ...) where x is a variable of
// the function being rewritten, and no use of x anywhere in the function
// can make another reference to its backing array. A use that might is
// enough to refuse: the old arrays then live until the return, which
// over-counts but is never below the truth.

// ownedAppend reports whether the append call ac, whose statement is as
// (nil if it is not the whole right-hand side of an assignment), may
// charge its old array's death at a growth.
func (r *fileRewriter) ownedAppend(as *ast.AssignStmt, ac *ast.CallExpr) bool {
	if as == nil || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != ac {
		return false
	}
	x, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident)
	if !ok || !r.selfArg(ac.Args[0], x) {
		return false
	}
	v, ok := r.in.Info.Uses[x].(*types.Var)
	if !ok || len(r.funcs) == 0 {
		return false
	}
	fn := &r.funcs[len(r.funcs)-1]
	if ok, seen := fn.owned[v]; seen {
		return ok
	}
	ok = r.localTo(v, fn) && r.onlyHolder(v, fn.astBody)
	if fn.owned == nil {
		fn.owned = map[*types.Var]bool{}
	}
	fn.owned[v] = ok
	return ok
}

// localTo reports whether v is declared in fn: a parameter, or a variable
// of its body (not of an enclosing function, whose frame is another).
func (r *fileRewriter) localTo(v *types.Var, fn *funcCtx) bool {
	for _, id := range fn.params {
		if r.in.Info.Defs[id] == v {
			return true
		}
	}
	return fn.astBody.Pos() <= v.Pos() && v.Pos() < fn.astBody.End()
}

// selfArg reports whether e is x or a slice expression of x.
func (r *fileRewriter) selfArg(e ast.Expr, x *ast.Ident) bool {
	e = ast.Unparen(e)
	if s, ok := e.(*ast.SliceExpr); ok {
		e = ast.Unparen(s.X)
	}
	id, ok := e.(*ast.Ident)
	return ok && r.in.Info.Uses[id] != nil && r.in.Info.Uses[id] == r.in.Info.Uses[x]
}

// onlyHolder reports whether every use and definition of v in body keeps
// v the only reference to its backing array.
func (r *fileRewriter) onlyHolder(v *types.Var, body *ast.BlockStmt) bool {
	ok := true
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, isID := n.(*ast.Ident); isID && (r.in.Info.Uses[id] == v || r.in.Info.Defs[id] == v) {
			ok = r.holderUse(v, stack, id)
		}
		stack = append(stack, n)
		return true
	})
	return ok
}

// holderUse reports whether the use of v at id, under the nodes of stack
// (outermost first), makes no other reference to v's backing array.
func (r *fileRewriter) holderUse(v *types.Var, stack []ast.Node, id *ast.Ident) bool {
	e, i := pastParens(stack, id, len(stack)-1)
	if i < 0 {
		return false
	}
	switch p := stack[i].(type) {
	case *ast.CallExpr:
		return r.holderArg(v, stack[:i], p, e)
	case *ast.IndexExpr:
		// x[i]: an element, read or written; not its address.
		return p.X == e && r.elementUse(stack[:i], p)
	case *ast.SliceExpr:
		return p.X == e && r.sliceUse(v, stack[:i], p)
	case *ast.RangeStmt:
		// The range holds the array it started with: no growth of x in
		// its body.
		return p.X == e && !r.assigns(v, p.Body)
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ // x == nil
	case *ast.AssignStmt:
		return r.ownAssign(v, p, e)
	case *ast.ValueSpec:
		for k, name := range p.Names {
			if name == e {
				return len(p.Values) == 0 || k < len(p.Values) && len(p.Values) == len(p.Names) && r.fresh(v, p.Values[k])
			}
		}
	}
	return false
}

// holderArg: x (or x[a:b], e) is an argument of the call p, under stack.
func (r *fileRewriter) holderArg(v *types.Var, stack []ast.Node, p *ast.CallExpr, e ast.Node) bool {
	if p.Fun == e {
		return false
	}
	if b := r.builtin(p); b != "" {
		switch b {
		case "len", "cap", "copy", "clear":
			return true
		case "append":
			if len(p.Args) == 2 && p.Args[1] == e && p.Ellipsis.IsValid() {
				return true // its elements are copied
			}
			if p.Args[0] == e && len(stack) > 0 {
				as, ok := stack[len(stack)-1].(*ast.AssignStmt)
				return ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 &&
					ast.Unparen(as.Rhs[0]) == p && r.isVar(as.Lhs[0], v)
			}
		}
		return false
	}
	if tv, ok := r.in.Info.Types[p.Fun]; ok && tv.IsType() {
		return false // a conversion is another slice of the same array
	}
	if len(stack) > 0 {
		switch stack[len(stack)-1].(type) {
		case *ast.DeferStmt, *ast.GoStmt:
			return false // the argument is kept until the call runs
		}
	}
	// A call can keep no reference when nothing it returns can hold one
	// and nothing else it is given can store one.
	if !pointerFree(r.in.Info.TypeOf(p)) {
		return false
	}
	if sel, ok := ast.Unparen(p.Fun).(*ast.SelectorExpr); ok {
		if s, ok := r.in.Info.Selections[sel]; ok && !storesNoPointer(s.Recv()) {
			return false
		}
	}
	for _, a := range p.Args {
		if a != e && !storesNoPointer(r.in.Info.TypeOf(a)) {
			return false
		}
	}
	return true
}

// elementUse: x[i] (p) is read or written as a value, not addressed,
// sliced, or used as a method's receiver.
func (r *fileRewriter) elementUse(stack []ast.Node, p *ast.IndexExpr) bool {
	if len(stack) == 0 {
		return true
	}
	switch q := stack[len(stack)-1].(type) {
	case *ast.UnaryExpr:
		return q.Op != token.AND
	case *ast.SliceExpr:
		return q.X != p
	case *ast.IndexExpr:
		if q.X == p {
			return r.elementUse(stack[:len(stack)-1], q) // an array element's element
		}
	case *ast.SelectorExpr:
		s, ok := r.in.Info.Selections[q]
		if !ok || s.Kind() != types.FieldVal || len(stack) < 2 {
			return false
		}
		switch g := stack[len(stack)-2].(type) {
		case *ast.UnaryExpr:
			return g.Op != token.AND
		case *ast.SliceExpr, *ast.SelectorExpr, *ast.IndexExpr:
			return false
		case *ast.CallExpr:
			return g.Fun != q
		}
		return true
	}
	return true
}

// sliceUse: x[a:b] (p) is assigned back to x, appended to x in x's own
// append, or copied from or into.
func (r *fileRewriter) sliceUse(v *types.Var, stack []ast.Node, p *ast.SliceExpr) bool {
	if len(stack) == 0 {
		return false
	}
	switch q := stack[len(stack)-1].(type) {
	case *ast.AssignStmt:
		return q.Tok == token.ASSIGN && len(q.Lhs) == 1 && len(q.Rhs) == 1 && q.Rhs[0] == p && r.isVar(q.Lhs[0], v)
	case *ast.CallExpr:
		return r.holderArg(v, stack[:len(stack)-1], q, p)
	}
	return false
}

// pastParens climbs from e, whose parent is stack[i], past the
// parentheses around it: the outermost of them and the index of its
// parent (-1: none).
func pastParens(stack []ast.Node, e ast.Node, i int) (ast.Node, int) {
	for i >= 0 {
		if _, ok := stack[i].(*ast.ParenExpr); !ok {
			break
		}
		e, i = stack[i], i-1
	}
	return e, i
}

// ownAssign: x appears in the assignment p (as e).
func (r *fileRewriter) ownAssign(v *types.Var, p *ast.AssignStmt, e ast.Node) bool {
	if len(p.Lhs) != len(p.Rhs) || p.Tok != token.ASSIGN && p.Tok != token.DEFINE {
		return false
	}
	for k, l := range p.Lhs {
		if l == e {
			return r.fresh(v, p.Rhs[k])
		}
	}
	return false // x on the right: another variable refers to its array
}

// fresh reports whether assigning rhs to v leaves v the only reference to
// its array: a new array (make, a literal, nil, an append to one of
// them) or v's own (x[a:b], append(x, ...)).
func (r *fileRewriter) fresh(v *types.Var, rhs ast.Expr) bool {
	rhs = ast.Unparen(rhs)
	if r.isConst(rhs) {
		return true // nil
	}
	switch x := rhs.(type) {
	case *ast.CompositeLit:
		return true
	case *ast.SliceExpr:
		return r.isVar(x.X, v)
	case *ast.CallExpr:
		switch r.builtin(x) {
		case "make":
			return true
		case "append":
			return len(x.Args) > 0 && (r.isVar(x.Args[0], v) || r.sliceOf(x.Args[0], v) || r.fresh(nil, x.Args[0]))
		}
	}
	return false
}

// sliceOf reports whether e is a slice expression of the variable v.
func (r *fileRewriter) sliceOf(e ast.Expr, v *types.Var) bool {
	s, ok := ast.Unparen(e).(*ast.SliceExpr)
	return ok && r.isVar(s.X, v)
}

// isVar reports whether e is the variable v (v nil: never).
func (r *fileRewriter) isVar(e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && v != nil && (r.in.Info.Uses[id] == v || r.in.Info.Defs[id] == v)
}

// assigns reports whether body assigns to v.
func (r *fileRewriter) assigns(v *types.Var, body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				found = found || r.isVar(l, v)
			}
		}
		return !found
	})
	return found
}

// builtin returns the name of the builtin p calls, or "".
func (r *fileRewriter) builtin(p *ast.CallExpr) string {
	id, ok := ast.Unparen(p.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := r.in.Info.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// pointerFree reports whether values of t hold no pointers (strings
// aside: they cannot refer to a slice's array without package unsafe).
// No type (a call without results) is pointer-free.
func pointerFree(t types.Type) bool {
	if t == nil {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer && u.Kind() != types.UntypedNil
	case *types.Array:
		return pointerFree(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !pointerFree(u.Field(i).Type()) {
				return false
			}
		}
		return true
	case *types.Tuple:
		for i := range u.Len() {
			if !pointerFree(u.At(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// storesNoPointer reports whether a callee given a value of type t can
// store no pointer where the caller may find it later: t is pointer-free,
// or points only to pointer-free values.
func storesNoPointer(t types.Type) bool {
	if pointerFree(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return pointerFree(u.Elem())
	case *types.Slice:
		return pointerFree(u.Elem())
	}
	return false
}
