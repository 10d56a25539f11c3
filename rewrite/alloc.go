package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
	"github.com/dave/dst/dstutil"

	"github.com/spgo/spgo/rewrite/escape"
)

// kind returns the compiler's decision for the site reported at p.
func (r *fileRewriter) kind(p token.Pos) escape.Kind {
	pos := r.pos(p)
	s, ok := r.in.Esc.Lookup(pos.Filename, pos.Line, pos.Column)
	if !ok {
		return 0
	}
	return s.Kind
}

// builtinOrConversion instruments make, new, append and the allocating
// conversions; it reports whether n was one of them.
func (r *fileRewriter) builtinOrConversion(c *dstutil.Cursor, n *dst.CallExpr, ac *ast.CallExpr) bool {
	if tv, ok := r.in.Info.Types[ac.Fun]; ok && tv.IsType() {
		r.conversion(c, n, ac, tv.Type)
		return true
	}
	id, ok := ast.Unparen(ac.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := r.in.Info.Uses[id].(*types.Builtin)
	if !ok {
		return false
	}
	switch b.Name() {
	case "make":
		r.makeCall(c, n, ac)
	case "new":
		if r.kind(ac.Lparen) == escape.Heap {
			r.replaceExpr(c, n, r.rtCall("New", r.typedSite(ac.Lparen, "New", r.in.Info.TypeOf(ac)), n))
		}
	case "append":
		r.appendCall(c, n, ac)
	case "close":
		if len(n.Args) == 1 {
			r.replaceExpr(c, n, r.rtCall("Close", n.Args[0]))
		}
	}
	return true
}

// replaceExpr replaces the expression at c, moving its decorations to the
// replacement.
func (r *fileRewriter) replaceExpr(c *dstutil.Cursor, old dst.Expr, repl *dst.CallExpr) {
	// The replacement takes the old expression's place, line breaks and
	// comments included; the old expression, now an argument, loses them.
	d := old.Decorations()
	repl.Decs.NodeDecs = *d
	*d = dst.NodeDecs{}
	c.Replace(repl)
	r.changed = true
}

func (r *fileRewriter) makeCall(c *dstutil.Cursor, n *dst.CallExpr, ac *ast.CallExpr) {
	t := r.in.Info.TypeOf(ac)
	if t == nil {
		return
	}
	switch t.Underlying().(type) {
	case *types.Chan:
		// The compiler does not report make(chan): always on the heap.
		r.replaceExpr(c, n, r.rtCall("Chan", r.typedSite(ac.Lparen, "Make", t), n))
	case *types.Map:
		if r.kind(ac.Lparen) == escape.Heap {
			r.replaceExpr(c, n, r.rtCall("Map", r.typedSite(ac.Lparen, "Make", t), n))
		}
	case *types.Slice:
		switch r.kind(ac.Lparen) {
		case escape.Heap:
			if v, id := r.definedBy(c, ac); v != nil {
				if sh := r.frameShared(v, id, true); sh.ok && r.boolsOK(ac.Lparen) {
					// Dead at the return once its goroutines have ended (shared.go).
					r.framed()
					r.frameVar(v, true)
					r.replaceExpr(c, n, r.rtCall("FrameSlice", dst.NewIdent(r.in.Names.name("fr")), r.typedSite(ac.Lparen, "Make", t), n, dst.NewIdent(strconv.FormatBool(sh.goes))))
					return
				}
			}
			r.replaceExpr(c, n, r.rtCall("Slice", r.typedSite(ac.Lparen, "Make", t), n))
		case escape.Stack:
			// A non-constant size: heap past 32 bytes.
			if !r.constArgs(ac.Args[1:]) {
				v, id := r.definedBy(c, ac)
				if v != nil && r.turnScratch(v, id) {
					// Dead with its turn of the loop (shared.go).
					r.replaceExpr(c, n, r.rtCall("SmallSliceTurn", dst.NewIdent(r.in.Names.name("fr")), r.typedSite(ac.Lparen, "Make", t), n))
				} else {
					r.replaceExpr(c, n, r.rtCall("SmallSlice", r.typedSite(ac.Lparen, "Make", t), n))
				}
				r.framed()
				if v != nil {
					r.frameVar(v, true)
				}
			}
		}
	}
}

func (r *fileRewriter) constArgs(args []ast.Expr) bool {
	for _, a := range args {
		if !r.isConst(a) {
			return false
		}
	}
	return true
}

// appendCall turns append(s, xs...) at a heap site into rt.Append(site, s,
// xs...), or rt.SliceOf(w).Append(site, s, xs...) with a witness w of s's
// type (see witness) when the values' types would not let Append infer
// s's element type (see fitsParam), and
// append(b, str...) into rt.AppendString(site, b, str), converting str
// to string when its type is another string type.
func (r *fileRewriter) appendCall(c *dstutil.Cursor, n *dst.CallExpr, ac *ast.CallExpr) {
	if len(ac.Args) == 0 || r.isConst(ac.Args[0]) { // append(nil, ...) does not type-check; be safe
		return
	}
	kind := r.kind(ac.Lparen)
	isStr := ac.Ellipsis.IsValid() && len(ac.Args) == 2 && isString(coreOf(r.in.Info.TypeOf(ac.Args[1])))
	if kind == escape.Heap && isStr {
		r.appendString(c, n, ac)
		return
	}
	// The hook and its leading arguments: Append at a heap site; at a
	// stack site (a slice that does not escape), AppendFrame, or
	// AppendOwned with the function's mark when its variable is the only
	// reference to the array (owned.go).
	hook, lead := "Append", []dst.Expr{}
	switch {
	case kind == escape.Heap:
	case kind == escape.Stack && !isStr:
		hook = "AppendFrame"
		as, _ := r.astOf(c.Parent()).(*ast.AssignStmt)
		if r.ownedAppend(as, ac) {
			hook, lead = "AppendOwned", []dst.Expr{dst.NewIdent(r.in.Names.name("fr"))}
			if x, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); ok {
				v, _ := r.in.Info.Uses[x].(*types.Var)
				r.frameVar(v, true)
			}
		}
		r.framed()
	default:
		return
	}
	lead = append(lead, r.typedSite(ac.Lparen, "Append", r.in.Info.TypeOf(ac)))
	var repl *dst.CallExpr
	if r.appendFits(ac) {
		repl = r.rtCall(hook, append(lead, n.Args...)...)
	} else {
		w := r.witness(ac.Args[0], n.Args[0], ac.Lparen)
		if w == nil {
			r.warn(ac.Lparen, "append not instrumented: its values are not of the slice's element type, whose type cannot be named here (its growth is charged to the last marked call)")
			return
		}
		repl = &dst.CallExpr{Fun: &dst.SelectorExpr{X: r.rtCall("SliceOf", w), Sel: dst.NewIdent(hook)},
			Args: append(lead, n.Args...)}
	}
	repl.Ellipsis = n.Ellipsis
	r.replaceExpr(c, n, repl)
}

