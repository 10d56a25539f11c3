package nonsp

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/spgo/spgo/analyzer/internal/docx"
	"github.com/spgo/spgo/analyzer/internal/groups"
	"github.com/spgo/spgo/analyzer/internal/ignore"
	"github.com/spgo/spgo/analyzer/internal/syncfacts"
)

//go:embed doc.go
var doc string

// Analyzer reports non-series-parallel synchronisation.
var Analyzer = &analysis.Analyzer{
	Name:     "nonsp",
	Doc:      docx.MustExtract(doc, "nonsp"),
	URL:      "https://pkg.go.dev/github.com/spgo/spgo/analyzer/nonsp",
	Requires: []*analysis.Analyzer{inspect.Analyzer, syncfacts.Analyzer},
	Run:      run,
}

// use is one method call on a group, with the goroutine it runs in: the
// innermost spawned function literal around it (nil: the function's own).
type use struct {
	groups.Call
	in   *ast.FuncLit
	decl ast.Node // the outermost function around the call
}

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	rep := ignore.New(pass)

	// Function literals run as goroutines: go func(){}() and g.Go(func(){}).
	spawned := map[*ast.FuncLit]bool{}
	goStmts := map[*ast.FuncLit]*ast.GoStmt{}
	var deferred []*ast.FuncLit // defer func() { ... }(): runs at return
	ins.Preorder([]ast.Node{(*ast.GoStmt)(nil), (*ast.CallExpr)(nil), (*ast.DeferStmt)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				deferred = append(deferred, lit)
			}
		case *ast.GoStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				spawned[lit] = true
				goStmts[lit] = n
			}
		case *ast.CallExpr:
			if c, ok := groups.MethodCall(pass.TypesInfo, n); ok && (c.Method == "Go" || c.Method == "TryGo") && len(n.Args) == 1 {
				if lit, ok := ast.Unparen(n.Args[0]).(*ast.FuncLit); ok {
					spawned[lit] = true
				}
			}
		}
	})

	uses := map[types.Object][]use{}
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		c, ok := groups.MethodCall(pass.TypesInfo, n.(*ast.CallExpr))
		if !ok {
			return true
		}
		key := groups.Key(pass.TypesInfo, c.Recv)
		if key == nil {
			return true
		}
		u := use{Call: c}
		for _, n := range stack {
			if _, ok := n.(*ast.FuncDecl); ok {
				u.decl = n
				break
			}
		}
		for i := len(stack) - 1; i >= 0; i-- {
			if lit, ok := stack[i].(*ast.FuncLit); ok && spawned[lit] {
				u.in = lit
				break
			}
		}
		uses[key] = append(uses[key], u)
		return true
	})

	for key, us := range uses {
		checkGroup(pass, rep, key, us, goStmts, deferred)
	}
	checkCopies(pass, ins, rep)
	checkUnjoined(pass, ins, rep)
	return nil, nil
}

// outside reports whether obj is declared outside lit (so lit captures it).
func outside(obj types.Object, lit *ast.FuncLit) bool {
	return obj.Pos() < lit.Pos() || obj.Pos() >= lit.End()
}

func checkGroup(pass *analysis.Pass, rep *ignore.Reporter, key types.Object, us []use, goStmts map[*ast.FuncLit]*ast.GoStmt, deferred []*ast.FuncLit) {
	name := key.Name()
	for _, u := range us {
		if u.in == nil || !outside(key, u.in) {
			continue
		}
		switch u.Method {
		case "Add":
			if u.Kind == groups.WaitGroup {
				d := analysis.Diagnostic{
					Pos:     u.Call.Call.Pos(),
					End:     u.Call.Call.End(),
					Message: fmt.Sprintf("%s.Add inside a spawned goroutine: what it counts is joined by a Wait outside that goroutine, not by its spawner; spbuild's figures are inexact (call Add before the go statement, or give the goroutine a group of its own)", name),
				}
				if fix, ok := hoistAdd(pass, u, goStmts[u.in]); ok {
					d.SuggestedFixes = []analysis.SuggestedFix{fix}
				}
				rep.Report(d)
			}
		case "Wait":
			// A Wait in one goroutine on a group spawned into from another.
			var spawner *use
			for i := range us {
				if s := &us[i]; s.in != u.in && isSpawn(s.Method) {
					spawner = s
					break
				}
			}
			if spawner == nil {
				continue
			}
			rep.Reportf(u.Call.Call, "%s.Wait in a goroutine other than the one that spawns into %s: the join is not series-parallel and spbuild's figures are inexact (wait in the spawning function)", name, name)
			// A Wait started by a deferred function starts when the
			// function returns, after the Adds of its body.
			d := within(u.in, deferred)
			for _, s := range us {
				if d != nil && !inside(s.Call.Call, d) {
					continue
				}
				if s.in != u.in && isSpawn(s.Method) && s.decl == u.decl && s.Call.Call.Pos() > u.in.End() && sameFunc(s, u.in) {
					rep.Reportf(s.Call.Call, "%s.%s after a concurrent Wait on %s began (line %d): the Wait may return before this goroutine is counted", name, s.Method, name, pass.Fset.Position(u.Call.Call.Pos()).Line)
				}
			}
		}
	}
}

// within returns the literal of lits that encloses n, if any.
func within(n ast.Node, lits []*ast.FuncLit) *ast.FuncLit {
	for _, l := range lits {
		if inside(n, l) {
			return l
		}
	}
	return nil
}

