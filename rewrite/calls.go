package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// hookedCalls are the functions and methods that call replaces by rtlib
// hooks or brackets with them: no rtlib.At marks them (external.go).
// Kept in step with call's switch.
var hookedCalls = map[string]bool{
	"(*sync.WaitGroup).Add": true, "(*sync.WaitGroup).Done": true,
	"(*sync.WaitGroup).Wait": true, "(*sync.WaitGroup).Go": true,
	"(*golang.org/x/sync/errgroup.Group).Go":       true,
	"(*golang.org/x/sync/errgroup.Group).TryGo":    true,
	"(*golang.org/x/sync/errgroup.Group).Wait":     true,
	"(*golang.org/x/sync/errgroup.Group).SetLimit": true,
	"(*sync.Mutex).Lock":                           true, "(*sync.Mutex).Unlock": true,
	"(*sync.RWMutex).Lock": true, "(*sync.RWMutex).Unlock": true,
	"(*sync.RWMutex).RLock": true, "(*sync.RWMutex).RUnlock": true,
	"(sync.Locker).Lock": true, "(sync.Locker).Unlock": true,
	"(*sync.Mutex).TryLock": true, "(*sync.RWMutex).TryLock": true, "(*sync.RWMutex).TryRLock": true,
	"(*sync.Cond).Wait": true, "(*sync.Cond).Signal": true, "(*sync.Cond).Broadcast": true,
	"time.Sleep": true, "os.Exit": true, "runtime.GOMAXPROCS": true, "runtime.Gosched": true,
	"runtime.NumGoroutine": true, "runtime.Stack": true,
	"log.Fatal": true, "log.Fatalf": true, "log.Fatalln": true,
	"(*log.Logger).Fatal": true, "(*log.Logger).Fatalf": true, "(*log.Logger).Fatalln": true,
	"(*testing.T).Run": true, "(*testing.B).Run": true, "(*testing.M).Run": true,
	"(*golang.org/x/sync/semaphore.Weighted).Acquire": true,
	"(*testing.B).RunParallel":                        true, "(*testing.F).Fuzz": true, "(*testing.T).Parallel": true,
}

