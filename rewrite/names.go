package rewrite

import (
	"fmt"
	"go/ast"
	"strings"
)

// namer hands out identifiers that no user identifier of the package can
// clash with: every generated name starts with "spgo_" and is checked
// against every identifier spelled in the package's files.
type namer struct {
	taken map[string]bool
	fixed map[string]string // base → chosen name, so a file uses one spelling per base
}

func newNamer(files []*ast.File) *namer {
	n := &namer{taken: map[string]bool{}, fixed: map[string]string{}}
	for _, f := range files {
		ast.Inspect(f, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.Ident:
				n.taken[x.Name] = true
			case *ast.ImportSpec:
				if x.Name != nil {
					n.taken[x.Name.Name] = true
				}
			}
			return true
		})
	}
	return n
}

// name returns the generated identifier for base ("t", "rt", "a0"): the
// same one every time it is asked for that base.
func (n *namer) name(base string) string {
	if s, ok := n.fixed[base]; ok {
		return s
	}
	s := "spgo_" + base
	for i := 1; n.taken[s]; i++ {
		s = fmt.Sprintf("spgo_%s_%d", base, i)
	}
	n.fixed[base] = s
	return s
}

// fileVar returns the name of a file's site-base variable, derived from the
// file's base name so that rewriting a file does not depend on the other
// files of its package.
func fileVar(n *namer, base string) string {
	base = strings.TrimSuffix(base, ".go")
	var b strings.Builder
	for _, r := range base {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return n.name("s_" + b.String())
}
