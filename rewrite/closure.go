package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The closures a go statement allocates. `go f(x)` makes a closure of f
// (when it is not a declared function) and the arguments, dead once the
// goroutine has called f; `go func() {...}()` one of the literal's free
// variables, which the goroutine may use to its end; `go func(x T)
// {...}(v)` both. The runtime allocates them on the heap in the parent,
// unless there is nothing to capture. Their sizes go into the site table
// (SiteInfo.Closure, ArgsClosure), so that rtlib charges them at the fork
// and frees them when they die instead of finding them at a census.
//
// The compiler lays a closure out as its code pointer followed by the
// captured variables, in the order the function first refers to them. A
// variable is captured by value when it is at most 128 bytes, its address
// is never taken and it is never assigned after its declaration (nor a
// field or element of it); by reference (a pointer) otherwise. The
// instrumented go statement's literal (goStmt) captures the task before
// the same variables: one pointer more, which rtlib counts as its own.

// closureCap is the largest variable the compiler captures by value.
const closureCap = 128

// goClosures returns the sizes of the closures of the go statement whose
// temporaries goStmt made of the values in temps (the function value,
// the arguments, in order) and whose spawned function is lit when it is
// a literal. closure is the original's closure of the literal's free
// variables, which the goroutine may use to its end; args its closure of
// the function value (a literal's closure: a pointer) and the arguments,
// dead once the goroutine has started the call; wrapper the instrumented
// statement's closure, of the task, the temporaries and the literal's
// free variables. 0 stands for none.
func (r *fileRewriter) goClosures(temps []types.Type, lit *ast.FuncLit) (closure, args, wrapper int) {
	sizes := r.sizes()
	ptr := sizes.Sizeof(types.Typ[types.UnsafePointer])
	var free []*types.Var
	if lit != nil {
		free = r.freeVars(lit)
	}
	for _, t := range temps {
		if t == nil || !sized(t) {
			return 0, 0, 0 // not known (before instantiation): read at censuses
		}
	}
	for _, v := range free {
		if !sized(v.Type()) {
			return 0, 0, 0
		}
	}
	layout := func(task bool, temps []types.Type, free []*types.Var) int {
		c := closureLayout{ptr: ptr, size: ptr} // the code pointer
		if task {
			c.add(sizes, types.Typ[types.UnsafePointer], true)
		}
		for _, t := range temps {
			c.add(sizes, t, sizes.Sizeof(t) <= closureCap)
		}
		for _, v := range free {
			c.add(sizes, v.Type(), sizes.Sizeof(v.Type()) <= closureCap && !r.addressedOrAssigned(v))
		}
		if c.size == ptr {
			return 0 // nothing captured: a static function value
		}
		return int(c.end())
	}
	wrapper = layout(true, temps, free)
	switch {
	case lit == nil:
		args = layout(false, temps, nil)
	case len(temps) == 0:
		closure = layout(false, nil, free)
	default:
		// go func(x T) {...}(v): the literal's closure, and the
		// compiler's wrapper of it (a pointer) and the arguments.
		closure = layout(false, nil, free)
		args = layout(false, append([]types.Type{types.Typ[types.UnsafePointer]}, temps...), nil)
	}
	return closure, args, wrapper
}

// sized reports whether values of t have a size before instantiation: t
// holds no type parameter by value.
func sized(t types.Type) bool {
	switch u := t.(type) {
	case *types.TypeParam:
		return false
	case *types.Named, *types.Alias:
		return sized(u.Underlying())
	case *types.Array:
		return sized(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !sized(u.Field(i).Type()) {
				return false
			}
		}
	}
	return true
}

// spawnClosure puts in the site just made the closure of the function
// literal given to wg.Go, errgroup's Go or TryGo (call ac): allocated at
// the call, in the parent, and kept by rtlib's task until the goroutine
// ends; the instrumented call allocates the same one (Wrapper).
func (r *fileRewriter) spawnClosure(ac *ast.CallExpr) {
	if len(ac.Args) != 1 {
		return
	}
	lit, ok := ast.Unparen(ac.Args[0]).(*ast.FuncLit)
	if !ok {
		return // a function value made elsewhere: not this call's
	}
	closure, _, _ := r.goClosures(nil, lit)
	st := &r.sites[len(r.sites)-1]
	st.Closure, st.Wrapper = closure, closure
}

