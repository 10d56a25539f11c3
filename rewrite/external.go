package rewrite

import (
	"go/ast"
	"go/types"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"
)

// External calls. rtlib reads the heap bytes that hooks do not explain
// (allocations by the standard library, by dependencies, by the runtime
// on the program's behalf) at every baton switch; rtlib.At(site) before a
// statement that calls uninstrumented code tells it which call site those
// bytes belong to:
//
//	rt.At(spgo_base + k)       // k: the first external call of the statement
//	s := strings.Repeat(a, n)
//
// A statement in a statement list gets one marker, with the site of its
// first external call in source order, for the calls it makes before any
// statement nested in it runs: the whole of a simple statement; the
// initialisation, condition, post statement, range expression, switch
// tag, case expressions and select operands of a compound one, the
// conditions of its else-if chain included (all run after the marker
// and before any nested statement). A function literal's body is its
// own: its statements get their own markers. A labeled statement gets
// its marker before the label: a jump to the label skips the marker,
// which only makes the attribution of that pass less precise.
//
// Not marked: the call of a go statement (it runs in the new task) and
// of a defer statement (it runs at the function's end), whose operands
// are marked; calls to functions of the packages instrumented in the same
// run, builtins, conversions, calls of function values, and the calls
// the rewriter replaces by hooks (hookedCalls), and calls of the
// standard library functions that neither allocate nor block (quiet):
// math, for one, in a renderer's innermost loop, where a marker before
// each call cost raytrace 40 % of its run.

// markExternal inserts rt.At(site) before the statement at c when it
// calls uninstrumented code (see above). c must be in a statement list.
func (r *fileRewriter) markExternal(c *dstutil.Cursor, n dst.Stmt) {
	switch n.(type) {
	case *dst.CaseClause, *dst.CommClause:
		return // members of a switch or select body, not statements of a list
	}
	as, _ := r.astOf(n).(ast.Stmt)
	if as == nil || len(r.funcs) == 0 {
		return
	}
	call := r.firstExternal(stmtHeader(as)...)
	if call == nil {
		return
	}
	m := &dst.ExprStmt{X: r.rtCall("At", r.site(call.Lparen, "Call"))}
	// The marker takes the statement's place in the spacing; comments
	// stay with the statement.
	d := n.Decorations()
	m.Decs.Before, d.Before = d.Before, dst.NewLine
	r.origin[m] = r.pos(as.Pos())
	c.InsertBefore(m)
}

// stmtHeader returns the parts of s that run before any statement nested
// in s: what the marker before s covers.
func stmtHeader(s ast.Stmt) []ast.Node {
	var out []ast.Node
	add := func(ns ...ast.Node) {
		for _, n := range ns {
			if n != nil {
				out = append(out, n)
			}
		}
	}
	stmt := func(s ast.Stmt) {
		if s != nil {
			add(s)
		}
	}
	expr := func(e ast.Expr) {
		if e != nil {
			add(e)
		}
	}
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.SendStmt, *ast.IncDecStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.ReturnStmt:
		add(s)
	case *ast.GoStmt:
		add(deferredOperands(s.Call)...)
	case *ast.DeferStmt:
		add(deferredOperands(s.Call)...)
	case *ast.LabeledStmt:
		add(stmtHeader(s.Stmt)...)
	case *ast.IfStmt:
		for s != nil {
			stmt(s.Init)
			expr(s.Cond)
			s, _ = s.Else.(*ast.IfStmt)
		}
	case *ast.SwitchStmt:
		stmt(s.Init)
		expr(s.Tag)
		for _, cc := range s.Body.List {
			for _, e := range cc.(*ast.CaseClause).List {
				expr(e)
			}
		}
	case *ast.TypeSwitchStmt:
		stmt(s.Init)
		stmt(s.Assign)
	case *ast.SelectStmt:
		for _, cc := range s.Body.List {
			stmt(cc.(*ast.CommClause).Comm)
		}
	case *ast.ForStmt:
		stmt(s.Init)
		expr(s.Cond)
		stmt(s.Post)
	case *ast.RangeStmt:
		expr(s.Key)
		expr(s.Value)
		expr(s.X)
	}
	return out
}

