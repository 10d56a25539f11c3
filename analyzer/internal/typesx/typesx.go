// Package typesx holds the small type questions spvet's analyzers share.
package typesx

import (
	"go/ast"
	"go/types"
)

// IsBuiltin reports whether call calls the predeclared function name
// (append, len, make, ...), not a user function that shadows it.
func IsBuiltin(info *types.Info, call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = info.Uses[id].(*types.Builtin)
	return ok
}

// Named returns the package path and name of the named type t, or of what
// t points to; ok is false for other types.
func Named(t types.Type) (path, name string, ok bool) {
	if p, isPtr := types.Unalias(t).(*types.Pointer); isPtr {
		t = p.Elem()
	}
	n, isNamed := types.Unalias(t).(*types.Named)
	if !isNamed || n.Obj().Pkg() == nil {
		return "", "", false
	}
	return n.Obj().Pkg().Path(), n.Obj().Name(), true
}

// IsNamed reports whether t, or what it points to, is the named type
// path.name.
func IsNamed(t types.Type, path, name string) bool {
	p, n, ok := Named(t)
	return ok && p == path && n == name
}

// RecvNamed returns the named type of a method's receiver (through a
// pointer), nil for a function or an interface's method.
func RecvNamed(fn *types.Func) *types.Named {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	t := recv.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}
