package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// A variable the compiler moves to the heap because a goroutine's
// function literal captures it (a result the goroutine assigns, the
// WaitGroup it calls Done on), and an array that goes to the heap because
// such a literal uses the slice, die once the function has returned and
// the goroutines it spawned have ended, when nothing else can refer to
// them. rtlib.FrameVar and rtlib.FrameSlice then charge the death at the
// function's return (rtlib/acct_shared.go), with no census. frameShared
// decides that from the source, conservatively: a use that might make
// another reference is enough to refuse, and the object keeps the hooks
// of any other (its death found by censuses).

// shareInfo is frameShared's answer for one variable.
type shareInfo struct {
	ok   bool // only the function, its literals and its goroutines refer to the object
	goes bool // a go statement's or wg.Go's literal mentions it
}

// frameShared reports whether the object of v, a variable of the
// function being rewritten (slice: the array v is made with, the only
// value v ever holds; otherwise v's own storage, moved to the heap),
// can be referred to only by the function's frame and the goroutines it
// spawns. def is v's declaring identifier.
func (r *fileRewriter) frameShared(v *types.Var, def *ast.Ident, slice bool) shareInfo {
	if v == nil || len(r.funcs) == 0 {
		return shareInfo{}
	}
	fn := &r.funcs[len(r.funcs)-1]
	if !r.localTo(v, fn) || enclosingLoop(def, fn.astBody) != nil {
		// One object per turn would all count until the return.
		return shareInfo{}
	}
	ans := shareInfo{ok: true}
	var stack []ast.Node
	ast.Inspect(fn.astBody, func(n ast.Node) bool {
		if !ans.ok {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, isID := n.(*ast.Ident); isID && id != def && (r.in.Info.Uses[id] == v || r.in.Info.Defs[id] == v) {
			goes, ok := r.literalChain(stack)
			switch {
			case !ok:
				ans.ok = false
			case slice:
				ans.ok = r.arrayUse(v, stack, id)
			default:
				var spawns bool
				ans.ok, spawns = r.storageUse(stack, id)
				goes = goes || spawns
			}
			ans.goes = ans.goes || goes
		}
		stack = append(stack, n)
		return true
	})
	return ans
}

// enclosingLoop returns the innermost for or range statement of body
// whose range holds def (header or body), nil if none; a function literal
// that holds def starts afresh (its frame is another).
func enclosingLoop(def *ast.Ident, body *ast.BlockStmt) ast.Stmt {
	var loop ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || !(n.Pos() <= def.Pos() && def.Pos() < n.End()) {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			loop = nil
		case *ast.ForStmt, *ast.RangeStmt:
			loop = x.(ast.Stmt)
		}
		return true
	})
	return loop
}

// literalChain checks the function literals on stack (outermost first),
// between the variable's function and a use of it: each must be a go
// statement's or a spawning call's (wg.Go, errgroup's Go and TryGo), a
// deferred call's, or called at once. goes reports a goroutine's.
func (r *fileRewriter) literalChain(stack []ast.Node) (goes, ok bool) {
	for i, n := range stack {
		lit, isLit := n.(*ast.FuncLit)
		if !isLit {
			continue
		}
		e, j := pastParens(stack, lit, i-1)
		if j < 0 {
			return false, false
		}
		call, isCall := stack[j].(*ast.CallExpr)
		if !isCall {
			return false, false
		}
		if call.Fun == e {
			if j > 0 {
				if g, isGo := stack[j-1].(*ast.GoStmt); isGo && g.Call == call {
					goes = true
				}
			}
			continue
		}
		if !r.spawnCall(call) {
			return false, false
		}
		goes = true
	}
	return goes, true
}

// spawnCall reports whether call starts its function argument in a new
// goroutine that the caller's scope joins: wg.Go, errgroup's Go, TryGo.
func (r *fileRewriter) spawnCall(call *ast.CallExpr) bool {
	return spawnMethod(calleeMethod(r.in.Info, call))
}

// spawnMethod reports whether fn is wg.Go, errgroup's Go or TryGo.
func spawnMethod(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	switch fn.FullName() {
	case "(*sync.WaitGroup).Go", "(*golang.org/x/sync/errgroup.Group).Go", "(*golang.org/x/sync/errgroup.Group).TryGo":
		return true
	}
	return false
}