// framed notes that the function being rewritten has a site whose object
// dies with its frame: funcEntry brackets it with Mark and Drop.
func (r *fileRewriter) framed() {
	if len(r.funcs) > 0 {
		r.funcs[len(r.funcs)-1].proven = true
	}
}

// appendFits reports whether rt.Append infers its type parameters from
// the slice of append(s, xs...) alone: every value fits the element type
// (fitsParam), or the spread slice is of type []E exactly.
func (r *fileRewriter) appendFits(ac *ast.CallExpr) bool {
	elem := elemType(r.in.Info.TypeOf(ac.Args[0]))
	if elem == nil {
		return false
	}
	if ac.Ellipsis.IsValid() {
		return r.isConst(ac.Args[1]) || types.Identical(r.in.Info.TypeOf(ac.Args[1]), types.NewSlice(elem))
	}
	for _, x := range ac.Args[1:] {
		if !r.fitsParam(x, elem) {
			return false
		}
	}
	return true
}

// appendString turns append(b, str...) into rt.AppendString(site, b,
// str), with string(str) for a str of a defined string type or a type
// parameter.
func (r *fileRewriter) appendString(c *dstutil.Cursor, n *dst.CallExpr, ac *ast.CallExpr) {
	str := n.Args[1]
	if !r.fitsParam(ac.Args[1], types.Typ[types.String]) {
		if !r.universal("string", ac.Lparen) {
			r.warn(ac.Lparen, "append not instrumented: its string cannot be converted here (string is redeclared)")
			return
		}
		str = &dst.CallExpr{Fun: dst.NewIdent("string"), Args: []dst.Expr{str}}
	}
	r.replaceExpr(c, n, r.rtCall("AppendString", r.typedSite(ac.Lparen, "Append", r.in.Info.TypeOf(ac)), n.Args[0], str))
}

