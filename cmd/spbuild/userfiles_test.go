package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// modModTree is a module whose go.mod -mod=mod rewrites: its local
// dependency needs a newer go line and a newer version of another local
// module than go.mod says.
var modModTree = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.21\n\nrequire (\n\texample.com/dep v0.0.0\n\texample.com/other v0.1.0\n)\n\n" +
		"replace example.com/dep => ./dep\n\nreplace example.com/other => ./other\n",
	"main.go": `package main

import (
	"fmt"

	"example.com/dep"
)

func main() {
	b := make([]byte, 1<<20)
	fmt.Println("VERSION A", dep.N(), len(b))
}
`,
	"main_test.go":   "package main\n\nimport \"testing\"\n\nfunc TestMain1(t *testing.T) { main() }\n",
	"dep/go.mod":     "module example.com/dep\n\ngo 1.22\n\nrequire example.com/other v0.2.0\n",
	"dep/dep.go":     "package dep\n\nimport \"example.com/other\"\n\n// N is other's M.\nfunc N() int { return other.M() }\n",
	"other/go.mod":   "module example.com/other\n\ngo 1.21\n",
	"other/other.go": "package other\n\n// M is 2.\nfunc M() int { return 2 }\n",
}

// TestModModLeavesGoModAlone: -mod=mod, as a flag or in GOFLAGS, edits
// the generated go.mod and never the user's: every go command spbuild
// runs (go list, the analyses, the build, go test) uses -modfile. The
// tree (go.mod, no go.sum) is hashed before and after.
func TestModModLeavesGoModAlone(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		env   []string
		args  []string
		want  string // in stdout
	}{
		{name: "build -mod=mod", files: modModTree, args: []string{"build", "-mod=mod", "-o", "BIN", "."}},
		{name: "GOFLAGS run", files: modModTree, env: []string{"GOFLAGS=-mod=mod"}, args: []string{"run", "-p", "1", "."}, want: "VERSION A 2 1048576"},
		{name: "test -mod=mod", files: modModTree, args: []string{"test", "-mod=mod", "."}, want: "ok  \texample.com/m"},
		{name: "GOFLAGS run without go.sum", files: map[string]string{
			"go.mod": "module example.com/s\n\ngo 1.25.0\n\nrequire golang.org/x/sync v0.22.0\n",
			"main.go": `package main

import (
	"fmt"

	"golang.org/x/sync/errgroup"
)

func main() {
	var g errgroup.Group
	g.Go(func() error { return nil })
	fmt.Println("waited", g.Wait())
}
`,
		}, env: []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off"}, args: []string{"run", "-p", "1", "."}, want: "waited <nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, tt.files)
			before := treeHash(t, dir)
			args := append([]string(nil), tt.args...)
			for i, a := range args {
				if a == "BIN" {
					args[i] = filepath.Join(t.TempDir(), "bin")
				}
			}
			cmd := exec.Command(spbuildBin, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), append([]string{"SPGO_CACHE=" + t.TempDir()}, tt.env...)...)
			var o, e strings.Builder
			cmd.Stdout, cmd.Stderr = &o, &e
			if err := cmd.Run(); err != nil {
				t.Fatalf("spbuild %s: %v\n%s\n%s", strings.Join(args, " "), err, o.String(), e.String())
			}
			if !strings.Contains(o.String(), tt.want) {
				t.Errorf("stdout %q does not contain %q", o.String(), tt.want)
			}
			if treeHash(t, dir) != before {
				mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
				_, serr := os.Stat(filepath.Join(dir, "go.sum"))
				t.Errorf("the tree changed; go.mod now:\n%s\ngo.sum: %v", mod, serr)
			}
		})
	}
}
