package main

import (
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// writeTree writes files (slash paths → contents) under a new temporary
// directory, outside the repository, and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const helloMain = `package main

import (
	"bufio"
	"fmt"
	"os"
	"sync"
)

func main() {
	in, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	var wg sync.WaitGroup
	out := make([][]byte, 4)
	for i := range out {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = make([]byte, 1<<20) }()
	}
	wg.Wait()
	fmt.Printf("read %q, %d buffers\n", in, len(out))
	fmt.Fprintln(os.Stderr, "to stderr")
	os.Exit(3)
}
`

// TestRunPassesThrough: stdin, stdout, stderr and the exit status of the
// program pass through spbuild run; the report follows the program's
// output; the module lives outside the repository and is not modified.
func TestRunPassesThrough(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":  "module example.com/hello\n\ngo 1.22\n",
		"main.go": helloMain,
	})
	before := treeHash(t, dir)
	cmd := exec.Command(spbuildBin, "run", "-p", "1,4", ".", "--", "ignored-arg")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SPGO_CACHE="+t.TempDir())
	cmd.Stdin = strings.NewReader("hello\n")
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Errorf("exit %d, want the program's 3; stderr:\n%s", code, e.String())
	}
	if o.String() != "read \"hello\\n\", 4 buffers\n" {
		t.Errorf("stdout is not the program's output alone: %q", o.String())
	}
	if !strings.Contains(e.String(), "MHWM") || !strings.Contains(e.String(), "4 MiB") {
		t.Errorf("no report with MHWM_4 = 4 MiB on stderr: %q", e.String())
	}
	if !strings.Contains(e.String(), "to stderr") {
		t.Errorf("stderr: %q", e.String())
	}
	if treeHash(t, dir) != before {
		t.Error("the module's tree changed")
	}
}

// TestErrors: what users get wrong gets one clear message, no stack
// trace, and a failing exit status.
func TestErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		args  []string
		want  string
	}{
		{"not a module", map[string]string{"main.go": "package main\nfunc main() {}\n"}, []string{"run", "."}, "not in a module"},
		{"no such package", map[string]string{"go.mod": "module m\n\ngo 1.22\n", "main.go": "package main\nfunc main() {}\n"}, []string{"run", "./nosuch"}, "nosuch"},
		{"type error", map[string]string{"go.mod": "module m\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {\n\tvar x int = \"a\"\n\t_ = x\n}\n"}, []string{"run", "."}, "main.go:4:"},
		{"html unwritable", map[string]string{"go.mod": "module m\n\ngo 1.22\n", "main.go": "package main\nfunc main() {}\n"}, []string{"run", "-html", "nodir/x.html", "."}, "write nodir/x.html: "},
		{"bad p", map[string]string{"go.mod": "module m\n\ngo 1.22\n", "main.go": "package main\nfunc main() {}\n"}, []string{"run", "-p", "1,x", "."}, "comma-separated"},
		{"unknown command", map[string]string{"go.mod": "module m\n\ngo 1.22\n"}, []string{"frob"}, "unknown command"},
		// Before: "fork/exec …/lib: permission denied".
		{"not a main package", libTree, []string{"run", "."}, "m/lib (package lib) is not a main package: spbuild run runs a program; to measure this package, run its tests with spbuild test ."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, tt.files)
			_, stderr, code := spbuild(t, dir, t.TempDir(), tt.args...)
			if code == 0 {
				t.Errorf("exit 0")
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q does not contain %q", stderr, tt.want)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic:") {
				t.Errorf("a stack trace: %s", stderr)
			}
		})
	}
}

// libTree is a module whose root package is not a program.
var libTree = map[string]string{
	"go.mod": "module m/lib\n\ngo 1.22\n",
	"lib.go": "package lib\n\n// Buf allocates n bytes.\nfunc Buf(n int) []byte { return make([]byte, n) }\n",
}

// TestBuildLibrary: spbuild build on a package that is not a program
// compiles it and keeps nothing, as go build does; before, it wrote the
// package's archive into the user's directory.
func TestBuildLibrary(t *testing.T) {
	dir := writeTree(t, libTree)
	before := treeHash(t, dir)
	_, stderr, code := spbuild(t, dir, t.TempDir(), "build", ".")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if treeHash(t, dir) != before {
		names, _ := filepath.Glob(filepath.Join(dir, "*"))
		t.Errorf("the tree changed: %v", names)
	}
}

// TestBuiltBinarySaysWhere: a binary of spbuild build run by hand prints
// what the program prints on stdout, writes its profile in the working
// directory and says so on stderr; with SPGO_PROFILE set it says nothing.
func TestBuiltBinarySaysWhere(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":  "module example.com/b\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nvar keep []byte\n\nfunc main() {\n\tkeep = make([]byte, 1<<20)\n\tfmt.Println(\"done\")\n}\n",
	})
	bin := filepath.Join(t.TempDir(), "b")
	if _, stderr, code := spbuild(t, dir, t.TempDir(), "build", "-o", bin, "."); code != 0 {
		t.Fatalf("spbuild build: exit %d\n%s", code, stderr)
	}
	for _, set := range []bool{false, true} {
		work := t.TempDir()
		cmd := exec.Command(bin)
		cmd.Dir = work
		cmd.Env = os.Environ()
		want := filepath.Join(work, "spgo-profile.json")
		if set {
			want = filepath.Join(work, "chosen.json")
			cmd.Env = append(cmd.Env, "SPGO_PROFILE="+want)
		} else {
			cmd.Env = append(cmd.Env, "SPGO_PROFILE=")
		}
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v\n%s", err, e.String())
		}
		if o.String() != "done\n" {
			t.Errorf("stdout %q, want the program's alone", o.String())
		}
		if _, err := os.Stat(want); err != nil {
			t.Errorf("no profile: %v", err)
		}
		said := strings.Contains(e.String(), "spgo: profile written to "+want)
		if said == set {
			t.Errorf("SPGO_PROFILE set %v: stderr %q", set, e.String())
		}
	}
}

// TestParallelTests: tests that call t.Parallel wait for the sequential
// ones without the baton: no watchdog warning, and every test's figures
// are exact (a 1 s stall per test before, and the roots inexact).
func TestParallelTests(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/par\n\ngo 1.22\n",
		"p_test.go": `package par

