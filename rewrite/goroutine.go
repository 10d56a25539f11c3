package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// goStmt turns `go f(a, b)` into
//
//	{
//		spgo_f, spgo_a0, spgo_a1 := f, a, b
//		spgo_t := rt.Fork(site)
//		go func() {
//			defer spgo_t.Finish()
//			spgo_t.Start()
//			spgo_f(spgo_a0, spgo_a1)
//			spgo_t.Return()
//		}()
//		spgo_t.Resume()
//	}
//
// The function value and the arguments are evaluated in the parent, before
// the fork, as the go statement evaluates them; constants stay in place.
func (r *fileRewriter) goStmt(c *dstutil.Cursor, g *dst.GoStmt) {
	ag, _ := r.astOf(g).(*ast.GoStmt)
	if ag == nil {
		return
	}
	at := r.pos(ag.Pos())
	call := g.Call
	// The call may already be a hook (go wg.Wait(), go close(ch)): then
	// its function is an rtlib function and its arguments are the hook's.
	acall, _ := r.astOf(call).(*ast.CallExpr)
	var stmts []dst.Stmt
	var lhs, rhs []dst.Expr
	var temps []types.Type // the temporaries' types, for the closures (goClosures)
	temp := func(base string, e dst.Expr) dst.Expr {
		name := r.in.Names.name(base)
		lhs = append(lhs, dst.NewIdent(name))
		rhs = append(rhs, e)
		return dst.NewIdent(name)
	}
	fun := call.Fun
	if acall != nil && r.needsTemp(acall.Fun) {
		fun = temp("f", call.Fun)
		temps = append(temps, r.in.Info.TypeOf(acall.Fun))
	}
	var args []dst.Expr
	if acall != nil && len(acall.Args) == 1 && isTuple(r.in.Info.TypeOf(acall.Args[0])) {
		// go f(g()) with g returning several values.
		tuple := r.in.Info.TypeOf(acall.Args[0]).(*types.Tuple)
		var names []dst.Expr
		for i := 0; i < tuple.Len(); i++ {
			names = append(names, dst.NewIdent(r.in.Names.name("a"+strconv.Itoa(i))))
			temps = append(temps, tuple.At(i).Type())
		}
		if len(lhs) > 0 {
			stmts = append(stmts, &dst.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs})
			lhs, rhs = nil, nil
		}
		stmts = append(stmts, &dst.AssignStmt{Lhs: names, Tok: token.DEFINE, Rhs: []dst.Expr{call.Args[0]}})
		args = cloneExprs(names)
	} else {
		for i, a := range call.Args {
			ae := r.astExpr(a)
			if acall != nil && len(acall.Args) == len(call.Args) {
				ae = acall.Args[i] // a hook may have replaced the argument (rt.Slice(site, make(...)))
			}
			if ae == nil || r.stable(ae) {
				args = append(args, a) // a constant, a function, or a site number
				continue
			}
			name := r.in.Names.name("a" + strconv.Itoa(i))
			init, use, ok := r.operandTemp(ae, a, name)
			if !ok {
				r.warn(ag.Go, "go statement not instrumented: argument %d is an untyped expression of a type that cannot be named here", i+1)
				return
			}
			lhs = append(lhs, dst.NewIdent(name))
			rhs = append(rhs, init)
			args = append(args, use)
			temps = append(temps, r.in.Info.TypeOf(ae))
		}
		if len(lhs) > 0 {
			stmts = append(stmts, &dst.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs})
		}
	}
	// The temporaries evaluate user expressions: their line is the go
	// statement's, as are the go keyword's and the call's in the child.
	for _, s := range stmts {
		r.origin[s] = at
	}
	t := r.in.Names.name("t")
	stmts = append(stmts, &dst.AssignStmt{
		Lhs: []dst.Expr{dst.NewIdent(t)}, Tok: token.DEFINE,
		Rhs: []dst.Expr{r.rtCall("Fork", r.site(ag.Go, "Go"))},
	})
	var lit *ast.FuncLit
	if acall != nil {
		lit, _ = ast.Unparen(acall.Fun).(*ast.FuncLit)
	}
	st := &r.sites[len(r.sites)-1]
	st.Closure, st.ArgsClosure, st.Wrapper = r.goClosures(temps, lit)
	inner := &dst.ExprStmt{X: &dst.CallExpr{Fun: fun, Args: args, Ellipsis: call.Ellipsis}}
	if site, ok := r.releasedGo[call]; ok {
		inner.X = r.rtCall("Reacquire", r.rtCall("Release", site), inner.X)
	}
	child := r.childGo(t, inner)
	stmts = append(stmts, child, &dst.ExprStmt{X: method(t, "Resume")})
	block := &dst.BlockStmt{List: stmts}
	block.Decs.NodeDecs = g.Decs.NodeDecs
	for _, n := range []dst.Node{block, child, inner} {
		r.origin[n] = at
	}
	c.Replace(block)
}

