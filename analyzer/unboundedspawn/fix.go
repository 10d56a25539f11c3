package unboundedspawn

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/spgo/spgo/analyzer/internal/groups"
	"github.com/spgo/spgo/analyzer/internal/syncfacts"
)

// limitFix returns the fix that inserts g.SetLimit(runtime.GOMAXPROCS(0))
// after decl, the statement declaring the errgroup g, when that is safe:
// decl is in a statement list and alone on its line (but for a comment);
// every spawn into g is a Go (not TryGo) call of a function literal in the
// declaring function, and no such literal, nor a function of the package
// it calls, could wait on a sibling (see calm).
func (c *checker) limitFix(g *types.Var, decl, outer inspector.Cursor) (analysis.SuggestedFix, bool) {
	switch decl.ParentEdgeKind() {
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
	default:
		return analysis.SuggestedFix{}, false
	}
	info := c.pass.TypesInfo
	fn := innermostFunc(decl)
	for cur := range outer.Preorder((*ast.CallExpr)(nil)) {
		call, ok := groups.MethodCall(info, cur.Node().(*ast.CallExpr))
		if !ok || groups.Key(info, call.Recv) != g {
			continue
		}
		switch call.Method {
		case "TryGo":
			return analysis.SuggestedFix{}, false // a limit makes it fail
		case "Go":
			lit, ok := ast.Unparen(call.Call.Args[0]).(*ast.FuncLit)
			if !ok || innermostFunc(cur) != fn || !c.calm(lit.Body) {
				return analysis.SuggestedFix{}, false
			}
			for _, b := range c.calledBodies(lit.Body) {
				if !c.calm(b) {
					return analysis.SuggestedFix{}, false
				}
			}
		}
	}

	if c.pass.ReadFile == nil {
		return analysis.SuggestedFix{}, false
	}
	stmt := decl.Node()
	tf := c.pass.Fset.File(stmt.Pos())
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return analysis.SuggestedFix{}, false
	}
	end := tf.Offset(stmt.End())
	eol := end
	for eol < len(src) && src[eol] != '\n' {
		eol++
	}
	if eol > end && src[eol-1] == '\r' {
		eol--
	}
	if rest := strings.TrimSpace(string(src[end:eol])); rest != "" && !strings.HasPrefix(rest, "//") {
		return analysis.SuggestedFix{}, false
	}
	start := tf.Offset(stmt.Pos())
	indent := string(src[tf.Offset(tf.LineStart(tf.Line(stmt.Pos()))):start])
	if strings.TrimSpace(indent) != "" {
		return analysis.SuggestedFix{}, false
	}
	file := c.fileOf(stmt.Pos())
	rt, needImport, ok := c.runtimeName(file, stmt.End())
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	limit := g.Name() + ".SetLimit(" + rt + ".GOMAXPROCS(0))"
	edits := []analysis.TextEdit{{Pos: tf.Pos(eol), End: tf.Pos(eol), NewText: []byte("\n" + indent + limit)}}
	if needImport {
		edits = append(edits, importEdits(file, "runtime")...)
	}
	return analysis.SuggestedFix{
		Message:   "Call " + limit + " after declaring " + g.Name(),
		TextEdits: edits,
	}, true
}

// innermostFunc returns the function literal or declaration around cur.
func innermostFunc(cur inspector.Cursor) ast.Node {
	for f := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		return f.Node()
	}
	return nil
}

// calm reports whether body shows nothing through which it could wait for
// a sibling goroutine: no channel operation, select or range over a
// channel, no value of a channel type or of a type of package sync,
// sync/atomic, errgroup or semaphore, no call of a function that
// synchronises (its syncfacts summary, or a primitive), and no call of an
// interface's method, whose code is unknown, with a name that has one of
// the words wait, lock, acquire, sem, semaphore, cond, signal, broadcast,
// barrier, take, reserve, throttle or limit.
func (c *checker) calm(body *ast.BlockStmt) bool {
	info := c.pass.TypesInfo
	return !find(body, nil, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt, *ast.SelectStmt:
			return true
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok {
				return syncType(v.Type())
			}
		case *ast.RangeStmt:
			return c.isChan(n.X)
		case *ast.CallExpr:
			if fn := typeutil.StaticCallee(info, n); fn != nil {
				return syncfacts.Primitive(fn) != 0 || c.sums.Func(fn).Has(^syncfacts.Ops(0))
			}
			if _, ok := typeutil.Callee(info, n).(*types.Func); !ok {
				return false // a function value: what the loop hands it is seen
			}
			for _, w := range words(callName(n)) {
				switch w {
				case "wait", "lock", "acquire", "sem", "semaphore", "cond", "signal", "broadcast", "barrier", "take", "reserve", "throttle", "limit":
					return true
				}
			}
		}
		return false
	})
}

