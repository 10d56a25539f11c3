package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// Buffers. A bytes.Buffer or strings.Builder grows inside the standard
// library, where no hook sees it; rtlib follows its array instead
// (rtlib's acct_buf.go). After a statement of a list that may grow one,
// the rewriter puts a call that shows rtlib the buffer:
//
//	b.WriteString(s)              b.WriteString(s)
//	fmt.Fprintf(&sb, "%d", n)  => rt.BufSeen(site, &b)
//	                              fmt.Fprintf(&sb, "%d", n)
//	                              rt.BuilderSeen(site, &sb)
//
// A statement may grow a buffer when it calls one of its methods that
// write (bufferGrowers) or gives a pointer to it to a call. The buffer's
// expression must be pure (it is evaluated again) and not assigned by
// the statement. Only expression and assignment statements are
// followed: a growth elsewhere (an if's init, a return) is read later,
// as an allocation by uninstrumented code.

// bufferHooks maps the buffer types rtlib follows to their hooks.
var bufferHooks = map[string]string{
	"bytes.Buffer":    "BufSeen",
	"strings.Builder": "BuilderSeen",
}

// bufferGrowers are the buffer methods that may grow its array.
var bufferGrowers = map[string]bool{
	"Write": true, "WriteString": true, "WriteByte": true, "WriteRune": true,
	"Grow": true, "ReadFrom": true,
}

// bufferHook returns the hook for a value of type t, a buffer or a
// pointer to one, and whether t is the pointer; "" for other types.
func bufferHook(t types.Type) (hook string, ptr bool) {
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return "", false
	}
	return bufferHooks[n.Obj().Pkg().Path()+"."+n.Obj().Name()], ptr
}

// markBuffers inserts the hooks after the statement at c (see above).
func (r *fileRewriter) markBuffers(c *dstutil.Cursor, n dst.Stmt) {
	switch n.(type) {
	case *dst.ExprStmt, *dst.AssignStmt:
	default:
		return
	}
	as, _ := r.astOf(n).(ast.Stmt)
	if as == nil || len(r.funcs) == 0 {
		return
	}
	var lhs []ast.Expr
	if a, ok := as.(*ast.AssignStmt); ok {
		lhs = a.Lhs
	}
	type seen struct {
		e    ast.Expr // the buffer's expression
		addr bool     // take its address
		hook string
	}
	var bs []seen
	add := func(e ast.Expr, addr bool, hook string) {
		if !pure(e) || mentions(e, lhs) {
			return
		}
		for _, b := range bs {
			if types.ExprString(b.e) == types.ExprString(e) {
				return
			}
		}
		bs = append(bs, seen{e, addr, hook})
	}
	ast.Inspect(as, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if _, lit := x.(*ast.FuncLit); lit {
			return false
		}
		if !ok {
			return true
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && bufferGrowers[sel.Sel.Name] {
			if s := r.in.Info.Selections[sel]; s != nil && s.Kind() == types.MethodVal && len(s.Index()) == 1 {
				if hook, ptr := bufferHook(r.in.Info.TypeOf(sel.X)); hook != "" {
					add(sel.X, !ptr, hook)
				}
			}
		}
		for _, a := range call.Args {
			if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
				if hook, ptr := bufferHook(r.in.Info.TypeOf(u.X)); hook != "" && !ptr {
					add(u.X, true, hook)
				}
			} else if hook, ptr := bufferHook(r.in.Info.TypeOf(a)); hook != "" && ptr {
				add(a, false, hook)
			}
		}
		return true
	})
	var hooks []dst.Stmt
	for _, b := range bs {
		d, _ := r.dec.Dst.Nodes[b.e].(dst.Expr)
		if d == nil {
			continue
		}
		x := dst.Clone(d).(dst.Expr)
		if b.addr {
			x = &dst.UnaryExpr{Op: token.AND, X: x}
		}
		hooks = append(hooks, r.stmt(as.Pos(), r.rtCall(b.hook, r.site(as.Pos(), "Call"), x)))
	}
	for i := len(hooks) - 1; i >= 0; i-- {
		c.InsertAfter(hooks[i])
	}
}
