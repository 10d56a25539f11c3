package rewrite

import (
	"go/ast"
	"go/types"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// Maps. A map grows inside the runtime, where no hook sees it; rtlib
// reads the map's tables instead (rtlib's acct_map.go). After a
// statement of a list that inserts into a map, the rewriter puts a call
// that shows rtlib the map:
//
//	m[k] = v        m[k] = v
//	counts[w]++  => rt.MapSeen(site, m)
//	                counts[w]++
//	                rt.MapSeen(site, counts)
//
// Inserts are assignments and increments of an element (m[k] = v,
// m[k] += v, m[k]++). The map's expression must be pure (it is
// evaluated again) and not assigned by the statement.
func (r *fileRewriter) markMaps(c *dstutil.Cursor, n dst.Stmt) {
	as, _ := r.astOf(n).(ast.Stmt)
	if as == nil || len(r.funcs) == 0 {
		return
	}
	var targets, lhs []ast.Expr
	switch s := as.(type) {
	case *ast.AssignStmt:
		targets, lhs = s.Lhs, s.Lhs
	case *ast.IncDecStmt:
		targets = []ast.Expr{s.X}
	default:
		return
	}
	var ms []ast.Expr
	for _, t := range targets {
		ix, ok := ast.Unparen(t).(*ast.IndexExpr)
		if !ok || !pure(ix.X) || mentions(ix.X, lhs) {
			continue
		}
		if _, ok := coreOf(r.in.Info.TypeOf(ix.X)).(*types.Map); !ok {
			continue
		}
		dup := false
		for _, m := range ms {
			dup = dup || types.ExprString(m) == types.ExprString(ix.X)
		}
		if !dup {
			ms = append(ms, ix.X)
		}
	}
	var hooks []dst.Stmt
	for _, m := range ms {
		if d, _ := r.dec.Dst.Nodes[m].(dst.Expr); d != nil {
			hooks = append(hooks, r.stmt(as.Pos(), r.rtCall("MapSeen", r.site(as.Pos(), "Call"), dst.Clone(d).(dst.Expr))))
		}
	}
	for i := len(hooks) - 1; i >= 0; i-- {
		c.InsertAfter(hooks[i])
	}
}