// callName returns the name a call is made by: the function's or the
// method's identifier, "" for anything else.
func callName(call *ast.CallExpr) string {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// syncType reports whether t is a channel, or a type (or pointer to one)
// of package sync, sync/atomic, errgroup or semaphore.
func syncType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := t.Underlying().(*types.Chan); ok {
		return true
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "sync", "sync/atomic", "golang.org/x/sync/errgroup", "golang.org/x/sync/semaphore":
		return true
	}
	return false
}

// fileOf returns the file of the pass that holds pos.
func (c *checker) fileOf(pos token.Pos) *ast.File {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// runtimeName returns the name by which package runtime can be referred
// to at pos in file, and whether an import must be added for it. It fails
// when the name is shadowed there or runtime is imported only as _ or .
func (c *checker) runtimeName(file *ast.File, pos token.Pos) (name string, needImport, ok bool) {
	if file == nil {
		return "", false, false
	}
	name = "runtime"
	for _, spec := range file.Imports {
		if path, err := strconv.Unquote(spec.Path.Value); err != nil || path != "runtime" {
			continue
		}
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name == "_" || name == "." {
			return "", false, false
		}
		_, obj := c.pass.Pkg.Scope().Innermost(pos).LookupParent(name, pos)
		pn, ok := obj.(*types.PkgName)
		return name, false, ok && pn.Imported().Path() == "runtime"
	}
	if _, obj := c.pass.Pkg.Scope().Innermost(pos).LookupParent(name, pos); obj != nil {
		return "", false, false
	}
	return name, true, true
}

// importEdits returns the edits that add an import of the standard
// package path to file, in sorted position among its standard imports.
func importEdits(file *ast.File, path string) []analysis.TextEdit {
	quoted := strconv.Quote(path)
	insert := func(pos token.Pos, text string) analysis.TextEdit {
		return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)}
	}
	var decl, last *ast.GenDecl
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			break
		}
		last = gd
		if decl == nil && !importsC(gd) {
			decl = gd
		}
	}
	switch {
	case decl == nil && last == nil:
		return []analysis.TextEdit{insert(file.Name.End(), "\n\nimport "+quoted)}
	case decl == nil:
		return []analysis.TextEdit{insert(last.End(), "\n\nimport "+quoted)}
	case !decl.Lparen.IsValid():
		// import "x" becomes a parenthesised list.
		spec := decl.Specs[0].(*ast.ImportSpec)
		switch p := importPath(spec); {
		case !std(p):
			return []analysis.TextEdit{insert(spec.Pos(), "(\n\t"+quoted+"\n\n\t"), insert(specEnd(spec), "\n)")}
		case p < path:
			return []analysis.TextEdit{insert(spec.Pos(), "(\n\t"), insert(specEnd(spec), "\n\t"+quoted+"\n)")}
		default:
			return []analysis.TextEdit{insert(spec.Pos(), "(\n\t"+quoted+"\n\t"), insert(specEnd(spec), "\n)")}
		}
	}
	var stds []*ast.ImportSpec
	for _, s := range decl.Specs {
		if s := s.(*ast.ImportSpec); std(importPath(s)) {
			stds = append(stds, s)
		}
	}
	if len(stds) == 0 {
		return []analysis.TextEdit{insert(specStart(decl.Specs[0].(*ast.ImportSpec)), quoted+"\n\n\t")}
	}
	for _, s := range stds {
		if importPath(s) > path {
			return []analysis.TextEdit{insert(specStart(s), quoted+"\n\t")}
		}
	}
	return []analysis.TextEdit{insert(specEnd(stds[len(stds)-1]), "\n\t"+quoted)}
}

// importsC reports whether an import declaration imports "C", which must
// stay alone.
func importsC(gd *ast.GenDecl) bool {
	for _, s := range gd.Specs {
		if importPath(s.(*ast.ImportSpec)) == "C" {
			return true
		}
	}
	return false
}

func importPath(s *ast.ImportSpec) string {
	p, _ := strconv.Unquote(s.Path.Value)
	return p
}

// std reports whether an import path is of the standard library: its
// first element has no dot.
func std(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// specStart returns where an import spec begins, with its doc comment.
func specStart(s *ast.ImportSpec) token.Pos {
	if s.Doc != nil {
		return s.Doc.Pos()
	}
	return s.Pos()
}

// specEnd returns where an import spec ends, with its line comment.
func specEnd(s *ast.ImportSpec) token.Pos {
	if s.Comment != nil {
		return s.Comment.End()
	}
	return s.End()
}
