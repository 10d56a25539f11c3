package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"
)

// A spin loop waits, in Go, for another goroutine to change what it
// tests: `for !q.TryEnqueue(v) {}`, `for atomic.LoadInt32(&ready) == 0 {}`,
// `for { if v, ok = q.TryDequeue(); ok { break } }`. Go preempts it;
// under rtlib's baton the goroutine it waits for never runs unless the
// loop gives the baton up, and its body may pass no hook at all. So the
// rewriter counts each fruitless turn as a poll (rt.Polled): after a few
// the holder yields to whoever is ready (rtlib/sched_poll.go).
//
// Three shapes are spin loops: a for statement whose body is empty (every
// turn is fruitless); a for statement without condition whose body is
// a single if statement, without else, that leaves the loop (its block
// ends in break, return or goto): the turns that reach the end of the
// body are the fruitless ones; and a for statement whose condition loads
// from sync/atomic and reads no variable its init statement declares
// (`for stop.Load() == 0 { check() }`, `for i := 0; !stop.Load(); i++`), which runs until
// another goroutine stores: its turns are polls whatever its body does,
// and without them a reader that spins beside a writer kept the baton
// for the watchdog's ten seconds at a time (a cache's test hung). Other
// loops that do work between their tests are left alone: counting them
// as polls would reorder ordinary loops.

// spinLoop marks the fruitless turn of n if n is a spin loop.
func (r *fileRewriter) spinLoop(n *dst.ForStmt) {
	af, _ := r.astOf(n).(*ast.ForStmt)
	if af == nil {
		return // a loop the rewriter made
	}
	first := false // the poll opens the turn rather than closing it
	switch {
	case len(af.Body.List) == 0:
	case af.Cond == nil && len(af.Body.List) == 1 && leavesLoop(af.Body.List[0]):
	case af.Cond != nil && loadsAtomic(r.in.Info, af.Cond) && !usesLoopVars(r.in.Info, af):
		// Its body may continue past a poll at its end (otter's
		// readers skip to the next load on a miss): first, every turn
		// that found the condition true counts.
		first = true
	default:
		return
	}
	m := &dst.ExprStmt{X: r.rtCall("Polled", r.site(af.For, "Call"))}
	m.Decs.Before = dst.NewLine
	r.origin[m] = r.pos(af.For)
	if first {
		n.Body.List = append([]dst.Stmt{m}, n.Body.List...)
		return
	}
	n.Body.List = append(n.Body.List, m)
}

// leavesLoop reports whether s is an if statement without else whose
// block ends by leaving the loop.
func leavesLoop(s ast.Stmt) bool {
	is, ok := s.(*ast.IfStmt)
	if !ok || is.Else != nil || len(is.Body.List) == 0 {
		return false
	}
	switch last := is.Body.List[len(is.Body.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return last.Tok == token.BREAK || last.Tok == token.GOTO
	}
	return false
}

// usesLoopVars reports whether the condition of the for statement af
// reads a variable its init statement declares: a counting loop whose
// bound is an atomic load (for i := 0; i < n.Load(); i++), not a wait.
func usesLoopVars(info *types.Info, af *ast.ForStmt) bool {
	as, ok := af.Init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE {
		return false
	}
	vars := map[types.Object]bool{}
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && info.Defs[id] != nil {
			vars[info.Defs[id]] = true
		}
	}
	found := false
	ast.Inspect(af.Cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && vars[info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// loadsAtomic reports whether e calls a function or method of sync/atomic
// (outside function literals).
func loadsAtomic(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn := calleeMethod(info, n); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" {
				found = true
			}
		}
		return !found
	})
	return found
}