// deferredOperands returns what a go or defer statement evaluates at
// once: the arguments, and the function value or the receiver of the
// method, but not the call.
func deferredOperands(call *ast.CallExpr) []ast.Node {
	var out []ast.Node
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit, *ast.Ident:
	case *ast.SelectorExpr:
		out = append(out, f.X) // a receiver, or a package name (no calls)
	default:
		out = append(out, f)
	}
	for _, a := range call.Args {
		out = append(out, a)
	}
	return out
}

// firstExternal returns the first call to uninstrumented code in nodes,
// in source order, not looking into function literals.
func (r *fileRewriter) firstExternal(nodes ...ast.Node) *ast.CallExpr {
	var first *ast.CallExpr
	for _, n := range nodes {
		ast.Inspect(n, func(x ast.Node) bool {
			if first != nil {
				return false
			}
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if r.external(x) {
					first = x
					return false
				}
			}
			return true
		})
		if first != nil {
			break
		}
	}
	return first
}

// external reports whether call calls uninstrumented code: a function or
// method of a package not instrumented in this run, or a method through
// an interface (or a type parameter), whose callee is not known.
func (r *fileRewriter) external(call *ast.CallExpr) bool {
	info := r.in.Info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return false // a conversion
	}
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr: // an instantiation f[T], or a function value fs[i]
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	var obj types.Object
	switch f := fun.(type) {
	case *ast.Ident:
		obj = info.Uses[f]
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			if sel.Kind() == types.FieldVal {
				return false // a field holding a function value
			}
			obj = sel.Obj()
		} else {
			obj = info.Uses[f.Sel] // pkg.F
		}
	default:
		return false // a function literal, or a function value an expression computes
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		return false // a builtin, or a variable holding a function value
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return true // dynamic: the callee is not known
	}
	if m := calleeMethod(info, call); m != nil && hookedCalls[m.FullName()] {
		return false
	}
	if fn.Pkg() == nil {
		return true
	}
	if quiet(fn) {
		return false
	}
	return !r.instrumented(fn.Pkg().Path())
}

// quietPkgs are standard packages none of whose functions or methods
// allocates on the heap or blocks: a marker before their calls would
// find nothing to charge, and the watchdog is better off not taking
// them for progress (a loop spinning on atomic loads).
var quietPkgs = map[string]bool{
	"math": true, "math/bits": true, "math/cmplx": true, "sync/atomic": true,
}

// quietFuncs are functions of other standard packages that neither
// allocate nor block (their packages also have functions that allocate,
// such as utf8.AppendRune or unicode's SpecialCase methods).
var quietFuncs = map[string]bool{
	"unicode.IsDigit": true, "unicode.IsLetter": true, "unicode.IsLower": true,
	"unicode.IsNumber": true, "unicode.IsPrint": true, "unicode.IsPunct": true,
	"unicode.IsSpace": true, "unicode.IsUpper": true, "unicode.IsControl": true,
	"unicode.IsGraphic": true, "unicode.IsMark": true, "unicode.IsSymbol": true,
	"unicode.ToLower": true, "unicode.ToUpper": true, "unicode.ToTitle": true,
	"unicode/utf8.DecodeRune": true, "unicode/utf8.DecodeRuneInString": true,
	"unicode/utf8.DecodeLastRune": true, "unicode/utf8.DecodeLastRuneInString": true,
	"unicode/utf8.EncodeRune": true, "unicode/utf8.RuneLen": true,
	"unicode/utf8.RuneCount": true, "unicode/utf8.RuneCountInString": true,
	"unicode/utf8.Valid": true, "unicode/utf8.ValidString": true,
	"unicode/utf8.ValidRune": true, "unicode/utf8.FullRune": true,
	"unicode/utf8.RuneStart": true,
}

// quiet reports whether fn is a standard library function or method
// that never allocates and never blocks: no marker before its calls.
func quiet(fn *types.Func) bool {
	return quietPkgs[fn.Pkg().Path()] || quietFuncs[fn.FullName()]
}

// instrumented reports whether the package with the given import path is
// rewritten in this run (rtlib counts as instrumented: it is the runtime).
func (r *fileRewriter) instrumented(path string) bool {
	if path == RTPath {
		return true
	}
	if r.in.Instrumented != nil {
		return r.in.Instrumented[path]
	}
	return r.in.Pkg != nil && path == r.in.Pkg.Path()
}
