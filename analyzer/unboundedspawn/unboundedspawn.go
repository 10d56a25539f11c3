package unboundedspawn

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/spgo/spgo/analyzer/internal/docx"
	"github.com/spgo/spgo/analyzer/internal/groups"
	"github.com/spgo/spgo/analyzer/internal/ignore"
	"github.com/spgo/spgo/analyzer/internal/syncfacts"
)

//go:embed doc.go
var doc string

// Analyzer reports one goroutine per element of an unbounded collection
// with no bound on how many run at once.
var Analyzer = &analysis.Analyzer{
	Name:     "unboundedspawn",
	Doc:      docx.MustExtract(doc, "unboundedspawn"),
	URL:      "https://pkg.go.dev/github.com/spgo/spgo/analyzer/unboundedspawn",
	Requires: []*analysis.Analyzer{inspect.Analyzer, syncfacts.Analyzer},
	Run:      run,
}

// checker holds what one pass knows about its package.
type checker struct {
	pass  *analysis.Pass
	ins   *inspector.Inspector
	rep   *ignore.Reporter
	sums  *syncfacts.Result             // what functions do to synchronisation
	decls map[*types.Func]*ast.FuncDecl // the package's functions
	inits map[*types.Var]ast.Expr       // a variable's sole initialiser
	// lits holds the function literal a local function variable is set
	// to, where it is set to exactly one (nil where to several).
	lits map[*types.Var]*ast.FuncLit
	// mutated holds the variables whose length may change after their
	// declaration; nil until first needed.
	mutated map[*types.Var]bool
	// fixed holds the groups already given a SetLimit fix.
	fixed map[*types.Var]bool
	// appendBound caches appendBounded.
	appendBound map[*types.Var]bool
}

// spawn is one goroutine start: a go statement or a group's Go or TryGo.
type spawn struct {
	at    ast.Node         // the go statement or the Go call: where to report
	call  *ast.CallExpr    // the go statement's call, run by the child; nil for Go
	fn    ast.Expr         // the function the child runs
	child ast.Node         // what the spawn hands the child: the call, or Go's argument
	lit   *ast.FuncLit     // fn, if it is a function literal
	group *groups.Call     // the Go or TryGo call
	cur   inspector.Cursor // at the node at
}

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{
		pass:  pass,
		ins:   ins,
		rep:   ignore.New(pass),
		sums:  pass.ResultOf[syncfacts.Analyzer].(*syncfacts.Result),
		decls: map[*types.Func]*ast.FuncDecl{},
		inits: map[*types.Var]ast.Expr{},
		lits:  map[*types.Var]*ast.FuncLit{},
		fixed: map[*types.Var]bool{},

		appendBound: map[*types.Var]bool{},
	}
	// Generated files cannot be acted on; tests spawn per case on purpose,
	// over fixtures.
	skip := map[*token.File]bool{}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		skip[tf] = ast.IsGenerated(f) || strings.HasSuffix(tf.Name(), "_test.go")
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
	}
	c.findInits()
	for cur := range ins.Root().Preorder((*ast.GoStmt)(nil), (*ast.CallExpr)(nil)) {
		if skip[pass.Fset.File(cur.Node().Pos())] {
			continue
		}
		if sp, ok := c.spawnAt(cur); ok {
			c.check(sp)
		}
	}
	return nil, nil
}

// spawnAt returns the spawn at cur, if it is one.
func (c *checker) spawnAt(cur inspector.Cursor) (spawn, bool) {
	sp := spawn{at: cur.Node(), cur: cur}
	switch n := cur.Node().(type) {
	case *ast.GoStmt:
		sp.call, sp.fn, sp.child = n.Call, n.Call.Fun, n.Call
	case *ast.CallExpr:
		g, ok := groups.MethodCall(c.pass.TypesInfo, n)
		if !ok || (g.Method != "Go" && g.Method != "TryGo") || len(n.Args) != 1 {
			return spawn{}, false
		}
		sp.fn, sp.child, sp.group = n.Args[0], n.Args[0], &g
	}
	sp.lit, _ = ast.Unparen(sp.fn).(*ast.FuncLit)
	return sp, true
}

