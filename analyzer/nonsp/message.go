package nonsp

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/spgo/spgo/analyzer/internal/syncfacts"
)

// lastMessage reports whether the goroutine started by call ends with a
// message its spawner waits for, however deep in a callee it is sent: the
// goroutine's last act — the call itself, or the last statement of the
// literal it runs — calls a function whose summary sends on (or closes) a
// channel of an element type the spawning function itself receives from
// (a response one call deep: go func() { req.respond(v) }() ... <-req.resp).
// Element types that carry nothing (struct{}) match too much (every
// <-ctx.Done() receives one) and do not count.
func (j *joinCheck) lastMessage(call *ast.CallExpr, stack []ast.Node) bool {
	last := call
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		if last = lastCall(lit.Body); last == nil {
			return false
		}
	}
	sent := j.sentBy(last)
	if len(sent) == 0 {
		return false
	}
	recv := j.received(stack)
	return slices.ContainsFunc(sent, func(t string) bool { return recv[t] })
}

// lastCall returns the call that the last statement of body makes: an
// expression statement, or the sole right-hand side of an assignment.
func lastCall(body *ast.BlockStmt) *ast.CallExpr {
	if len(body.List) == 0 {
		return nil
	}
	var e ast.Expr
	switch st := body.List[len(body.List)-1].(type) {
	case *ast.ExprStmt:
		e = st.X
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			e = st.Rhs[0]
		}
	}
	c, _ := ast.Unparen(e).(*ast.CallExpr)
	return c
}

// sentBy returns the element types call's callee sends on or closes.
func (j *joinCheck) sentBy(call *ast.CallExpr) []string {
	if fn := typeutil.StaticCallee(j.pass.TypesInfo, call); fn != nil {
		return sentOf(j.sums.Func(fn))
	}
	if lit := j.litOf(call.Fun); lit != nil {
		return sentOf(j.sums.Lit(lit))
	}
	return nil
}

// sentOf returns the element types a summary sends, nil for none.
func sentOf(s *syncfacts.Summary) []string {
	if s == nil {
		return nil
	}
	return s.Sent
}

// received returns the element types of the channels the function around
// the go statement at the top of stack receives from itself (receives,
// ranges over, selects on), but those of no size.
func (j *joinCheck) received(stack []ast.Node) map[string]bool {
	var fn ast.Node
	for i := len(stack) - 1; i >= 0 && fn == nil; i-- {
		switch stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			fn = stack[i]
		}
	}
	recv := map[string]bool{}
	if fn == nil {
		return recv
	}
	add := func(e ast.Expr) {
		ch, ok := j.pass.TypesInfo.TypeOf(e).(*types.Chan)
		if !ok {
			if t := j.pass.TypesInfo.TypeOf(e); t != nil {
				ch, ok = t.Underlying().(*types.Chan)
			}
		}
		if ok && !empty(ch.Elem()) {
			recv[types.TypeString(ch.Elem(), nil)] = true
		}
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op.String() == "<-" {
				add(n.X)
			}
		case *ast.RangeStmt:
			add(n.X)
		}
		return true
	})
	return recv
}

// empty reports whether t holds nothing: a struct with no fields.
func empty(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}