// sizes returns the target's type sizes (gc on amd64 when not known).
func (r *fileRewriter) sizes() types.Sizes {
	if r.in.Sizes != nil {
		return r.in.Sizes
	}
	return types.SizesFor("gc", "amd64")
}

// closureLayout lays out a closure's fields.
type closureLayout struct {
	ptr, size, align int64
}

// add appends a captured variable of type t, by value or by reference.
func (c *closureLayout) add(sizes types.Sizes, t types.Type, byValue bool) {
	size, align := c.ptr, c.ptr
	if byValue {
		size, align = sizes.Sizeof(t), sizes.Alignof(t)
	}
	c.align = max(c.align, align, c.ptr)
	c.size = (c.size+align-1)/align*align + size
}

// end is the closure's size, padded to its alignment.
func (c *closureLayout) end() int64 {
	a := max(c.align, c.ptr)
	return (c.size + a - 1) / a * a
}

// freeVars returns the local variables of enclosing functions that lit
// refers to, in the order of their first reference.
func (r *fileRewriter) freeVars(lit *ast.FuncLit) []*types.Var {
	var vars []*types.Var
	seen := map[*types.Var]bool{}
	var pkgScope *types.Scope
	if r.in.Pkg != nil {
		pkgScope = r.in.Pkg.Scope()
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := r.in.Info.Uses[id].(*types.Var)
		if !ok || v.IsField() || seen[v] || v.Parent() == pkgScope || v.Parent() == types.Universe {
			return true
		}
		if lit.Pos() <= v.Pos() && v.Pos() < lit.End() {
			return true // its own
		}
		seen[v] = true
		vars = append(vars, v)
		return true
	})
	return vars
}

// addressedOrAssigned reports whether the variable v has its address
// taken or is assigned after its declaration, anywhere in the outermost
// function being rewritten (its literals included): then a closure
// captures it by reference.
func (r *fileRewriter) addressedOrAssigned(v *types.Var) bool {
	if len(r.funcs) == 0 {
		return true
	}
	if ref, ok := r.byRef[v]; ok {
		return ref
	}
	found := false
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && r.in.Info.Uses[id] == v
	}
	// base is the variable an addressable operand is part of: x in
	// x.f.g, x[i] (x an array), x itself.
	var base func(e ast.Expr) ast.Expr
	base = func(e ast.Expr) ast.Expr {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if s, ok := r.in.Info.Selections[x]; ok && s.Kind() == types.FieldVal && !s.Indirect() {
				return base(x.X)
			}
		case *ast.IndexExpr:
			if _, ok := r.in.Info.TypeOf(x.X).Underlying().(*types.Array); ok {
				return base(x.X)
			}
		}
		return e
	}
	ast.Inspect(r.funcs[0].astBody, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.AssignStmt:
			// x = v, x.f = v, x[i] = v (x an array); a define names x in
			// Defs, not Uses.
			for _, l := range x.Lhs {
				found = found || is(base(l))
			}
		case *ast.IncDecStmt:
			found = is(base(x.X))
		case *ast.RangeStmt:
			found = x.Tok == token.ASSIGN && (x.Key != nil && is(base(x.Key)) || x.Value != nil && is(base(x.Value)))
		case *ast.UnaryExpr:
			found = x.Op == token.AND && is(base(x.X))
		case *ast.SliceExpr:
			if _, ok := r.in.Info.TypeOf(x.X).Underlying().(*types.Array); ok {
				found = is(base(x.X))
			}
		case *ast.SelectorExpr:
			// A method with a pointer receiver called on an addressable
			// value takes its address.
			if s, ok := r.in.Info.Selections[x]; ok && s.Kind() == types.MethodVal && !s.Indirect() {
				if _, ptrRecv := s.Obj().Type().(*types.Signature).Recv().Type().Underlying().(*types.Pointer); ptrRecv {
					if _, isPtr := r.in.Info.TypeOf(x.X).Underlying().(*types.Pointer); !isPtr {
						found = is(base(x.X))
					}
				}
			}
		}
		return !found
	})
	if r.byRef == nil {
		r.byRef = map[*types.Var]bool{}
	}
	r.byRef[v] = found
	return found
}
