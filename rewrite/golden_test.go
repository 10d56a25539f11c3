package rewrite

import (
	"bytes"
	"context"
	"flag"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/spgo/spgo/analyzer/nonsp"
	"github.com/spgo/spgo/rtlib/profile"
)

// check are the analyzers spbuild gives the rewriter (driver's
// Prepare): their warnings are part of the golden files.
var check = []*analysis.Analyzer{nonsp.Analyzer}

var update = flag.Bool("update", false, "rewrite the golden files of rewrite/testdata")

// Every rewrite in the tests checks that the nodes of the original file
// map back to their lines (verifyLines).
func init() { checkLines = true }

// TestGolden rewrites each rewrite/testdata/*.go (a program of its own)
// and compares the output with the .golden file beside it; with -update
// it writes the golden files. Absolute paths are written as $DIR. Every
// output must also be gofmt-clean, map each original statement's line
// back through its //line directives, and build.
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.go"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".go")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			abs := filepath.Join(dir, name+".go")
			res, err := Packages(context.Background(), Config{Dir: repoRoot, Check: check}, abs)
			if err != nil {
				t.Fatalf("rewrite: %v", err)
			}
			var got bytes.Buffer
			out := res.Files[abs]
			if out == nil {
				got.WriteString("// unchanged\n")
			} else {
				checkOutput(t, abs, out.Src)
				got.Write(out.Src)
				checkBuild(t, res, abs)
			}
			for _, w := range res.Warnings {
				got.WriteString("// warning: " + w.String() + "\n")
			}
			compareGolden(t, filepath.Join(dir, name+".golden"), strings.ReplaceAll(got.String(), dir, "$DIR"))
		})
	}
}

// TestGoldenTests rewrites rewrite/testdata/roots with its tests (roots
// are tests, benchmarks, fuzz targets, examples and TestMain) and
// compares each file with roots/<file>.golden.
func TestGoldenTests(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "roots"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Packages(context.Background(), Config{Dir: dir, Tests: true, Check: check}, ".")
	if err != nil {
		t.Fatalf("rewrite: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, file := range files {
		var got bytes.Buffer
		if out := res.Files[file]; out == nil {
			got.WriteString("// unchanged\n")
		} else {
			checkOutput(t, file, out.Src)
			got.Write(out.Src)
		}
		compareGolden(t, strings.TrimSuffix(file, ".go")+".golden", strings.ReplaceAll(got.String(), dir, "$DIR"))
	}
	overlay, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-overlay", overlay, "-count=1", "-run", ".", "-bench", ".", "-benchtime", "1x", "-fuzz", "", ".")
	cmd.Dir = dir
	pf := filepath.Join(t.TempDir(), "p.json")
	cmd.Env = append(os.Environ(), "SPGO_PROFILE="+pf)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("instrumented tests fail: %v\n%s", err, b)
	}
	// One root per test, benchmark, fuzz target and example run.
	p, err := profile.ReadFile(pf)
	if err != nil {
		t.Fatalf("the instrumented tests wrote no profile: %v", err)
	}
	var names []string
	for _, r := range p.Roots {
		names = append(names, r.Name)
	}
	if len(names) < 3 {
		t.Errorf("profile roots %q: want one per test, benchmark and fuzz target", names)
	}
}

// compareGolden compares text with the golden file, or writes it there
// with -update.
func compareGolden(t *testing.T, golden, text string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./rewrite -run TestGolden -update)", err)
	}
	if text != string(want) {
		t.Errorf("output differs from %s (go test ./rewrite -run TestGolden -update, then review the diff):\n%s", golden, lineDiff(string(want), text))
	}
}

// checkOutput checks that src is gofmt-clean and that the line of every
// statement and declaration of the original file is the line, through
// the //line directives, of some statement or declaration of src.
func checkOutput(t *testing.T, file string, src []byte) {
	t.Helper()
	formatted, err := format.Source(src)
	if err != nil {
		t.Fatalf("output does not parse: %v", err)
	}
	if !bytes.Equal(formatted, src) {
		t.Errorf("output is not gofmt-clean:\n%s", lineDiff(string(formatted), string(src)))
	}
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := func(src []byte) map[int]bool {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		m := map[int]bool{}
		for _, n := range nodesOf(f, stmtOrDecl) {
			p := fset.Position(n.Pos())
			if p.Filename == file {
				m[p.Line] = true
			}
		}
		return m
	}
	mapped := lines(src)
	var missing []int
	for l := range lines(orig) {
		if !mapped[l] {
			missing = append(missing, l)
		}
	}
	sort.Ints(missing)
	if len(missing) > 0 {
		t.Errorf("original lines with a statement that no statement of the output maps to: %v", missing)
	}
}

// checkBuild builds the instrumented program.
func checkBuild(t *testing.T, res *Result, file string) {
	t.Helper()
	overlay, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", os.DevNull, "-overlay", overlay, file)
	cmd.Dir = repoRoot
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("instrumented program does not build: %v\n%s", err, b)
	}
}

// lineDiff shows the first lines where a and b differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	shown := 0
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out.WriteString("-" + x + "\n+" + y + "\n")
			if shown++; shown == 10 {
				break
			}
		}
	}
	return out.String()
}
