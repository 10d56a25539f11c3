package rewrite

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spgo/spgo/rewrite/escape"
)

// repoRoot is the module root: the corpus programs build in its module.
const repoRoot = ".."

// corpusProgram is one program of rewrite/testdata/corpus with what its
// header says about how it ends.
type corpusProgram struct {
	name         string
	exit         int
	stderrPrefix string // compare only stderr's first line when set
}

var (
	exitRE   = regexp.MustCompile(`(?m)^// exit: (\d+)$`)
	stderrRE = regexp.MustCompile(`(?m)^// stderr-prefix: (.*)$`)
)

func corpus(t *testing.T) []corpusProgram {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("testdata", "corpus", "*", "main.go"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var progs []corpusProgram
	for _, main := range dirs {
		src, err := os.ReadFile(main)
		if err != nil {
			t.Fatal(err)
		}
		p := corpusProgram{name: filepath.Base(filepath.Dir(main))}
		if m := exitRE.FindSubmatch(src); m != nil {
			p.exit, _ = strconv.Atoi(string(m[1]))
		}
		if m := stderrRE.FindSubmatch(src); m != nil {
			p.stderrPrefix = string(m[1])
		}
		progs = append(progs, p)
	}
	return progs
}

// TestCorpus builds every corpus program as it is and instrumented, runs
// both, and compares their output and exit codes.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the corpus")
	}
	progs := corpus(t)
	var patterns []string
	for _, p := range progs {
		patterns = append(patterns, "./rewrite/testdata/corpus/"+p.name)
	}
	ctx := context.Background()
	res, err := Packages(ctx, Config{Dir: repoRoot}, patterns...)
	if err != nil {
		t.Fatalf("rewrite: %v", err)
	}
	tmp := t.TempDir()
	overlay, err := res.WriteOverlay(filepath.Join(tmp, "overlay"))
	if err != nil {
		t.Fatal(err)
	}
	orig, inst := filepath.Join(tmp, "orig")+"/", filepath.Join(tmp, "inst")+"/"
	goBuild(t, "-o", orig, patterns)
	goBuild(t, "-o", inst, append([]string{"-overlay", overlay}, patterns...))
	t.Run("escape", func(t *testing.T) {
		// The -m diagnostics of the instrumented build; escape.Run cannot
		// be used, as its cross-check with the -json log does not know
		// the //line directives of instrumented files.
		cmd := exec.Command("go", append([]string{"build", "-o", os.DevNull, "-overlay", overlay, "-gcflags=-m"}, patterns...)...)
		cmd.Dir = repoRoot
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("go build -gcflags=-m: %v\n%s", err, stderr.Bytes())
		}
		sites, err := escape.Parse(&stderr, repoRoot)
		if err != nil {
			t.Fatal(err)
		}
		checkNoNewHeap(t, res.Escape, escape.NewResult(sites))
	})
	for _, p := range progs {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			want := runProgram(t, filepath.Join(orig, p.name))
			got := runProgram(t, filepath.Join(inst, p.name))
			if want.exit != p.exit {
				t.Errorf("original exits %d, header says %d", want.exit, p.exit)
			}
			if got.exit != want.exit {
				t.Errorf("exit code %d, original %d", got.exit, want.exit)
			}
			if got.stdout != want.stdout {
				t.Errorf("stdout differs:\n--- instrumented\n%s\n--- original\n%s", got.stdout, want.stdout)
			}
			gotErr, wantErr := got.stderr, want.stderr
			if p.stderrPrefix != "" {
				// The trace names the same line of the user's file first.
				frame := regexp.MustCompile(`corpus/` + p.name + `/\w+\.go:\d+`)
				if g, w := frame.FindString(gotErr), frame.FindString(wantErr); g != w {
					t.Errorf("the panic's first user frame is %q, original %q", g, w)
				}
				gotErr, wantErr = firstLine(gotErr), firstLine(wantErr)
				if !strings.HasPrefix(wantErr, p.stderrPrefix) {
					t.Errorf("original stderr starts %q, header says %q", wantErr, p.stderrPrefix)
				}
			}
			if gotErr != wantErr {
				t.Errorf("stderr differs:\n--- instrumented\n%s\n--- original\n%s", gotErr, wantErr)
			}
		})
	}
}

// checkNoNewHeap checks that no allocation the compiler kept on the stack
// in the original goes to the heap in the instrumented build: hooks must
// not move anything. Sites are matched by file, line and the compiler's
// text for the expression, since instrumenting a line moves its columns.
func checkNoNewHeap(t *testing.T, orig, inst *escape.Result) {
	t.Helper()
	type key struct {
		file string
		line int
		expr string
	}
	escapes := map[key]bool{}
	for _, f := range inst.Files() {
		for _, s := range inst.Sites(f) {
			if s.Kind.Escapes() {
				escapes[key{s.File, s.Line, s.Expr}] = true
			}
		}
	}
	stack := 0
	for _, f := range orig.Files() {
		for _, s := range orig.Sites(f) {
			if s.Kind != escape.Stack || !hookable(s.Expr) {
				continue
			}
			stack++
			if escapes[key{s.File, s.Line, s.Expr}] {
				t.Errorf("%s: %s stays on the stack in the original and escapes when instrumented", s, s.Expr)
			}
		}
	}
	if stack == 0 {
		t.Error("no stack sites in the original: the check checked nothing")
	}
	t.Logf("%d hookable allocation sites stay on the stack in the original; none escapes instrumented", stack)
}

// hookable reports whether the compiler's text names an allocation of a
// kind the rewriter hooks. The others (a variadic call's "... argument",
// an interface conversion, a func literal) are never wrapped, and their
// decisions may change with the inlining budget that instrumenting a
// callee changes.
func hookable(expr string) bool {
	for _, p := range []string{"make(", "new(", "&", "append", "[]", "map[", "string(", "([]byte)(", "([]rune)("} {
		if strings.HasPrefix(expr, p) {
			return true
		}
	}
	return strings.Contains(expr, " + ")
}

func goBuild(t *testing.T, flag, out string, args []string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"build", flag, out}, args...)...)
	cmd.Dir = repoRoot
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, b)
	}
}

type runResult struct {
	stdout, stderr string
	exit           int
}

func runProgram(t *testing.T, bin string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = t.TempDir()
	// A path chosen, as spbuild chooses one: the instrumented binary
	// then prints nothing of its own.
	cmd.Env = append(os.Environ(), "SPGO_PROFILE="+filepath.Join(cmd.Dir, "spgo-profile.json"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish in a minute", bin)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %s: %v", bin, err)
	}
	return runResult{stdout.String(), stderr.String(), code}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
