package rewrite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The contract table of README.md names the rtlib hooks the rewriter
// emits. TestContractTable keeps it from drifting: every rt.X the table
// names must be an exported name of package rtlib, called with as many
// arguments as it takes and with a site first when its first parameter
// is a Site (and rt.X(…).M a method of X's result type); and every hook
// the rewriter emits (a selector of the rtlib import in a golden file,
// or an rtlib function named by a string literal in the rewriter's
// source) must be in the table.

// rtFunc is what the test knows of one exported rtlib function.
type rtFunc struct {
	params   int    // number of parameters
	variadic bool   // the last one is ...T
	siteArg  bool   // the first one is a Site
	result   string // the name of its first result's type, "" if none
}

// rtExports parses package rtlib (without its tests) and returns its
// exported package-level functions, its other exported package-level
// names (types, constants, variables) and the exported methods of each
// type ("ChanOps.Send").
func rtExports(t *testing.T) (funcs map[string]rtFunc, others, methods map[string]bool) {
	t.Helper()
	funcs, others, methods = map[string]rtFunc{}, map[string]bool{}, map[string]bool{}
	for _, f := range parseSources(t, token.NewFileSet(), filepath.Join(repoRoot, "rtlib")) {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv != nil {
					methods[typeName(d.Recv.List[0].Type)+"."+d.Name.Name] = true
					continue
				}
				funcs[d.Name.Name] = describe(d.Type)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						others[s.Name.Name] = s.Name.IsExported()
					case *ast.ValueSpec:
						for _, n := range s.Names {
							others[n.Name] = n.IsExported()
						}
					}
				}
			}
		}
	}
	for n, exported := range others {
		if !exported {
			delete(others, n)
		}
	}
	return funcs, others, methods
}

// typeName returns the name of the type expression x: T, *T, T[A], T[A, B].
func typeName(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.StarExpr:
		return typeName(x.X)
	case *ast.IndexExpr:
		return typeName(x.X)
	case *ast.IndexListExpr:
		return typeName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}

// parseSources parses the Go files of dir but its tests.
func parseSources(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no Go sources in %s: %v", dir, err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", dir, err)
		}
		files = append(files, f)
	}
	return files
}

// describe counts ft's parameters.
func describe(ft *ast.FuncType) rtFunc {
	var f rtFunc
	for i, p := range ft.Params.List {
		n := max(len(p.Names), 1)
		if i == 0 {
			id, ok := p.Type.(*ast.Ident)
			f.siteArg = ok && id.Name == "Site"
		}
		if _, ok := p.Type.(*ast.Ellipsis); ok {
			f.variadic = true
		}
		f.params += n
	}
	if ft.Results != nil && len(ft.Results.List) > 0 {
		f.result = typeName(ft.Results.List[0].Type)
	}
	return f
}

// contractTable returns the rows of README.md's contract table.
func contractTable(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatalf("read the contract: %v", err)
	}
	var rows []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in = strings.Contains(line, "contract")
		case in && strings.HasPrefix(line, "|"):
			rows = append(rows, line)
		}
	}
	if len(rows) < 10 {
		t.Fatalf("README.md: found %d rows of the contract table (a \"## ... contract\" section with a table)", len(rows))
	}
	return rows
}

var (
	rtRef     = regexp.MustCompile(`\brt\.([A-Z][A-Za-z0-9_]*)`)
	methodRef = regexp.MustCompile(`^\.([A-Z][A-Za-z0-9_]*)`)
)

// callArgs returns the top-level arguments of the call whose "(" is at
// s[0] and the index after its ")", and false if the parentheses do not
// balance.
func callArgs(s string) ([]string, int, bool) {
	depth, start := 0, 1
	var args []string
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if a := strings.TrimSpace(s[start:i]); a != "" || len(args) > 0 {
					args = append(args, a)
				}
				return args, i + 1, true
			}
		case ',':
			if depth == 1 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, 0, false
}

// checkCall reports a call rt.name(args) in the table that does not fit
// rtlib's signature.
func checkCall(t *testing.T, name string, f rtFunc, args []string) {
	t.Helper()
	joined := strings.Join(args, ", ")
	if strings.Contains(joined, "...") {
		return // a spread or an elision: no count to check
	}
	multi := len(args) == 1 && strings.HasSuffix(args[0], ")") && f.params > 1 // f(g()) with g multi-valued
	if !multi && len(args) != f.params && !(f.variadic && len(args) >= f.params-1) {
		t.Errorf("contract table: rt.%s(%s) has %d arguments, rtlib's %s takes %d", name, joined, len(args), name, f.params)
	}
	if f.siteArg && len(args) > 0 && args[0] != "site" && !strings.HasPrefix(args[0], "spgo_base") {
		t.Errorf("contract table: rt.%s(%s): the first argument is a site (rtlib.Site), write it \"site\"", name, joined)
	}
}

// goldenFiles returns the rewriter's golden outputs (testdata/**/*.golden).
func goldenFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{"testdata"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return filepath.SkipDir
				}
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".golden") {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("golden files: %v", err)
		}
	}
	if len(out) == 0 {
		t.Fatal("no golden files of the rewriter found")
	}
	return out
}

var goldenRef = regexp.MustCompile(`\bspgo_rt\.([A-Z][A-Za-z0-9_]*)`)

// emitted returns the rtlib names the rewriter emits: the selectors of
// the rtlib import in the golden files, and the string literals of the
// rewriter's source that name an exported rtlib function (hooks built
// from a name, as methodHook's). Op constants are left out: the sites
// row names them as a family.
func emitted(t *testing.T, funcs map[string]rtFunc) map[string]string {
	t.Helper()
	names := map[string]string{}
	for _, g := range goldenFiles(t) {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatalf("read golden file: %v", err)
		}
		for _, m := range goldenRef.FindAllStringSubmatch(string(b), -1) {
			if !strings.HasPrefix(m[1], "Op") {
				names[m[1]] = filepath.Base(g)
			}
		}
	}
	fset := token.NewFileSet()
	for _, f := range parseSources(t, fset, ".") {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil {
				if _, ok := funcs[s]; ok {
					names[s] = fset.Position(lit.Pos()).String()
				}
			}
			return true
		})
	}
	return names
}

func TestContractTable(t *testing.T) {
	funcs, others, methods := rtExports(t)
	named := map[string]bool{}
	for _, row := range contractTable(t) {
		for _, loc := range rtRef.FindAllStringSubmatchIndex(row, -1) {
			name := row[loc[2]:loc[3]]
			named[name] = true
			f, isFunc := funcs[name]
			if !isFunc {
				if !others[name] {
					t.Errorf("contract table: rt.%s is not an exported name of rtlib", name)
				}
				continue
			}
			if loc[1] < len(row) && row[loc[1]] == '(' {
				if args, end, ok := callArgs(row[loc[1]:]); ok {
					checkCall(t, name, f, args)
					// rt.ChanOf(c).Send: a method of the result.
					if m := methodRef.FindStringSubmatch(row[loc[1]+end:]); m != nil && !methods[f.result+"."+m[1]] {
						t.Errorf("contract table: rt.%s(…).%s: rtlib's %s has no method %s", name, m[1], f.result, m[1])
					}
				}
			}
		}
	}
	em := emitted(t, funcs)
	var missing []string
	for name, where := range em {
		if !named[name] {
			missing = append(missing, "rt."+name+" (emitted, see "+where+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("contract table: %s is not in the table", m)
	}
}