import "testing"

var sink []byte

func work(n int) { sink = make([]byte, n) }

func TestA(t *testing.T) { t.Parallel(); work(1 << 20) }
func TestB(t *testing.T) { t.Parallel(); work(1 << 20) }
func TestC(t *testing.T) { work(1 << 20) }
`,
	})
	prof := filepath.Join(t.TempDir(), "p.json")
	stdout, stderr, code := spbuild(t, dir, t.TempDir(), "test", "-json", prof, ".", "--", "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if strings.Contains(stdout+stderr, "watchdog") || strings.Contains(stdout+stderr, "spgo: warning") {
		t.Errorf("a watchdog warning:\n%s\n%s", stdout, stderr)
	}
	p, err := profile.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Roots) != 3 {
		t.Fatalf("%d roots, want 3", len(p.Roots))
	}
	for _, r := range p.Roots {
		for _, why := range r.Reasons {
			if strings.Contains(why, "watchdog") {
				t.Errorf("%s: %s", r.Name, why)
			}
		}
	}
}

// TestModelledPackage: in the module of a package whose API rtlib
// implements (golang.org/x/sync/errgroup: here a small stand-in with the
// same method set), spbuild test instruments the package's tests but not
// the package: instrumenting both ran each task twice and lost the baton
// (x/sync's TestGoLimit hung in rtlib.waitBaton).
func TestModelledPackage(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod": "module golang.org/x/sync\n\ngo 1.22\n",
		"errgroup/errgroup.go": `// Package errgroup is a stand-in for x/sync's, with its method set.
