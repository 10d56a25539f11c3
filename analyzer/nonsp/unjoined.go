package nonsp

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/spgo/spgo/analyzer/internal/groups"
	"github.com/spgo/spgo/analyzer/internal/ignore"
	"github.com/spgo/spgo/analyzer/internal/syncfacts"
	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// joinCheck finds whether a goroutine has a way back to its spawner.
type joinCheck struct {
	pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl
	// locals maps a local function variable defined once by a literal
	// (f := func() {...}) to that literal.
	locals map[*types.Var]*ast.FuncLit
	memo   map[*ast.BlockStmt]bool
	sums   *syncfacts.Result
	// used holds the functions and methods the package refers to.
	used map[*types.Func]bool
}

// checkUnjoined reports go statements that nothing joins.
func checkUnjoined(pass *analysis.Pass, ins *inspector.Inspector, rep *ignore.Reporter) {
	j := &joinCheck{
		pass:   pass,
		decls:  map[*types.Func]*ast.FuncDecl{},
		locals: map[*types.Var]*ast.FuncLit{},
		memo:   map[*ast.BlockStmt]bool{},
		sums:   pass.ResultOf[syncfacts.Analyzer].(*syncfacts.Result),
		used:   map[*types.Func]bool{},
	}
	for _, obj := range pass.TypesInfo.Uses {
		if fn, ok := obj.(*types.Func); ok {
			j.used[fn.Origin()] = true
		}
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					j.decls[fn] = fd
				}
			}
		}
	}
	j.findLocals(ins)
	ins.WithStack([]ast.Node{(*ast.GoStmt)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		g := n.(*ast.GoStmt)
		if j.joined(g.Call) || j.lastMessage(g.Call, stack) || j.countedBefore(g, stack) || j.inSynctest(stack) {
			return true
		}
		rep.Reportf(g, "goroutine never joined: no WaitGroup, errgroup, channel or close connects it back, so spbuild joins it at the end of its root and the figures there are inexact (join it with a WaitGroup or errgroup, or //spvet:ignore nonsp <reason> for a deliberate background goroutine)")
		return true
	})
}

// findLocals records function variables assigned exactly once, from a
// literal.
func (j *joinCheck) findLocals(ins *inspector.Inspector) {
	assigned := map[*types.Var]int{}
	ins.Preorder([]ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)}, func(n ast.Node) {
		bind := func(id *ast.Ident, e ast.Expr) {
			v, ok := j.pass.TypesInfo.ObjectOf(id).(*types.Var)
			if !ok {
				return
			}
			assigned[v]++
			if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
				j.locals[v] = lit
			}
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && len(n.Lhs) == len(n.Rhs) {
					bind(id, n.Rhs[i])
				} else if ok {
					bind(id, nil)
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) == 0 {
				return // "var f func()": declared for a recursive literal
			}
			for i, id := range n.Names {
				var e ast.Expr
				if len(n.Values) == len(n.Names) {
					e = n.Values[i]
				}
				bind(id, e)
			}
		}
	})
	for v, n := range assigned {
		if n != 1 {
			delete(j.locals, v)
		}
	}
}

// countsIn holds the operations by which a method called just before a go
// statement counts the goroutine in: a group Add, a semaphore Acquire.
const countsIn = syncfacts.GroupAdd | syncfacts.SemAcquire

// countedBefore reports whether the statement before g counts the
// goroutine in: a group Add ("wg.Add(1); go f()"), or a method call whose
// summary counts in (countsIn), or that sends a token on a receiver field
// another method of its type receives from (a worker pool of another
// library: "wk.Take(); go ...").
func (j *joinCheck) countedBefore(g *ast.GoStmt, stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	var list []ast.Stmt
	switch b := stack[len(stack)-2].(type) {
	case *ast.BlockStmt:
		list = b.List
	case *ast.CaseClause:
		list = b.Body
	case *ast.CommClause:
		list = b.Body
	}
	for i, s := range list {
		if s != g || i == 0 {
			continue
		}
		es, ok := list[i-1].(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		if c, ok := groups.MethodCall(j.pass.TypesInfo, call); ok {
			return c.Method == "Add"
		}
		fn := typeutil.StaticCallee(j.pass.TypesInfo, call)
		if fn == nil || fn.Signature().Recv() == nil {
			return false
		}
		if j.sums.Func(fn).Has(countsIn) {
			return true
		}
		named := typesx.RecvNamed(fn)
		return named != nil && j.fieldPaired(fn, named, syncfacts.ChanSend, syncfacts.ChanRecv)
	}
	return false
}

// inSynctest reports whether the go statement runs inside a function
// passed to testing/synctest.Test or Run, which waits for every goroutine
// of its bubble.
func (j *joinCheck) inSynctest(stack []ast.Node) bool {
	for _, n := range stack {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			continue
		}
		var id *ast.Ident
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.SelectorExpr:
			id = f.Sel
		case *ast.Ident:
			id = f
		}
		if id == nil {
			continue
		}
		if fn, ok := j.pass.TypesInfo.Uses[id].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "testing/synctest" {
			return true
		}
	}
	return false
}

