package unboundedspawn

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/spgo/spgo/analyzer/internal/groups"
	"github.com/spgo/spgo/analyzer/internal/syncfacts"
)

// throttles reports whether a loop body may throttle the spawns: outside
// the child it sends or receives on a channel (other than <-x.Done()),
// ranges over one, or calls a function that blocks (see blocks).
func (c *checker) throttles(body *ast.BlockStmt, sp spawn) bool {
	var skip ast.Node
	if sp.lit != nil {
		skip = sp.lit
	}
	return find(body, skip, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			return true
		case *ast.UnaryExpr:
			return n.Op == token.ARROW && !doneCall(n.X)
		case *ast.RangeStmt:
			return c.isChan(n.X)
		case *ast.CallExpr:
			// The callee of the spawning call runs in the child, and a
			// group's Go is the spawn itself.
			return n != sp.call && (sp.group == nil || n != sp.group.Call) && c.blocks(n, true)
		}
		return false
	})
}

// piped reports whether the child holds an end of an io.Pipe: it cannot
// finish before the other end is drained, which the spawning loop does in
// step (pr, pw := io.Pipe(); go encode(pw, item); upload(pr)).
func (c *checker) piped(sp spawn) bool {
	return find(sp.child, nil, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok {
			return false
		}
		t := v.Type()
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := types.Unalias(t).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "io" {
			return false
		}
		return named.Obj().Name() == "PipeReader" || named.Obj().Name() == "PipeWriter"
	})
}

// find reports whether f holds for a node under root, not looking inside
// skip.
func find(root, skip ast.Node, f func(ast.Node) bool) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		if found || n == nil || n == skip {
			return false
		}
		found = f(n)
		return !found
	})
	return found
}

// doneCall reports whether e is x.Done(), a cancellation check.
func doneCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Done"
}

// What may throttle a spawning loop, in the loop body and in the child.
// A primitive called directly: in the loop anything that blocks or locks
// (a receive, a send, a Wait, an Acquire, a sleep, a Mutex), in the child
// waiting for a slot (an Acquire, a Cond Wait). Through a callee's
// summary, at any depth: waiting for other goroutines or for time (a
// group Wait, an Acquire, a Cond Wait, a sleep; in the child only an
// Acquire); and, made by the callee itself, a channel operation or a lock
// in the loop, a Cond Wait in the child. A channel operation or a lock deep in
// a callee (a request queue, a cache's mutex) bounds nothing the loop
// starts. A group's Wait in the child joins the child's own goroutines:
// it does not throttle.
const (
	loopThrottle  = syncfacts.Blocking | syncfacts.Lock
	loopDeep      = syncfacts.GroupWait | syncfacts.SemAcquire | syncfacts.CondWait | syncfacts.Sleep
	loopOwn       = syncfacts.ChanSend | syncfacts.ChanRecv | syncfacts.Lock
	childThrottle = syncfacts.SemAcquire | syncfacts.CondWait
	childDeep     = syncfacts.SemAcquire
	childOwn      = syncfacts.CondWait
)

// blocks reports whether call may throttle the spawns, by what its callee
// does (its syncfacts summary, across packages, not counting the
// goroutines it starts), not by its name: see loopThrottle and the
// others. An interface's method has no code to read: it throttles if its
// name says it takes a slot (see slotWord).
func (c *checker) blocks(call *ast.CallExpr, inLoop bool) bool {
	if _, lit := ast.Unparen(call.Fun).(*ast.FuncLit); lit {
		return false // its body is part of the body searched
	}
	if fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func); ok && isInterfaceMethod(fn) {
		return slices.ContainsFunc(words(fn.Name()), slotWord)
	}
	var sum *syncfacts.Summary
	if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil {
		if prim := syncfacts.Primitive(fn); prim != 0 {
			return inLoop && prim&loopThrottle != 0 || !inLoop && prim&childThrottle != 0
		}
		sum = c.sums.Func(fn)
	} else if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && c.lits[v] != nil {
			sum = c.sums.Lit(c.lits[v])
		}
	}
	if inLoop {
		return sum.Has(loopDeep) || sum.HasOwn(loopOwn)
	}
	return sum.Has(childDeep) || sum.HasOwn(childOwn)
}

// isInterfaceMethod reports whether fn is an interface's method.
func isInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// slotWord reports whether a word of an interface method's name says it
// takes a slot: acquire, semaphore, sem, throttle.
func slotWord(w string) bool {
	switch w {
	case "acquire", "semaphore", "sem", "throttle":
		return true
	}
	return false
}

// counterExit reports whether the loop body may leave the loop (break,
// goto or return) under a condition with an ordering comparison, such as
// a cap on the number spawned.
func counterExit(body *ast.BlockStmt) bool {
	found := false
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if found {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		switch n := n.(type) {
		case *ast.BranchStmt:
			found = n.Tok == token.BREAK || n.Tok == token.GOTO
		case *ast.ReturnStmt:
			found = true
		}
		if found {
			found = false
			for _, s := range stack {
				if is, ok := s.(*ast.IfStmt); ok && ordering(is.Cond) {
					found = true
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	return found
}

// ordering reports whether e contains <, <=, > or >=.
func ordering(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			switch b.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				found = true
			}
		}
		return !found
	})
	return found
}

