package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"
)

// freeLists instruments the cases of a select with a default case that
// use a channel of buffers (pointers or slices) as a free list (rtlib's
// acct_freelist.go): a receive whose default case makes a new buffer of
// the element's type (allocates). The default case calls rt.ChanTry(ch)
// for each such channel, a receive case that fired calls
// rt.ChanGot(site, ch, v) first, and a send case rt.ChanSent(ch, v).
// Only operands without side effects (pure) are evaluated again; a case whose are not is left alone, as is a receive
// whose value is dropped. A select without a default case calls
// rt.ChanRecvd(site, ch, v) in a receive case of a channel of buffers
// (selectStmt).
//
//	select {                      select {
//	case b := <-free:             case b := <-free:
//		...                   =>      rt.ChanGot(site, free, b)
//	default:                          ...
//		b = make([]byte, n)       default:
//	}                                 rt.ChanTry(free)
//	                                  b = make([]byte, n)
//	                              }
func (r *fileRewriter) freeLists(n *dst.SelectStmt, as *ast.SelectStmt) {
	var def *dst.CommClause
	var defPos token.Pos
	var defBody []ast.Stmt
	for k, s := range n.Body.List {
		if acc := as.Body.List[k].(*ast.CommClause); acc.Comm == nil {
			def, defPos, defBody = s.(*dst.CommClause), acc.Case, acc.Body
		}
	}
	var tries []*dst.UnaryExpr // the receives
	for k, s := range n.Body.List {
		cc, acc := s.(*dst.CommClause), as.Body.List[k].(*ast.CommClause)
		if cc.Comm == nil {
			continue
		}
		switch ac := acc.Comm.(type) {
		case *ast.AssignStmt:
			u, ok := ast.Unparen(ac.Rhs[0]).(*ast.UnaryExpr)
			du, ok2 := unparen(cc.Comm.(*dst.AssignStmt).Rhs[0]).(*dst.UnaryExpr)
			if !ok || !ok2 || u.Op != token.ARROW || !r.bufferChan(u.X) || !r.allocates(defBody, u.X) {
				continue
			}
			v, ok := ac.Lhs[0].(*ast.Ident)
			if !ok || v.Name == "_" || mentions(u.X, ac.Lhs) {
				continue
			}
			tries = append(tries, du)
			call := r.rtCall("ChanGot", r.site(acc.Case, "Recv"), dst.Clone(du.X).(dst.Expr), dst.NewIdent(v.Name))
			cc.Body = append([]dst.Stmt{r.stmt(acc.Case, call)}, cc.Body...)
		case *ast.SendStmt:
			ds := cc.Comm.(*dst.SendStmt)
			if !r.bufferChan(ac.Chan) || !pure(ac.Value) {
				continue
			}
			call := r.rtCall("ChanSent", dst.Clone(ds.Chan).(dst.Expr), dst.Clone(ds.Value).(dst.Expr))
			cc.Body = append([]dst.Stmt{r.stmt(acc.Case, call)}, cc.Body...)
		}
	}
	if def == nil {
		return
	}
	var calls []dst.Stmt
	for _, du := range tries {
		calls = append(calls, r.stmt(defPos, r.rtCall("ChanTry", dst.Clone(du.X).(dst.Expr))))
	}
	def.Body = append(calls, def.Body...)
}

// allocates reports whether body (a default case) allocates a new
// element of the channel ch (make, new, a composite literal or its
// address, of the element's type): the receive's case takes a buffer
// back, the default makes one. A select that drains a channel without
// waiting (default: break) is not a free list's.
func (r *fileRewriter) allocates(body []ast.Stmt, ch ast.Expr) bool {
	c, ok := coreOf(r.in.Info.TypeOf(ch)).(*types.Chan)
	if !ok {
		return false
	}
	found := false
	for _, st := range body {
		ast.Inspect(st, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && (id.Name == "make" || id.Name == "new") {
					if _, builtin := r.in.Info.Uses[id].(*types.Builtin); builtin && types.Identical(r.in.Info.TypeOf(x), c.Elem()) {
						found = true
					}
				}
			case *ast.CompositeLit:
				if t := r.in.Info.TypeOf(x); t != nil && (types.Identical(t, c.Elem()) || types.Identical(types.NewPointer(t), c.Elem())) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// bufferChan reports whether e is a channel without side effects whose
// elements are buffers (bufferChanType).
func (r *fileRewriter) bufferChan(e ast.Expr) bool {
	return pure(e) && bufferChanType(r.in.Info.TypeOf(e))
}

// bufferChanType reports whether t is a channel type whose elements are
// pointers or slices: buffers a free list can hold.
func bufferChanType(t types.Type) bool {
	ch, ok := coreOf(t).(*types.Chan)
	if !ok {
		return false
	}
	switch coreOf(ch.Elem()).(type) {
	case *types.Pointer, *types.Slice:
		return true
	}
	return false
}

// mentions reports whether the operand e names one of the variables a
// receive case declares or assigns (lhs): at the start of its body the
// name would be the received value.
func mentions(e ast.Expr, lhs []ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			for _, l := range lhs {
				if l, ok := l.(*ast.Ident); ok && l.Name == id.Name {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// stmt makes call a statement on a line of its own, at p's position.
func (r *fileRewriter) stmt(p token.Pos, call *dst.CallExpr) dst.Stmt {
	m := &dst.ExprStmt{X: call}
	m.Decs.Before = dst.NewLine
	r.origin[m] = r.pos(p)
	return m
}
