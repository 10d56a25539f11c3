package joinbeforeconsume

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/spgo/spgo/analyzer/internal/docx"
	"github.com/spgo/spgo/analyzer/internal/groups"
	"github.com/spgo/spgo/analyzer/internal/ignore"
)

//go:embed doc.go
var doc string

// Analyzer reports results that every child stores and one pass consumes
// after the join. It runs only when its enable flag is set.
var Analyzer = &analysis.Analyzer{
	Name:     "joinbeforeconsume",
	Doc:      docx.MustExtract(doc, "joinbeforeconsume"),
	URL:      "https://pkg.go.dev/github.com/spgo/spgo/analyzer/joinbeforeconsume",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

// enable is the analyzer's -enable flag (-joinbeforeconsume.enable in
// spvet and go vet).
var enable bool

func init() {
	Analyzer.Flags.BoolVar(&enable, "enable", false, "enable the joinbeforeconsume analysis (advisory, off by default)")
}

func run(pass *analysis.Pass) (any, error) {
	if !enable {
		return nil, nil
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	rep := ignore.New(pass)
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)}, func(n ast.Node) {
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		}
		if body != nil {
			check(pass, rep, collect(pass, body))
		}
	})
	return nil, nil
}

// function is what one function body does in its own goroutine (outside
// the function literals it contains), and where it uses its local
// slices, arrays and maps.
type function struct {
	body   *ast.BlockStmt
	loops  []ast.Stmt   // for and range statements
	waits  []spawn      // Wait calls (at), in source order
	spawns []spawn      // children spawned into a group
	vars   []*types.Var // local containers, in order of first use
	uses   map[*types.Var][]use
}

// spawn is a child started into a group by a go statement or a Go call
// (or, in function.waits, a Wait call on the group, with no child).
type spawn struct {
	group types.Object
	at    ast.Node // the go statement or the Go call
	child *ast.FuncLit
}

// use is one use of a local container, with its ancestors in the body.
type use struct {
	id    *ast.Ident
	stack []ast.Node
}

// collect walks body once.
func collect(pass *analysis.Pass, body *ast.BlockStmt) *function {
	f := &function{body: body, uses: map[*types.Var][]use{}}
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		own := !slices.ContainsFunc(stack, func(a ast.Node) bool { _, ok := a.(*ast.FuncLit); return ok })
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if own {
				f.loops = append(f.loops, n.(ast.Stmt))
			}
		case *ast.GoStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok && own {
				if g := doneGroup(pass.TypesInfo, lit); g != nil {
					f.spawns = append(f.spawns, spawn{g, n, lit})
				}
			}
		case *ast.CallExpr:
			c, ok := groups.MethodCall(pass.TypesInfo, n)
			if !ok || !own {
				break
			}
			g := groups.Key(pass.TypesInfo, c.Recv)
			switch {
			case g == nil:
			case c.Method == "Wait":
				f.waits = append(f.waits, spawn{group: g, at: n})
			case (c.Method == "Go" || c.Method == "TryGo") && len(n.Args) == 1:
				if lit, ok := ast.Unparen(n.Args[0]).(*ast.FuncLit); ok {
					f.spawns = append(f.spawns, spawn{g, n, lit})
				}
			}
		case *ast.Ident:
			v, ok := pass.TypesInfo.Uses[n].(*types.Var)
			if !ok || v.IsField() || v.Pos() < body.Pos() || v.Pos() >= body.End() || slotType(v) == nil {
				break
			}
			if f.uses[v] == nil {
				f.vars = append(f.vars, v)
			}
			f.uses[v] = append(f.uses[v], use{n, slices.Clone(stack)})
		}
		return true
	})
	return f
}

// doneGroup returns the group whose Done the child lit calls, if any.
func doneGroup(info *types.Info, lit *ast.FuncLit) types.Object {
	var g types.Object
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && g == nil {
			if c, ok := groups.MethodCall(info, call); ok && c.Method == "Done" {
				g = groups.Key(info, c.Recv)
			}
		}
		return g == nil
	})
	return g
}

// check reports each local container of f that children fill and one
// pass after their Wait consumes.
func check(pass *analysis.Pass, rep *ignore.Reporter, f *function) {
	for _, v := range f.vars {
		var seen []ast.Node
		for _, s := range f.spawns {
			if !storesInto(pass.TypesInfo, s.child, v) {
				continue
			}
			loop := f.innermostLoop(s.at)
			if loop == nil || v.Pos() > loop.Pos() {
				continue
			}
			w := f.waitAfter(s)
			if w == nil || within(w, loop) || slices.Contains(seen, w) {
				continue
			}
			seen = append(seen, w)
			if rng := f.singlePass(pass.TypesInfo, v, w); rng != nil && !gathers(pass.TypesInfo, rng, f.body) {
				name := s.group.Name()
				rep.Reportf(span{rng.For, rng.X.End()}, "every child of %s stores its result in %s and one pass consumes them after %s.Wait (line %d), so all results are live at once (peak = sum of results); stream them instead: send each result on a channel consumed as it arrives, or consume it in the child under a mutex",
					name, v.Name(), name, pass.Fset.Position(w.Pos()).Line)
			}
		}
	}
}

// span is a node covering a range statement's header.
type span struct{ pos, end token.Pos }

func (s span) Pos() token.Pos { return s.pos }
func (s span) End() token.Pos { return s.end }

// within reports whether n lies inside outer.
func within(n, outer ast.Node) bool {
	return outer.Pos() <= n.Pos() && n.End() <= outer.End()
}

// innermostLoop returns the innermost loop of f around n, or nil.
func (f *function) innermostLoop(n ast.Node) ast.Stmt {
	var in ast.Stmt
	for _, l := range f.loops {
		if within(n, l) && (in == nil || l.Pos() > in.Pos()) {
			in = l
		}
	}
	return in
}

// waitAfter returns the first Wait call of f on s's group after s, or nil.
func (f *function) waitAfter(s spawn) ast.Node {
	for _, w := range f.waits {
		if w.at.Pos() >= s.at.End() && w.group == s.group {
			return w.at
		}
	}
	return nil
}
