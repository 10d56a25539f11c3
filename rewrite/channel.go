package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

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
			r.replaceExpr(c, n, r.rtCall("New", r.typedSite(au.OpPos, "New", r.in.Info.TypeOf(au)), n))
		}
	case token.ARROW:
		if r.skip[n] {
			return
		}
		if as, ok := c.Parent().(*dst.AssignStmt); ok && r.commaOK(c) && r.okNotBool(as) {
			r.recvOK[as] = n.X // assign splits the statement
			return
		}
		if vs, ok := c.Parent().(*dst.ValueSpec); ok && r.commaOK(c) && r.specNotBool(vs) {
			r.warn(au.OpPos, "receive not instrumented: var v, ok T = <-ch with a boolean type T other than bool")
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

// okNotBool reports whether the comma-ok receive assigned by as assigns
// its untyped boolean to a variable that a bool cannot be assigned to
// (var ok flag, with type flag bool): rt.Recv2 returns a bool.
func (r *fileRewriter) okNotBool(as *dst.AssignStmt) bool {
	aa, _ := r.astOf(as).(*ast.AssignStmt)
	if aa == nil || len(aa.Lhs) != 2 {
		return false
	}
	t := r.in.Info.TypeOf(aa.Lhs[1])
	return t != nil && !types.AssignableTo(types.Typ[types.Bool], t)
}

// specNotBool is okNotBool for var v, ok T = <-ch.
func (r *fileRewriter) specNotBool(vs *dst.ValueSpec) bool {
	av, _ := r.astOf(vs).(*ast.ValueSpec)
	if av == nil || av.Type == nil || len(av.Names) != 2 {
		return false
	}
	t := r.in.Info.TypeOf(av.Type)
	return t != nil && !types.AssignableTo(types.Typ[types.Bool], t)
}

// splitRecvOK rewrites v, ok = <-ch where ok's type is not bool (see
// okNotBool) into
//
//	spgo_rv3, spgo_rok3 := rt.Recv2(site, ch)
//	v, ok = spgo_rv3, flag(spgo_rok3)
//
// (spgo_rok3 == true when flag cannot be named here), with names of
// their own for each receive. It needs a statement list; elsewhere the
// receive stays as it is, with a warning.
func (r *fileRewriter) splitRecvOK(c *dstutil.Cursor, n *dst.AssignStmt, ch dst.Expr) {
	aa := r.astOf(n).(*ast.AssignStmt)
	au := ast.Unparen(aa.Rhs[0]).(*ast.UnaryExpr)
	k := strconv.Itoa(len(r.sites))
	v, ok := r.in.Names.name("rv"+k), r.in.Names.name("rok"+k)
	okUse := r.convertTo(r.in.Info.TypeOf(aa.Lhs[1]), aa.Pos(), dst.NewIdent(ok))
	if okUse == nil || c.Index() < 0 {
		r.warn(au.OpPos, "receive not instrumented: its ok value goes to a variable of a boolean type that cannot be named here, or the statement is not in a statement list")
		return
	}
	recv := &dst.AssignStmt{
		Lhs: []dst.Expr{dst.NewIdent(v), dst.NewIdent(ok)}, Tok: token.DEFINE,
		Rhs: []dst.Expr{r.rtCall("Recv2", r.site(au.OpPos, "Recv"), ch)},
	}
	n.Rhs = []dst.Expr{dst.NewIdent(v), okUse}
	// The receive takes the statement's place in the spacing; comments
	// stay with the statement.
	recv.Decs.Before, n.Decs.Before = n.Decs.Before, dst.NewLine
	r.origin[recv] = r.pos(aa.Pos())
	c.InsertBefore(recv)
	r.changed = true
}

// convertTo returns e converted to t where a boolean of type t must be
// used: t(e) when t can be named at p, else e == true (a comparison is an
// untyped boolean), or nil.
func (r *fileRewriter) convertTo(t types.Type, p token.Pos, e dst.Expr) dst.Expr {
	if te := r.typeExpr(t, p); te != nil {
		return &dst.CallExpr{Fun: te, Args: []dst.Expr{e}}
	}
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 && r.universal("true", p) {
		return &dst.BinaryExpr{X: e, Op: token.EQL, Y: dst.NewIdent("true")}
	}
	return nil
}

// send turns ch <- v into rt.Send(site, ch, v) when v's type lets Send
// infer the channel's element type (see fitsParam), and otherwise into
// rt.ChanOf(w).Send(site, ch, v), whose element type comes from the
// witness w (see witness): C(nil) for ch of type C, or ch again. When
// neither can be written, ch goes into a temporary first: { spgo_sc := ch;
// rt.ChanOf(spgo_sc).Send(site, spgo_sc, v) }, or the same in a function
// literal called in place where a block cannot stand (the init or post
// statement of an if, switch or for).
func (r *fileRewriter) send(c *dstutil.Cursor, n *dst.SendStmt) {
	if r.skip[n] {
		return
	}
	as, _ := r.astOf(n).(*ast.SendStmt)
	if as == nil {
		return
	}
	site := r.site(as.Arrow, "Send")
	if r.fitsParam(as.Value, elemType(r.in.Info.TypeOf(as.Chan))) {
		r.replaceStmt(c, n, &dst.ExprStmt{X: r.rtCall("Send", site, n.Chan, n.Value)})
		return
	}
	if w := r.witness(as.Chan, n.Chan, as.Arrow); w != nil {
		r.replaceStmt(c, n, &dst.ExprStmt{X: r.chanOfSend(w, site, n.Chan, n.Value)})
		return
	}
	tmp := r.in.Names.name("sc")
	body := []dst.Stmt{
		&dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(tmp)}, Tok: token.DEFINE, Rhs: []dst.Expr{n.Chan}},
		&dst.ExprStmt{X: r.chanOfSend(dst.NewIdent(tmp), site, dst.NewIdent(tmp), n.Value)},
	}
	for _, s := range body {
		r.origin[s] = r.pos(as.Pos())
	}
	if _, labeled := c.Parent().(*dst.LabeledStmt); labeled || c.Index() >= 0 {
		r.replaceStmt(c, n, &dst.BlockStmt{List: body})
		return
	}
	lit := &dst.FuncLit{Type: &dst.FuncType{Params: &dst.FieldList{}}, Body: &dst.BlockStmt{List: body}}
	r.replaceStmt(c, n, &dst.ExprStmt{X: &dst.CallExpr{Fun: lit}})
}