package errgroup

import "sync"

type Group struct {
	wg  sync.WaitGroup
	sem chan struct{}
	mu  sync.Mutex
	err error
}

func (g *Group) SetLimit(n int) { g.sem = make(chan struct{}, n) }

func (g *Group) Go(f func() error) {
	if g.sem != nil {
		g.sem <- struct{}{}
	}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
		if g.sem != nil {
			<-g.sem
		}
	}()
}

func (g *Group) TryGo(f func() error) bool { g.Go(f); return true }

func (g *Group) Wait() error { g.wg.Wait(); return g.err }
`,
		"errgroup/limit_test.go": `package errgroup_test

import (
	"testing"

	"golang.org/x/sync/errgroup"
)

// scratch is a task's work on a buffer of n bytes (on the heap: its size
// is not a constant), dropped when it returns.
func scratch(n int) int {
	b := make([]byte, n)
	b[n-1] = 1
	return len(b) - 1 + int(b[n-1])
}

func TestGoLimit(t *testing.T) {
	var g errgroup.Group
	g.SetLimit(2)
	lens := make([]int, 8)
	for i := range lens {
		g.Go(func() error { lens[i] = scratch(1 << 17); return nil })
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	for i, n := range lens {
		if n != 1<<17 {
			t.Errorf("task %d did not run", i)
		}
	}
}
`,
	})
	prof := filepath.Join(t.TempDir(), "p.json")
	stdout, stderr, code := spbuild(t, dir, t.TempDir(), "test", "-json", prof, "./errgroup")
	if code != 0 || strings.Contains(stderr, "spgo: warning") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	p, err := profile.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Roots) != 1 {
		t.Fatalf("%d roots, want 1", len(p.Roots))
	}
	// Two 128 KiB buffers at once at most: the limit is modelled.
	r := p.Roots[0]
	m1, _ := r.MHWMAt(1)
	m64, _ := r.MHWMAt(64)
	if m1 < 1<<17 || m1 > 1<<17+64<<10 || m64 < 2<<17 || m64 > 2<<17+64<<10 {
		t.Errorf("MHWM_1 = %d, MHWM_64 = %d, want about one and two tasks' buffers (%d, %d)", m1, m64, 1<<17, 2<<17)
	}
}

// TestInstrumentFromModuleCache: -instrument names a package of a module
// in the module cache, which the go command's overlays may not replace:
// spbuild instruments a copy of the module (its semaphore's mutex shows
// in the figures' reasons), and neither the tree nor the cache changes.
//
// Acquire runs without the baton, and instrumented it calls hooks on
// the goroutine that gave the baton up: TestCancelled (x/sync's
// TestAllocCancelDoesntStarve, beside a test parked in t.Parallel) hung
// when those hooks were taken for the holder's. TestGoAcquire's go
// statement ran Acquire in the parent, which blocked there for good.
func TestInstrumentFromModuleCache(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/sem\n\ngo 1.25.0\n\nrequire golang.org/x/sync v0.22.0\n",
		"go.sum": xsyncSum,
		"sem_test.go": `package sem

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"golang.org/x/sync/semaphore"
)

func TestSem(t *testing.T) {
	sem := semaphore.NewWeighted(2)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := sem.Acquire(context.Background(), 1); err != nil {
				t.Error(err)
				return
			}
			sem.Release(1)
		}()
	}
	wg.Wait()
}

// TestParked waits in t.Parallel while the other tests run.
func TestParked(t *testing.T) { t.Parallel() }

