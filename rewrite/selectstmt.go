package rewrite

import (
	"go/ast"
	"go/token"
	"strconv"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// selectStmt turns a select statement without a default case into the
// loop rtlib drives (see rtlib's package documentation), and dispatches
// to the case bodies by the index of the case that fired, so that no body
// is duplicated:
//
//	{
//		spgo_c0, spgo_c1, spgo_v1 := a, b, x    // operands, in source order
//		spgo_r0 := rt.Elem(spgo_c0)             // receive temporaries
//		spgo_i := -1
//		spgo_w := rt.Select(site, "rs")
//		for spgo_w.Next(spgo_i, spgo_c0, spgo_c1) {
//			if spgo_w.Blocking() {
//				select { case spgo_r0 = <-spgo_c0: spgo_i = 0; case spgo_c1 <- spgo_v1: spgo_i = 1 }
//			} else {
//				select { ...the same...; default: }
//			}
//		}
//		switch spgo_i {
//		case 0:
//			v := spgo_r0
//			body0
//		default:
//			body1
//		}
//	}
//
// A select with a default case never blocks and is left as it is, but
// for rt.Polled(site) at the start of the default case: a goroutine that
// polls in vain yields the baton (rtlib's sched_poll.go); and a channel
// of buffers it receives from is a free list (freeLists).
func (r *fileRewriter) selectStmt(c *dstutil.Cursor, n *dst.SelectStmt) {
	as, _ := r.astOf(n).(*ast.SelectStmt)
	if as == nil {
		return
	}
	for k, s := range n.Body.List {
		if cc := s.(*dst.CommClause); cc.Comm == nil {
			r.polled(cc, as.Body.List[k].(*ast.CommClause))
			r.freeLists(n, as)
			return
		}
	}
	names := r.in.Names
	var preL, preR []dst.Expr // operand temporaries
	var tmpDecl []dst.Stmt    // receive temporaries
	var blocking, trying []dst.Stmt
	var chans []dst.Expr
	dirs := ""
	var cases []dst.Stmt
	idx := names.name("i")
	setIdx := func(k int) []dst.Stmt {
		return []dst.Stmt{&dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(idx)}, Tok: token.ASSIGN, Rhs: []dst.Expr{intLit(k)}}}
	}
	for k, s := range n.Body.List {
		cc := s.(*dst.CommClause)
		acc := as.Body.List[k].(*ast.CommClause)
		ch := names.name("c" + strconv.Itoa(k))
		var comm dst.Stmt
		var prologue []dst.Stmt
		switch cm := cc.Comm.(type) {
		case *dst.SendStmt:
			dirs += "s"
			preL = append(preL, dst.NewIdent(ch))
			preR = append(preR, cm.Chan)
			val := cm.Value
			if av := acc.Comm.(*ast.SendStmt).Value; !r.stable(av) {
				v := names.name("v" + strconv.Itoa(k))
				init, use, ok := r.operandTemp(av, cm.Value, v)
				if !ok {
					r.warn(as.Select, "select not instrumented: case %d sends an untyped expression of a type that cannot be named here", k+1)
					return
				}
				preL = append(preL, dst.NewIdent(v))
				preR = append(preR, init)
				val = use
			}
			comm = &dst.SendStmt{Chan: dst.NewIdent(ch), Value: val}
		case *dst.ExprStmt:
			dirs += "r"
			preL = append(preL, dst.NewIdent(ch))
			preR = append(preR, unparen(cm.X).(*dst.UnaryExpr).X)
			comm = &dst.ExprStmt{X: &dst.UnaryExpr{Op: token.ARROW, X: dst.NewIdent(ch)}}
		case *dst.AssignStmt:
			dirs += "r"
			preL = append(preL, dst.NewIdent(ch))
			preR = append(preR, unparen(cm.Rhs[0]).(*dst.UnaryExpr).X)
			rv := names.name("r" + strconv.Itoa(k))
			tmpDecl = append(tmpDecl, &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(rv)}, Tok: token.DEFINE,
				Rhs: []dst.Expr{r.rtCall("Elem", dst.NewIdent(ch))}})
			lhs := []dst.Expr{dst.NewIdent(rv)}
			rhs := []dst.Expr{dst.NewIdent(rv)}
			if len(cm.Lhs) == 2 {
				okv := names.name("ok" + strconv.Itoa(k))
				tmpDecl = append(tmpDecl, &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(okv)}, Tok: token.DEFINE,
					Rhs: []dst.Expr{dst.NewIdent("false")}})
				lhs = append(lhs, dst.NewIdent(okv))
				okUse := dst.Expr(dst.NewIdent(okv))
				if aa := acc.Comm.(*ast.AssignStmt); r.okNotBool(cm) {
					// The untyped boolean of the receive was assigned to a
					// variable of a defined boolean type.
					if okUse = r.convertTo(r.in.Info.TypeOf(aa.Lhs[1]), aa.Pos(), okUse); okUse == nil {
						r.warn(as.Select, "select not instrumented: case %d assigns its ok value to a variable of a boolean type that cannot be named here", k+1)
						return
					}
				}
				rhs = append(rhs, okUse)
			}
			comm = &dst.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: []dst.Expr{&dst.UnaryExpr{Op: token.ARROW, X: dst.NewIdent(ch)}}}
			prologue = []dst.Stmt{&dst.AssignStmt{Lhs: cm.Lhs, Tok: cm.Tok, Rhs: rhs}}
			if u, ok := ast.Unparen(acc.Comm.(*ast.AssignStmt).Rhs[0]).(*ast.UnaryExpr); ok && bufferChanType(r.in.Info.TypeOf(u.X)) {
				// A buffer out of a free list (freeLists).
				got := r.rtCall("ChanRecvd", r.site(acc.Case, "Recv"), dst.NewIdent(ch), dst.NewIdent(rv))
				prologue = append([]dst.Stmt{&dst.ExprStmt{X: got}}, prologue...)
			}
		}
		chans = append(chans, dst.NewIdent(ch))
		blocking = append(blocking, &dst.CommClause{Comm: comm, Body: setIdx(k)})
		trying = append(trying, &dst.CommClause{Comm: dst.Clone(comm).(dst.Stmt), Body: setIdx(k)})
		body := append(prologue, cc.Body...)
		clause := &dst.CaseClause{List: []dst.Expr{intLit(k)}, Body: body, Decs: dst.CaseClauseDecorations{NodeDecs: cc.Decs.NodeDecs}}
		r.origin[clause] = r.pos(acc.Pos()) // the case's line, also for an empty body
		cases = append(cases, clause)
	}
	trying = append(trying, &dst.CommClause{})
	w := names.name("w")
	var stmts []dst.Stmt
	if len(preL) > 0 {
		stmts = append(stmts, &dst.AssignStmt{Lhs: preL, Tok: token.DEFINE, Rhs: preR})
	}
	stmts = append(stmts, tmpDecl...)
	stmts = append(stmts,
		&dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(idx)}, Tok: token.DEFINE,
			Rhs: []dst.Expr{&dst.UnaryExpr{Op: token.SUB, X: intLit(1)}}},
		&dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(w)}, Tok: token.DEFINE,
			Rhs: []dst.Expr{r.rtCall("Select", r.site(as.Select, "Select"), &dst.BasicLit{Kind: token.STRING, Value: `"` + dirs + `"`})}},
		&dst.ForStmt{
			Cond: &dst.CallExpr{
				Fun:  &dst.SelectorExpr{X: dst.NewIdent(w), Sel: dst.NewIdent("Next")},
				Args: append([]dst.Expr{dst.NewIdent(idx)}, chans...),
			},
			Body: &dst.BlockStmt{List: []dst.Stmt{&dst.IfStmt{
				Cond: method(w, "Blocking"),
				Body: &dst.BlockStmt{List: []dst.Stmt{&dst.SelectStmt{Body: &dst.BlockStmt{List: blocking}}}},
				Else: &dst.BlockStmt{List: []dst.Stmt{&dst.SelectStmt{Body: &dst.BlockStmt{List: trying}}}},
			}}},
		},
	)
	var sw *dst.SwitchStmt
	if len(cases) > 0 {
		// The last case is the default: the switch is then a terminating
		// statement exactly when the select was.
		cases[len(cases)-1].(*dst.CaseClause).List = nil
		sw = &dst.SwitchStmt{Tag: dst.NewIdent(idx), Body: &dst.BlockStmt{List: cases}}
		stmts = append(stmts, sw)
	}
	block := &dst.BlockStmt{List: stmts}
	block.Decs.NodeDecs = n.Decs.NodeDecs
	r.origin[block] = r.pos(as.Select)
	if sw != nil {
		r.selectSwitch[block] = sw
	}
	c.Replace(block)
}

