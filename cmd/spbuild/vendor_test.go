package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// errgroupMain uses a dependency, golang.org/x/sync/errgroup.
const errgroupMain = `package main

import (
	"fmt"

	"golang.org/x/sync/errgroup"
)

func main() {
	var g errgroup.Group
	n := make([]int, 3)
	for i := range n {
		g.Go(func() error { n[i] = i + 1; return nil })
	}
	fmt.Println(n, g.Wait())
}
`

// semMain uses golang.org/x/sync/semaphore beside errgroup.
const semMain = `package main

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

func main() {
	sem := semaphore.NewWeighted(2)
	var g errgroup.Group
	n := make([]int, 3)
	for i := range n {
		g.Go(func() error {
			if err := sem.Acquire(context.Background(), 1); err != nil {
				return err
			}
			defer sem.Release(1)
			n[i] = i + 1
			return nil
		})
	}
	fmt.Println(n, g.Wait())
}
`

// depMain uses example.com/dep, a local module.
const depMain = `package main

import (
	"fmt"
	"sync"

	"example.com/dep"
)

func main() {
	var wg sync.WaitGroup
	n := make([]int, 3)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) { defer wg.Done(); n[i] = dep.N() * i }(i)
	}
	wg.Wait()
	fmt.Println(n)
}
`

// TestVendor: a module (or workspace) with a vendor directory builds
// instrumented from it, as the go command builds it, offline: with an
// empty module cache and GOPROXY=off. Before, spbuild built from the
// module cache and failed offline with "module lookup disabled by
// GOPROXY=off", vendor/ unmentioned (issue 27).
func TestVendor(t *testing.T) {
	depFiles := map[string]string{
		"dep/go.mod": "module example.com/dep\n\ngo 1.16\n",
		"dep/dep.go": "package dep\n\n// N is 2.\nfunc N() int { return 2 }\n",
	}
	with := func(a, b map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range a {
			out[k] = v
		}
		for k, v := range b {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name   string
		files  map[string]string
		vendor []string // the go command that makes vendor/, at the root
		sub    string   // directory to run in
		flags  []string // spbuild's flags
		want   string   // in spbuild's stderr, with the report
	}{
		{name: "module", vendor: []string{"mod", "vendor"}, files: map[string]string{
			"go.mod":  "module example.com/v\n\ngo 1.25.0\n\nrequire golang.org/x/sync v0.22.0\n",
			"go.sum":  xsyncSum,
			"main.go": errgroupMain,
		}},
		{name: "vendored package instrumented", vendor: []string{"mod", "vendor"}, flags: []string{"-instrument", "golang.org/x/sync/semaphore"}, want: "vendor/golang.org/x/sync/semaphore/semaphore.go:", files: map[string]string{
			"go.mod":  "module example.com/v\n\ngo 1.25.0\n\nrequire golang.org/x/sync v0.22.0\n",
			"go.sum":  xsyncSum,
			"main.go": semMain,
		}},
		{name: "local replacement, go 1.16", vendor: []string{"mod", "vendor"}, files: with(depFiles, map[string]string{
			"go.mod":  "module example.com/old\n\ngo 1.16\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n",
			"main.go": depMain,
		})},
		{name: "workspace", vendor: []string{"work", "vendor"}, sub: "app", files: with(depFiles, map[string]string{
			"go.work":     "go 1.22\n\nuse ./app\n\nreplace example.com/dep => ./dep\n",
			"app/go.mod":  "module example.com/app\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n",
			"app/main.go": depMain,
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			goCmd(t, root, tt.vendor...)
			dir := filepath.Join(root, tt.sub)
			orig := filepath.Join(t.TempDir(), "orig")
			goCmd(t, dir, "build", "-o", orig, ".")
			want := runOut(t, dir, orig)
			before := treeHash(t, root)
			env := append(os.Environ(), "GOPROXY=off", "GOMODCACHE="+t.TempDir(), "SPGO_CACHE="+t.TempDir())
			args := append([]string{"run", "-p", "1"}, tt.flags...)
			stdout, stderr, code := spbuildEnv(t, dir, env, append(args, ".")...)
			if code != 0 || stdout != want {
				t.Fatalf("exit %d, output %q, want %q\n%s", code, stdout, want, stderr)
			}
			if !strings.Contains(stderr, "MHWM") || !strings.Contains(stderr, tt.want) {
				t.Errorf("no report or no %q:\n%s\n%s", tt.want, stdout, stderr)
			}
			if treeHash(t, root) != before {
				t.Error("the tree changed")
			}
		})
	}
}
