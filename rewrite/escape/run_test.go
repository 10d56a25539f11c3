package escape

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// testEnv keeps the go command away from the user's configuration and the
// network.
var testEnv = []string{"GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off"}

const sitesDir = "testdata/src/sites"

// runSites analyses testdata/src/sites once per mode for all tests.
var runSites = sync.OnceValue(func() map[bool]runResult {
	results := make(map[bool]runResult)
	for _, tests := range []bool{false, true} {
		r, err := Run(context.Background(), sitesDir, Options{Tests: tests, Env: testEnv}, "./...")
		results[tests] = runResult{r, err}
	}
	return results
})

type runResult struct {
	r   *Result
	err error
}

func sitesResult(t *testing.T, tests bool) *Result {
	t.Helper()
	res := runSites()[tests]
	if res.err != nil {
		t.Fatal(res.err)
	}
	return res.r
}

// siteCase is one expectation about testdata/src/sites: the compiler's
// decision at a position, and the go/ast expression whose Pos that is.
type siteCase struct {
	what      string
	file      string // relative to testdata/src/sites
	line, col int
	kind      Kind // 0: the compiler reports nothing there
	expr      string
	inlined   bool
	node      string // the go/ast type of the expression; "" if none
	operand   bool   // a conversion, reported at Pos of its operand
	tests     bool   // only with Options.Tests
}

