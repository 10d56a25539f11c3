// Package groups recognises the structured goroutine groups spgo models:
// sync.WaitGroup and golang.org/x/sync/errgroup.Group.
package groups

import (
	"go/ast"
	"go/types"
)

// Kind is the kind of a group type.
type Kind int

const (
	None      Kind = iota
	WaitGroup      // sync.WaitGroup
	ErrGroup       // golang.org/x/sync/errgroup.Group
)

func (k Kind) String() string {
	switch k {
	case WaitGroup:
		return "sync.WaitGroup"
	case ErrGroup:
		return "errgroup.Group"
	}
	return "none"
}

// KindOf returns the group kind of t, or of what t points to, and whether t
// is a pointer.
func KindOf(t types.Type) (k Kind, pointer bool) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t, pointer = p.Elem(), true
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return None, false
	}
	switch path, name := n.Obj().Pkg().Path(), n.Obj().Name(); {
	case path == "sync" && name == "WaitGroup":
		return WaitGroup, pointer
	case path == "golang.org/x/sync/errgroup" && name == "Group":
		return ErrGroup, pointer
	}
	return None, false
}

// Call describes a method call on a group: g.Go(f), wg.Add(1), ...
type Call struct {
	Kind   Kind
	Method string
	Recv   ast.Expr // the receiver expression
	Call   *ast.CallExpr
}

// MethodCall returns the group method call that call is, if any.
func MethodCall(info *types.Info, call *ast.CallExpr) (Call, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return Call{}, false
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return Call{}, false
	}
	k, _ := KindOf(s.Recv())
	if k == None {
		return Call{}, false
	}
	return Call{Kind: k, Method: sel.Sel.Name, Recv: sel.X, Call: call}, true
}

// Key returns the object that identifies the group an expression denotes:
// the variable of an identifier (through & and *), the field of a selector.
// It returns nil when the group cannot be named statically.
func Key(info *types.Info, e ast.Expr) types.Object {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			e = x.X
			continue
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.Ident:
			return info.Uses[x]
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
				return s.Obj()
			}
			return info.Uses[x.Sel]
		}
		return nil
	}
}
