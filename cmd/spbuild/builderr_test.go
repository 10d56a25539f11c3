package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// osMain uses os in one call only, which corruptCopy takes away.
const osMain = `package main

import (
	"fmt"
	"os"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	out := make([][]byte, 4)
	for i := range out {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = make([]byte, 1<<20) }()
	}
	wg.Wait()
	fmt.Println(len(out), os.Getenv("HOME") != "")
}
`

// corruptCopy breaks the instrumented copy of main.go in the cache as a
// bug of the rewriter could: the import of os loses its use (an error
// the compiler reports before the copy's first line directive, in the
// copy), and a type error goes after a directive.
func corruptCopy(t *testing.T, cache string) {
	t.Helper()
	copies, _ := filepath.Glob(filepath.Join(cache, "entries", "*", "overlay", "*_main.go"))
	if len(copies) != 1 {
		t.Fatalf("instrumented copies of main.go: %v", copies)
	}
	src, err := os.ReadFile(copies[0])
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(src), `os.Getenv("HOME") != ""`, "true", 1)
	s = strings.Replace(s, "\tspgo_rt.Wait(", "\tvar spgo_bad int = \"x\"\n\tspgo_rt.Wait(", 1)
	if s == string(src) || !strings.Contains(s, "spgo_bad") {
		t.Fatalf("could not corrupt:\n%s", src)
	}
	if err := os.WriteFile(copies[0], []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBuildErrors: when the build fails, spbuild shows the go command's
// messages at the user's files and lines and says whose errors they
// are: the user's when the package does not build without spbuild
// either, spbuild's when it does (before: "spbuild: go build failed",
// after messages partly in the instrumented copies).
func TestBuildErrors(t *testing.T) {
	t.Run("instrumented build", func(t *testing.T) {
		for _, cmd := range [][]string{{"run", "-q", "."}, {"build", "-o", "BIN", "."}, {"test", "."}} {
			dir := writeTree(t, map[string]string{
				"go.mod":       "module example.com/b\n\ngo 1.22\n",
				"main.go":      osMain,
				"main_test.go": "package main\n\nimport \"testing\"\n\nfunc TestMain1(t *testing.T) { main() }\n",
			})
			cache := t.TempDir()
			for i, a := range cmd {
				if a == "BIN" {
					cmd[i] = filepath.Join(t.TempDir(), "b")
				}
			}
			if _, stderr, code := spbuild(t, dir, cache, cmd...); code != 0 {
				t.Fatalf("spbuild %v: exit %d\n%s", cmd, code, stderr)
			}
			corruptCopy(t, cache)
			stdout, stderr, code := spbuild(t, dir, cache, cmd...)
			if code == 0 {
				t.Errorf("spbuild %v: exit 0", cmd)
			}
			out := stdout + stderr
			for _, want := range []string{`./main.go:5:2: "os" imported and not used`, "./main.go:16:", "declared and not used: spgo_bad"} {
				if !strings.Contains(out, want) {
					t.Errorf("spbuild %v: output lacks %q:\n%s", cmd, want, out)
				}
			}
			if strings.Contains(out, "_main.go:") {
				t.Errorf("spbuild %v: a position in the instrumented copy:\n%s", cmd, out)
			}
			// go test keeps its own report of a failed build.
			if cmd[0] != "test" && (!strings.Contains(stderr, "builds without spbuild:") || !strings.Contains(stderr, "bug in spbuild")) {
				t.Errorf("spbuild %v: stderr does not say the bug is spbuild's:\n%s", cmd, stderr)
			}
		}
	})
	t.Run("link error", func(t *testing.T) {
		if _, err := exec.LookPath("gcc"); err != nil {
			t.Skip("no gcc")
		}
		dir := writeTree(t, map[string]string{
			"go.mod":  "module example.com/l\n\ngo 1.22\n",
			"main.go": "package main\n\n// int undefined_c(int x);\nimport \"C\"\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(C.undefined_c(1)) }\n",
		})
		_, stderr, code := spbuild(t, dir, t.TempDir(), "run", ".")
		if code == 0 || !strings.Contains(stderr, "do not build, without spbuild either") || !strings.Contains(stderr, "undefined reference to `undefined_c'") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
	})
}
