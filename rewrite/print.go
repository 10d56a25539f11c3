package rewrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
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

// print restores the file, prints it gofmt-style, and adds //line
// directives wherever a statement's line would otherwise not map back to
// the line of the construct it comes from.
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
	want := r.wantedPositions()
	restored := stmtsOf(af)
	ofset := token.NewFileSet()
	of, err := parser.ParseFile(ofset, name, buf.Bytes(), parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("instrumented source does not parse: %w", err)
	}
	printed := stmtsOf(of)
	if len(printed) != len(restored) {
		return nil, fmt.Errorf("instrumented source does not match its syntax tree (%d statements, want %d)", len(printed), len(restored))
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	directives := map[int]token.Position{} // 0-based output line → position it must map to
	for i, n := range restored {
		d := fr.Dst.Nodes[n]
		p, ok := want[d]
		if !ok || !p.IsValid() {
			continue
		}
		op := ofset.PositionFor(printed[i].Pos(), false)
		line := op.Line - 1
		if _, seen := directives[line]; seen || line >= len(lines) {
			continue
		}
		if strings.TrimLeft(lines[line], " \t") != lines[line][op.Column-1:] {
			continue // not the first token of its line
		}
		directives[line] = p
	}
	var out strings.Builder
	file, offset := name, 0 // output line k (1-based) maps to file:k+offset
	for k, text := range lines {
		if p, ok := directives[k]; ok && (p.Filename != file || p.Line != k+1+offset) {
			fmt.Fprintf(&out, "//line %s:%d:1\n", p.Filename, p.Line)
			file, offset = p.Filename, p.Line-(k+1)
		}
		out.WriteString(text)
		if f, l, ok := lineDirective(text); ok {
			file, offset = f, l-(k+2)
		}
	}
	src, err := format.Source([]byte(out.String()))
	if err != nil {
		return nil, fmt.Errorf("instrumented source: %w", err)
	}
	return src, nil
}

// lineDirective parses a //line comment at the start of text.
func lineDirective(text string) (string, int, bool) {
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

// stmtsOf lists the statements and declarations of f in depth-first
// order.
func stmtsOf(f *ast.File) []ast.Node {
	var out []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case ast.Stmt, ast.Decl:
			out = append(out, n)
		}
		return true
	})
	return out
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