// childThrottled reports whether the child waits for its turn: its first
// statement (after defers) receives from a channel other than x.Done(), a
// go-ahead (if !<-w.start { return }); or it calls a function that waits
// for a slot (see blocks);
// or it both sends on and receives from one channel, a token
// (sem <- struct{}{}; defer func() { <-sem }()).
func (c *checker) childThrottled(sp spawn) bool {
	info := c.pass.TypesInfo
	bodies := c.childBodies(sp)
	if len(bodies) > 0 && gated(bodies[0]) {
		return true
	}
	sent, received := map[types.Object]bool{}, map[types.Object]bool{}
	for _, b := range bodies {
		throttled := find(b, nil, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SendStmt:
				if k := groups.Key(info, n.Chan); k != nil {
					sent[k] = true
				}
			case *ast.UnaryExpr:
				if k := groups.Key(info, n.X); n.Op == token.ARROW && k != nil {
					received[k] = true
				}
			case *ast.CallExpr:
				return c.blocks(n, false)
			}
			return false
		})
		if throttled {
			return true
		}
	}
	for k := range sent {
		if received[k] {
			return true
		}
	}
	return false
}

// gated reports whether the first statement of body but defers receives
// from a channel other than x.Done().
func gated(body *ast.BlockStmt) bool {
	for _, st := range body.List {
		if _, ok := st.(*ast.DeferStmt); ok {
			continue
		}
		return find(st, nil, func(n ast.Node) bool {
			u, ok := n.(*ast.UnaryExpr)
			return ok && u.Op == token.ARROW && !doneCall(u.X)
		})
	}
	return false
}

// localGroup reports whether the errgroup g spawns into is a local variable
// of outer, created there (var g errgroup.Group, errgroup.WithContext,
// new(errgroup.Group), &errgroup.Group{}), used only for Go, TryGo and
// Wait calls: so a missing SetLimit is certain. It returns the variable and
// its declaring statement.
func (c *checker) localGroup(g *groups.Call, outer inspector.Cursor) (*types.Var, inspector.Cursor, bool) {
	info := c.pass.TypesInfo
	v, ok := groups.Key(info, g.Recv).(*types.Var)
	if !ok || v.IsField() {
		return nil, inspector.Cursor{}, false
	}
	var body *ast.BlockStmt
	switch f := outer.Node().(type) {
	case *ast.FuncDecl:
		body = f.Body
	case *ast.FuncLit:
		body = f.Body
	}
	if body == nil || v.Pos() <= body.Pos() || body.End() <= v.Pos() {
		return nil, inspector.Cursor{}, false // a parameter, or not ours
	}
	var decl inspector.Cursor
	found := false
	for cur := range outer.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if info.Defs[id] == v {
			if decl, found = c.groupDecl(cur); !found {
				return nil, inspector.Cursor{}, false
			}
			continue
		}
		if info.Uses[id] != v {
			continue
		}
		if cur.ParentEdgeKind() != edge.SelectorExpr_X || cur.Parent().ParentEdgeKind() != edge.CallExpr_Fun {
			return nil, inspector.Cursor{}, false // handed on: someone may limit it
		}
		switch cur.Parent().Node().(*ast.SelectorExpr).Sel.Name {
		case "Go", "TryGo", "Wait":
		default:
			return nil, inspector.Cursor{}, false // SetLimit, or something unforeseen
		}
	}
	return v, decl, found
}

// groupDecl returns the statement in which the identifier at cur declares
// a new errgroup, if it does so in a form localGroup accepts.
func (c *checker) groupDecl(cur inspector.Cursor) (inspector.Cursor, bool) {
	k, i := cur.ParentEdge()
	switch k {
	case edge.AssignStmt_Lhs:
		as := cur.Parent().Node().(*ast.AssignStmt)
		if as.Tok != token.DEFINE {
			return inspector.Cursor{}, false
		}
		if len(as.Rhs) == 1 && len(as.Lhs) == 2 && i == 0 && c.withContext(as.Rhs[0]) {
			return cur.Parent(), true
		}
		if len(as.Rhs) == len(as.Lhs) && c.newGroup(as.Rhs[i]) {
			return cur.Parent(), true
		}
	case edge.ValueSpec_Names:
		vs := cur.Parent().Node().(*ast.ValueSpec)
		stmt := cur.Parent().Parent().Parent()
		if _, ok := stmt.Node().(*ast.DeclStmt); !ok {
			return inspector.Cursor{}, false
		}
		if len(vs.Values) == 0 || (len(vs.Values) == len(vs.Names) && c.newGroup(vs.Values[i])) {
			return stmt, true
		}
	}
	return inspector.Cursor{}, false
}

// withContext reports whether e calls errgroup.WithContext.
func (c *checker) withContext(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "golang.org/x/sync/errgroup" && fn.Name() == "WithContext"
}

// newGroup reports whether e makes a zero errgroup.Group: new(errgroup.Group),
// &errgroup.Group{} or errgroup.Group{}.
func (c *checker) newGroup(e ast.Expr) bool {
	if k, _ := groups.KindOf(c.pass.TypesInfo.TypeOf(e)); k != groups.ErrGroup {
		return false
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.CallExpr:
		return c.isBuiltin(e, "new")
	}
	return false
}