// coreOf is coreType, nil for nil.
func coreOf(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return coreType(t)
}

// conversion instruments string(b), string(runes), []byte(s), []rune(s)
// at heap sites; the compiler reports them at the operand.
func (r *fileRewriter) conversion(c *dstutil.Cursor, n *dst.CallExpr, ac *ast.CallExpr, to types.Type) {
	if len(ac.Args) != 1 || r.isConst(ac) {
		return
	}
	from := r.in.Info.TypeOf(ac.Args[0])
	if from == nil {
		return
	}
	p := escape.Pos(ac.Args[0])
	switch {
	case isString(to) && (isByteOrRuneSlice(from) || isInteger(from)):
		if r.kind(p) == escape.Heap {
			r.replaceExpr(c, n, r.rtCall(stringHook(to), r.typedSite(p, "String", to), n))
		}
	case isByteOrRuneSlice(to) && isString(from):
		if r.kind(p) == escape.Heap {
			r.replaceExpr(c, n, r.rtCall("Slice", r.typedSite(p, "Conv", to), n))
		}
	}
}

// stringHook is the hook for a string of type t: String for string,
// TypedString, which keeps the type, for a defined string type.
func stringHook(t types.Type) string {
	if types.Identical(t, types.Typ[types.String]) {
		return "String"
	}
	return "TypedString"
}

func isString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func isByteOrRuneSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Byte || b.Kind() == types.Rune)
}

// compositeLit instruments slice and map literals at heap sites, and
// &T{...} (through unary).
func (r *fileRewriter) compositeLit(c *dstutil.Cursor, n *dst.CompositeLit) {
	al, _ := r.astOf(n).(*ast.CompositeLit)
	if al == nil || al.Type == nil { // an elided type: {...} in []*T{...}
		return
	}
	if _, ok := c.Parent().(*dst.UnaryExpr); ok {
		return // &T{...}: unary handles it
	}
	t := r.in.Info.TypeOf(al)
	if t == nil || r.kind(al.Lbrace) != escape.Heap {
		return
	}
	switch t.Underlying().(type) {
	case *types.Slice:
		r.replaceExpr(c, n, r.rtCall("Slice", r.typedSite(al.Lbrace, "Lit", t), n))
	case *types.Map:
		r.replaceExpr(c, n, r.rtCall("Map", r.typedSite(al.Lbrace, "Lit", t), n))
	}
}

// concat instruments a string concatenation at a heap site (the root of
// an a + b + c chain).
func (r *fileRewriter) concat(c *dstutil.Cursor, n *dst.BinaryExpr) {
	if n.Op != token.ADD {
		return
	}
	ab, _ := r.astOf(n).(*ast.BinaryExpr)
	if ab == nil || r.isConst(ab) || !isString(r.in.Info.TypeOf(ab)) {
		return
	}
	if r.kind(ab.OpPos) != escape.Heap {
		return
	}
	r.replaceExpr(c, n, r.rtCall(stringHook(r.in.Info.TypeOf(ab)), r.typedSite(ab.OpPos, "String", r.in.Info.TypeOf(ab)), n))
}

// assign instruments s += t for strings, which the compiler never
// reports and always allocates, when s can be evaluated twice, and splits
// the comma-ok receives that unary left to it.
func (r *fileRewriter) assign(c *dstutil.Cursor, n *dst.AssignStmt) {
	if ch, ok := r.recvOK[n]; ok {
		r.splitRecvOK(c, n, ch)
		return
	}
	as, _ := r.astOf(n).(*ast.AssignStmt)
	if as == nil || as.Tok != token.ADD_ASSIGN || len(as.Lhs) != 1 {
		return
	}
	if !isString(r.in.Info.TypeOf(as.Lhs[0])) || !pure(as.Lhs[0]) {
		return
	}
	sum := &dst.BinaryExpr{X: dst.Clone(n.Lhs[0]).(dst.Expr), Op: token.ADD, Y: n.Rhs[0]}
	n.Tok = token.ASSIGN
	n.Rhs[0] = r.rtCall(stringHook(r.in.Info.TypeOf(as.Lhs[0])), r.typedSite(as.TokPos, "String", r.in.Info.TypeOf(as.Lhs[0])), sum)
}