func TestCancelled(t *testing.T) {
	sem := semaphore.NewWeighted(10)
	sem.Acquire(context.Background(), 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		sem.Acquire(ctx, 10)
	}()
	for sem.TryAcquire(1) {
		sem.Release(1)
		runtime.Gosched()
	}
	go cancel()
	if err := sem.Acquire(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	sem.Release(1)
}

func TestGoAcquire(t *testing.T) {
	sem := semaphore.NewWeighted(2)
	ctx, cancel := context.WithCancel(context.Background())
	go sem.Acquire(ctx, 3) // more than it holds: waits in its goroutine for the cancel
	cancel()
}
`,
	})
	before := treeHash(t, dir)
	prof := filepath.Join(t.TempDir(), "p.json")
	stdout, stderr, code := spbuild(t, dir, t.TempDir(), "test", "-instrument", "golang.org/x/sync/semaphore", "-json", prof, ".", "--", "-v", "-timeout=2m")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, name := range []string{"TestSem", "TestParked", "TestCancelled", "TestGoAcquire"} {
		if !strings.Contains(stdout, "--- PASS: "+name) {
			t.Errorf("%s did not pass:\n%s", name, stdout)
		}
	}
	p, err := profile.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	var sem *profile.Root
	for i := range p.Roots {
		if strings.HasSuffix(p.Roots[i].Name, ".TestSem") {
			sem = &p.Roots[i]
		}
	}
	if sem == nil || !strings.Contains(strings.Join(sem.Reasons, "\n"), "semaphore/semaphore.go") {
		t.Errorf("semaphore not instrumented: %+v", p.Roots)
	}
	if treeHash(t, dir) != before {
		t.Error("the tree changed")
	}
}

// TestTestExitStatus: spbuild test keeps go test's exit status and
// reports the tests that ran.
func TestTestExitStatus(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/f\n\ngo 1.22\n",
		"f.go":   "package f\n\nfunc Buf(n int) []byte { return make([]byte, n) }\n",
		"f_test.go": `package f

import "testing"

func TestPass(t *testing.T) { _ = Buf(1 << 20) }
func TestFail(t *testing.T) { t.Fatal("expected failure") }
`,
	})
	stdout, stderr, code := spbuild(t, dir, t.TempDir(), "test", ".")
	if code != 1 {
		t.Errorf("exit %d, want go test's 1", code)
	}
	if !strings.Contains(stdout, "expected failure") || !strings.Contains(stderr, "f.TestPass") {
		t.Errorf("stdout: %s\nstderr: %s", stdout, stderr)
	}
}

// xsyncSum is go.sum for golang.org/x/sync v0.22.0 (the examples' and
// spgo's own version).
const xsyncSum = "golang.org/x/sync v0.22.0 h1:SZjpbeLmrCk4xhRSZFNZW5gFUeCeFgjekvI/+gfScek=\n" +
	"golang.org/x/sync v0.22.0/go.mod h1:9xrNwdLfx4jkKbNva9FpL6vEN7evnE43NNNJQ2LF3+0=\n"

// TestModuleShapes: build tags, workspaces and cgo packages build
// instrumented and print what the originals print (vendor directories:
// TestVendor).
func TestModuleShapes(t *testing.T) {
	const wgMain = `package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	n := make([]int, 3)
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); n[i] = %s }()
	}
	wg.Wait()
	fmt.Println(n)
}
`
	workspace := map[string]string{
		"go.work":     "go 1.22\n\nuse (\n\t./app\n\t./lib\n)\n",
		"app/go.mod":  "module example.com/app\n\ngo 1.22\n",
		"app/main.go": strings.Replace(strings.Replace(wgMain, "%s", "lib.Sq(i)", 1), "\"sync\"", "\"sync\"\n\n\t\"example.com/lib\"", 1),
		"lib/go.mod":  "module example.com/lib\n\ngo 1.22\n",
		"lib/lib.go":  "package lib\n\n// Sq squares.\nfunc Sq(i int) int { return i * i }\n",
	}
	tests := []struct {
		name  string
		files map[string]string
		sub   string   // directory to run in
		pkg   string   // the package to build ("" is ".")
		flags []string // build flags for both builds
		skip  func() string
	}{
		{name: "go 1.16", files: map[string]string{"go.mod": "module example.com/old\n\ngo 1.16\n", "main.go": oldMain}},
		{name: "no go line", files: map[string]string{"go.mod": "module example.com/old\n", "main.go": oldMain}},
		{name: "tags", files: map[string]string{
			"go.mod":   "module example.com/tags\n\ngo 1.22\n",
			"main.go":  strings.Replace(wgMain, "%s", "i * k", 1),
			"k_on.go":  "//go:build extra\n\npackage main\n\nconst k = 10\n",
			"k_off.go": "//go:build !extra\n\npackage main\n\nconst k = 1\n",
		}, flags: []string{"-tags=extra"}},
		{name: "workspace", sub: "app", files: workspace},
		// At the workspace's root, outside its modules, as go run
		// example.com/app works there (before: "not in a module").
		{name: "workspace root", pkg: "example.com/app", files: workspace},
		{name: "cgo", files: map[string]string{
			"go.mod":  "module example.com/c\n\ngo 1.22\n",
			"main.go": strings.Replace(wgMain, "%s", "twice(i)", 1),
			"c.go":    "package main\n\n// static int twice_c(int x) { return 2 * x; }\nimport \"C\"\n\nfunc twice(i int) int { return int(C.twice_c(C.int(i))) }\n",
		}, skip: func() string {
			if _, err := exec.LookPath("gcc"); err != nil {
				return "no gcc"
			}
			return ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.skip != nil {
				if why := tt.skip(); why != "" {
					t.Skip(why)
				}
			}
			root := writeTree(t, tt.files)
			dir := filepath.Join(root, tt.sub)
			before := treeHash(t, root)
			pkg := cmp.Or(tt.pkg, ".")
			orig := filepath.Join(t.TempDir(), "orig")
			goCmd(t, dir, append(append([]string{"build", "-o", orig}, tt.flags...), pkg)...)
			want := runOut(t, dir, orig)
			stdout, stderr, code := spbuild(t, dir, t.TempDir(), append(append([]string{"run", "-q"}, tt.flags...), pkg)...)
			if code != 0 || stdout != want {
				t.Errorf("exit %d, output %q, want %q\n%s", code, stdout, want, stderr)
			}
			if treeHash(t, root) != before {
				t.Error("the tree changed")
			}
		})
	}
}

// cgoMain has its main function, goroutines and allocations in a cgo
// file, with values of C's types sent on channels, stored in structs and
// appended to slices.
const cgoMain = `package main