// callee returns the function or method (perhaps of an interface) the
// child runs, when the spawn names one.
func (c *checker) callee(sp spawn) *types.Func {
	var obj types.Object
	switch f := ast.Unparen(sp.fn).(type) {
	case *ast.Ident:
		obj = c.pass.TypesInfo.Uses[f]
	case *ast.SelectorExpr:
		obj = c.pass.TypesInfo.Uses[f.Sel]
	}
	fn, _ := obj.(*types.Func)
	return fn
}

// check reports sp if it is an unbounded per-item spawn.
func (c *checker) check(sp spawn) {
	loops, outer := enclosing(sp.cur)
	if len(loops) == 0 {
		return
	}
	src, ok := c.classify(loops[0])
	if !ok {
		return
	}
	items := c.perItem(loops[0], src.seeds)
	if !c.refs(sp.child, items) || !c.works(sp) || c.longLived(sp, items) {
		return
	}
	// A throttle in an outer loop bounds the fan-out of the inner one
	// only if the children do not fan out again: a recursive child
	// starts its own unbounded fan-out before the outer loop's next
	// step (a level-by-level walk that waits per level).
	if c.recursive(sp, outer) {
		loops = loops[:1]
	}
	for _, l := range loops {
		if c.throttles(loopBody(l), sp) {
			return
		}
	}
	if counterExit(loopBody(loops[0])) || c.childThrottled(sp) || c.piped(sp) {
		return
	}
	advice := "errgroup SetLimit(n), a semaphore, or a fixed pool of n workers reading from a channel"
	var fixes []analysis.SuggestedFix
	if sp.group != nil && sp.group.Kind == groups.ErrGroup {
		g, decl, ok := c.localGroup(sp.group, outer)
		if !ok {
			return
		}
		advice = types.ExprString(sp.group.Recv) + ".SetLimit(n) before the loop, a semaphore, or a fixed pool of n workers reading from a channel"
		if c.rep.Suppressed(sp.at.Pos()) {
			return
		}
		if !c.fixed[g] {
			if fix, ok := c.limitFix(g, decl, outer); ok {
				fixes = append(fixes, fix)
				c.fixed[g] = true
			}
		}
	}
	msg := "one goroutine per " + src.desc + " with no bound on how many run at once; each holds per-item memory, so the peak grows with " + src.grows + ": bound the concurrency with " + advice
	c.rep.Report(analysis.Diagnostic{Pos: sp.at.Pos(), End: sp.at.End(), Message: msg, SuggestedFixes: fixes})
}

// recursive reports whether the child calls the function declaration
// that spawns it: it runs it, or its literal calls it.
func (c *checker) recursive(sp spawn, outer inspector.Cursor) bool {
	fd, ok := outer.Node().(*ast.FuncDecl)
	if !ok {
		return false
	}
	self, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	return find(sp.child, nil, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return ok && typeutil.StaticCallee(c.pass.TypesInfo, call) == self
	})
}

// enclosing returns the loops around cur within its function, innermost
// first, and the outermost function around cur.
func enclosing(cur inspector.Cursor) (loops []ast.Stmt, outer inspector.Cursor) {
	inFunc := true
	pos := cur.Node().Pos()
	for a := range cur.Parent().Enclosing() {
		switch n := a.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			inFunc = false
			outer = a
		case *ast.ForStmt, *ast.RangeStmt:
			if b := loopBody(n.(ast.Stmt)); inFunc && b.Pos() <= pos && pos < b.End() {
				loops = append(loops, n.(ast.Stmt))
			}
		}
	}
	return loops, outer
}

// loopBody returns the body of a for or range statement.
func loopBody(loop ast.Stmt) *ast.BlockStmt {
	if r, ok := loop.(*ast.RangeStmt); ok {
		return r.Body
	}
	return loop.(*ast.ForStmt).Body
}
