package joinbeforeconsume

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// slotType returns the element type of a slice, array or map variable, or
// nil for any other variable.
func slotType(v *types.Var) types.Type {
	if _, ok := types.Unalias(v.Type()).(*types.TypeParam); ok {
		return nil
	}
	switch u := v.Type().Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	}
	return nil
}

// storesInto reports whether child stores a value that holds memory into
// v: v[k] = x, or v = append(v, x).
func storesInto(info *types.Info, child *ast.FuncLit, v *types.Var) bool {
	slot := slotType(v)
	found := false
	ast.Inspect(child.Body, func(n ast.Node) bool {
		a, ok := n.(*ast.AssignStmt)
		if !ok || a.Tok != token.ASSIGN || found {
			return !found
		}
		for i, lhs := range a.Lhs {
			var rhs ast.Expr // nil: one call's results, judged by the slot
			if len(a.Rhs) == len(a.Lhs) {
				rhs = a.Rhs[i]
			}
			switch l := ast.Unparen(lhs).(type) {
			case *ast.IndexExpr:
				found = found || isVar(info, l.X, v) && holdsValue(info, slot, rhs)
			case *ast.Ident:
				call, ok := ast.Unparen(rhs).(*ast.CallExpr)
				if !isVar(info, l, v) || !ok || !typesx.IsBuiltin(info, call, "append") || len(call.Args) < 2 || !isVar(info, call.Args[0], v) {
					break
				}
				for _, x := range call.Args[1:] {
					if call.Ellipsis.IsValid() {
						x = nil // a slice of elements: judged by the slot
					}
					found = found || holdsValue(info, slot, x)
				}
			}
		}
		return !found
	})
	return found
}

// isVar reports whether e is an identifier denoting v.
func isVar(info *types.Info, e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// holdsValue reports whether storing x (nil: unknown) into a slot of type
// slot keeps memory alive: the slot's type can hold memory, x is not nil,
// and, for an interface slot, x's own type can hold memory.
func holdsValue(info *types.Info, slot types.Type, x ast.Expr) bool {
	if !holds(slot) {
		return false
	}
	if x == nil {
		return true
	}
	t := info.TypeOf(x)
	if t == nil {
		return true
	}
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return false
	}
	if types.IsInterface(slot) && !types.IsInterface(t) {
		return holds(t)
	}
	return true
}

// errorType is the predeclared error interface.
var errorType = types.Universe.Lookup("error").Type()

// holds reports whether a value of type t can hold memory beyond its own
// few words: strings, pointers, slices, maps, channels, functions,
// interfaces other than error, and arrays and structs containing one.
// Numbers, booleans and errors (most often nil or small) do not, nor do
// type parameters, whose instances are unknown here.
func holds(t types.Type) bool {
	if types.Identical(t, errorType) {
		return false
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0 || u.Kind() == types.UnsafePointer
	case *types.Array:
		return u.Len() > 0 && holds(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if holds(u.Field(i).Type()) {
				return true
			}
		}
		return false
	}
	return true
}
