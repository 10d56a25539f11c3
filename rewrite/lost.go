package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/spgo/spgo/rewrite/escape"
)

// Lost copies. When the compiler's optimisation log of a file is
// overwritten by another file's of the same base name (escape.Result.Lost),
// an escaping copy of a site inlined at a call cannot be attributed to its
// site. The build does not stop for that (issue 22): the allocation sites
// of the code inlined at the call, the called function and, through the
// calls the compiler inlined in turn (escape.Result.InlinedAt), the
// functions it inlines, and the function literals passed to the call,
// count as heap where the compiler said stack, as for any site with an
// escaping copy; a warning at the call says so. Lost copies outside the
// rewritten packages (in the standard library's generic functions
// instantiated here) come from code that is not rewritten either: the
// bytes they allocate are charged to the call that was marked.

// lostEscapes is Escapes with the decisions of the code in spans made
// conservative: stack counts as heap there.
type lostEscapes struct {
	Escapes
	spans map[string][]span // by file name
}

// span is the extent of a function body, in one file.
type span struct{ from, to token.Position }

// Lookup is the decision at the position, heap for a stack site in a
// span.
func (l lostEscapes) Lookup(file string, line, col int) (escape.Site, bool) {
	s, ok := l.Escapes.Lookup(file, line, col)
	if ok && s.Kind == escape.Stack && l.covers(file, line, col) {
		s.Kind, s.Inlined = escape.Heap, true
	}
	return s, ok
}

func (l lostEscapes) covers(file string, line, col int) bool {
	at := func(p token.Position) int { return comparePos(p.Line, p.Column, line, col) }
	for _, s := range l.spans[file] {
		if at(s.from) <= 0 && at(s.to) >= 0 {
			return true
		}
	}
	return false
}

func comparePos(l1, c1, l2, c2 int) int {
	if l1 != l2 {
		return l1 - l2
	}
	return c1 - c2
}

// lostFinder finds the code inlined at the calls of lost copies.
type lostFinder struct {
	res   *escape.Result
	fset  *token.FileSet
	files map[string]fileOf      // the rewritten files, by name
	funcs map[*types.Func]fileOf // function declarations, by object
	spans map[string][]span
	seen  map[*ast.BlockStmt]bool
}

// fileOf is a syntax node with the package it belongs to.
type fileOf struct {
	node ast.Node // *ast.File or *ast.FuncDecl
	pkg  *packages.Package
}

// conservative returns esc with the decisions made conservative for the
// copies res lost in the rewritten packages pkgs, and a warning for each.
func conservative(esc Escapes, res *escape.Result, pkgs []*packages.Package) (Escapes, []Warning) {
	lost := res.Lost()
	if len(lost) == 0 || len(pkgs) == 0 {
		return esc, nil
	}
	f := &lostFinder{res: res, fset: pkgs[0].Fset, files: map[string]fileOf{}, funcs: map[*types.Func]fileOf{},
		spans: map[string][]span{}, seen: map[*ast.BlockStmt]bool{}}
	f.index(pkgs)
	var warns []Warning
	done := map[token.Position]bool{}
	for _, s := range lost {
		p := token.Position{Filename: s.File, Line: s.Line, Column: s.Col}
		file, ok := f.files[s.File]
		if !ok || done[p] {
			continue
		}
		done[p] = true
		names := f.inlinedAt(file, s.Line, s.Col)
		reason := fmt.Sprintf("escape analysis: the compiler's log lost the site of an escaping copy (%s) inlined here (another file of the same name overwrote it)", s.Expr)
		if len(names) > 0 {
			reason += "; the stack allocations of " + strings.Join(names, ", ") + " count as heap"
		} else {
			reason += "; the code inlined here is not instrumented: its bytes are charged to this call"
		}
		warns = append(warns, Warning{Pos: p, Reason: reason})
	}
	return lostEscapes{Escapes: esc, spans: f.spans}, warns
}

// index records the files and function declarations of pkgs.
func (f *lostFinder) index(pkgs []*packages.Package) {
	for _, p := range pkgs {
		if isTestMain(p) || p.TypesInfo == nil {
			continue
		}
		for _, file := range p.Syntax {
			name := f.fset.File(file.Pos()).Name()
			if _, ok := f.files[name]; !ok {
				f.files[name] = fileOf{file, p}
			}
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						f.funcs[fn] = fileOf{fd, p}
					}
				}
			}
		}
	}
}

// inlinedAt marks the code inlined at the call whose '(' is at line:col
// of file (or, for the declaration of a function there, its body) and
// returns the names of the functions marked.
func (f *lostFinder) inlinedAt(file fileOf, line, col int) []string {
	var names []string
	ast.Inspect(file.node, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if f.at(x.Lparen, line, col) {
				names = append(names, f.call(x, file.pkg)...)
			}
		case *ast.FuncDecl:
			if f.at(x.Name.Pos(), line, col) && x.Body != nil {
				names = append(names, f.body(x.Body, file.pkg)...)
				if fn, ok := file.pkg.TypesInfo.Defs[x.Name].(*types.Func); ok {
					names = append(names, fn.FullName())
				}
			}
		}
		return true
	})
	slices.Sort(names)
	return slices.Compact(names)
}

func (f *lostFinder) at(p token.Pos, line, col int) bool {
	pos := f.fset.Position(p)
	return pos.Line == line && pos.Column == col
}

// call marks the function call calls, if it is rewritten, and the
// function literals passed to it, and returns the names of the functions
// marked.
func (f *lostFinder) call(call *ast.CallExpr, pkg *packages.Package) []string {
	var names []string
	if fn := calleeMethod(pkg.TypesInfo, call); fn != nil {
		if d, ok := f.funcs[fn.Origin()]; ok {
			names = append(f.body(d.node.(*ast.FuncDecl).Body, d.pkg), fn.Origin().FullName())
		}
	}
	for _, a := range call.Args {
		if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
			names = append(names, f.body(lit.Body, pkg)...)
		}
	}
	return names
}

// body marks a function body and, through the calls in it that the
// compiler inlined, the functions inlined into it.
func (f *lostFinder) body(b *ast.BlockStmt, pkg *packages.Package) []string {
	if f.seen[b] {
		return nil
	}
	f.seen[b] = true
	from, to := f.fset.Position(b.Lbrace), f.fset.Position(b.Rbrace)
	f.spans[from.Filename] = append(f.spans[from.Filename], span{from, to})
	var names []string
	ast.Inspect(b, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			p := f.fset.Position(call.Lparen)
			if f.res.InlinedAt(p.Filename, p.Line, p.Column) {
				names = append(names, f.call(call, pkg)...)
			}
		}
		return true
	})
	return names
}