// storageUse reports whether the use of a variable at id, under stack,
// takes no address of its storage: no &, no slice of an array, no method
// with a pointer receiver but those of package sync, sync/atomic and
// errgroup, which keep no reference past the goroutines that call them.
// spawns reports such a method that starts a goroutine (wg.Go).
func (r *fileRewriter) storageUse(stack []ast.Node, id *ast.Ident) (ok, spawns bool) {
	var e ast.Node = id
	for i := len(stack) - 1; i >= 0; i-- {
		t := r.in.Info.TypeOf(e.(ast.Expr))
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			e = p
			continue
		case *ast.SelectorExpr:
			if p.X != e {
				return true, false
			}
			sel, found := r.in.Info.Selections[p]
			if !found {
				return true, false
			}
			switch sel.Kind() {
			case types.FieldVal:
				if sel.Indirect() {
					return true, false // through a pointer: another object
				}
				e = p
				continue
			case types.MethodVal:
				if !pointerRecv(sel) || isPointer(t) {
					return true, false // a copy, or through a pointer
				}
				call, j := parentCall(stack[:i])
				if call == nil || ast.Unparen(call.Fun) != p || !syncMethod(sel) {
					return false, false
				}
				// wg.Go: its goroutine calls Done on it; go wg.Wait(): the
				// goroutine waits on it.
				g, isGo := stackAt(stack, j-1).(*ast.GoStmt)
				return true, r.spawnCall(call) || isGo && g.Call == call
			}
			return false, false
		case *ast.IndexExpr:
			if p.X != e {
				return true, false
			}
			if _, arr := under(t).(*types.Array); arr {
				e = p // an element of the variable's own array
				continue
			}
			return true, false
		case *ast.UnaryExpr:
			return !(p.Op == token.AND && p.X == e), false
		case *ast.SliceExpr:
			if p.X != e {
				return true, false
			}
			_, arr := under(t).(*types.Array)
			return !arr, false
		}
		return true, false
	}
	return true, false
}

// arrayUse reports whether the use of v at id, under stack, makes no
// other reference to the array v was made with: an element read or
// written, len, cap, copy, clear, a range over it, a comparison with nil.
func (r *fileRewriter) arrayUse(v *types.Var, stack []ast.Node, id *ast.Ident) bool {
	e, i := pastParens(stack, id, len(stack)-1)
	if i < 0 {
		return false
	}
	switch p := stack[i].(type) {
	case *ast.IndexExpr:
		return p.X == e && r.elementUse(stack[:i], p)
	case *ast.CallExpr:
		switch r.builtin(p) {
		case "len", "cap", "copy", "clear":
			return p.Fun != e
		}
	case *ast.RangeStmt:
		return p.X == e
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ
	}
	return false
}

// parentCall returns the call expression that is the last node of stack,
// past parentheses, and its index; nil if there is none.
func parentCall(stack []ast.Node) (*ast.CallExpr, int) {
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			continue
		case *ast.CallExpr:
			return p, i
		}
		return nil, -1
	}
	return nil, -1
}

// stackAt is stack[i], nil out of range.
func stackAt(stack []ast.Node, i int) ast.Node {
	if i < 0 || i >= len(stack) {
		return nil
	}
	return stack[i]
}

// pointerRecv reports whether the method of sel has a pointer receiver.
func pointerRecv(sel *types.Selection) bool {
	sig, ok := sel.Obj().Type().(*types.Signature)
	return ok && sig.Recv() != nil && isPointer(sig.Recv().Type())
}

// syncMethod reports whether the method of sel belongs to package sync,
// sync/atomic or errgroup.
func syncMethod(sel *types.Selection) bool {
	pkg := sel.Obj().Pkg()
	if pkg == nil {
		return false
	}
	switch pkg.Path() {
	case "sync", "sync/atomic", "golang.org/x/sync/errgroup":
		return true
	}
	return false
}

// isPointer reports whether t's underlying type is a pointer.
func isPointer(t types.Type) bool {
	_, ok := under(t).(*types.Pointer)
	return ok
}

// under is t's underlying type, nil for nil.
func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// definedBy returns the variable that the make call ac at c initialises,
// and its identifier: x := make(...) or var x = make(...), nil if the
// call is anything else.
func (r *fileRewriter) definedBy(c *dstutil.Cursor, ac *ast.CallExpr) (*types.Var, *ast.Ident) {
	var lhs []ast.Expr
	var rhs []ast.Expr
	switch p := r.astOf(c.Parent()).(type) {
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE {
			return nil, nil
		}
		lhs, rhs = p.Lhs, p.Rhs
	case *ast.ValueSpec:
		for _, n := range p.Names {
			lhs = append(lhs, n)
		}
		rhs = p.Values
	default:
		return nil, nil
	}
	if len(lhs) != len(rhs) {
		return nil, nil
	}
	for k, e := range rhs {
		if e != ast.Expr(ac) {
			continue
		}
		id, ok := lhs[k].(*ast.Ident)
		if !ok {
			return nil, nil
		}
		v, _ := r.in.Info.Defs[id].(*types.Var)
		return v, id
	}
	return nil, nil
}

// frameVar notes that the object of v, a variable of the function being
// rewritten (slice: the array it refers to), is on the function's frame
// list.
func (r *fileRewriter) frameVar(v *types.Var, slice bool) {
	if v == nil || len(r.funcs) == 0 {
		return
	}
	fn := &r.funcs[len(r.funcs)-1]
	if fn.framed == nil {
		fn.framed = map[*types.Var]bool{}
	}
	fn.framed[v] = slice
}

