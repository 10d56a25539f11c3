package nonsp

import (
	"go/ast"
	"go/types"
	"path"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/spgo/spgo/analyzer/internal/groups"
	"github.com/spgo/spgo/analyzer/internal/ignore"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// maxDepth bounds how many calls deep joined looks for a signal.
const maxDepth = 3

// joinCheck finds whether a goroutine has a way back to its spawner.
type joinCheck struct {
	pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl
	// locals maps a local function variable defined once by a literal
	// (f := func() {...}) to that literal.
	locals map[*types.Var]*ast.FuncLit
	memo   map[memoKey]bool
}

// checkUnjoined reports go statements that nothing joins.
func checkUnjoined(pass *analysis.Pass, ins *inspector.Inspector, rep *ignore.Reporter) {
	j := &joinCheck{
		pass:   pass,
		decls:  map[*types.Func]*ast.FuncDecl{},
		locals: map[*types.Var]*ast.FuncLit{},
		memo:   map[memoKey]bool{},
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
		if j.joined(g.Call, 0) || j.countedBefore(g, stack) || j.inSynctest(stack) {
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

// countedBefore reports whether the statement before g counts the
// goroutine in: a group Add ("wg.Add(1); go f()"), or any method call on a
// value whose type has a Wait method (a worker pool or counting type of
// another library: "wk.Take(); go ...").
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
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || j.pass.TypesInfo.Selections[sel] == nil {
			return false
		}
		obj, _, _ := types.LookupFieldOrMethod(j.pass.TypesInfo.TypeOf(sel.X), true, nil, "Wait")
		_, isMethod := obj.(*types.Func)
		return isMethod
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
// a group or channel argument, or a body (followed into local closures and
// same-package functions, up to maxDepth calls deep) that signals.
func (j *joinCheck) joined(call *ast.CallExpr, depth int) bool {
	for _, a := range call.Args {
		if syncValue(j.pass.TypesInfo.TypeOf(a)) {
			return true
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && syncValue(j.pass.TypesInfo.TypeOf(sel.X)) {
		return true // a method of a group or channel type
	}
	body := j.bodyOf(call.Fun)
	return body != nil && j.signals(body, depth)
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

// signals reports whether body tells another goroutine it is done. Its own
// body (depth 0) may do so in any of these ways: send on or close a
// channel, close an io.Pipe writer, signal a sync.Cond, write through an
// atomic package, hand a group or channel to a function. At any depth up
// to maxDepth calls, only a group signal counts: Done, Go or Wait on a
// group, a result-less method named Done (the group types of other
// libraries), or a semaphore.Weighted Release — a send or an atomic write
// deep in a callee is usually about something else.
func (j *joinCheck) signals(body *ast.BlockStmt, depth int) bool {
	key := memoKey{body, depth == 0}
	if v, ok := j.memo[key]; ok {
		return v
	}
	j.memo[key] = false // a recursive call adds nothing
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SendStmt:
			found = depth == 0
		case *ast.CallExpr:
			found = j.signalCall(n, depth)
		}
		return !found
	})
	j.memo[key] = found
	return found
}

// memoKey caches signals per body, separately for a goroutine's own body.
type memoKey struct {
	body   *ast.BlockStmt
	direct bool
}

// signalCall reports whether one call signals (see signals).
func (j *joinCheck) signalCall(call *ast.CallExpr, depth int) bool {
	info := j.pass.TypesInfo
	if c, ok := groups.MethodCall(info, call); ok && (c.Method == "Done" || c.Method == "Go" || c.Method == "Wait") {
		return true
	}
	var fn *types.Func
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		fn, _ = info.Uses[sel.Sel].(*types.Func)
	}
	var recv types.Type
	if fn != nil {
		if r := fn.Type().(*types.Signature).Recv(); r != nil {
			recv = r.Type()
		}
	}
	switch {
	case recv != nil && fn.Name() == "Done" && fn.Type().(*types.Signature).Results().Len() == 0:
		return true // a group type of another library
	case recv != nil && typesx.IsNamed(recv, "golang.org/x/sync/semaphore", "Weighted") && fn.Name() == "Release":
		return true
	}
	if depth == 0 {
		if typesx.IsBuiltin(info, call, "close") {
			return true
		}
		for _, a := range call.Args {
			if tv, ok := info.Types[a]; ok && !tv.IsType() && syncValue(tv.Type) {
				return true
			}
		}
		switch {
		case recv != nil && typesx.IsNamed(recv, "sync", "Cond") && (fn.Name() == "Signal" || fn.Name() == "Broadcast"):
			return true
		case recv != nil && typesx.IsNamed(recv, "io", "PipeWriter") && strings.HasPrefix(fn.Name(), "Close"):
			return true // the reader sees EOF
		case fn != nil && fn.Pkg() != nil && path.Base(fn.Pkg().Path()) == "atomic" && !strings.HasPrefix(fn.Name(), "Load"):
			return true // atomic.AddInt32, (*atomic.Bool).Store, go.uber.org/atomic, ...
		}
	}
	if depth < maxDepth {
		if body := j.bodyOf(call.Fun); body != nil && j.signals(body, depth+1) {
			return true
		}
	}
	return false
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