func isTuple(t types.Type) bool {
	tu, ok := t.(*types.Tuple)
	return ok && tu.Len() > 1
}

// childGo builds the go statement that runs body as task t.
func (r *fileRewriter) childGo(t string, body dst.Stmt) *dst.GoStmt {
	lit := &dst.FuncLit{
		Type: &dst.FuncType{Params: &dst.FieldList{}},
		Body: &dst.BlockStmt{List: []dst.Stmt{
			&dst.DeferStmt{Call: method(t, "Finish")},
			&dst.ExprStmt{X: method(t, "Start")},
			body,
			&dst.ExprStmt{X: method(t, "Return")},
		}},
	}
	return &dst.GoStmt{Call: &dst.CallExpr{Fun: lit}}
}

// method builds recv.name().
func method(recv, name string) *dst.CallExpr {
	return &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(recv), Sel: dst.NewIdent(name)}}
}

func cloneExprs(es []dst.Expr) []dst.Expr {
	out := make([]dst.Expr, len(es))
	for i, e := range es {
		out[i] = dst.Clone(e).(dst.Expr)
	}
	return out
}

// isConst reports whether e is a constant or nil: it needs no temporary
// and must not get one (an untyped constant takes the parameter's type).
func (r *fileRewriter) isConst(e ast.Expr) bool {
	tv, ok := r.in.Info.Types[e]
	return ok && (tv.Value != nil || tv.IsNil())
}

// needsTemp reports whether the function of a go statement must be
// evaluated into a temporary: not for functions named by identifiers
// (which may be generic and cannot be values), builtins, method
// expressions and function literals.
func (r *fileRewriter) needsTemp(fun ast.Expr) bool {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.FuncLit:
		return false
	case *ast.Ident:
		switch r.in.Info.Uses[f].(type) {
		case *types.Func, *types.Builtin:
			return false
		}
		return true
	case *ast.SelectorExpr:
		if sel, ok := r.in.Info.Selections[f]; ok {
			return sel.Kind() != types.MethodExpr
		}
		// A qualified identifier: pkg.F.
		switch r.in.Info.Uses[f.Sel].(type) {
		case *types.Func, *types.Builtin:
			return false
		}
		return true
	case *ast.IndexExpr, *ast.IndexListExpr:
		// An explicit instantiation f[T] is a value; keep it in place to
		// avoid naming the instance twice.
		return false
	}
	return true
}

// spawnsDirectly reports whether body (not counting function literals in
// it) contains a go statement or a group Go call.
func spawnsDirectly(body *ast.BlockStmt, info *types.Info) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			found = true
		case *ast.CallExpr:
			found = spawnMethod(calleeMethod(info, x))
		}
		return !found
	})
	return found
}

// calleeMethod returns the method or function a call statically calls.
func calleeMethod(info *types.Info, call *ast.CallExpr) *types.Func {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			fn, _ := sel.Obj().(*types.Func)
			if sel.Kind() == types.MethodVal {
				return fn
			}
			return nil
		}
		fn, _ := info.Uses[f.Sel].(*types.Func)
		return fn
	case *ast.Ident:
		fn, _ := info.Uses[f].(*types.Func)
		return fn
	}
	return nil
}

// funcEntry adds what a function needs at entry: the root bracket for a
// root, a sync scope for a function that spawns, and hooks for parameters
// moved to the heap.
func (r *fileRewriter) funcEntry(ctx funcCtx) {
	var stmts []dst.Stmt
	pos := ctx.astBody.Lbrace
	switch {
	case ctx.root:
		stmts = append(stmts, &dst.DeferStmt{Call: r.rtCall("EndRoot", r.rtCall("BeginRoot", r.siteNamed(pos, "Root", ctx.name)))})
	case ctx.spawns:
		stmts = append(stmts, &dst.DeferStmt{Call: r.rtCall("Leave", r.rtCall("Enter", r.siteNamed(pos, "Func", ctx.name)))})
	}
	// The parameters' hooks first: one may need the function's mark.
	var params []dst.Stmt
	for _, id := range ctx.params {
		if id.Name == "_" {
			continue
		}
		if st := r.movedVarHook(id, ctx.name); st != nil {
			params = append(params, st)
		}
	}
	if ctx.proven || r.funcs[len(r.funcs)-1].proven {
		// After the root or scope bracket: Drop runs first at the return.
		fr := r.in.Names.name("fr")
		stmts = append(stmts,
			&dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(fr)}, Tok: token.DEFINE, Rhs: []dst.Expr{r.rtCall("Mark")}},
			&dst.DeferStmt{Call: r.rtCall("Drop", dst.NewIdent(fr))})
	}
	stmts = append(stmts, params...)
	if len(stmts) == 0 {
		return
	}
	for _, s := range stmts {
		r.origin[s] = r.pos(pos)
	}
	ctx.body.List = append(stmts, ctx.body.List...)
}
