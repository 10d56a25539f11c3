package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"github.com/dave/dst/dstutil"

	"github.com/spgo/spgo/rewrite/escape"
)

// RTPath is the import path of the runtime instrumented code calls.
const RTPath = "github.com/spgo/spgo/rtlib"

// Escapes answers, for a position the compiler reports (see escape.Pos),
// what the compiler's escape analysis decided there.
type Escapes interface {
	Lookup(file string, line, col int) (escape.Site, bool)
}

// allHeap is the Escapes used when no escape analysis is available: every
// site is taken to be on the heap, which overcounts but never moves
// anything (the hooks only pass values through).
type allHeap struct{}

func (allHeap) Lookup(file string, line, col int) (escape.Site, bool) {
	return escape.Site{File: file, Line: line, Col: col, Kind: escape.Heap}, true
}

// Input is one type-checked file to rewrite.
type Input struct {
	Fset  *token.FileSet
	File  *ast.File
	Pkg   *types.Package
	Info  *types.Info
	Names *namer      // shared by the files of one package
	Esc   Escapes     // nil: every site is heap
	Sizes types.Sizes // the target's sizes; nil: gc on amd64
	// Instrumented holds the import paths of the packages rewritten in
	// this run: calls to their functions need no rtlib.At marker (nil:
	// Pkg's only).
	Instrumented map[string]bool
}

// Output is the result of rewriting one file.
type Output struct {
	// Src is the instrumented source, gofmt-clean, with //line directives
	// mapping it back to the original; nil when Changed is false.
	Src []byte
	// Changed reports whether anything was instrumented.
	Changed bool
	// Sites is the file's site table.
	Sites []SiteInfo
	// Warnings are constructs left as they were, with the reason.
	Warnings []Warning
}

// SiteInfo is one row of a file's site table, as registered with rtlib.
type SiteInfo struct {
	Line, Col int
	Func      string
	Op        string // the name of an rtlib.Op constant without "Op": "Go", "Make"
	// Type is an allocation site's static type (siteTypeName): the value
	// the allocating expression yields, or a moved variable's type; ""
	// for other sites.
	Type string
	// Closure, ArgsClosure and Wrapper are the sizes of the closures a go
	// statement allocates (before the runtime rounds them to a size class;
	// goClosures): the original's of a literal's free variables, its of
	// the function value and the arguments, and the instrumented
	// statement's; 0 for none and for other sites.
	Closure, ArgsClosure, Wrapper int
}

// Warning is a construct the rewriter did not instrument, or instrumented
// although it breaks series-parallel structure.
type Warning struct {
	Pos    token.Position
	Reason string
}

func (w Warning) String() string { return fmt.Sprintf("%s: %s", w.Pos, w.Reason) }

// fileRewriter holds the state of rewriting one file.
type fileRewriter struct {
	in    Input
	dec   *decorator.Decorator
	df    *dst.File
	rt    string // the name the rtlib import gets
	base  string // the site-base variable
	sites []SiteInfo
	warns []Warning

	changed bool
	tokens  int       // Release tokens handed out
	funcs   []funcCtx // enclosing functions, innermost last
	skip    map[dst.Node]bool
	// stmtLine records the original line of generated statements that
	// stand for an original construct, for the //line directives.
	origin map[dst.Node]token.Position
	// selectSwitch maps the block a select became to its dispatch switch,
	// so that a label on the select moves to the switch.
	selectSwitch map[*dst.BlockStmt]*dst.SwitchStmt
	// pendingBefore and pendingAfter are statements to insert around an
	// expression statement once it has been visited.
	pendingBefore, pendingAfter map[dst.Node][]dst.Stmt
	// recvOK holds the channels of comma-ok receives whose statement must
	// be split (splitRecvOK), by statement.
	recvOK map[*dst.AssignStmt]dst.Expr
	// releasedGo holds the calls of go statements that run without the
	// baton (go sem.Acquire(ctx, n)), with their site: goStmt brackets
	// them with rt.Release and rt.Reacquire in the new goroutine.
	releasedGo map[*dst.CallExpr]dst.Expr
	// byRef caches addressedOrAssigned: whether a closure captures a
	// variable by reference.
	byRef map[*types.Var]bool
	// replaced are the functions of package-level calls replaced by rtlib
	// calls (time.Sleep, runtime.GOMAXPROCS): their imports may have lost
	// their last use.
	replaced []dst.Expr
}

// funcCtx is an enclosing function.
type funcCtx struct {
	name    string
	body    *dst.BlockStmt
	spawns  bool
	root    bool
	params  []*ast.Ident // parameters and named results, for moved-variable hooks
	astBody *ast.BlockStmt
	proven  bool                // it has sites whose objects die with its frame (Mark, Drop)
	owned   map[*types.Var]bool // ownedAppend's answers for its variables
	// framed are its variables whose object is on its frame list: true
	// for a slice's array, false for a moved variable (seenAfterWait).
	framed map[*types.Var]bool
}

