package unboundedspawn

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/spgo/spgo/analyzer/internal/groups"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// source describes what a loop iterates over.
type source struct {
	desc  string         // what one iteration handles: "element of items"
	grows string         // what the peak grows with: "len(items)"
	seeds []types.Object // the variables that hold the current item
}

// classify says whether loop runs once per item of a collection whose
// size is not fixed in the code, and what it iterates over.
func (c *checker) classify(loop ast.Stmt) (source, bool) {
	switch l := loop.(type) {
	case *ast.RangeStmt:
		return c.classifyRange(l)
	case *ast.ForStmt:
		return c.classifyFor(l)
	}
	return source{}, false
}

// classifyRange classifies a range loop by the type of what it ranges over.
func (c *checker) classifyRange(l *ast.RangeStmt) (source, bool) {
	t := c.pass.TypesInfo.TypeOf(l.X)
	if t == nil {
		return source{}, false
	}
	x := types.ExprString(l.X)
	seeds := c.objs(l.Key, l.Value)
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Map:
		if !c.unbounded(l.X) {
			return source{}, false
		}
		return source{"element of " + x, "len(" + x + ")", seeds}, true
	case *types.Chan:
		if connLike(u.Elem()) {
			return source{}, false // an accept loop fed through a channel
		}
		return source{"value received from " + x, "the number of values received", seeds}, true
	case *types.Signature:
		return source{"value yielded by " + x, "the number of values yielded", seeds}, true
	case *types.Basic:
		// range n is a count (a fixed number of workers) unless n is the
		// length of a collection.
		if call, ok := ast.Unparen(l.X).(*ast.CallExpr); ok && c.isBuiltin(call, "len") && len(call.Args) == 1 && c.unbounded(call.Args[0]) {
			y := types.ExprString(call.Args[0])
			return source{"element of " + y, "len(" + y + ")", seeds}, true
		}
	}
	return source{}, false
}

// classifyFor classifies a three-clause or condition-only for loop: a
// counter up to (or down from) the length of a collection, or a cursor.
func (c *checker) classifyFor(l *ast.ForStmt) (source, bool) {
	switch cond := ast.Unparen(l.Cond).(type) {
	case *ast.BinaryExpr:
		// i < len(items); i++, and the reverse i := len(items)-1; i >= 0; i--.
		switch cond.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ, token.NEQ:
		default:
			return source{}, false
		}
		for _, side := range [][2]ast.Expr{{cond.X, cond.Y}, {cond.Y, cond.X}} {
			id, ok := ast.Unparen(side[0]).(*ast.Ident)
			if !ok {
				continue
			}
			// i += chunk splits the work among a count of goroutines.
			if post, ok := l.Post.(*ast.IncDecStmt); !ok || !sameIdent(post.X, id) {
				continue
			}
			bound := side[1]
			if as, ok := l.Init.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && sameIdent(as.Lhs[0], id) {
				if y := c.lenIn(as.Rhs[0]); y != nil {
					bound = as.Rhs[0]
				}
			}
			if y := c.lenIn(bound); y != nil {
				ys := types.ExprString(y)
				return source{"element of " + ys, "len(" + ys + ")", c.objs(id)}, true
			}
		}
	case *ast.CallExpr:
		// for rows.Next(), for sc.Scan(), for it.Valid(); it.Next().
		sel, ok := ast.Unparen(cond.Fun).(*ast.SelectorExpr)
		if !ok || c.pass.TypesInfo.Selections[sel] == nil {
			return source{}, false
		}
		recv := groups.Key(c.pass.TypesInfo, sel.X)
		iter := sel.Sel.Name == "Scan" || sel.Sel.Name == "Next"
		if post, ok := l.Post.(*ast.ExprStmt); ok && !iter {
			if call, ok := ast.Unparen(post.X).(*ast.CallExpr); ok {
				if ps, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && ps.Sel.Name == "Next" {
					iter = recv != nil && groups.Key(c.pass.TypesInfo, ps.X) == recv
				}
			}
		}
		if !iter || recv == nil {
			return source{}, false
		}
		return source{"item produced by " + types.ExprString(sel.X), "the number of items produced", []types.Object{recv}}, true
	}
	return source{}, false
}

// objs returns the variables the identifiers among es denote.
func (c *checker) objs(es ...ast.Expr) []types.Object {
	var out []types.Object
	for _, e := range es {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if o := c.pass.TypesInfo.ObjectOf(id); o != nil {
				out = append(out, o)
			}
		}
	}
	return out
}

// sameIdent reports whether e is an identifier spelled as id.
func sameIdent(e ast.Expr, id *ast.Ident) bool {
	x, ok := ast.Unparen(e).(*ast.Ident)
	return ok && x.Name == id.Name
}

// lenIn returns y when e contains a call len(y) of an unbounded collection.
func (c *checker) lenIn(e ast.Expr) ast.Expr {
	var y ast.Expr
	ast.Inspect(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && y == nil && c.isBuiltin(call, "len") && len(call.Args) == 1 && c.unbounded(call.Args[0]) {
			y = call.Args[0]
		}
		return y == nil
	})
	return y
}

// unbounded reports whether e is a slice or map whose size is not fixed
// and whose elements are data (see quietCollection).
func (c *checker) unbounded(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return !c.fixedSize(e, 0) && !c.quietCollection(e)
	}
	return false
}

