package tailstrict

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"strings"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// emitMethods are method names that pass a value downstream.
var emitMethods = map[string]bool{
	"Send": true, "Write": true, "WriteString": true, "WriteByte": true,
	"WriteRune": true, "Encode": true, "Emit": true, "Publish": true,
}

// syncMethods are method names that synchronise or release a resource.
var syncMethods = map[string]bool{
	"Wait": true, "Lock": true, "Unlock": true, "RLock": true, "RUnlock": true,
	"Close": true, "Done": true, "Acquire": true, "Release": true,
	"Signal": true, "Broadcast": true,
}

// emits reports whether n passes a value downstream: a channel send, a
// call of a function value, an emitting method, or fmt printing.
func (c *checker) emits(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			found = true
		case *ast.CallExpr:
			switch f := ast.Unparen(n.Fun).(type) {
			case *ast.Ident:
				if _, ok := c.pass.TypesInfo.Uses[f].(*types.Var); ok {
					found = true // yield, a callback
				}
			case *ast.SelectorExpr:
				switch obj := c.pass.TypesInfo.Uses[f.Sel].(type) {
				case *types.Var:
					found = true // a function-valued field
				case *types.Func:
					if obj.Type().(*types.Signature).Recv() != nil {
						found = found || (emitMethods[obj.Name()] && !c.memorySink(f.X))
					} else if obj.Pkg() != nil && obj.Pkg().Path() == "fmt" {
						found = found || strings.HasPrefix(obj.Name(), "Print") ||
							(strings.HasPrefix(obj.Name(), "Fprint") && len(n.Args) > 0 && !c.memorySink(n.Args[0]))
					}
				}
			}
		}
		return !found
	})
	return found
}

// memorySink reports whether a writer is memory the program keeps: a
// bytes.Buffer, strings.Builder or hash. Writing every element there keeps
// the whole input too (or only a digest of it), so the stage passes
// nothing downstream.
func (c *checker) memorySink(w ast.Expr) bool {
	if u, ok := ast.Unparen(w).(*ast.UnaryExpr); ok && u.Op == token.AND {
		w = u.X
	}
	t := c.pass.TypesInfo.TypeOf(w)
	if t == nil {
		return false
	}
	if typesx.IsNamed(t, "bytes", "Buffer") || typesx.IsNamed(t, "strings", "Builder") {
		return true
	}
	if path, _, ok := typesx.Named(t); ok && (path == "hash" || strings.HasPrefix(path, "hash/") || strings.HasPrefix(path, "crypto/")) {
		return true
	}
	return false
}

// fillsSink reports whether n writes into memory the program keeps (see
// memorySink).
func (c *checker) fillsSink(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if fn, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok {
			switch {
			case fn.Type().(*types.Signature).Recv() != nil:
				found = emitMethods[fn.Name()] && c.memorySink(sel.X)
			case fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && strings.HasPrefix(fn.Name(), "Fprint"):
				found = len(call.Args) > 0 && c.memorySink(call.Args[0])
			}
		}
		return !found
	})
	return found
}

// syncs reports whether any of stmts synchronises or releases: a channel
// operation, a select, or a synchronising method call. A go statement
// does neither for the stage (what it starts runs beside it): neither it
// nor what its function does counts.
func syncs(c *checker, stmts []ast.Stmt) bool {
	found := false
	for _, s := range stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				return false
			case *ast.SendStmt, *ast.SelectStmt:
				found = true
			case *ast.UnaryExpr:
				found = found || n.Op == token.ARROW
			case *ast.CallExpr:
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
					if fn, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok {
						found = found || syncMethods[fn.Name()] ||
							(fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic")
					}
				}
			}
			return !found
		})
	}
	return found
}

// render returns the source form of e for messages.
func render(e ast.Expr) string {
	var b bytes.Buffer
	printer.Fprint(&b, token.NewFileSet(), e)
	s := b.String()
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