// File rewrites one file.
func File(in Input) (*Output, error) {
	name := in.Fset.File(in.File.Pos()).Name()
	if in.Esc == nil {
		in.Esc = allHeap{}
	}
	if in.Names == nil {
		in.Names = newNamer([]*ast.File{in.File})
	}
	dec := decorator.NewDecorator(in.Fset)
	df, err := dec.DecorateFile(in.File)
	if err != nil {
		return nil, fmt.Errorf("rewrite %s: %w", name, err)
	}
	r := &fileRewriter{
		in: in, dec: dec, df: df,
		rt:            in.Names.name("rt"),
		base:          fileVar(in.Names, filepath.Base(name)),
		skip:          map[dst.Node]bool{},
		origin:        map[dst.Node]token.Position{},
		selectSwitch:  map[*dst.BlockStmt]*dst.SwitchStmt{},
		pendingBefore: map[dst.Node][]dst.Stmt{},
		pendingAfter:  map[dst.Node][]dst.Stmt{},
		recvOK:        map[*dst.AssignStmt]dst.Expr{},
		releasedGo:    map[*dst.CallExpr]dst.Expr{},
	}
	r.rewrite()
	out := &Output{Changed: r.changed, Sites: r.sites, Warnings: r.warns}
	if !r.changed {
		return out, nil
	}
	r.keepImports()
	r.addImportAndTable(name)
	src, err := r.print(name)
	if err != nil {
		return nil, fmt.Errorf("rewrite %s: %w", name, err)
	}
	out.Src = src
	return out, nil
}

// astOf returns the original node a dst node was decorated from.
func (r *fileRewriter) astOf(n dst.Node) ast.Node {
	return r.dec.Ast.Nodes[n]
}

// astExpr returns the original expression of a dst expression, or nil for
// generated nodes.
func (r *fileRewriter) astExpr(n dst.Expr) ast.Expr {
	e, _ := r.dec.Ast.Nodes[n].(ast.Expr)
	return e
}

// typeOf returns the type of the original expression of n, or nil.
func (r *fileRewriter) typeOf(n dst.Expr) types.Type {
	e := r.astExpr(n)
	if e == nil {
		return nil
	}
	return r.in.Info.TypeOf(e)
}

// pos returns the (//line-adjusted) position of p.
func (r *fileRewriter) pos(p token.Pos) token.Position {
	return r.in.Fset.Position(p)
}

// site adds a row to the file's site table and returns the expression
// naming it: base + k.
func (r *fileRewriter) site(p token.Pos, op string) dst.Expr {
	return r.siteNamed(p, op, r.funcName())
}

func (r *fileRewriter) siteNamed(p token.Pos, op, fn string) dst.Expr {
	pos := r.pos(p)
	r.sites = append(r.sites, SiteInfo{Line: pos.Line, Col: pos.Column, Func: fn, Op: op})
	r.changed = true
	return &dst.BinaryExpr{X: dst.NewIdent(r.base), Op: token.ADD, Y: intLit(len(r.sites) - 1)}
}

func intLit(n int) *dst.BasicLit {
	return &dst.BasicLit{Kind: token.INT, Value: strconv.Itoa(n)}
}

// rtCall builds rt.Name(args...).
func (r *fileRewriter) rtCall(name string, args ...dst.Expr) *dst.CallExpr {
	return &dst.CallExpr{Fun: r.rtSel(name), Args: args}
}

func (r *fileRewriter) rtSel(name string) dst.Expr {
	return &dst.SelectorExpr{X: dst.NewIdent(r.rt), Sel: dst.NewIdent(name)}
}

// warn records a warning at p.
func (r *fileRewriter) warn(p token.Pos, format string, args ...any) {
	r.warns = append(r.warns, Warning{Pos: r.pos(p), Reason: fmt.Sprintf(format, args...)})
}

// funcName is the name of the innermost enclosing function, as written.
func (r *fileRewriter) funcName() string {
	if len(r.funcs) == 0 {
		return r.pkgQual() + "init"
	}
	return r.funcs[len(r.funcs)-1].name
}

func (r *fileRewriter) pkgQual() string {
	if r.in.Pkg == nil {
		return ""
	}
	if r.in.Pkg.Name() == "main" {
		return "main."
	}
	return r.in.Pkg.Path() + "."
}

// declName is the name of a function declaration as pprof spells it:
// pkg.F, pkg.T.M, pkg.(*T).M.
func (r *fileRewriter) declName(fd *ast.FuncDecl) string {
	name := fd.Name.Name
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		star := false
		if s, ok := t.(*ast.StarExpr); ok {
			star, t = true, s.X
		}
		switch x := t.(type) {
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		}
		recv := "?"
		if id, ok := t.(*ast.Ident); ok {
			recv = id.Name
		}
		if star {
			return r.pkgQual() + "(*" + recv + ")." + name
		}
		return r.pkgQual() + recv + "." + name
	}
	return r.pkgQual() + name
}

