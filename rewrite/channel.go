package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"

	"github.com/spgo/spgo/rewrite/escape"
)

// markSelectComms marks the communications of a select statement, which
// the select rewriting handles itself, so that they are not turned into
// rt.Send and rt.Recv.
func (r *fileRewriter) markSelectComms(n *dst.SelectStmt) {
	for _, s := range n.Body.List {
		cc := s.(*dst.CommClause)
		switch comm := cc.Comm.(type) {
		case *dst.SendStmt:
			r.skip[comm] = true
		case *dst.ExprStmt:
			r.skip[unparen(comm.X)] = true
		case *dst.AssignStmt:
			r.skip[unparen(comm.Rhs[0])] = true
		}
	}
}

// unary instruments receives (<-ch becomes rt.Recv, and in v, ok := <-ch
// rt.Recv2) and &T{...} at heap sites.
func (r *fileRewriter) unary(c *dstutil.Cursor, n *dst.UnaryExpr) {
	au, _ := r.astOf(n).(*ast.UnaryExpr)
	if au == nil {
		return
	}
	switch n.Op {
	case token.AND:
		if _, ok := ast.Unparen(au.X).(*ast.CompositeLit); ok && r.kind(au.OpPos) == escape.Heap {
			r.replaceExpr(c, n, r.rtCall("New", r.site(au.OpPos, "New"), n))
		}
	case token.ARROW:
		if r.skip[n] {
			return
		}
		site := r.site(au.OpPos, "Recv")
		if r.commaOK(c) {
			r.replaceExpr(c, n, r.rtCall("Recv2", site, n.X))
		} else {
			r.replaceExpr(c, n, r.rtCall("Recv", site, n.X))
		}
	}
}

// commaOK reports whether the receive at c is the single right-hand side
// of a two-value assignment or declaration.
func (r *fileRewriter) commaOK(c *dstutil.Cursor) bool {
	switch p := c.Parent().(type) {
	case *dst.AssignStmt:
		return len(p.Lhs) == 2 && len(p.Rhs) == 1
	case *dst.ValueSpec:
		return len(p.Names) == 2 && len(p.Values) == 1
	}
	return false
}

// send turns ch <- v into rt.Send(site, ch, v).
func (r *fileRewriter) send(c *dstutil.Cursor, n *dst.SendStmt) {
	if r.skip[n] {
		return
	}
	as, _ := r.astOf(n).(*ast.SendStmt)
	if as == nil {
		return
	}
	repl := &dst.ExprStmt{X: r.rtCall("Send", r.site(as.Arrow, "Send"), n.Chan, n.Value)}
	repl.Decs.NodeDecs = n.Decs.NodeDecs
	c.Replace(repl)
}

// rangeChan turns a range over a channel into a loop of rt.Recv2:
//
//	for spgo_c := ch; ; {
//		v, spgo_ok := rt.Recv2(site, spgo_c)
//		if !spgo_ok {
//			break
//		}
//		body
//	}
//
// The label, if any, stays on the loop; the body goes into a block of its
// own when it redeclares the variable.
func (r *fileRewriter) rangeChan(c *dstutil.Cursor, n *dst.RangeStmt) {
	ar, _ := r.astOf(n).(*ast.RangeStmt)
	if ar == nil {
		return
	}
	if _, ok := r.in.Info.TypeOf(ar.X).Underlying().(*types.Chan); !ok {
		return
	}
	ch := r.in.Names.name("c")
	ok := r.in.Names.name("ok")
	site := r.site(ar.For, "Recv")
	recv := r.rtCall("Recv2", site, dst.NewIdent(ch))
	var first []dst.Stmt
	notOK := &dst.IfStmt{
		Cond: &dst.UnaryExpr{Op: token.NOT, X: dst.NewIdent(ok)},
		Body: &dst.BlockStmt{List: []dst.Stmt{&dst.BranchStmt{Tok: token.BREAK}}},
	}
	switch {
	case n.Key == nil || isBlank(n.Key):
		notOK.Init = &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent("_"), dst.NewIdent(ok)}, Tok: token.DEFINE, Rhs: []dst.Expr{recv}}
		first = []dst.Stmt{notOK}
	case n.Tok == token.DEFINE:
		first = []dst.Stmt{&dst.AssignStmt{Lhs: []dst.Expr{n.Key, dst.NewIdent(ok)}, Tok: token.DEFINE, Rhs: []dst.Expr{recv}}, notOK}
	default: // for x = range ch
		v := r.in.Names.name("v")
		first = []dst.Stmt{
			&dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(v), dst.NewIdent(ok)}, Tok: token.DEFINE, Rhs: []dst.Expr{recv}},
			notOK,
			&dst.AssignStmt{Lhs: []dst.Expr{n.Key}, Tok: token.ASSIGN, Rhs: []dst.Expr{dst.NewIdent(v)}},
		}
	}
	body := n.Body.List
	if n.Tok == token.DEFINE && n.Key != nil && !isBlank(n.Key) && redeclares(ar.Body, ar.Key.(*ast.Ident).Name) {
		body = []dst.Stmt{n.Body}
		n.Body = &dst.BlockStmt{}
	}
	loop := &dst.ForStmt{
		Init: &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(ch)}, Tok: token.DEFINE, Rhs: []dst.Expr{n.X}},
		Body: &dst.BlockStmt{List: append(first, body...)},
	}
	loop.Decs.NodeDecs = n.Decs.NodeDecs
	for _, s := range first {
		r.origin[s] = r.pos(ar.For)
	}
	r.origin[loop] = r.pos(ar.For)
	c.Replace(loop)
}

func isBlank(e dst.Expr) bool {
	id, ok := e.(*dst.Ident)
	return ok && id.Name == "_"
}

// redeclares reports whether a top-level statement of body declares name.
func redeclares(body *ast.BlockStmt, name string) bool {
	for _, s := range body.List {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name {
						return true
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := s.Decl.(*ast.GenDecl); ok {
				for _, spec := range gd.Specs {
					switch sp := spec.(type) {
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							if id.Name == name {
								return true
							}
						}
					case *ast.TypeSpec:
						if sp.Name.Name == name {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