// seenAfterWait adds rt.FrameSeenVar(fr, &x) or rt.FrameSeenSlice(fr, x)
// after a statement that waits for the function's goroutines (a Wait of
// a WaitGroup or an errgroup), for each variable x whose object is on
// the frame list and which a later statement of the same list uses
// outside function literals: the object is live after the join, so that
// its death at the return is late within that strand only
// (rtlib/acct_shared.go). Uses the compiler drops do not count (a branch
// of a constant condition, statements after a return or a jump), nor
// does a slice variable assigned again, whose array may die first.
func (r *fileRewriter) seenAfterWait(c *dstutil.Cursor) {
	if len(r.funcs) == 0 || c.Index() < 0 {
		return
	}
	fn := &r.funcs[len(r.funcs)-1]
	if len(fn.framed) == 0 {
		return
	}
	s, _ := r.astOf(c.Node()).(ast.Stmt)
	if s == nil || !r.waits(s) {
		return
	}
	var list []ast.Stmt
	switch p := r.astOf(c.Parent()).(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	i := slices.Index(list, s)
	if i < 0 {
		return
	}
	used := map[*types.Var]bool{}
	var order []*types.Var
	reassigned := map[*types.Var]bool{}
	for _, later := range list[i+1:] {
		ast.Inspect(later, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				if tv, ok := r.in.Info.Types[x.Cond]; ok && tv.Value != nil {
					return false // a branch the compiler drops: no use
				}
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok {
						if v, _ := r.in.Info.Uses[id].(*types.Var); v != nil {
							reassigned[v] = true
						}
					}
				}
			case *ast.Ident:
				v, _ := r.in.Info.Uses[x].(*types.Var)
				if _, ok := fn.framed[v]; ok && !used[v] {
					used[v] = true
					order = append(order, v)
				}
			}
			return true
		})
		if terminates(later) {
			break // what follows is not reached
		}
	}
	fr := r.in.Names.name("fr")
	for k := len(order) - 1; k >= 0; k-- {
		v := order[k]
		if fn.framed[v] && reassigned[v] {
			continue // its array may be dropped before any use
		}
		var h *dst.CallExpr
		if fn.framed[v] {
			h = r.rtCall("FrameSeenSlice", dst.NewIdent(fr), dst.NewIdent(v.Name()))
		} else {
			h = r.rtCall("FrameSeenVar", dst.NewIdent(fr), &dst.UnaryExpr{Op: token.AND, X: dst.NewIdent(v.Name())})
		}
		st := &dst.ExprStmt{X: h}
		r.origin[st] = r.pos(s.End())
		c.InsertAfter(st)
	}
}

// waits reports whether s is a statement that calls Wait on a WaitGroup or
// an errgroup: wg.Wait(), err := g.Wait(), err = g.Wait().
func (r *fileRewriter) waits(s ast.Stmt) bool {
	var e ast.Expr
	switch x := s.(type) {
	case *ast.ExprStmt:
		e = x.X
	case *ast.AssignStmt:
		if len(x.Rhs) != 1 {
			return false
		}
		e = x.Rhs[0]
	default:
		return false
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := calleeMethod(r.in.Info, call)
	return fn != nil && (fn.FullName() == "(*sync.WaitGroup).Wait" || fn.FullName() == "(*golang.org/x/sync/errgroup.Group).Wait")
}

// terminates reports whether s ends its statement list: a return, a
// jump, or a call of panic.
func terminates(s ast.Stmt) bool {
	switch x := s.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := x.X.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" && id.Obj == nil {
				return true
			}
		}
	}
	return false
}

// turnScratch reports whether v, declared at def by a make that does not
// escape, is a scratch of one turn of a loop: declared in the body of a
// for or range statement of the function being rewritten, and the only
// reference to its array (onlyHolder), which no function literal
// mentions. The array a turn made is then dead when the next turn makes
// another at the same site (rtlib.SmallSliceTurn).
func (r *fileRewriter) turnScratch(v *types.Var, def *ast.Ident) bool {
	if len(r.funcs) == 0 {
		return false
	}
	fn := &r.funcs[len(r.funcs)-1]
	if !inLoopBody(def, fn.astBody) || !r.onlyHolder(v, fn.astBody) {
		return false
	}
	inLit := false
	ast.Inspect(fn.astBody, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			ast.Inspect(lit.Body, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && r.in.Info.Uses[id] == v {
					inLit = true
				}
				return !inLit
			})
			return false
		}
		return !inLit
	})
	return !inLit
}

// boolsOK reports whether true and false are the universe's at p, where
// FrameVar and FrameSlice are given one of them (a package may declare
// its own): otherwise the object keeps the plain hooks.
func (r *fileRewriter) boolsOK(p token.Pos) bool {
	return r.universal("true", p) && r.universal("false", p)
}

// inLoopBody reports whether def is in the body of the innermost for or
// range statement of body that holds it, not in its header.
func inLoopBody(def *ast.Ident, body *ast.BlockStmt) bool {
	var b *ast.BlockStmt
	switch x := enclosingLoop(def, body).(type) {
	case *ast.ForStmt:
		b = x.Body
	case *ast.RangeStmt:
		b = x.Body
	default:
		return false
	}
	return b.Pos() <= def.Pos() && def.Pos() < b.End()
}