// call instruments calls: group operations, blocking operations, exits,
// and the allocating builtins (make, new, append) and conversions.
func (r *fileRewriter) call(c *dstutil.Cursor, n *dst.CallExpr) {
	ac, _ := r.astOf(n).(*ast.CallExpr)
	if ac == nil {
		return
	}
	if r.builtinOrConversion(c, n, ac) {
		return
	}
	if r.cancelCall(c, n, ac) {
		return
	}
	fn := calleeMethod(r.in.Info, ac)
	if fn == nil {
		return
	}
	switch fn.FullName() {
	case "(*sync.WaitGroup).Add":
		r.methodHook(c, n, ac, "Add", "Add", true)
	case "(*sync.WaitGroup).Done":
		r.methodHook(c, n, ac, "Done", "", false)
	case "(*sync.WaitGroup).Wait":
		r.methodHook(c, n, ac, "Wait", "Wait", true)
	case "(*sync.WaitGroup).Go":
		r.methodHook(c, n, ac, "WGGo", "WGGo", true)
	case "(*golang.org/x/sync/errgroup.Group).Go":
		r.methodHook(c, n, ac, "GroupGo", "GroupGo", true)
	case "(*golang.org/x/sync/errgroup.Group).TryGo":
		r.methodHook(c, n, ac, "GroupTryGo", "GroupGo", true)
	case "(*golang.org/x/sync/errgroup.Group).Wait":
		r.methodHook(c, n, ac, "GroupWait", "Wait", true)
	case "(*golang.org/x/sync/errgroup.Group).SetLimit":
		r.methodHook(c, n, ac, "GroupSetLimit", "Add", true)
	case "golang.org/x/sync/errgroup.WithContext":
		// rt.GroupContext(errgroup.WithContext(ctx)): rtlib learns the
		// context the group cancels when a task fails. The call itself
		// stays (and allocates): not in hookedCalls, so it is marked.
		r.changed = true
		c.Replace(r.rtCall("GroupContext", n))
	case "(*sync.Pool).Get":
		r.methodHook(c, n, ac, "PoolGet", "PoolGet", true)
	case "(*sync.Pool).Put":
		r.methodHook(c, n, ac, "PoolPut", "", false)
	case "(*sync.Mutex).Lock":
		r.methodHook(c, n, ac, "Lock", "Lock", true)
	case "(*sync.Mutex).Unlock":
		r.methodHook(c, n, ac, "Unlock", "", false)
	case "(*sync.RWMutex).Lock":
		r.methodHook(c, n, ac, "RWLock", "Lock", true)
	case "(*sync.RWMutex).Unlock":
		r.methodHook(c, n, ac, "RWUnlock", "", false)
	case "(*sync.RWMutex).RLock":
		r.methodHook(c, n, ac, "RLock", "Lock", true)
	case "(*sync.RWMutex).RUnlock":
		r.methodHook(c, n, ac, "RUnlock", "", false)
	case "(sync.Locker).Lock", "(sync.Locker).Unlock":
		// Through the interface (c.L.Lock() on a sync.Cond): rtlib
		// looks at the dynamic type.
		if dsel, ok := unparen(n.Fun).(*dst.SelectorExpr); ok {
			args := []dst.Expr{dsel.X}
			hook := "LockerUnlock"
			if fn.Name() == "Lock" {
				hook = "LockerLock"
				args = append([]dst.Expr{r.site(ac.Lparen, "Lock")}, args...)
			}
			repl := r.rtCall(hook, args...)
			repl.Decs = n.Decs
			c.Replace(repl)
		}
	case "(*sync.Mutex).TryLock":
		r.methodHook(c, n, ac, "TryLock", "Lock", true)
	case "(*sync.RWMutex).TryLock":
		r.methodHook(c, n, ac, "RWTryLock", "Lock", true)
	case "(*sync.RWMutex).TryRLock":
		r.methodHook(c, n, ac, "TryRLock", "Lock", true)
	case "runtime.Gosched":
		r.replaced = append(r.replaced, n.Fun)
		c.Replace(r.rtCall("Gosched", r.site(ac.Lparen, "Call")))
	case "(*sync.Cond).Wait":
		r.methodHook(c, n, ac, "CondWait", "CondWait", true)
	case "(*sync.Cond).Signal":
		r.methodHook(c, n, ac, "Signal", "", false)
	case "(*sync.Cond).Broadcast":
		r.methodHook(c, n, ac, "Broadcast", "", false)
	case "time.Sleep":
		r.replaced = append(r.replaced, n.Fun)
		c.Replace(r.rtCall("Sleep", append([]dst.Expr{r.site(ac.Lparen, "Sleep")}, n.Args...)...))
	case "runtime.GOMAXPROCS":
		// The instrumented process runs on one P; the program sees its own setting.
		r.replaced = append(r.replaced, n.Fun)
		r.changed = true
		c.Replace(r.rtCall("GOMAXPROCS", n.Args...))
	case "runtime.NumGoroutine":
		// rtlib's own goroutines (its watchdog) are not the program's.
		r.replaced = append(r.replaced, n.Fun)
		r.changed = true
		c.Replace(r.rtCall("NumGoroutine"))
	case "runtime.Stack":
		// Without rtlib's frames and own goroutines: a goroutine parked
		// in a hook shows the program's function on top (leak checks).
		r.replaced = append(r.replaced, n.Fun)
		r.changed = true
		c.Replace(r.rtCall("Stack", n.Args...))
	case "os.Exit":
		if len(n.Args) == 1 {
			n.Args[0] = r.rtCall("Flushed", n.Args[0])
			r.changed = true
		}
	case "log.Fatal", "log.Fatalf", "log.Fatalln",
		"(*log.Logger).Fatal", "(*log.Logger).Fatalf", "(*log.Logger).Fatalln":
		r.beforeStmt(c, ac, &dst.ExprStmt{X: r.rtCall("Flush")})
	case "(*testing.T).Run", "(*testing.B).Run", "(*testing.M).Run",
		"(*golang.org/x/sync/semaphore.Weighted).Acquire":
		// rt.Reacquire(rt.Release(site), x.Run(args)): the call runs
		// without the baton, so the test functions it starts can take it.
		// A semaphore's Acquire blocks until another goroutine's
		// Release, which needs the baton to get there.
		switch c.Parent().(type) {
		case *dst.GoStmt:
			// go sem.Acquire(ctx, n): the call runs in the new
			// goroutine, and so must the bracket (goStmt); wrapped
			// here, the go statement would evaluate the call itself,
			// as an argument of Reacquire, in the parent.
			r.releasedGo[n] = r.site(ac.Lparen, "Call")
			return
		case *dst.DeferStmt:
			// Wrapped, the deferred call would run at the defer.
			r.warn(ac.Pos(), "deferred blocking call not instrumented: it keeps the baton while it blocks")
			return
		}
		if fn.FullName() == "(*testing.T).Run" {
			r.subtestBody(n, ac)
		}
		tok := r.rtCall("Release", r.site(ac.Lparen, "Call"))
		c.Replace(r.rtCall("Reacquire", tok, n))
	case "testing/synctest.Test", "testing/synctest.Run":
		// A bubble's goroutines may not use channels made outside it,
		// and rtlib's baton is made of such channels: the caller goes
		// out of rtlib for the call, and the bubble's goroutines run
		// under Go's scheduler (rtlib/sched_bubble.go).
		r.releasedStmt(c, ac, "BubbleOpen", "BubbleClose")
	case "(*testing.B).RunParallel", "(*testing.F).Fuzz", "(*testing.T).Parallel":
		// Parallel waits until the sequential tests are done: they
		// need the baton meanwhile.
		r.releasedStmt(c, ac, "Release", "Reacquired")
	}
}