// siteCases is the column table of the package documentation, verified.
var siteCases = []siteCase{
	{what: "make slice, escapes", file: "sites.go", line: 16, col: 11, kind: Heap, expr: "make([]int, n)", node: "CallExpr"},
	{what: "make slice, constant size", file: "sites.go", line: 21, col: 11, kind: Stack, expr: "make([]int, 8)", node: "CallExpr"},
	{what: "make slice, too large", file: "sites.go", line: 26, col: 11, kind: Heap, expr: "make([]byte, 1048576)", node: "CallExpr"},
	{what: "new, does not escape", file: "sites.go", line: 31, col: 10, kind: Stack, expr: "new(T)", node: "CallExpr"},
	{what: "make map", file: "sites.go", line: 36, col: 13, kind: Heap, expr: "make(map[string]int)", node: "CallExpr"},
	{what: "make chan: not reported", file: "sites.go", line: 40, col: 13, node: "CallExpr"},
	{what: "new, escapes", file: "sites.go", line: 44, col: 12, kind: Heap, expr: "new(T)", node: "CallExpr"},
	{what: "&T{}", file: "sites.go", line: 48, col: 9, kind: Heap, expr: "&T{...}", node: "UnaryExpr"},
	{what: "T{} to interface", file: "sites.go", line: 52, col: 10, kind: Heap, expr: "T{...}", node: "CompositeLit"},
	{what: "slice literal", file: "sites.go", line: 56, col: 14, kind: Heap, expr: "[]int{...}", node: "CompositeLit"},
	{what: "slice of pointers literal", file: "sites.go", line: 60, col: 13, kind: Heap, expr: "[]*T{...}", node: "CompositeLit"},
	{what: "elided &T{}", file: "sites.go", line: 60, col: 14, kind: Heap, expr: "&T{...}", node: "CompositeLit"},
	{what: "map literal", file: "sites.go", line: 64, col: 23, kind: Heap, expr: "map[string]int{...}", node: "CompositeLit"},
	{what: "a + b + c", file: "sites.go", line: 68, col: 15, kind: Heap, expr: "a + b + c", node: "BinaryExpr"},
	{what: "a + b, does not escape", file: "sites.go", line: 72, col: 9, kind: Stack, expr: "a + b", node: "BinaryExpr"},
	{what: "a += b: not reported", file: "sites.go", line: 76, col: 4},
	{what: "string(b)", file: "sites.go", line: 82, col: 16, kind: Heap, expr: "string(b)", node: "CallExpr", operand: true},
	{what: "[]byte(s)", file: "sites.go", line: 86, col: 16, kind: Heap, expr: "([]byte)(s)", node: "CallExpr", operand: true},
	{what: "[]rune(s)", file: "sites.go", line: 90, col: 16, kind: Heap, expr: "([]rune)(s)", node: "CallExpr", operand: true},
	{what: "string(r)", file: "sites.go", line: 94, col: 16, kind: Heap, expr: "string(r)", node: "CallExpr", operand: true},
	{what: "string((b))", file: "sites.go", line: 98, col: 16, kind: Heap, expr: "string(b)", node: "CallExpr", operand: true},
	{what: "closure", file: "sites.go", line: 102, col: 9, kind: Heap, expr: "func literal", node: "FuncLit"},
	{what: "closure inlined: not reported", file: "sites.go", line: 106, col: 7, node: "FuncLit"},
	{what: "method value", file: "sites.go", line: 111, col: 10, kind: Heap, expr: "t.M", node: "SelectorExpr"},
	{what: "moved variable", file: "sites.go", line: 115, col: 2, kind: Moved, expr: "x", node: "Ident"},
	{what: "append, escapes", file: "sites.go", line: 120, col: 15, kind: Heap, expr: "append", node: "CallExpr"},
	{what: "append, local", file: "sites.go", line: 126, col: 13, kind: Stack, expr: "append", node: "CallExpr"},
	{what: "int to interface", file: "sites.go", line: 132, col: 9, kind: Heap, expr: "x", node: "Ident"},
	{what: "call result to interface", file: "sites.go", line: 136, col: 14, kind: Heap, expr: "value()", node: "CallExpr"},
	{what: "field to interface", file: "sites.go", line: 143, col: 10, kind: Heap, expr: "t.b", node: "SelectorExpr"},
	{what: "variadic argument", file: "sites.go", line: 149, col: 17, kind: Stack, expr: "... argument", node: "CallExpr"},
	{what: "go closure", file: "sites.go", line: 153, col: 5, kind: Heap, expr: "func literal", node: "FuncLit"},
	{what: "literal in go closure", file: "sites.go", line: 153, col: 22, kind: Heap, expr: "&T{...}", node: "UnaryExpr"},
	{what: "dereference to interface", file: "sites.go", line: 157, col: 9, kind: Heap, expr: "*p", node: "StarExpr"},
	{what: "element to interface", file: "sites.go", line: 161, col: 10, kind: Heap, expr: "s[0]", node: "IndexExpr"},
	{what: "assertion to interface", file: "sites.go", line: 165, col: 10, kind: Heap, expr: "x.(int)", node: "TypeAssertExpr"},

	{what: "site with escaping copy", file: "inline.go", line: 7, col: 23, kind: Heap, expr: "&T{...}", node: "UnaryExpr"},
	{what: "escaping copy at the call", file: "inline.go", line: 9, col: 30, kind: Heap, expr: "&T{...}", node: "CallExpr"},
	{what: "stack copy at the call", file: "inline.go", line: 11, col: 31, kind: Stack, expr: "&T{...}", node: "CallExpr"},
	{what: "too large copy at the call", file: "inline.go", line: 15, col: 35, kind: Heap, expr: "make([]byte, 1048576)", node: "CallExpr"},
	{what: "small copy at the call", file: "inline.go", line: 17, col: 37, kind: Stack, expr: "make([]byte, 16)", node: "CallExpr"},
	{what: "copy of another package's site", file: "inline.go", line: 19, col: 39, kind: Heap, expr: "&dep.P{...}", node: "CallExpr"},
	{what: "site of another package", file: "dep/dep.go", line: 8, col: 25, kind: Heap, expr: "&P{...}", node: "UnaryExpr"},
	{what: "stack site whose inlined copy escapes", file: "dep/dep.go", line: 12, col: 11, kind: Heap, expr: "make([]byte, 1048576)", inlined: true, node: "CallExpr"},
	{what: "copy in a function inlined in turn", file: "inline.go", line: 23, col: 41, kind: Stack, expr: "make([]uint64, dep.n)", node: "CallExpr"},
	{what: "copy of a copy at the outer call", file: "inline.go", line: 25, col: 36, kind: Heap, expr: "make([]uint64, 1048576)", node: "CallExpr"},
	{what: "site whose copy of a copy escapes", file: "dep/dep.go", line: 18, col: 11, kind: Heap, expr: "make([]uint64, 1048576)", inlined: true, node: "CallExpr"},

	{what: "test file", file: "sites_test.go", line: 6, col: 7, kind: Stack, expr: "&T{...}", node: "UnaryExpr", tests: true},
	{what: "test file, copy at the call", file: "sites_test.go", line: 7, col: 12, kind: Heap, expr: "&T{...}", node: "CallExpr", tests: true},
	{what: "external test file", file: "ext_test.go", line: 12, col: 17, kind: Heap, expr: "&dep.P{...}", node: "CallExpr", tests: true},
	{what: "external test file, stack", file: "ext_test.go", line: 13, col: 11, kind: Stack, expr: "make([]byte, 10)", node: "CallExpr", tests: true},
}

