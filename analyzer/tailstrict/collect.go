package tailstrict

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/analysis"
)

// collect checks a call of slices.Collect: ranged over once, or taken
// only for its first element.
func (c *checker) collect(call *ast.CallExpr) {
	seq := call.Args[0]
	if c.memoryView(seq) {
		return
	}
	switch p := c.idx.up(call).(type) {
	case *ast.RangeStmt:
		if ast.Unparen(p.X) == call && !c.mayChange(p.Body, c.seqObjects(seq)) {
			c.reportCollectRange(call, p, seq, true)
		}
		return
	case *ast.IndexExpr:
		if ast.Unparen(p.X) == call && isZero(c.pass.TypesInfo, p.Index) {
			c.reportFirst(call, seq)
		}
		return
	}
	// xs := slices.Collect(seq), then xs used once.
	as, ok := c.idx.up(call).(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 {
		return
	}
	xs := c.localVar(as.Lhs[0])
	if xs == nil {
		return
	}
	fn := c.idx.funcOf[c.idx.def[xs]]
	var loop *ast.RangeStmt
	first := true // every use is xs[0] or len(xs)
	for _, u := range c.idx.uses[xs] {
		if c.idx.funcOf[u] != fn {
			return
		}
		if r, ok := c.idx.up(u).(*ast.RangeStmt); ok && ast.Unparen(r.X) == u && loop == nil {
			loop, first = r, false
			continue
		}
		if loop != nil && within(u, loop.Body) {
			if key := rangeKey(c.pass.TypesInfo, loop); c.idx.keyedRead(u, key) {
				continue
			}
		}
		if ix, ok := c.idx.up(u).(*ast.IndexExpr); ok && ast.Unparen(ix.X) == u && isZero(c.pass.TypesInfo, ix.Index) && !c.idx.lvalue(ix) {
			continue
		}
		if cl, ok := c.idx.up(u).(*ast.CallExpr); ok && c.isBuiltin(cl, "len") {
			continue
		}
		return
	}
	switch {
	case loop != nil && !first:
		if !c.usesOutside(xs, loop) && !c.mayChange(loop.Body, c.seqObjects(seq)) {
			c.reportCollectRange(call, loop, seq, false)
		}
	case first && len(c.idx.uses[xs]) > 0 && c.hasFirst(xs):
		c.reportFirst(call, seq)
	}
}

// stdViews are the standard library's iterators over a slice or map the
// caller already holds.
var stdViews = map[string]bool{
	"maps.Keys": true, "maps.Values": true, "maps.All": true,
	"slices.Values": true, "slices.All": true, "slices.Backward": true,
}

// memoryView reports whether seq is a view of memory the program already
// holds: a standard view of a slice or map, or an iterator obtained from a
// method of a value (x.All(), stk.Frames()), which walks what x holds.
// Collecting such a sequence at most doubles memory that is live anyway
// and blocks no producer; the finding is about streams, which come from
// functions, function values and parameters.
func (c *checker) memoryView(seq ast.Expr) bool {
	call, ok := ast.Unparen(seq).(*ast.CallExpr)
	if !ok {
		if v := c.localVar(seq); v != nil {
			if init, _, ok := c.idx.definedBy(v); ok && init != nil {
				return c.memoryView(init)
			}
		}
		return false
	}
	fn := c.callee(call)
	if fn == nil {
		return false
	}
	if fn.Type().(*types.Signature).Recv() != nil {
		return true
	}
	return fn.Pkg() != nil && stdViews[fn.Pkg().Path()+"."+fn.Name()]
}

// usesOutside reports whether xs is used anywhere but loop's header and body
// (len(xs) outside the loop, say).
func (c *checker) usesOutside(xs *types.Var, loop *ast.RangeStmt) bool {
	for _, u := range c.idx.uses[xs] {
		if !within(u, loop) {
			return true
		}
	}
	return false
}

// hasFirst reports whether some use of xs is xs[0].
func (c *checker) hasFirst(xs *types.Var) bool {
	for _, u := range c.idx.uses[xs] {
		if _, ok := c.idx.up(u).(*ast.IndexExpr); ok {
			return true
		}
	}
	return false
}

// rangeKey returns the variable a range statement's key names.
func rangeKey(info *types.Info, r *ast.RangeStmt) *types.Var {
	id, ok := r.Key.(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	return v
}

// isZero reports whether e is the constant 0.
func isZero(info *types.Info, e ast.Expr) bool {
	tv := info.Types[e]
	return tv.Value != nil && tv.Value.String() == "0"
}

// seqObjects returns the variables a sequence expression reads from: those
// it mentions and, for a local variable defined once, those its definition
// mentions.
func (c *checker) seqObjects(seq ast.Expr) map[*types.Var]bool {
	vs := c.idx.objects(seq)
	for v := range c.idx.objects(seq) {
		if init, _, ok := c.idx.definedBy(v); ok && init != nil && c.localVar(c.idx.def[v]) != nil {
			for w := range c.idx.objects(init) {
				vs[w] = true
			}
		}
	}
	return vs
}

// mayChange reports whether body may change one of vs: it assigns to it
// (or to a field or element of it), takes its address, receives from it,
// deletes from or clears it, calls a method on it, or hands a value that
// shares its memory to a function or another variable.
func (c *checker) mayChange(body ast.Node, vs map[*types.Var]bool) bool {
	changed := false
	ast.Inspect(body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || changed {
			return !changed
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || !vs[v] {
			return true
		}
		changed = !c.readOnly(id)
		return !changed
	})
	return changed
}

// readOnly reports whether a mention of a variable only reads it: through
// field selections, element reads and dereferences it ends in a value of
// basic type, a comparison, an index, or len/cap, and is never assigned or
// addressed.
func (c *checker) readOnly(id *ast.Ident) bool {
	var e ast.Expr = id
	for {
		switch p := c.idx.up(e).(type) {
		case *ast.SelectorExpr:
			if s := c.pass.TypesInfo.Selections[p]; s == nil || s.Kind() != types.FieldVal {
				return false // a method value or call
			}
			e = p
			continue
		case *ast.IndexExpr:
			if ast.Unparen(p.X) == e {
				e = p
				continue
			}
			return true // used as an index
		case *ast.StarExpr:
			e = p
			continue
		}
		break
	}
	if c.idx.lvalue(e) {
		return false
	}
	if t := c.pass.TypesInfo.TypeOf(e); t != nil {
		if _, ok := t.Underlying().(*types.Basic); ok {
			return !isRecv(c.idx.up(e), e)
		}
	}
	switch p := c.idx.up(e).(type) {
	case *ast.BinaryExpr:
		return true
	case *ast.CallExpr:
		return c.isBuiltin(p, "len") || c.isBuiltin(p, "cap")
	}
	return false
}

// isRecv reports whether p receives from e.
func isRecv(p ast.Node, e ast.Expr) bool {
	u, ok := p.(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW && ast.Unparen(u.X) == e
}

// reportCollectRange reports a range over a collected sequence, with a fix
// when the range is over the call itself and its key is unused.
func (c *checker) reportCollectRange(call *ast.CallExpr, loop *ast.RangeStmt, seq ast.Expr, direct bool) {
	d := analysis.Diagnostic{
		Pos: call.Pos(),
		End: call.End(),
		Message: "slices.Collect materialises the whole sequence " + render(seq) +
			" to range over it once; range over the sequence itself (for v := range seq) so one element is live at a time",
	}
	if direct && c.canRangeFunc(call) {
		if fix, ok := c.collectFix(call, loop, seq); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	}
	c.rep.Report(d)
}

// canRangeFunc reports whether the file of n may use range-over-func.
func (c *checker) canRangeFunc(n ast.Node) bool {
	for _, f := range c.pass.Files {
		if within(n, f) {
			v := c.pass.TypesInfo.FileVersions[f]
			return v == "" || version.Compare(v, "go1.23") >= 0
		}
	}
	return false
}

// collectFix rewrites "for _, v := range slices.Collect(seq)" to
// "for v := range seq" and "for range slices.Collect(seq)" to
// "for range seq".
func (c *checker) collectFix(call *ast.CallExpr, loop *ast.RangeStmt, seq ast.Expr) (analysis.SuggestedFix, bool) {
	var src bytes.Buffer
	if err := format.Node(&src, c.pass.Fset, seq); err != nil {
		return analysis.SuggestedFix{}, false
	}
	edits := []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: src.Bytes()}}
	switch key, _ := loop.Key.(*ast.Ident); {
	case loop.Key == nil:
	case key != nil && key.Name == "_" && loop.Value != nil:
		edits = append(edits, analysis.TextEdit{Pos: loop.Key.Pos(), End: loop.Value.Pos()})
	case key != nil && key.Name == "_" && loop.Value == nil:
		edits = append(edits, analysis.TextEdit{Pos: loop.Key.Pos(), End: call.Pos(), NewText: []byte("range ")})
		edits[0], edits[1] = edits[1], edits[0]
	default:
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{Message: "range over the sequence directly", TextEdits: edits}, true
}

// reportFirst reports a collected sequence used for its first element.
func (c *checker) reportFirst(call *ast.CallExpr, seq ast.Expr) {
	c.rep.Reportf(call, "slices.Collect materialises the whole sequence %s to take its first element; take it with a range that breaks after one element", render(seq))
}