/*
#include <stdlib.h>
#include <string.h>

typedef struct { int a; double b; } pair;

static int twice(int x) { return 2 * x; }
static pair mk(int a) { pair p = {a, a / 2.0}; return p; }
static char *dup(const char *s) { return strdup(s); }
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

type holder struct {
	p C.pair
	n C.int
}

func work(i int, ch chan<- C.int) {
	ch <- C.twice(C.int(i))
}

func main() {
	var wg sync.WaitGroup
	ch := make(chan C.int, 8)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); work(i, ch) }()
	}
	var mu sync.Mutex
	hs := make([]*holder, 0)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			h := &holder{p: C.mk(C.int(i)), n: C.int(i)}
			buf := make([]C.int, 1<<16)
			buf[0] = h.n
			mu.Lock()
			hs = append(hs, h)
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	close(ch)
	sum := C.int(0)
	for v := range ch {
		sum += v
	}
	cs := C.CString("hello")
	defer C.free(unsafe.Pointer(cs))
	d := C.dup(cs)
	s := C.GoString(d)
	C.free(unsafe.Pointer(d))
	var total C.int
	for _, h := range hs {
		total += h.n + C.int(h.p.a)
	}
	sel := make(chan C.pair, 1)
	select {
	case sel <- C.mk(5):
	default:
	}
	p := <-sel
	arr := [3]C.int{1, 2, 3}
	ps := make([]C.pair, 2)
	ps = append(ps, C.mk(7))
	m := map[C.int]string{1: "a"}
	m[C.int(2)] = s + "!"
	fmt.Println(sum, s, total, p.a, len(ps), arr[1], len(m), C.sizeof_pair > 0)
}
`

// TestCgoMain: a program whose main function is in a cgo file is
// instrumented and measured (issue 27: it ran correctly, then spbuild
// said "the program wrote no profile (killed before it could?)": cgo
// files were left as they were, so no root ever began).
func TestCgoMain(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/c\n\ngo 1.22\n", "main.go": cgoMain})
	before := treeHash(t, dir)
	orig := filepath.Join(t.TempDir(), "orig")
	goCmd(t, dir, "build", "-o", orig, ".")
	want := runOut(t, dir, orig)
	prof := filepath.Join(t.TempDir(), "p.json")
	stdout, stderr, code := spbuild(t, dir, t.TempDir(), "run", "-p", "1,4", "-json", prof, ".")
	if code != 0 || stdout != want {
		t.Fatalf("exit %d, output %q, want %q\n%s", code, stdout, want, stderr)
	}
	if strings.Contains(stderr, "not instrumented") {
		t.Errorf("stderr: %s", stderr)
	}
	p, err := profile.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Roots) != 1 || p.Roots[0].Name != "main.main" {
		t.Fatalf("roots %+v, want main.main", p.Roots)
	}
	// Three goroutines hold a buffer of 1<<16 C.ints each at p = 4.
	var got int64
	for _, pt := range p.Roots[0].MHWM {
		if pt.P == 4 {
			got = pt.Bytes
		}
	}
	if got < 3*(1<<16)*4 {
		t.Errorf("MHWM_4 = %d, want at least the three buffers' %d", got, 3*(1<<16)*4)
	}
	if treeHash(t, dir) != before {
		t.Error("the tree changed")
	}
}

// oldMain is a program for modules with old go lines (issue 22): a range
// over a channel whose closures see one variable per loop before Go 1.22
// (3 3 3), and goroutines over a WaitGroup.
const oldMain = `package main

import (
	"fmt"
	"sync"
)

func main() {
	ch := make(chan int, 3)
	ch <- 1
	ch <- 2
	ch <- 3
	close(ch)
	var fs []func() int
	for v := range ch {
		fs = append(fs, func() int { return v })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	var wg sync.WaitGroup
	out := make([]int, 3)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) { defer wg.Done(); out[i] = i * i }(i)
	}
	wg.Wait()
	fmt.Println(out)
}
`

// TestOldToolchain: a go command older than spbuild needs is named, not
// a failure further down.
func TestOldToolchain(t *testing.T) {
	bin := t.TempDir()
	fake := "#!/bin/sh\necho '{\"GOVERSION\": \"go1.22.5\", \"GOMOD\": \"/x/go.mod\"}'\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := writeTree(t, map[string]string{"go.mod": "module m\n\ngo 1.22\n", "main.go": "package main\nfunc main() {}\n"})
	cmd := exec.Command(spbuildBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin, "SPGO_CACHE="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "go1.22.5; spbuild needs go1.25 or newer") {
		t.Errorf("err %v, output %s", err, out)
	}
}

// TestRunPanics: a program that panics keeps its exit status and its
// panic message; the profile says it is partial.
func TestRunPanics(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":  "module example.com/p\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nvar keep []byte\n\nfunc main() {\n\tkeep = make([]byte, 1<<20)\n\tfmt.Println(\"before\")\n\tpanic(\"boom\")\n}\n",
	})
	prof := filepath.Join(t.TempDir(), "p.json")
	stdout, stderr, code := spbuild(t, dir, t.TempDir(), "run", "-json", prof, ".")
	if code != 2 || !strings.Contains(stderr, "panic: boom") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if stdout != "before\n" || !strings.Contains(stderr, "partial profile") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	p, err := profile.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Partial {
		t.Error("profile not marked partial")
	}
}