// labeled handles the label of a rewritten select statement: break L
// still means the end of the select, so such breaks go to a label on the
// dispatch switch; goto L still means the select's start, so the label
// stays on the block the select became when a goto uses it.
func (r *fileRewriter) labeled(c *dstutil.Cursor, n *dst.LabeledStmt) {
	block, ok := n.Stmt.(*dst.BlockStmt)
	if !ok {
		return
	}
	sw := r.selectSwitch[block]
	if sw == nil {
		return
	}
	name := n.Label.Name
	gotos, breaks := false, false
	if len(r.funcs) > 0 {
		ast.Inspect(r.funcs[len(r.funcs)-1].astBody, func(x ast.Node) bool {
			if b, ok := x.(*ast.BranchStmt); ok && b.Label != nil && b.Label.Name == name {
				gotos = gotos || b.Tok == token.GOTO
				breaks = breaks || b.Tok == token.BREAK
			}
			return true
		})
	}
	if breaks {
		inner := r.in.Names.name("L_" + name)
		dst.Inspect(sw, func(x dst.Node) bool {
			switch b := x.(type) {
			case *dst.FuncLit:
				return false
			case *dst.BranchStmt:
				if b.Tok == token.BREAK && b.Label != nil && b.Label.Name == name {
					b.Label = dst.NewIdent(inner)
				}
			}
			return true
		})
		for i, s := range block.List {
			if s == sw {
				block.List[i] = &dst.LabeledStmt{Label: dst.NewIdent(inner), Stmt: sw}
			}
		}
	}
	if gotos {
		return // the label stays, on the block
	}
	block.Decs.NodeDecs = n.Decs.NodeDecs
	c.Replace(block)
}

// polled puts rt.Polled(site) first in the default case cc of a select.
func (r *fileRewriter) polled(cc *dst.CommClause, acc *ast.CommClause) {
	m := &dst.ExprStmt{X: r.rtCall("Polled", r.site(acc.Case, "Select"))}
	m.Decs.Before = dst.NewLine
	r.origin[m] = r.pos(acc.Case)
	cc.Body = append([]dst.Stmt{m}, cc.Body...)
}