// pure reports whether e can be evaluated twice with the same effect:
// identifiers, selectors, index expressions and constants without calls
// or receives.
func pure(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return pure(x.X)
	case *ast.SelectorExpr:
		return pure(x.X)
	case *ast.IndexExpr:
		return pure(x.X) && pure(x.Index)
	case *ast.StarExpr:
		return pure(x.X)
	}
	return false
}

// movedVarHook returns rt.Var(site, &id) if the compiler moved the
// variable id declares to the heap, or rt.FrameVar(fr, site, &id, goes)
// if only the function and the goroutines it spawns refer to it.
func (r *fileRewriter) movedVarHook(id *ast.Ident, fn string) dst.Stmt {
	if id == nil || id.Name == "_" || r.kind(id.Pos()) != escape.Moved {
		return nil
	}
	site := r.siteNamed(id.Pos(), "Var", fn)
	obj, _ := r.in.Info.ObjectOf(id).(*types.Var)
	if obj != nil {
		r.sites[len(r.sites)-1].Type = siteTypeName(obj.Type())
	}
	addr := &dst.UnaryExpr{Op: token.AND, X: dst.NewIdent(id.Name)}
	if sh := r.frameShared(obj, id, false); sh.ok && r.boolsOK(id.Pos()) {
		// Dead at the return once its goroutines have ended (shared.go).
		r.framed()
		r.frameVar(obj, false)
		return &dst.ExprStmt{X: r.rtCall("FrameVar", dst.NewIdent(r.in.Names.name("fr")), site, addr, dst.NewIdent(strconv.FormatBool(sh.goes)))}
	}
	return &dst.ExprStmt{X: r.rtCall("Var", site, addr)}
}

// movedVars adds rt.Var hooks after a statement in a list that declares
// variables the compiler moved to the heap, and at the start of the body
// of a for or range loop whose variables it moved.
func (r *fileRewriter) movedVars(c *dstutil.Cursor) {
	n := c.Node()
	var ids []*ast.Ident
	var loopBody *dst.BlockStmt
	switch s := n.(type) {
	case *dst.AssignStmt:
		as, _ := r.astOf(s).(*ast.AssignStmt)
		if as == nil || as.Tok != token.DEFINE {
			return
		}
		if _, ok := c.Parent().(*dst.ForStmt); ok {
			return // the loop's variables: hooked at the start of its body
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && r.in.Info.Defs[id] != nil {
				ids = append(ids, id)
			}
		}
	case *dst.DeclStmt:
		ds, _ := r.astOf(s).(*ast.DeclStmt)
		if ds == nil {
			return
		}
		if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, spec := range gd.Specs {
				ids = append(ids, spec.(*ast.ValueSpec).Names...)
			}
		}
	case *dst.RangeStmt:
		rs, _ := r.astOf(s).(*ast.RangeStmt)
		if rs == nil || rs.Tok != token.DEFINE {
			return
		}
		for _, e := range []ast.Expr{rs.Key, rs.Value} {
			if id, ok := e.(*ast.Ident); ok {
				ids = append(ids, id)
			}
		}
		loopBody = s.Body
	case *dst.ForStmt:
		fs, _ := r.astOf(s).(*ast.ForStmt)
		if fs == nil {
			return
		}
		if as, ok := fs.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					ids = append(ids, id)
				}
			}
		}
		loopBody = s.Body
	default:
		return
	}
	var hooks []dst.Stmt
	for _, id := range ids {
		if h := r.movedVarHook(id, r.funcName()); h != nil {
			r.origin[h] = r.pos(id.Pos())
			hooks = append(hooks, h)
		}
	}
	if len(hooks) == 0 {
		return
	}
	if loopBody != nil {
		loopBody.List = append(hooks, loopBody.List...)
		return
	}
	if c.Index() < 0 {
		r.warn(ids[0].Pos(), "variable moved to the heap is not counted: its declaration is not in a statement list")
		return
	}
	for i := len(hooks) - 1; i >= 0; i-- {
		c.InsertAfter(hooks[i])
	}
}