// subtestBody puts defer rt.SubEnd(rt.SubBegin()) first in the function
// literal a T.Run call is given: a subtest that calls t.Parallel runs
// after its test function returned, and rtlib keeps the test's root open
// until the subtest's body has ended (rtlib/dag_window.go). First, so
// that SubEnd runs after the body's other deferred hooks.
func (r *fileRewriter) subtestBody(n *dst.CallExpr, ac *ast.CallExpr) {
	if len(n.Args) != 2 || len(ac.Args) != 2 {
		return
	}
	lit, ok := n.Args[1].(*dst.FuncLit)
	alit, ok2 := ac.Args[1].(*ast.FuncLit)
	if !ok || !ok2 {
		return
	}
	st := &dst.DeferStmt{Call: r.rtCall("SubEnd", r.rtCall("SubBegin"))}
	r.origin[st] = r.pos(alit.Body.Lbrace)
	lit.Body.List = append([]dst.Stmt{st}, lit.Body.List...)
	r.changed = true
}

// condFuncs are the hooks for Cond methods used as values: c.Broadcast
// passed to time.AfterFunc, stored, or called through reflect runs in
// code rtlib does not see, and rtlib's waiters would never wake.
var condFuncs = map[string]string{
	"(*sync.Cond).Signal":    "Signal",
	"(*sync.Cond).Broadcast": "Broadcast",
}

// methodValue replaces the method value c.Broadcast (or c.Signal) by
// rt.BroadcastFunc(&c), a function that calls the hook, and the method
// expression (*sync.Cond).Broadcast by rt.Broadcast, which has its type.
// Calls are call's.
func (r *fileRewriter) methodValue(c *dstutil.Cursor, n *dst.SelectorExpr) {
	if call, ok := c.Parent().(*dst.CallExpr); ok && c.Name() == "Fun" && call.Fun == n {
		return
	}
	if _, ok := c.Parent().(*dst.ParenExpr); ok {
		return // (c.Broadcast)(): a call, or a value in parentheses, which stays as it is
	}
	as, _ := r.astOf(n).(*ast.SelectorExpr)
	if as == nil {
		return
	}
	selection, ok := r.in.Info.Selections[as]
	if !ok {
		return
	}
	fn, _ := selection.Obj().(*types.Func)
	if fn == nil || condFuncs[fn.FullName()] == "" {
		return
	}
	hook := condFuncs[fn.FullName()]
	switch selection.Kind() {
	case types.MethodExpr:
		r.changed = true
		c.Replace(r.rtSel(hook))
	case types.MethodVal:
		recv := r.receiver(as, n.X)
		if recv == nil {
			r.warn(as.Sel.Pos(), "%s not instrumented: the receiver is reached through an unexported embedded field of another package", as.Sel.Name)
			return
		}
		r.changed = true
		repl := r.rtCall(hook+"Func", recv)
		repl.Decs.Before, repl.Decs.After = n.Decs.Before, n.Decs.After
		c.Replace(repl)
	}
}