// rewrite walks the file once, rewriting in post-order so that every
// construct sees its operands already instrumented.
func (r *fileRewriter) rewrite() {
	dstutil.Apply(r.df, r.pre, r.post)
}

func (r *fileRewriter) pre(c *dstutil.Cursor) bool {
	if s, ok := c.Node().(dst.Stmt); ok && c.Index() >= 0 {
		r.markExternal(c, s)
		r.markBuffers(c, s)
		r.markMaps(c, s)
	}
	switch n := c.Node().(type) {
	case *dst.FuncDecl:
		fd, _ := r.astOf(n).(*ast.FuncDecl)
		if fd == nil || n.Body == nil {
			return false
		}
		ctx := funcCtx{name: r.declName(fd), body: n.Body, astBody: fd.Body, root: r.isRoot(fd)}
		ctx.params = fieldIdents(fd.Recv, fd.Type.Params, fd.Type.Results)
		ctx.spawns = spawnsDirectly(fd.Body, r.in.Info)
		r.funcs = append(r.funcs, ctx)
	case *dst.FuncLit:
		fl, _ := r.astOf(n).(*ast.FuncLit)
		if fl == nil {
			return false
		}
		p := r.pos(fl.Pos())
		ctx := funcCtx{name: fmt.Sprintf("%s.func@%d:%d", r.funcName(), p.Line, p.Column), body: n.Body, astBody: fl.Body}
		ctx.params = fieldIdents(nil, fl.Type.Params, fl.Type.Results)
		ctx.spawns = spawnsDirectly(fl.Body, r.in.Info)
		r.funcs = append(r.funcs, ctx)
	case *dst.SelectStmt:
		r.markSelectComms(n)
	}
	return true
}

func (r *fileRewriter) post(c *dstutil.Cursor) bool {
	switch n := c.Node().(type) {
	case *dst.FuncDecl, *dst.FuncLit:
		ctx := r.funcs[len(r.funcs)-1]
		r.funcEntry(ctx)
		r.funcs = r.funcs[:len(r.funcs)-1]
	case *dst.GoStmt:
		r.goStmt(c, n)
	case *dst.CallExpr:
		r.call(c, n)
	case *dst.UnaryExpr:
		r.unary(c, n)
	case *dst.SendStmt:
		r.send(c, n)
	case *dst.RangeStmt:
		r.rangeChan(c, n)
	case *dst.ForStmt:
		r.spinLoop(n)
	case *dst.SelectStmt:
		r.selectStmt(c, n)
	case *dst.LabeledStmt:
		r.labeled(c, n)
	case *dst.ExprStmt:
		r.insertPending(c, n)
	case *dst.CompositeLit:
		r.compositeLit(c, n)
	case *dst.BinaryExpr:
		r.concat(c, n)
	case *dst.AssignStmt:
		r.assign(c, n)
	case *dst.SelectorExpr:
		r.methodValue(c, n)
	}
	r.movedVars(c)
	r.seenAfterWait(c)
	return true
}

// fieldIdents lists the names declared by field lists.
func fieldIdents(lists ...*ast.FieldList) []*ast.Ident {
	var ids []*ast.Ident
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, f := range l.List {
			ids = append(ids, f.Names...)
		}
	}
	return ids
}

// isRoot reports whether fd is a root: main.main, or in a _test.go file a
// test, benchmark, fuzz target, example or TestMain.
func (r *fileRewriter) isRoot(fd *ast.FuncDecl) bool {
	if fd.Recv != nil {
		return false
	}
	name := fd.Name.Name
	if r.in.Pkg != nil && r.in.Pkg.Name() == "main" && name == "main" {
		return true
	}
	file := r.in.Fset.File(fd.Pos()).Name()
	if !strings.HasSuffix(file, "_test.go") {
		return false
	}
	if name == "TestMain" {
		return true
	}
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if testName(name, prefix) {
			return true
		}
	}
	return false
}

// testName reports whether name is prefix followed by nothing or by a
// character that is not a lower-case letter, as go test requires.
func testName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	c := name[len(prefix)]
	return !(c >= 'a' && c <= 'z')
}

// insertPending inserts the statements queued for an expression statement
// before and after it, in a block of their own when it is not in a list.
func (r *fileRewriter) insertPending(c *dstutil.Cursor, n *dst.ExprStmt) {
	before, after := r.pendingBefore[n], r.pendingAfter[n]
	if len(before) == 0 && len(after) == 0 {
		return
	}
	an := r.astOf(n)
	for _, s := range append(before, after...) {
		if an != nil {
			r.origin[s] = r.pos(an.Pos())
		}
	}
	if c.Index() >= 0 {
		for _, s := range before {
			c.InsertBefore(s)
		}
		for i := len(after) - 1; i >= 0; i-- {
			c.InsertAfter(after[i])
		}
		return
	}
	list := append(append(before, n), after...)
	c.Replace(&dst.BlockStmt{List: list})
}
