package tailstrict

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// drainLoop describes a loop that reads a stream to its end.
type drainLoop struct {
	stmt   ast.Stmt
	body   *ast.BlockStmt
	source ast.Expr // the channel, iterator, Scanner or Next receiver
	what   string   // how the source is named in messages
	iter   bool     // a range over a function (an iterator)
}

// drainLoopOf returns the stream loop s is, if any.
func (c *checker) drainLoopOf(s ast.Stmt) (drainLoop, bool) {
	switch s := s.(type) {
	case *ast.RangeStmt:
		t := c.pass.TypesInfo.TypeOf(s.X)
		if t == nil {
			return drainLoop{}, false
		}
		switch t.Underlying().(type) {
		case *types.Chan:
			return drainLoop{s, s.Body, s.X, "channel " + render(s.X), false}, true
		case *types.Signature:
			return drainLoop{s, s.Body, s.X, "iterator " + render(s.X), true}, true
		}
	case *ast.ForStmt:
		if s.Init != nil || s.Post != nil || s.Cond == nil {
			return drainLoop{}, false
		}
		call, ok := ast.Unparen(s.Cond).(*ast.CallExpr)
		if !ok {
			return drainLoop{}, false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return drainLoop{}, false
		}
		fn, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
		if !ok || fn.Type().(*types.Signature).Recv() == nil {
			return drainLoop{}, false
		}
		switch fn.Name() {
		case "Scan":
			if typesx.IsNamed(fn.Type().(*types.Signature).Recv().Type(), "bufio", "Scanner") {
				return drainLoop{s, s.Body, sel.X, "Scanner " + render(sel.X), false}, true
			}
		case "Next":
			if len(call.Args) == 0 {
				return drainLoop{s, s.Body, sel.X, render(sel.X) + ".Next() loop", false}, true
			}
		}
	}
	return drainLoop{}, false
}

// drains looks in one statement list for a stream loop that only appends
// to a local slice, followed by one loop over that slice that emits.
func (c *checker) drains(list []ast.Stmt) {
	for i, s := range list {
		l1, ok := c.drainLoopOf(s)
		if !ok || c.emits(l1.body) {
			continue
		}
		for _, buf := range c.appended(l1.body) {
			c.drain(list, i, l1, buf)
		}
	}
}

// appended returns the local slices a loop body appends to as
// "buf = append(buf, ...)".
func (c *checker) appended(body *ast.BlockStmt) []*types.Var {
	var bufs []*types.Var
	seen := map[*types.Var]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if v := c.appendTo(n); v != nil && !seen[v] {
			seen[v] = true
			bufs = append(bufs, v)
		}
		return true
	})
	return bufs
}

// appendTo returns v if n is "v = append(v, ...)" for a local v.
func (c *checker) appendTo(n ast.Node) *types.Var {
	as, ok := n.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || !c.isBuiltin(call, "append") || len(call.Args) < 1 {
		return nil
	}
	v := c.localVar(as.Lhs[0])
	if v == nil || c.localVar(call.Args[0]) != v {
		return nil
	}
	return v
}

