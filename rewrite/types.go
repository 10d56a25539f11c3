package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
)

// Types of operands. A generic hook infers its type parameters from every
// argument, so it compiles only where each argument has exactly the type
// the hook expects, while the construct it replaces accepts any value
// assignable to that type (issue 22). The helpers here tell which shape
// a construct needs; README.md has the shapes.

// coreType returns t's underlying type or, for a type parameter, the
// underlying type all the types of its type set share (channels of one
// element type may differ in direction; the first one found is
// returned), or nil.
func coreType(t types.Type) types.Type {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var core types.Type
	for _, u := range termTypes(iface) {
		switch {
		case u == nil:
			return nil
		case core == nil:
			core = u
		case !sameCore(core, u):
			return nil
		}
	}
	return core
}

// termTypes lists the underlying types of the terms of iface's type set
// as written (one nil when a term cannot be listed, or when the type set
// has no terms).
func termTypes(iface *types.Interface) []types.Type {
	var out []types.Type
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := 0; j < e.Len(); j++ {
				out = append(out, coreType(e.Term(j).Type()))
			}
		default:
			if in, ok := e.Underlying().(*types.Interface); ok {
				out = append(out, termTypes(in)...)
			} else {
				out = append(out, coreType(e))
			}
		}
	}
	if len(out) == 0 {
		return []types.Type{nil}
	}
	return out
}

// sameCore reports whether a and b are identical, or channels of
// identical element types.
func sameCore(a, b types.Type) bool {
	ca, ok1 := a.(*types.Chan)
	cb, ok2 := b.(*types.Chan)
	if ok1 && ok2 {
		return types.Identical(ca.Elem(), cb.Elem())
	}
	return types.Identical(a, b)
}

// elemType returns the element type of a channel or slice type (through
// its core type), or nil.
func elemType(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	switch c := coreType(t).(type) {
	case *types.Chan:
		return c.Elem()
	case *types.Slice:
		return c.Elem()
	}
	return nil
}

// fitsParam reports whether the argument e, for a parameter of type want
// of a generic hook, lets the hook infer its type parameters as the
// container gave them: e is an untyped constant or nil (it takes the
// parameter's type), or has exactly the type want, and is not a generic
// function (which a parameter of a type parameter's type cannot
// instantiate).
func (r *fileRewriter) fitsParam(e ast.Expr, want types.Type) bool {
	if r.isConst(e) {
		return true
	}
	if want == nil || r.genericFunc(e) {
		return false
	}
	got := r.in.Info.TypeOf(e)
	return got != nil && types.Identical(got, want)
}

// genericFunc reports whether e names a generic function whose type
// arguments are inferred from where it is used.
func (r *fileRewriter) genericFunc(e ast.Expr) bool {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return false
	}
	_, ok := r.in.Info.Instances[id]
	return ok
}

// isFuncName reports whether e names a function or a method expression (f,
// pkg.F, T.M, f[int]): a value that no statement can change, which a go
// statement or a select need not copy into a temporary.
func (r *fileRewriter) isFuncName(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := r.in.Info.Uses[x].(*types.Func)
		return ok
	case *ast.SelectorExpr:
		if sel, ok := r.in.Info.Selections[x]; ok {
			return sel.Kind() == types.MethodExpr
		}
		_, ok := r.in.Info.Uses[x.Sel].(*types.Func)
		return ok
	case *ast.IndexExpr:
		return r.isFuncName(x.X)
	case *ast.IndexListExpr:
		return r.isFuncName(x.X)
	}
	return false
}

// stable reports whether e can be evaluated later with the same result
// and must not be copied into a temporary: constants and nil (which take
// the type of where they are used) and function names.
func (r *fileRewriter) stable(e ast.Expr) bool {
	return r.isConst(e) || r.isFuncName(e)
}