// joined reports whether the goroutine started by call shows a way back:
// a group or channel argument, a method of a type another method of which
// waits for it (paired), or a body (a literal, a local closure or a
// function of the package) that signals (see signals).
func (j *joinCheck) joined(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if syncValue(j.pass.TypesInfo.TypeOf(a)) {
			return true
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && syncValue(j.pass.TypesInfo.TypeOf(sel.X)) {
		return true // a method of a group or channel type
	}
	if j.pairedCall(call) {
		return true
	}
	body := j.bodyOf(call.Fun)
	return body != nil && j.signals(body)
}

// litOf returns the literal a local closure variable is set to, nil for
// anything else.
func (j *joinCheck) litOf(fun ast.Expr) *ast.FuncLit {
	switch f := ast.Unparen(fun).(type) {
	case *ast.FuncLit:
		return f
	case *ast.Ident:
		if v, ok := j.pass.TypesInfo.Uses[f].(*types.Var); ok {
			return j.locals[v]
		}
	}
	return nil
}

// bodyOf returns the body a call runs, when it is in this package: a
// literal, a local closure variable, or a declared function or method
// (generic ones by their origin).
func (j *joinCheck) bodyOf(fun ast.Expr) *ast.BlockStmt {
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.FuncLit:
		return f.Body
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr:
		return j.bodyOf(f.X)
	case *ast.IndexListExpr:
		return j.bodyOf(f.X)
	default:
		return nil
	}
	switch obj := j.pass.TypesInfo.Uses[id].(type) {
	case *types.Func:
		if d := j.decls[obj.Origin()]; d != nil {
			return d.Body
		}
	case *types.Var:
		if lit := j.locals[obj]; lit != nil {
			return lit.Body
		}
	}
	return nil
}

// signals reports whether body, the goroutine's own, tells another
// goroutine it is done: it sends on or closes a channel, closes an io.Pipe
// writer, signals a sync.Cond, writes through an atomic package, hands a
// group or channel to a function, or calls a function whose summary
// (syncfacts) signals a group (see signalCall).
func (j *joinCheck) signals(body *ast.BlockStmt) bool {
	if v, ok := j.memo[body]; ok {
		return v
	}
	j.memo[body] = false // a recursive call adds nothing
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SendStmt:
			found = true
		case *ast.CallExpr:
			found = j.signalCall(n)
		}
		return !found
	})
	j.memo[body] = found
	return found
}

// groupSignal holds the operations of a callee that tell a waiter the
// goroutine calling it is done, at any depth: a group's Done, a semaphore
// Release. A callee's Add, Go or Wait counts other goroutines in or waits
// for them, and a Cond signal deep in a callee is a queue's wake-up: they
// say nothing of this goroutine's end.
const groupSignal = syncfacts.GroupDone | syncfacts.SemRelease

// signalCall reports whether one call of the goroutine's own body
// signals: as a primitive (a group method, close, a Cond signal, a Pipe
// close, an atomic write, a group or channel argument), through a callee
// that signals a group at any depth, or as the close of a child process's
// pipe that the spawner waits for.
func (j *joinCheck) signalCall(call *ast.CallExpr) bool {
	info := j.pass.TypesInfo
	if c, ok := groups.MethodCall(info, call); ok && (c.Method == "Done" || c.Method == "Go" || c.Method == "Wait") {
		return true
	}
	if typesx.IsBuiltin(info, call, "close") {
		return true
	}
	for _, a := range call.Args {
		if tv, ok := info.Types[a]; ok && !tv.IsType() && syncValue(tv.Type) {
			return true
		}
	}
	if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && j.closesChildPipe(call, fn) {
		return true // an interface's Close
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil {
		lit := j.litOf(call.Fun)
		if lit == nil {
			return false
		}
		sum := j.sums.Lit(lit)
		return sum.Has(groupSignal)
	}
	if syncfacts.Primitive(fn)&(syncfacts.Signal|syncfacts.AtomicWrite|groupSignal) != 0 {
		return true
	}
	return j.sums.Func(fn).Has(groupSignal)
}

// syncValue reports whether t is a channel or a group (or points to one).
func syncValue(t types.Type) bool {
	if t == nil {
		return false
	}
	if k, _ := groups.KindOf(t); k != groups.None {
		return true
	}
	_, ok := t.Underlying().(*types.Chan)
	return ok
}
