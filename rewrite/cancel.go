package rewrite

import (
	"go/ast"
	"go/types"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// cancelHooks are the hooks for calls of a context's cancel functions,
// by the callee's named type: the call cancel() becomes
// rt.Cancel(cancel), and cancel(err) rt.CancelCause(cancel, err), so that
// tasks parked on the context's Done channel, which the context package
// closes where rtlib does not see it, try again (rtlib/sched_cancel.go).
var cancelHooks = map[string]string{
	"context.CancelFunc":      "Cancel",
	"context.CancelCauseFunc": "CancelCause",
}

// cancelCall replaces a call of a context cancel function; it reports
// whether n was one.
func (r *fileRewriter) cancelCall(c *dstutil.Cursor, n *dst.CallExpr, ac *ast.CallExpr) bool {
	named, _ := r.in.Info.TypeOf(ac.Fun).(*types.Named)
	if named == nil || named.Obj().Pkg() == nil {
		return false
	}
	hook := cancelHooks[named.Obj().Pkg().Path()+"."+named.Obj().Name()]
	if hook == "" || n.Ellipsis {
		return false
	}
	r.changed = true
	call := r.rtCall(hook, append([]dst.Expr{n.Fun}, n.Args...)...)
	call.Decs = n.Decs
	c.Replace(call)
	return true
}