// methodHook replaces recv.M(args) by rt.hook([site,] &recv, args...), with
// &recv reaching the sync.WaitGroup (or Mutex, ...) through embedded
// fields. The call is left alone, with a warning, when an embedded field
// on the way cannot be named here.
func (r *fileRewriter) methodHook(c *dstutil.Cursor, n *dst.CallExpr, ac *ast.CallExpr, hook, op string, withSite bool) {
	sel, ok := ast.Unparen(ac.Fun).(*ast.SelectorExpr)
	dsel, ok2 := unparen(n.Fun).(*dst.SelectorExpr)
	if !ok || !ok2 {
		return
	}
	recv := r.receiver(sel, dsel.X)
	if recv == nil {
		r.warn(sel.Sel.Pos(), "%s not instrumented: the receiver is reached through an unexported embedded field of another package", sel.Sel.Name)
		return
	}
	var args []dst.Expr
	if withSite {
		args = append(args, r.site(ac.Lparen, op))
		if op == "WGGo" || op == "GroupGo" {
			r.spawnClosure(ac)
		}
	}
	args = append(args, recv)
	args = append(args, n.Args...)
	repl := r.rtCall(hook, args...)
	repl.Decs = n.Decs
	c.Replace(repl)
}

func unparen(e dst.Expr) dst.Expr {
	for {
		p, ok := e.(*dst.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// receiver returns a pointer expression for the receiver of the method
// selected by sel, following the embedded fields of the selection: for
// x.Done() with x a sync.WaitGroup, &x; with x a *sync.WaitGroup, x; with
// s.Done() promoted from s.inner.WaitGroup, &s.inner.WaitGroup.
func (r *fileRewriter) receiver(sel *ast.SelectorExpr, x dst.Expr) dst.Expr {
	selection, ok := r.in.Info.Selections[sel]
	if !ok {
		return nil
	}
	expr := x
	typ := r.in.Info.TypeOf(sel.X)
	path := selection.Index()
	for _, i := range path[:len(path)-1] {
		if p, ok := typ.Underlying().(*types.Pointer); ok {
			typ = p.Elem()
		}
		st, ok := typ.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != r.in.Pkg {
			return nil
		}
		expr = &dst.SelectorExpr{X: expr, Sel: dst.NewIdent(f.Name())}
		typ = f.Type()
	}
	if _, ok := typ.Underlying().(*types.Pointer); ok {
		return expr
	}
	if _, isIface := typ.Underlying().(*types.Interface); isIface {
		return nil
	}
	return &dst.UnaryExpr{Op: token.AND, X: expr}
}

// beforeStmt inserts s before the statement that contains the call at c,
// when that statement is an expression statement in a statement list.
func (r *fileRewriter) beforeStmt(c *dstutil.Cursor, ac *ast.CallExpr, s dst.Stmt) {
	if _, ok := c.Parent().(*dst.ExprStmt); !ok {
		r.warn(ac.Pos(), "profile not flushed before this call: it is not a statement of its own")
		return
	}
	r.pendingBefore[c.Parent()] = append(r.pendingBefore[c.Parent()], s)
	r.changed = true
}

// releasedStmt brackets a blocking library call without results (which
// must be an expression statement) with rt.<openHook>, whose result is a
// token, and rt.<closeHook>(token): rt.Release and rt.Reacquired, or
// rt.BubbleOpen and rt.BubbleClose.
func (r *fileRewriter) releasedStmt(c *dstutil.Cursor, ac *ast.CallExpr, openHook, closeHook string) {
	parent, ok := c.Parent().(*dst.ExprStmt)
	if !ok {
		r.warn(ac.Pos(), "blocking call not instrumented: it is not a statement of its own")
		return
	}
	r.tokens++
	tk := r.in.Names.name("tk" + strconv.Itoa(r.tokens))
	r.pendingBefore[parent] = append(r.pendingBefore[parent], &dst.AssignStmt{
		Lhs: []dst.Expr{dst.NewIdent(tk)}, Tok: token.DEFINE,
		Rhs: []dst.Expr{r.rtCall(openHook, r.site(ac.Lparen, "Call"))},
	})
	r.pendingAfter[parent] = append(r.pendingAfter[parent], &dst.ExprStmt{X: r.rtCall(closeHook, dst.NewIdent(tk))})
}