// chanOfSend builds rt.ChanOf(witness).Send(site, ch, v).
func (r *fileRewriter) chanOfSend(witness, site, ch, v dst.Expr) dst.Expr {
	ops := r.rtCall("ChanOf", witness)
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: ops, Sel: dst.NewIdent("Send")}, Args: []dst.Expr{site, ch, v}}
}

// replaceStmt replaces the statement old at c by repl, which takes old's
// line breaks and comments and its line.
func (r *fileRewriter) replaceStmt(c *dstutil.Cursor, old dst.Stmt, repl dst.Stmt) {
	*repl.Decorations() = *old.Decorations()
	if a := r.astOf(old); a != nil {
		r.origin[repl] = r.pos(a.Pos())
	}
	c.Replace(repl)
	r.changed = true
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
// own when it redeclares the variable. In a file of a language version
// before Go 1.22, where the loop has one variable for all iterations, the
// variable is declared once, by the loop's init statement, with the zero
// value of the element type (rt.Elem of a witness of ch's type, see
// witness), and each receive assigns it:
//
//	for spgo_c, v := ch, rt.Elem(C(nil)); ; {
//		spgo_v, spgo_ok := rt.Recv2(site, spgo_c)
//		if !spgo_ok {
//			break
//		}
//		v = spgo_v
//		...
//
// (v keeps its last value when the channel is closed, as with the range
// statement).
func (r *fileRewriter) rangeChan(c *dstutil.Cursor, n *dst.RangeStmt) {
	ar, _ := r.astOf(n).(*ast.RangeStmt)
	if ar == nil {
		return
	}
	if _, ok := coreOf(r.in.Info.TypeOf(ar.X)).(*types.Chan); !ok {
		return
	}
	ch := r.in.Names.name("c")
	ok := r.in.Names.name("ok")
	var witness dst.Expr // the per-loop variable's zero value comes from it
	if n.Tok == token.DEFINE && n.Key != nil && !isBlank(n.Key) && r.langBefore(perIteration) {
		if witness = r.witness(ar.X, n.X, ar.For); witness == nil {
			r.warn(ar.For, "range over a channel: its variable is one per iteration, as from Go 1.22, because the channel's type cannot be named here")
		}
	}
	site := r.site(ar.For, "Recv")
	recv := r.rtCall("Recv2", site, dst.NewIdent(ch))
	var first []dst.Stmt
	notOK := &dst.IfStmt{
		Cond: &dst.UnaryExpr{Op: token.NOT, X: dst.NewIdent(ok)},
		Body: &dst.BlockStmt{List: []dst.Stmt{&dst.BranchStmt{Tok: token.BREAK}}},
	}
	init := &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(ch)}, Tok: token.DEFINE, Rhs: []dst.Expr{n.X}}
	switch {
	case n.Key == nil || isBlank(n.Key):
		notOK.Init = &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent("_"), dst.NewIdent(ok)}, Tok: token.DEFINE, Rhs: []dst.Expr{recv}}
		first = []dst.Stmt{notOK}
	case n.Tok == token.DEFINE && witness == nil:
		first = []dst.Stmt{&dst.AssignStmt{Lhs: []dst.Expr{n.Key, dst.NewIdent(ok)}, Tok: token.DEFINE, Rhs: []dst.Expr{recv}}, notOK}
	default: // for x = range ch, and one x per loop: x keeps its last value at the close
		key := n.Key
		if witness != nil {
			// Declared once, by the loop's init statement.
			init.Lhs = append(init.Lhs, n.Key)
			init.Rhs = append(init.Rhs, r.rtCall("Elem", witness))
			key = dst.Clone(n.Key).(dst.Expr)
		}
		v := r.in.Names.name("v")
		first = []dst.Stmt{
			&dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(v), dst.NewIdent(ok)}, Tok: token.DEFINE, Rhs: []dst.Expr{recv}},
			notOK,
			&dst.AssignStmt{Lhs: []dst.Expr{key}, Tok: token.ASSIGN, Rhs: []dst.Expr{dst.NewIdent(v)}},
		}
	}
	body := n.Body.List
	if n.Tok == token.DEFINE && n.Key != nil && !isBlank(n.Key) && redeclares(ar.Body, ar.Key.(*ast.Ident).Name) {
		body = []dst.Stmt{n.Body}
		n.Body = &dst.BlockStmt{}
	}
	loop := &dst.ForStmt{Init: init, Body: &dst.BlockStmt{List: append(first, body...)}}
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