// drain checks buf, appended to by the stream loop list[i], and reports
// the stage if a later loop in list ranges over buf once and emits.
func (c *checker) drain(list []ast.Stmt, i int, l1 drainLoop, buf *types.Var) {
	if !c.freshSlice(buf) {
		return
	}
	// The second loop: the first later statement that mentions buf other
	// than by its length (if len(buf) == 0 { return }).
	one := map[*types.Var]bool{buf: true}
	j := i + 1
	for j < len(list) && (!c.idx.mentions(list[j], one) || c.lenOnly(list[j], buf)) {
		j++
	}
	if j == len(list) {
		return
	}
	l2, ok := list[j].(*ast.RangeStmt)
	if !ok || c.localVar(l2.X) != buf || !c.emits(l2.Body) || syncs(c, list[i+1:j]) {
		return
	}
	if c.idx.mentions(l2.Body, c.idx.objects(l1.source)) {
		return // the stage may feed its own input
	}
	var key *types.Var
	if id, ok := l2.Key.(*ast.Ident); ok {
		key, _ = c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	}
	fn := c.idx.funcOf[c.idx.def[buf]]
	for _, u := range c.idx.uses[buf] {
		switch {
		case c.idx.funcOf[u] != fn:
			return // captured by a closure
		case within(u, l1.body) && c.appendUse(u, buf):
		case u == ast.Unparen(l2.X):
		case c.lenOf(u):
		case within(u, l2.Body) && c.idx.keyedRead(u, key):
		default:
			return // used as a whole
		}
	}
	what := "this stage drains its whole input"
	instead := "send each element on from inside the first loop"
	if _, ok := fn.(*ast.FuncLit); ok && c.inIterator(fn.(*ast.FuncLit)) {
		what = "this iterator collects its whole upstream"
		instead = "yield each element from inside the first loop"
	}
	c.rep.Reportf(l1.stmt, "%s (%s) into %s before emitting anything, so every element is live at once and the consumer waits for the last; %s", what, l1.what, buf.Name(), instead)
}

// lenOnly reports whether every mention of buf in n is len(buf).
func (c *checker) lenOnly(n ast.Node, buf *types.Var) bool {
	ok := true
	ast.Inspect(n, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID && c.pass.TypesInfo.Uses[id] == buf && !c.lenOf(id) {
			ok = false
		}
		return ok
	})
	return ok
}

// lenOf reports whether the identifier u is the argument of len: its
// length is read, nothing of what it holds.
func (c *checker) lenOf(u *ast.Ident) bool {
	call, ok := c.idx.up(u).(*ast.CallExpr)
	return ok && len(call.Args) == 1 && ast.Unparen(call.Args[0]) == u && c.isBuiltin(call, "len")
}

// appendUse reports whether the use u of buf is one side of
// "buf = append(buf, ...)".
func (c *checker) appendUse(u *ast.Ident, buf *types.Var) bool {
	for n := ast.Node(u); n != nil; n = c.idx.parent[n] {
		if as, ok := n.(*ast.AssignStmt); ok {
			if c.appendTo(as) != buf {
				return false
			}
			call := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			return ast.Unparen(as.Lhs[0]) == u || ast.Unparen(call.Args[0]) == u
		}
		if _, ok := n.(ast.Stmt); ok {
			return false
		}
	}
	return false
}

// freshSlice reports whether buf starts as a slice of its own: declared
// without a value, or as nil, an empty literal, or make([]T, 0[, n]).
func (c *checker) freshSlice(buf *types.Var) bool {
	if _, ok := buf.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	init, zero, ok := c.idx.definedBy(buf)
	if !ok {
		return false
	}
	if zero {
		return true
	}
	switch e := ast.Unparen(init).(type) {
	case *ast.Ident:
		return c.pass.TypesInfo.Types[e].IsNil()
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.CallExpr:
		if tv := c.pass.TypesInfo.Types[e.Fun]; tv.IsType() && len(e.Args) == 1 {
			return c.pass.TypesInfo.Types[e.Args[0]].IsNil() // []T(nil)
		}
		if c.isBuiltin(e, "make") && len(e.Args) >= 2 {
			tv := c.pass.TypesInfo.Types[e.Args[1]]
			return tv.Value != nil && tv.Value.String() == "0"
		}
	}
	return false
}

// inIterator reports whether lit has the shape of an iterator body:
// func(yield func(...) bool).
func (c *checker) inIterator(lit *ast.FuncLit) bool {
	sig, ok := c.pass.TypesInfo.TypeOf(lit).(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	y, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	return ok && y.Results().Len() == 1 && types.Identical(y.Results().At(0).Type(), types.Typ[types.Bool])
}
