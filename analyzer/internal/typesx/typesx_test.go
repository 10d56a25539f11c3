package typesx

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

func TestNamedAndBuiltin(t *testing.T) {
	const src = `package p

import "sync"

var wg sync.WaitGroup
var pwg = &wg
var n = len("x")

func f() int {
	len := func(string) int { return 0 }
	return len("y")
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want bool
	}{{"wg", true}, {"pwg", true}, {"n", false}} {
		if got := IsNamed(pkg.Scope().Lookup(tc.name).Type(), "sync", "WaitGroup"); got != tc.want {
			t.Errorf("IsNamed(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
	var builtin, shadowed int
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if IsBuiltin(info, call, "len") {
				builtin++
			} else {
				shadowed++
			}
		}
		return true
	})
	if builtin != 1 || shadowed != 1 {
		t.Errorf("builtin len calls %d, others %d; want 1 and 1", builtin, shadowed)
	}
}
