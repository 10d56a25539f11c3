package rewrite

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestTypedShapes rewrites small programs whose hooked operands have
// other types than the hooks would infer (issue 22), with every site on
// the heap, and type-checks the output against the real rtlib: each
// program's output must compile and contain the shape named, and the
// rewriter must warn when it leaves an operation alone.
func TestTypedShapes(t *testing.T) {
	imp, err := loadImporter()
	if err != nil {
		t.Fatal(err)
	}
	const decls = `package p

import (
	"errors"
	"io/fs"
	. "io/fs"
)

type point struct{ x int }
type flag bool
type ints []int
type lab string

var _ = errors.New
var _ = fs.ErrExist
var _ = ErrExist

func points() chan struct{ x int } { return nil }
func anyf(any)                      {}
func flagf(flag)                    {}
func bytef(uint8)                   {}
`
	tests := []struct {
		name, body, want string
		warning          string // a reason, when the operation is left alone
	}{
		{"labeled send, impure channel of an unnamed struct type",
			"L:\n\tpoints() <- point{1}\n\tgoto L", "spgo_sc := points()", ""},
		{"send in an if's init statement",
			"if points() <- (point{1}); true {\n\t}", "func() {", ""},
		{"send in a switch's init statement",
			"switch points() <- (point{1}); {\n\t}", "func() {", ""},
		{"nested channel types",
			"cc := make(chan chan<- int, 1)\n\tc := make(chan int)\n\tcc <- c", "ChanOf(cc)", ""},
		{"element type of a dot-imported package",
			"c := make(chan []*PathError, 1)\n\ttype pes []*PathError\n\tc <- pes(nil)", "ChanOf((chan []*fs.PathError)(nil))", ""},
		{"named slice spread",
			"var s []int\n\tvar t ints\n\ts = append(s, t...)\n\t_ = s", "SliceOf(([]int)(nil))", ""},
		{"local named bool in a go argument",
			"type lflag bool\n\tf := func(lflag) {}\n\tn := 1\n\tgo f(n == 1)", "lflag(n == 1)", ""},
		{"shadowed bool type in a go argument",
			"flag := 3\n\tgo flagf(flag == 3)", "spgo_a0 == true", ""},
		{"untyped bool for an interface parameter",
			"n := 1\n\tgo anyf(n == 1)", "spgo_a0 := n == 1", ""},
		{"shift for a uint8 parameter",
			"n := 1\n\tgo bytef(1 << n)", "uint8(1 << n)", ""},
		{"shift for a hidden type",
			"type uint8 = int\n\tn := 1\n\tgo bytef(1 << n)\n\tvar _ uint8", "go bytef(1 << n)", "go statement not instrumented"},
		{"redeclared string",
			"string := 0\n\t_ = string\n\tvar b []byte\n\tvar s lab\n\tb = append(b, s...)\n\t_ = b", "b = append(b, s...)", "append not instrumented"},
		{"defined string spread",
			"var b []byte\n\tvar s lab\n\tb = append(b, s...)\n\t_ = b", "AppendString(spgo_s_a+0, b, string(s))", ""},
		{"untyped nil and constants",
			"c := make(chan error, 1)\n\tc <- nil\n\tvar e []any\n\te = append(e, 1, \"s\", nil)\n\t_ = e", "spgo_rt.Send(", ""},
		{"comma-ok into a named bool in a select",
			"c := make(chan int)\n\tvar v int\n\tvar ok flag\n\tselect {\n\tcase v, ok = <-c:\n\t}\n\t_, _ = v, ok", "flag(spgo_ok0)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := decls + "\nfunc f() {\n\t" + tt.body + "\n}\n"
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, "/typed/a.go", src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			pkg, info, err := typeCheck(fset, file, imp)
			if err != nil {
				t.Fatalf("input: %v\n%s", err, src)
			}
			out, err := File(Input{Fset: fset, File: file, Pkg: pkg, Info: info})
			if err != nil {
				t.Fatal(err)
			}
			got := out.Src
			if !out.Changed {
				got = []byte(src)
			}
			ofset := token.NewFileSet()
			of, err := parser.ParseFile(ofset, "/typed/a.go", got, parser.ParseComments)
			if err != nil {
				t.Fatalf("output does not parse: %v\n%s", err, got)
			}
			if _, _, err := typeCheck(ofset, of, imp); err != nil {
				t.Errorf("output does not type-check: %v\n%s", err, got)
			}
			if !strings.Contains(string(got), tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, got)
			}
			var warned []string
			for _, w := range out.Warnings {
				warned = append(warned, w.Reason)
			}
			if all := strings.Join(warned, "\n"); (tt.warning == "") != (all == "") || !strings.Contains(all, tt.warning) {
				t.Errorf("warnings %q, want one like %q", warned, tt.warning)
			}
		})
	}
}
