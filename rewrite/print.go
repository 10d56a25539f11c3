package rewrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
)

// keepImports adds "var _ = pkg.F" for each function F of a call replaced
// by an rtlib call whose package pkg the file no longer names otherwise,
// so that its import stays used (a dot-imported F is always kept this
// way).
func (r *fileRewriter) keepImports() {
	used := map[string]bool{}
	dst.Inspect(r.df, func(n dst.Node) bool {
		if sel, ok := n.(*dst.SelectorExpr); ok {
			if id, ok := sel.X.(*dst.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	kept := map[string]bool{}
	for _, f := range r.replaced {
		var ref dst.Expr
		switch f := f.(type) {
		case *dst.SelectorExpr:
			id, ok := f.X.(*dst.Ident)
			if !ok || used[id.Name] || kept[id.Name] {
				continue
			}
			kept[id.Name] = true
			ref = &dst.SelectorExpr{X: dst.NewIdent(id.Name), Sel: dst.NewIdent(f.Sel.Name)}
		case *dst.Ident:
			if kept["."+f.Name] {
				continue
			}
			kept["."+f.Name] = true
			ref = dst.NewIdent(f.Name)
		default:
			continue
		}
		r.df.Decls = append(r.df.Decls, &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{
			&dst.ValueSpec{Names: []*dst.Ident{dst.NewIdent("_")}, Values: []dst.Expr{ref}},
		}})
	}
}

// addImportAndTable adds the rtlib import and the file's site table.
func (r *fileRewriter) addImportAndTable(name string) {
	spec := &dst.ImportSpec{Name: dst.NewIdent(r.rt), Path: &dst.BasicLit{Kind: token.STRING, Value: strconv.Quote(RTPath)}}
	added := false
	for _, d := range r.df.Decls {
		if gd, ok := d.(*dst.GenDecl); ok && gd.Tok == token.IMPORT && gd.Lparen {
			gd.Specs = append(gd.Specs, spec)
			added = true
			break
		}
	}
	if !added {
		gd := &dst.GenDecl{Tok: token.IMPORT, Specs: []dst.Spec{spec}}
		// After the last import declaration, or first.
		at := 0
		for i, d := range r.df.Decls {
			if g, ok := d.(*dst.GenDecl); ok && g.Tok == token.IMPORT {
				at = i + 1
			}
		}
		r.df.Decls = append(r.df.Decls[:at], append([]dst.Decl{gd}, r.df.Decls[at:]...)...)
	}
	var elts []dst.Expr
	for _, s := range r.sites {
		kv := func(k string, v dst.Expr) dst.Expr { return &dst.KeyValueExpr{Key: dst.NewIdent(k), Value: v} }
		lit := &dst.CompositeLit{Elts: []dst.Expr{
			kv("Line", intLit(s.Line)),
			kv("Col", intLit(s.Col)),
			kv("Func", &dst.BasicLit{Kind: token.STRING, Value: strconv.Quote(s.Func)}),
			kv("Op", r.rtSel("Op"+s.Op)),
		}}
		if s.Type != "" {
			lit.Elts = append(lit.Elts, kv("Type", &dst.BasicLit{Kind: token.STRING, Value: strconv.Quote(s.Type)}))
		}
		for _, f := range []struct {
			name string
			n    int
		}{{"Closure", s.Closure}, {"ArgsClosure", s.ArgsClosure}, {"Wrapper", s.Wrapper}} {
			if f.n != 0 {
				lit.Elts = append(lit.Elts, kv(f.name, intLit(f.n)))
			}
		}
		lit.Decs.Before = dst.NewLine
		lit.Decs.After = dst.NewLine
		elts = append(elts, lit)
	}
	pkgPath := ""
	if r.in.Pkg != nil {
		pkgPath = r.in.Pkg.Path()
	}
	table := &dst.CompositeLit{
		Type: &dst.ArrayType{Elt: r.rtSel("SiteInfo")},
		Elts: elts,
	}
	decl := &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{&dst.ValueSpec{
		Names: []*dst.Ident{dst.NewIdent(r.base)},
		Values: []dst.Expr{r.rtCall("Register",
			&dst.BasicLit{Kind: token.STRING, Value: strconv.Quote(pkgPath)},
			&dst.BasicLit{Kind: token.STRING, Value: strconv.Quote(name)},
			table)},
	}}}
	decl.Decs.Before = dst.EmptyLine
	decl.Decs.Start.Append("// " + r.base + " is the site table spgo's rewriter made for this file.")
	r.df.Decls = append(r.df.Decls, decl)
}

// print restores the file, prints it gofmt-style, and adds line
// directives wherever a node of the original file would otherwise not map
// back to its line: //line before a line whose first token needs it,
// /*line*/ before a token in the middle of a line (an operand that a
// rewrite moved onto the line of another: a select's operands evaluated
// together, say), so that compile errors, panics and stack traces name
// the user's file and line. Generated nodes whose construct the rewriter
// recorded map to its line; other generated lines map wherever the line
// before them does.
func (r *fileRewriter) print(name string) ([]byte, error) {
	res := decorator.NewRestorer()
	fr := res.FileRestorer()
	af, err := fr.RestoreFile(r.df)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, res.Fset, af); err != nil {
		return nil, err
	}
	text := buf.String()
	if r.langBefore(genLang) {
		text = withGoVersion(text, genLang)
	}
	ofset := token.NewFileSet()
	of, err := parser.ParseFile(ofset, name, text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("instrumented source does not parse: %w", err)
	}
	pairs, ok := pairNodes(af, of, allNodes)
	if !ok {
		if pairs, ok = pairNodes(af, of, stmtOrDecl); !ok {
			return nil, fmt.Errorf("instrumented source does not match its syntax tree")
		}
	}
	want := r.wantedPositions()
	anchors := map[int][]anchor{} // by 0-based output line
	for _, pr := range pairs {
		d := fr.Dst.Nodes[pr[0]]
		p, ok := want[d]
		if !ok || !p.IsValid() {
			continue
		}
		op := ofset.PositionFor(pr[1].Pos(), false)
		anchors[op.Line-1] = append(anchors[op.Line-1], anchor{col: op.Column, want: p, orig: r.dec.Ast.Nodes[d] != nil})
	}
	src, err := format.Source([]byte(withDirectives(name, text, anchors)))
	if err != nil {
		return nil, fmt.Errorf("instrumented source: %w", err)
	}
	if checkLines {
		if err := verifyLines(name, src, af, fr, want, r.dec); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// anchor is a node of the printed file that must map to want: a node of
// the original file (orig), or a generated node standing for one.
type anchor struct {
	col  int // 1-based, in bytes
	want token.Position
	orig bool
}

// withDirectives adds the line directives that text's anchors need; see
// print.
func withDirectives(name, text string, anchors map[int][]anchor) string {
	lines := strings.SplitAfter(text, "\n")
	var out strings.Builder
	file, offset := name, 0 // output line k (0-based) maps to file:k+1+offset
	for k, line := range lines {
		as := firstPerColumn(anchors[k])
		start := len(line) - len(strings.TrimLeft(line, " \t")) + 1 // the first token's column
		if len(as) > 0 && as[0].col == start {
			if p := as[0].want; p.Filename != file || p.Line != k+1+offset {
				fmt.Fprintf(&out, "//line %s:%d:1\n", p.Filename, p.Line)
				file, offset = p.Filename, p.Line-(k+1)
			}
		}
		lineFile, lineNo, last := file, k+1+offset, 0
		for _, a := range as {
			if !a.orig || a.col == start || a.want.Filename == lineFile && a.want.Line == lineNo {
				continue
			}
			out.WriteString(inlineDirective(line[last:a.col-1], a.want))
			last, lineFile, lineNo = a.col-1, a.want.Filename, a.want.Line
		}
		out.WriteString(line[last:])
		if lineFile != file || lineNo != k+1+offset {
			file, offset = lineFile, lineNo-(k+1) // the next line follows the last directive
		}
		if f, l, ok := ParseLineDirective(line); ok {
			file, offset = f, l-(k+2)
		}
	}
	return out.String()
}

// inlineDirective returns the text before a token, prefix, with a
// /*line*/ directive giving the token the position p, laid out as gofmt
// lays it out (before a list's comma, and followed by a space otherwise),
// so that the token's column is p's too.
func inlineDirective(prefix string, p token.Position) string {
	directive := func(col int) string { return fmt.Sprintf("/*line %s:%d:%d*/", p.Filename, p.Line, col) }
	if before, ok := strings.CutSuffix(prefix, ", "); ok && p.Column > 2 {
		return before + " " + directive(p.Column-2) + ", "
	}
	if p.Column > 1 {
		return prefix + directive(p.Column-1) + " "
	}
	return prefix + directive(p.Column)
}

// firstPerColumn sorts anchors by column and keeps one per column: the
// first of the original file's, else the first.
func firstPerColumn(as []anchor) []anchor {
	slices.SortStableFunc(as, func(a, b anchor) int { return a.col - b.col })
	var out []anchor
	for _, a := range as {
		switch n := len(out); {
		case n == 0 || out[n-1].col != a.col:
			out = append(out, a)
		case a.orig && !out[n-1].orig:
			out[n-1] = a
		}
	}
	return out
}

// checkLines makes print verify that every node of the original file
// maps back to its line (tests set it).
var checkLines = false

// verifyLines checks that every node of af (the restored file) that
// stands for a node of the original file is, in src (af printed, with
// line directives), at a position that maps to the original's file and
// line.
func verifyLines(name string, src []byte, af *ast.File, fr *decorator.FileRestorer, want map[dst.Node]token.Position, dec *decorator.Decorator) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	pairs, ok := pairNodes(af, f, allNodes)
	if !ok {
		return fmt.Errorf("line check: the output does not match its syntax tree")
	}
	var bad []string
	for _, pr := range pairs {
		d := fr.Dst.Nodes[pr[0]]
		p, ok := want[d]
		if !ok || dec.Ast.Nodes[d] == nil {
			continue
		}
		if got := fset.Position(pr[1].Pos()); got.Filename != p.Filename || got.Line != p.Line {
			bad = append(bad, fmt.Sprintf("%T at %s maps to %s:%d", pr[1], p, got.Filename, got.Line))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("line check: %d nodes map to other lines than their own:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	return nil
}

// pairNodes lists the nodes of a and b that keep accepts, in depth-first
// order, and pairs them; ok is false when the lists do not match.
func pairNodes(a, b *ast.File, keep func(ast.Node) bool) ([][2]ast.Node, bool) {
	na, nb := nodesOf(a, keep), nodesOf(b, keep)
	if len(na) != len(nb) {
		return nil, false
	}
	pairs := make([][2]ast.Node, len(na))
	for i := range na {
		if reflect.TypeOf(na[i]) != reflect.TypeOf(nb[i]) {
			return nil, false
		}
		pairs[i] = [2]ast.Node{na[i], nb[i]}
	}
	return pairs, true
}

// nodesOf lists the nodes of f that keep accepts, in depth-first order,
// without comments and imports (gofmt sorts them).
func nodesOf(f *ast.File, keep func(ast.Node) bool) []ast.Node {
	var out []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case nil:
		case *ast.CommentGroup, *ast.Comment:
			return false
		case *ast.GenDecl:
			if n.Tok == token.IMPORT {
				return false
			}
			if keep(n) {
				out = append(out, n)
			}
		default:
			if keep(n) {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// allNodes keeps every node but parentheses, which the printer may drop.
func allNodes(n ast.Node) bool {
	_, paren := n.(*ast.ParenExpr)
	return !paren
}

// stmtOrDecl keeps statements and declarations.
func stmtOrDecl(n ast.Node) bool {
	switch n.(type) {
	case ast.Stmt, ast.Decl:
		return true
	}
	return false
}

// ParseLineDirective parses a //line comment at the start of text: the
// file and line it gives the line that follows.
func ParseLineDirective(text string) (file string, line int, ok bool) {
	rest, ok := strings.CutPrefix(text, "//line ")
	if !ok {
		return "", 0, false
	}
	rest = strings.TrimRight(rest, "\r\n")
	// file:line or file:line:col
	i := strings.LastIndexByte(rest, ':')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest[i+1:])
	if err != nil {
		return "", 0, false
	}
	if j := strings.LastIndexByte(rest[:i], ':'); j >= 0 {
		if m, err := strconv.Atoi(rest[j+1 : i]); err == nil {
			return rest[:j], m, true
		}
	}
	return rest[:i], n, true
}

// wantedPositions gives the statements and declarations of the rewritten
// file the original position they must map to: original nodes their own,
// generated ones the position of the construct they stand for, when the
// rewriter recorded one (the go statement of a spawn, the call in the
// child). Other generated lines map wherever the line before them does.
func (r *fileRewriter) wantedPositions() map[dst.Node]token.Position {
	want := map[dst.Node]token.Position{}
	dst.Inspect(r.df, func(n dst.Node) bool {
		if n == nil {
			return true
		}
		if a := r.dec.Ast.Nodes[n]; a != nil && a.Pos().IsValid() {
			want[n] = r.pos(a.Pos())
		} else if o, ok := r.origin[n]; ok {
			want[n] = o
		}
		return true
	})
	return want
}