// inside reports whether n lies in outer.
func inside(n, outer ast.Node) bool {
	return n != nil && outer.Pos() <= n.Pos() && n.End() <= outer.End()
}

// isSpawn reports whether a group method adds to the group.
func isSpawn(m string) bool { return m == "Add" || m == "Go" || m == "TryGo" }

// sameFunc reports whether s runs in the goroutine that started lit: both
// outside lit, with no spawned literal between (s.in is lit's own context).
func sameFunc(s use, lit *ast.FuncLit) bool {
	return s.in == nil || (s.in.Pos() < lit.Pos() && lit.End() <= s.in.End())
}

// checkCopies reports groups passed, returned or assigned by value.
func checkCopies(pass *analysis.Pass, ins *inspector.Inspector, rep *ignore.Reporter) {
	isValueGroup := func(e ast.Expr) (groups.Kind, bool) {
		t := pass.TypesInfo.TypeOf(e)
		if t == nil {
			return groups.None, false
		}
		k, ptr := groups.KindOf(t)
		return k, k != groups.None && !ptr
	}
	copied := func(e ast.Expr) bool {
		switch ast.Unparen(e).(type) {
		case *ast.CompositeLit:
			return false // a fresh value
		case *ast.CallExpr:
			return false // reported at the callee's result, if at all
		}
		return true // a variable, field, element or dereference
	}
	ins.Preorder([]ast.Node{(*ast.FuncType)(nil), (*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.CallExpr)(nil), (*ast.ReturnStmt)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.FuncType:
			for _, fl := range []*ast.FieldList{n.Params, n.Results} {
				if fl == nil {
					continue
				}
				for _, f := range fl.List {
					if k, ok := isValueGroup(f.Type); ok {
						rep.Reportf(f.Type, "%s passed by value: the copy counts its goroutines separately from the original; pass *%s", k, k)
					}
				}
			}
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				if k, ok := isValueGroup(r); ok && copied(r) {
					rep.Reportf(r, "%s copied by value: the copy counts its goroutines separately from the original; use a pointer", k)
				}
			}
		case *ast.ValueSpec:
			for _, r := range n.Values {
				if k, ok := isValueGroup(r); ok && copied(r) {
					rep.Reportf(r, "%s copied by value: the copy counts its goroutines separately from the original; use a pointer", k)
				}
			}
		case *ast.CallExpr:
			if tv, ok := pass.TypesInfo.Types[n.Fun]; ok && tv.IsType() {
				return // a conversion
			}
			for _, a := range n.Args {
				if tv, ok := pass.TypesInfo.Types[a]; ok && tv.IsType() {
					continue // new(sync.WaitGroup), make(chan T)
				}
				if k, ok := isValueGroup(a); ok && copied(a) {
					rep.Reportf(a, "%s passed by value: the callee counts its goroutines separately from the original; pass a pointer", k)
				}
			}
		}
	})
}

// hoistAdd moves "wg.Add(n)", the first statement of a goroutine's
// literal, to just before its go statement, where it counts the goroutine
// before any Wait can run. It applies only when the literal is the go
// statement's function and everything the Add mentions is declared outside
// the literal, so moving it changes no value it computes.
func hoistAdd(pass *analysis.Pass, u use, g *ast.GoStmt) (analysis.SuggestedFix, bool) {
	lit := u.in
	if g == nil || len(lit.Body.List) == 0 {
		return analysis.SuggestedFix{}, false
	}
	first, ok := lit.Body.List[0].(*ast.ExprStmt)
	if !ok || ast.Unparen(first.X) != u.Call.Call {
		return analysis.SuggestedFix{}, false
	}
	inner := false
	ast.Inspect(u.Call.Call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := pass.TypesInfo.Uses[id]; obj != nil && obj.Pkg() != nil && !outside(obj, lit) {
				inner = true
			}
		}
		return !inner
	})
	if inner {
		return analysis.SuggestedFix{}, false
	}
	tf := pass.Fset.File(g.Pos())
	src, err := pass.ReadFile(tf.Name())
	if err != nil {
		return analysis.SuggestedFix{}, false
	}
	start := tf.Offset(g.Pos())
	lineStart := tf.Offset(tf.LineStart(tf.Line(g.Pos())))
	indent := src[lineStart:start]
	if len(bytes.TrimLeft(indent, " \t")) != 0 {
		return analysis.SuggestedFix{}, false // the go statement does not start its line
	}
	end := lit.Body.Rbrace
	if len(lit.Body.List) > 1 {
		end = lit.Body.List[1].Pos()
	}
	// Move the statement with the rest of its line, if that is only a
	// comment.
	stmtEnd := tf.Offset(first.End())
	eol := bytes.IndexByte(src[stmtEnd:], '\n')
	if eol < 0 {
		return analysis.SuggestedFix{}, false
	}
	rest := bytes.TrimSpace(src[stmtEnd : stmtEnd+eol])
	if len(rest) > 0 && !bytes.HasPrefix(rest, []byte("//")) {
		return analysis.SuggestedFix{}, false
	}
	stmt := bytes.TrimRight(src[tf.Offset(first.Pos()):stmtEnd+eol], " \t\r")
	insert := append(append(append([]byte{}, stmt...), '\n'), indent...)
	return analysis.SuggestedFix{
		Message: "call Add before the go statement",
		TextEdits: []analysis.TextEdit{
			{Pos: g.Pos(), End: g.Pos(), NewText: insert},
			{Pos: first.Pos(), End: end},
		},
	}, true
}