// ownType returns the type e has by itself, without the context that
// converts an untyped expression (n == 3 is an untyped bool, 1 << n an
// untyped int whatever n is), or nil if it cannot be computed.
func (r *fileRewriter) ownType(e ast.Expr) types.Type {
	if r.in.Pkg == nil {
		return nil
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if err := types.CheckExpr(r.in.Fset, r.in.Pkg, e.Pos(), e, info); err != nil {
		return nil
	}
	return info.Types[e].Type
}

// tempType says what a temporary declared by "x := e" gets wrong about
// a non-constant e: ok when its type is e's type where e is used (the
// usual case); otherwise the type e takes there, which the temporary's
// uses must convert to.
func (r *fileRewriter) tempType(e ast.Expr) (types.Type, bool) {
	final := r.in.Info.TypeOf(e)
	own := r.ownType(e)
	if final == nil || own == nil {
		return nil, true
	}
	if b, ok := own.(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
		return nil, true
	}
	if types.Identical(types.Default(own), final) {
		return nil, true
	}
	return final, false
}

// typeExpr returns an expression naming t at p, or nil when t cannot be
// named there. It names predeclared types, type parameters, types of this
// package in scope at p, exported package-level types of the packages
// the file imports (under the name the file gives them), as long as no
// declaration in scope at p hides a name, and the pointer, slice, array,
// map, channel and function types and instantiations built of them.
func (r *fileRewriter) typeExpr(t types.Type, p token.Pos) dst.Expr {
	switch t := t.(type) {
	case *types.Basic:
		if t.Info()&types.IsUntyped == 0 && r.universal(t.Name(), p) {
			return dst.NewIdent(t.Name())
		}
	case *types.TypeParam:
		if r.lookup(t.Obj().Name(), p) == t.Obj() {
			return dst.NewIdent(t.Obj().Name())
		}
	case *types.Named:
		return r.instance(r.objName(t.Obj(), p), t.TypeArgs(), p)
	case *types.Alias:
		return r.instance(r.objName(t.Obj(), p), t.TypeArgs(), p)
	case *types.Interface:
		if t.Empty() && r.universal("any", p) {
			return dst.NewIdent("any")
		}
	case *types.Struct:
		if t.NumFields() == 0 {
			return &dst.StructType{Fields: &dst.FieldList{}}
		}
	default:
		return r.literalType(t, p)
	}
	return nil
}

// literalType is typeExpr for pointer, slice, array, map, channel and
// function types.
func (r *fileRewriter) literalType(t types.Type, p token.Pos) dst.Expr {
	elem := func(e types.Type) dst.Expr { return r.typeExpr(e, p) }
	switch t := t.(type) {
	case *types.Pointer:
		if x := elem(t.Elem()); x != nil {
			return &dst.StarExpr{X: x}
		}
	case *types.Slice:
		if x := elem(t.Elem()); x != nil {
			return &dst.ArrayType{Elt: x}
		}
	case *types.Array:
		if x := elem(t.Elem()); x != nil {
			return &dst.ArrayType{Len: &dst.BasicLit{Kind: token.INT, Value: strconv.FormatInt(t.Len(), 10)}, Elt: x}
		}
	case *types.Map:
		k, v := elem(t.Key()), elem(t.Elem())
		if k != nil && v != nil {
			return &dst.MapType{Key: k, Value: v}
		}
	case *types.Chan:
		if _, nested := t.Elem().Underlying().(*types.Chan); nested {
			return nil // chan (<-chan T) needs parentheses the printer does not add
		}
		dir := map[types.ChanDir]dst.ChanDir{types.SendRecv: dst.SEND | dst.RECV, types.SendOnly: dst.SEND, types.RecvOnly: dst.RECV}[t.Dir()]
		if x := elem(t.Elem()); x != nil {
			return &dst.ChanType{Dir: dir, Value: x}
		}
	case *types.Signature:
		return r.funcType(t, p)
	}
	return nil
}

// funcType is typeExpr for a function type (not generic).
func (r *fileRewriter) funcType(sig *types.Signature, p token.Pos) dst.Expr {
	if sig.TypeParams().Len() > 0 || sig.Recv() != nil {
		return nil
	}
	fields := func(tu *types.Tuple, variadic bool) *dst.FieldList {
		fl := &dst.FieldList{}
		for i := 0; i < tu.Len(); i++ {
			t := tu.At(i).Type()
			last := variadic && i == tu.Len()-1
			if last {
				t = t.(*types.Slice).Elem()
			}
			x := r.typeExpr(t, p)
			if x == nil {
				return nil
			}
			if last {
				x = &dst.Ellipsis{Elt: x}
			}
			fl.List = append(fl.List, &dst.Field{Type: x})
		}
		return fl
	}
	params, results := fields(sig.Params(), sig.Variadic()), fields(sig.Results(), false)
	if params == nil || results == nil {
		return nil
	}
	if len(results.List) == 0 {
		results = nil // as the parser has it
	}
	return &dst.FuncType{Func: true, Params: params, Results: results}
}

// instance returns name[args...], or name when there are no type
// arguments; nil if name is nil or an argument cannot be named.
func (r *fileRewriter) instance(name dst.Expr, args *types.TypeList, p token.Pos) dst.Expr {
	if name == nil || args.Len() == 0 {
		return name
	}
	var idx []dst.Expr
	for i := 0; i < args.Len(); i++ {
		x := r.typeExpr(args.At(i), p)
		if x == nil {
			return nil
		}
		idx = append(idx, x)
	}
	if len(idx) == 1 {
		return &dst.IndexExpr{X: name, Index: idx[0]}
	}
	return &dst.IndexListExpr{X: name, Indices: idx}
}

// objName returns an expression naming the type obj at p.
func (r *fileRewriter) objName(obj *types.TypeName, p token.Pos) dst.Expr {
	if obj.Pkg() == nil { // error, any
		if r.universal(obj.Name(), p) {
			return dst.NewIdent(obj.Name())
		}
		return nil
	}
	if obj.Pkg() == r.in.Pkg {
		if r.lookup(obj.Name(), p) == obj {
			return dst.NewIdent(obj.Name())
		}
		return nil
	}
	if !obj.Exported() || obj.Parent() != obj.Pkg().Scope() {
		return nil
	}
	for _, imp := range r.in.File.Imports {
		pn, ok := r.importName(imp)
		if ok && pn.Imported() == obj.Pkg() && r.lookup(pn.Name(), p) == pn {
			return &dst.SelectorExpr{X: dst.NewIdent(pn.Name()), Sel: dst.NewIdent(obj.Name())}
		}
	}
	return nil
}

// witness returns an expression of the type of the channel or slice e
// (dst d) for rt.ChanOf or rt.SliceOf, which is evaluated before the
// hook's arguments: T(nil) when e's type T can be named at p (it
// evaluates nothing), else a copy of d when e can be evaluated twice,
// else nil.
func (r *fileRewriter) witness(e ast.Expr, d dst.Expr, p token.Pos) dst.Expr {
	if te := r.typeExpr(r.in.Info.TypeOf(e), p); te != nil && r.universal("nil", p) {
		switch te.(type) {
		case *dst.Ident, *dst.SelectorExpr, *dst.IndexExpr, *dst.IndexListExpr:
		default:
			te = &dst.ParenExpr{X: te}
		}
		return &dst.CallExpr{Fun: te, Args: []dst.Expr{dst.NewIdent("nil")}}
	}
	if pure(e) {
		return dst.Clone(d).(dst.Expr)
	}
	return nil
}

// importName returns the package name an import declares in the file.
func (r *fileRewriter) importName(imp *ast.ImportSpec) (*types.PkgName, bool) {
	var obj types.Object
	if imp.Name != nil {
		obj = r.in.Info.Defs[imp.Name]
	} else {
		obj = r.in.Info.Implicits[imp]
	}
	pn, ok := obj.(*types.PkgName)
	return pn, ok
}

// lookup returns the object name denotes at p.
func (r *fileRewriter) lookup(name string, p token.Pos) types.Object {
	if r.in.Pkg == nil {
		return nil
	}
	s := r.in.Pkg.Scope().Innermost(p)
	if s == nil {
		return nil
	}
	_, obj := s.LookupParent(name, p)
	return obj
}

// universal reports whether name denotes the predeclared object at p.
func (r *fileRewriter) universal(name string, p token.Pos) bool {
	obj := r.lookup(name, p)
	return obj != nil && obj == types.Universe.Lookup(name)
}

// operandTemp returns, for an operand e (dst d) of a go statement or a
// select that is evaluated into the temporary name before it is used, the
// temporary's initial value and the expression standing for e where e
// was: d and name, unless e is an untyped expression that takes another
// type there than the temporary would get (go f(n == 3) with f(flag)):
// then T(d) and name, or d and name == true for a boolean type that
// cannot be named. ok is false when neither works.
func (r *fileRewriter) operandTemp(e ast.Expr, d dst.Expr, name string) (init, use dst.Expr, ok bool) {
	t, fine := r.tempType(e)
	if fine {
		return d, dst.NewIdent(name), true
	}
	if te := r.typeExpr(t, e.Pos()); te != nil {
		return &dst.CallExpr{Fun: te, Args: []dst.Expr{d}}, dst.NewIdent(name), true
	}
	if use := r.convertTo(t, e.Pos(), dst.NewIdent(name)); use != nil {
		return d, use, true
	}
	return nil, nil, false
}