// fixedSize reports whether the length of the collection e is fixed in the
// code: an array, a composite literal, a slice of one with constant bounds,
// make(T, n) (a count), or a variable initialised so and never changed.
func (c *checker) fixedSize(e ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	e = ast.Unparen(e)
	if t := c.pass.TypesInfo.TypeOf(e); t != nil {
		u := t.Underlying()
		if p, ok := u.(*types.Pointer); ok {
			u = p.Elem().Underlying()
		}
		if _, ok := u.(*types.Array); ok {
			return true
		}
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return true
	case *ast.SliceExpr:
		if e.High != nil && c.pass.TypesInfo.Types[e.High].Value != nil {
			return true
		}
		return c.fixedSize(e.X, depth+1)
	case *ast.CallExpr:
		// make(T, n): a count, like range n, unless n is len(items).
		return c.isBuiltin(e, "make") && len(e.Args) >= 2 && c.lenIn(e.Args[1]) == nil
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		if !ok || v.IsField() || v.Pkg() == nil || (v.Parent() == v.Pkg().Scope() && v.Exported()) {
			return false
		}
		if c.initRegistry(v) {
			return true
		}
		if init := c.inits[v]; init != nil && !c.isMutated(v) && c.fixedSize(init, depth+1) {
			return true
		}
		return c.isMutated(v) && c.appendBounded(v)
	}
	return false
}

// isBuiltin reports whether call calls the predeclared function name.
func (c *checker) isBuiltin(call *ast.CallExpr, name string) bool {
	return typesx.IsBuiltin(c.pass.TypesInfo, call, name)
}

// findInits records each variable's initialiser where it has exactly one,
// and the function literals function variables are set to.
func (c *checker) findInits() {
	info := c.pass.TypesInfo
	record := func(id *ast.Ident, e ast.Expr, define bool) {
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok {
			return
		}
		if define {
			c.inits[v] = e
		}
		if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
			if _, seen := c.lits[v]; seen {
				lit = nil
			}
			c.lits[v] = lit
		}
	}
	for cur := range c.ins.Root().Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				continue
			}
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					record(id, n.Rhs[i], n.Tok == token.DEFINE && info.Defs[id] != nil)
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) != len(n.Values) {
				continue
			}
			for i, id := range n.Names {
				record(id, n.Values[i], true)
			}
		}
	}
}

// initRegistry reports whether v is an unexported package-level variable
// that only init functions (and functions only they call) change: a
// registry filled once at start-up by the code, whose size is the code's,
// not the data's. Its initialiser, if any, must be of fixed size too.
func (c *checker) initRegistry(v *types.Var) bool {
	if v.Pkg() != c.pass.Pkg || v.Parent() != v.Pkg().Scope() || v.Exported() {
		return false
	}
	if init := c.inits[v]; init != nil && !c.fixedValue(init) {
		return false
	}
	changed := false
	for cur := range c.ins.Root().Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)] != v || !c.mutates(cur, v) {
			continue
		}
		if !c.atInit(cur) {
			return false
		}
		changed = true
	}
	return changed
}

// atInit reports whether cur is in an init function, or in a function of
// the package that only init functions call.
func (c *checker) atInit(cur inspector.Cursor) bool {
	for fc := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		fd := fc.Node().(*ast.FuncDecl)
		if fd.Recv == nil && fd.Name.Name == "init" {
			return true
		}
		fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok || fn.Exported() {
			return false
		}
		calls := 0
		for u := range c.ins.Root().Preorder((*ast.Ident)(nil)) {
			if c.pass.TypesInfo.Uses[u.Node().(*ast.Ident)] != fn {
				continue
			}
			if k, _ := u.ParentEdge(); k != edge.CallExpr_Fun || !c.inInitFunc(u) {
				return false
			}
			calls++
		}
		return calls > 0
	}
	return false
}

// inInitFunc reports whether cur is in a function named init.
func (c *checker) inInitFunc(cur inspector.Cursor) bool {
	for fc := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		fd := fc.Node().(*ast.FuncDecl)
		return fd.Recv == nil && fd.Name.Name == "init"
	}
	return false
}

// isMutated reports whether v's length may change after its declaration.
func (c *checker) isMutated(v *types.Var) bool {
	if c.mutated == nil {
		c.mutated = map[*types.Var]bool{}
		for cur := range c.ins.Root().Preorder((*ast.Ident)(nil)) {
			if u, ok := c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)].(*types.Var); ok && !u.IsField() && c.mutates(cur, u) {
				c.mutated[u] = true
			}
		}
	}
	return c.mutated[v]
}

// mutates reports whether the use of v at cur may change v's length: an
// assignment, an address taken, and for a map anything but reading it,
// ranging over it, len and delete.
func (c *checker) mutates(cur inspector.Cursor, v *types.Var) bool {
	k, _ := cur.ParentEdge()
	parent := cur.Parent().Node()
	switch k {
	case edge.AssignStmt_Lhs, edge.IncDecStmt_X:
		return true
	case edge.UnaryExpr_X:
		if parent.(*ast.UnaryExpr).Op == token.AND {
			return true
		}
	case edge.RangeStmt_Key, edge.RangeStmt_Value:
		return parent.(*ast.RangeStmt).Tok == token.ASSIGN
	}
	if _, ok := v.Type().Underlying().(*types.Map); !ok {
		return false
	}
	switch k {
	case edge.RangeStmt_X:
		return false
	case edge.IndexExpr_X:
		switch pk, _ := cur.Parent().ParentEdge(); pk {
		case edge.AssignStmt_Lhs, edge.IncDecStmt_X:
			return true
		}
		return false
	case edge.CallExpr_Args:
		call := parent.(*ast.CallExpr)
		return !c.isBuiltin(call, "len") && !c.isBuiltin(call, "delete") && !c.isBuiltin(call, "clear")
	}
	return true
}
