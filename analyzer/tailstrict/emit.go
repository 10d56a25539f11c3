package tailstrict

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"strings"
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
						found = found || emitMethods[obj.Name()]
					} else if obj.Pkg() != nil && obj.Pkg().Path() == "fmt" {
						found = found || strings.HasPrefix(obj.Name(), "Print") || strings.HasPrefix(obj.Name(), "Fprint")
					}
				}
			}
		}
		return !found
	})
	return found
}

// syncs reports whether any of stmts synchronises or releases: a channel
// operation, a select, a go statement, or a synchronising method call.
func syncs(c *checker, stmts []ast.Stmt) bool {
	found := false
	for _, s := range stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SendStmt, *ast.SelectStmt, *ast.GoStmt:
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