func absSites(t *testing.T, file string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(sitesDir, filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestRunSites checks Run's decisions on testdata/src/sites against the
// table, for the build and the test build.
func TestRunSites(t *testing.T) {
	for _, tests := range []bool{false, true} {
		t.Run(fmt.Sprintf("tests=%v", tests), func(t *testing.T) {
			r := sitesResult(t, tests)
			for _, c := range siteCases {
				got, ok := r.Lookup(absSites(t, c.file), c.line, c.col)
				switch {
				case c.kind == 0 || c.tests && !tests:
					if ok {
						t.Errorf("%s: %s:%d:%d: got %v, want no decision", c.what, c.file, c.line, c.col, got)
					}
				case !ok:
					t.Errorf("%s: %s:%d:%d: no decision, want %v %s", c.what, c.file, c.line, c.col, c.kind, c.expr)
				case got.Kind != c.kind || got.Expr != c.expr || got.Inlined != c.inlined:
					t.Errorf("%s: %s:%d:%d: got %v, want %v %s inlined=%v", c.what, c.file, c.line, c.col, got, c.kind, c.expr, c.inlined)
				}
			}
			for _, f := range r.Files() {
				if filepath.Base(f) == "_testmain.go" {
					t.Errorf("decisions for the generated test main: %v", r.Sites(f))
				}
				if !tests && strings.HasSuffix(f, "_test.go") {
					t.Errorf("decisions for a test file without Tests: %v", r.Sites(f))
				}
			}
		})
	}
}

// TestPos checks that Pos of the expression each case names is the
// compiler's position.
func TestPos(t *testing.T) {
	fset := token.NewFileSet()
	files := make(map[string]*ast.File)
	for _, c := range siteCases {
		if c.node == "" {
			continue
		}
		f := files[c.file]
		if f == nil {
			var err error
			f, err = parser.ParseFile(fset, absSites(t, c.file), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files[c.file] = f
		}
		var found []string
		ast.Inspect(f, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok || reflect.TypeOf(e).Elem().Name() != c.node {
				return true
			}
			pos := Pos(e)
			if call, ok := e.(*ast.CallExpr); ok && c.operand && len(call.Args) == 1 {
				pos = Pos(call.Args[0])
			}
			if p := fset.Position(pos); p.Line == c.line {
				found = append(found, fmt.Sprintf("%d:%d", p.Line, p.Column))
			}
			return true
		})
		if want := fmt.Sprintf("%d:%d", c.line, c.col); !contains(found, want) {
			t.Errorf("%s: no %s at %s:%s (found %v)", c.what, c.node, c.file, want, found)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestPosOperators checks Pos on expressions the testdata has not.
func TestPosOperators(t *testing.T) {
	tests := []struct {
		expr string
		col  int // of Pos, 1-based
	}{
		{"x", 1},
		{"x.f", 2},
		{"pkg.T{}", 6},
		{"x.(int)", 2},
		{"s[i]", 2},
		{"s[i:j]", 2},
		{"m[K, V]", 2},
		{"f(x)", 2},
		{"a + b", 3},
		{"a + (b + c)", 3},
		{"&x", 1},
		{"-x", 1},
		{"*p", 1},
		{"(x)", 1},
		{"func() {}", 1},
		{`"s"`, 1},
	}
	for _, tt := range tests {
		fset := token.NewFileSet()
		e, err := parser.ParseExprFrom(fset, "e.go", tt.expr, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := fset.Position(Pos(e)).Column; got != tt.col {
			t.Errorf("Pos(%s) is column %d, want %d", tt.expr, got, tt.col)
		}
	}
	kv := &ast.KeyValueExpr{Key: ast.NewIdent("k"), Colon: 7, Value: ast.NewIdent("v")}
	if Pos(kv) != 7 {
		t.Errorf("Pos(k: v) = %d, want the colon, 7", Pos(kv))
	}
}

// TestRunMains checks that two commands, whose optimisation logs would
// be written to the same files in one go command, both have their inlined
// copies attributed.
func TestRunMains(t *testing.T) {
	r, err := Run(context.Background(), "testdata/src/mains", Options{Env: testEnv}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"a", "b"} {
		file, err := filepath.Abs(filepath.Join("testdata/src/mains", cmd, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		want := Site{File: file, Line: 6, Col: 11, Expr: "make([]uint64, 1048576)", Kind: Heap, Inlined: true}
		if got, ok := r.Lookup(file, 6, 11); got != want {
			t.Errorf("Lookup(%s, 6, 11) = %v, %v; want %v", file, got, ok, want)
		}
	}
}

// TestRunGCFlags checks that the real build's compiler flags reach the
// analysis: without inlining (-l) there are no copies.
func TestRunGCFlags(t *testing.T) {
	r, err := Run(context.Background(), sitesDir, Options{GCFlags: []string{"-l"}, Env: testEnv}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file      string
		line, col int
		kind      Kind // 0: no decision
	}{
		{"inline.go", 9, 30, 0},
		{"dep/dep.go", 12, 11, Stack},
		{"sites.go", 149, 17, Stack}, // the variadic argument stays
	}
	for _, tt := range tests {
		got, ok := r.Lookup(absSites(t, tt.file), tt.line, tt.col)
		if got.Kind != tt.kind || ok != (tt.kind != 0) {
			t.Errorf("-l: Lookup(%s:%d:%d) = %v, %v; want kind %v", tt.file, tt.line, tt.col, got, ok, tt.kind)
		}
	}
}

// TestRunTwice checks that a second Run, after the first filled the build
// cache, finds the same decisions.
func TestRunTwice(t *testing.T) {
	first := sitesResult(t, false)
	second, err := Run(context.Background(), sitesDir, Options{Env: testEnv}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, second) {
		t.Errorf("second Run differs:\nfirst  %v\nsecond %v", first.files, second.files)
	}
}

// TestRunErrors checks the errors of Run.
func TestRunErrors(t *testing.T) {
	tests := []struct {
		name     string
		dir      string
		opts     Options
		patterns []string
		want     []string
		is       error
	}{
		{"compile error", "testdata/src/broken", Options{}, nil,
			[]string{"escape analysis of .: go build: exit status 1", "# broken", "broken.go:5:9: undefined: undefinedThing"}, nil},
		{"compile error, tests", "testdata/src/broken", Options{Tests: true}, []string{"."},
			[]string{"escape analysis of .: go build", "undefined: undefinedThing"}, nil},
		{"no go command", sitesDir, Options{Go: "spgo-no-such-go-command"}, []string{"./..."},
			[]string{`escape analysis of ./...: go command "spgo-no-such-go-command"`}, exec.ErrNotFound},
		{"no package", sitesDir, Options{}, []string{"./nosuchdir"},
			[]string{"escape analysis of ./nosuchdir: go list: exit status 1", "nosuchdir"}, nil},
		{"output flag", sitesDir, Options{BuildFlags: []string{"-o=x"}}, nil,
			[]string{"build flag -o=x is not allowed"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Env = testEnv
			r, err := Run(context.Background(), tt.dir, tt.opts, tt.patterns...)
			if err == nil {
				t.Fatalf("Run = %v, want an error", r.files)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %q is not %v", err, tt.is)
			}
		})
	}
}

// TestRunVetOff checks that the escape analysis of tests does not vet:
// go test -c runs vet's checks by default, and a package whose tests go
// vet rejects (an example named after nothing) still builds and runs
// under go test -vet=off, as under spbuild test.
func TestRunVetOff(t *testing.T) {
	r, err := Run(context.Background(), "testdata/src/vetfails", Options{Env: testEnv, Tests: true}, ".")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(r.files) == 0 {
		t.Errorf("Run found no escape decisions in vetfails")
	}
}

// TestRunCanceled checks that a canceled context stops Run.
func TestRunCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, sitesDir, Options{Env: testEnv}, "./..."); !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
}

// TestBuildFlags checks which of the user's flags Run passes on.
func TestBuildFlags(t *testing.T) {
	tests := []struct {
		in, want []string
		err      bool
	}{
		{[]string{"-tags", "x", "-race"}, []string{"-tags", "x", "-race"}, false},
		{[]string{"-trimpath", "-mod=mod"}, []string{"-mod=mod"}, false},
		{[]string{"--trimpath=true"}, nil, false},
		{[]string{"-gcflags=all=-l"}, []string{"-gcflags=all=-l"}, false},
		{[]string{"-overlay=o.json"}, []string{"-overlay=o.json"}, false},
		{[]string{"-o", "x"}, nil, true},
		{[]string{"-c"}, nil, true},
		{[]string{"-json"}, nil, true},
		{[]string{"-n"}, nil, true},
	}
	for _, tt := range tests {
		got, err := buildFlags(tt.in)
		if (err != nil) != tt.err || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("buildFlags(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// TestJoinFlags checks the quoting of -gcflags.
func TestJoinFlags(t *testing.T) {
	tests := []struct {
		in   []string
		want string
		err  bool
	}{
		{[]string{"-l", "-m"}, "-l -m", false},
		{[]string{"-json=0,/tmp/a b"}, "'-json=0,/tmp/a b'", false},
		{[]string{"-d='x' y"}, `"-d='x' y"`, false},
		{[]string{""}, "''", false},
		{[]string{`'"`}, "", true},
	}
	for _, tt := range tests {
		got, err := joinFlags(tt.in)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("joinFlags(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// TestLostCopies checks that an escape of inlined code missing from the
// optimisation log is reported as lost, and nothing else is.
func TestLostCopies(t *testing.T) {
	call := position{"/src/a.go", 9, 30}
	own := position{"/src/a.go", 7, 23}
	site := func(p position, k Kind) Site {
		return Site{File: p.file, Line: p.line, Col: p.col, Expr: "&T{...}", Kind: k}
	}
	tests := []struct {
		name   string
		sites  []Site
		logged []position
		lost   bool
	}{
		{"logged", []Site{site(call, Heap)}, []position{call}, false},
		{"lost", []Site{site(call, Heap)}, nil, true},
		{"lost variable", []Site{site(call, Moved)}, []position{own}, true},
		{"stack copy", []Site{site(call, Stack)}, nil, false},
		{"not at a call", []Site{site(own, Heap)}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := &output{sites: tt.sites, inlineCalls: map[position]bool{call: true}}
			found := &logs{escapes: make(map[position]bool)}
			for _, p := range tt.logged {
				found.escapes[p] = true
			}
			lost := lostCopies(out, found)
			if (len(lost) > 0) != tt.lost {
				t.Errorf("lostCopies = %v, want lost %v", lost, tt.lost)
			}
		})
	}
}

// TestRunLost checks that Run succeeds when the compiler's log of a copy
// inlined in one package is overwritten by another file of the same base
// name (b/iter.go over a/iter.go, where b instantiates a.Gen, which
// inlines a.buf), and reports the copies as lost at their calls.
func TestRunLost(t *testing.T) {
	dir := "testdata/src/lost"
	r, err := Run(context.Background(), dir, Options{Env: testEnv}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	file, err := filepath.Abs(filepath.Join(dir, "a", "iter.go"))
	if err != nil {
		t.Fatal(err)
	}
	want := Site{File: file, Line: 13, Col: 15, Expr: "make([]byte, 1048576)", Kind: Heap}
	if lost := r.Lost(); !slices.Contains(lost, want) {
		t.Errorf("Lost() = %v, want it to hold %v", lost, want)
	}
	if !r.InlinedAt(file, 13, 15) {
		t.Errorf("InlinedAt(%s, 13, 15) = false, want true (buf is inlined into Gen)", file)
	}
	// buf's own decision stands: the lost copy is not attributed to it.
	if got, _ := r.Lookup(file, 7, 11); got.Kind != Stack {
		t.Errorf("Lookup(buf's make) = %v, want stack", got)
	}
}

// TestPlan checks how packages are divided between go commands.
func TestPlan(t *testing.T) {
	files := []string{"a.go"}
	pkgs := []listed{
		{ImportPath: "m/a", Name: "a", GoFiles: files},
		{ImportPath: "m/b", Name: "b", GoFiles: files, TestGoFiles: files},
		{ImportPath: "m/cmd/x", Name: "main", GoFiles: files},
		{ImportPath: "m/cmd/y", Name: "main", GoFiles: files},
		{ImportPath: "m/onlytests", Name: "onlytests", XTestGoFiles: files},
		{ImportPath: "m/c", Name: "c", CgoFiles: files},
	}
	tests := []struct {
		tests bool
		want  []job
	}{
		{false, []job{{"build", []string{"m/a", "m/b", "m/c"}}, {"build", []string{"m/cmd/x"}}, {"build", []string{"m/cmd/y"}}}},
		{true, []job{{"build", []string{"m/a", "m/c"}}, {"test", []string{"m/b"}}, {"build", []string{"m/cmd/x"}},
			{"build", []string{"m/cmd/y"}}, {"test", []string{"m/onlytests"}}}},
	}
	for _, tt := range tests {
		if got := plan(pkgs, []string{"./..."}, tt.tests); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("plan(tests=%v) = %v, want %v", tt.tests, got, tt.want)
		}
	}
	files1 := []listed{{ImportPath: "command-line-arguments", Name: "main", GoFiles: []string{"a.go", "b.go"}}}
	if got, want := plan(files1, []string{"a.go", "b.go"}, false), []job{{"build", []string{"a.go", "b.go"}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("plan(files) = %v, want %v", got, want)
	}
}
