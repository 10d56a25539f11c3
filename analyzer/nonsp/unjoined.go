package nonsp

import (
	"go/ast"
	"go/types"
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
	memo   map[ast.Node]bool
}

// checkUnjoined reports go statements that nothing joins.
func checkUnjoined(pass *analysis.Pass, ins *inspector.Inspector, rep *ignore.Reporter) {
	j := &joinCheck{
		pass:   pass,
		decls:  map[*types.Func]*ast.FuncDecl{},
		locals: map[*types.Var]*ast.FuncLit{},
		memo:   map[ast.Node]bool{},
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
		if j.joined(g.Call, 0) || j.countedBefore(g, stack) {
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

// countedBefore reports whether the statement before g adds to a group
// ("wg.Add(1); go f()"): the goroutine is counted, and whatever it runs
// is expected to call Done.
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
		c, ok := groups.MethodCall(j.pass.TypesInfo, call)
		return ok && c.Method == "Add"
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

// signals reports whether body tells another goroutine it is done: it
// sends on a channel, closes one, calls Done or Go on a group, calls a
// result-less method named Done (a group of another library), signals a
// sync.Cond, releases a semaphore, writes an atomic, hands a group or
// channel to a function, or calls a function of this package that does.
func (j *joinCheck) signals(body *ast.BlockStmt, depth int) bool {
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
			found = j.signalCall(n, depth)
		}
		return !found
	})
	j.memo[body] = found
	return found
}

// signalCall reports whether one call signals (see signals).
func (j *joinCheck) signalCall(call *ast.CallExpr, depth int) bool {
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
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if fn, ok := info.Uses[sel.Sel].(*types.Func); ok {
			sig := fn.Type().(*types.Signature)
			switch {
			case sig.Recv() != nil && fn.Name() == "Done" && sig.Results().Len() == 0:
				return true // a group type of another library
			case sig.Recv() != nil && typesx.IsNamed(sig.Recv().Type(), "sync", "Cond") && (fn.Name() == "Signal" || fn.Name() == "Broadcast"):
				return true
			case sig.Recv() != nil && typesx.IsNamed(sig.Recv().Type(), "golang.org/x/sync/semaphore", "Weighted") && fn.Name() == "Release":
				return true
			case fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && !strings.HasPrefix(fn.Name(), "Load"):
				return true // atomic.AddInt32, (*atomic.Bool).Store, ...
			}
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
