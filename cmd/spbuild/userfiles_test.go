package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// TestConcurrentColdCache starts concurrentRuns spbuild processes on one
// module with an empty cache at once: every one must succeed with the
// same output, whichever builds the cache entry and whichever loses the
// race to put it in place.
func TestConcurrentColdCache(t *testing.T) {
	const concurrentRuns = 5
	tests := []struct {
		name      string
		args      []string
		want      string // in every stdout
		report    string // in every stderr
		noFigures bool   // compare outputs without byte figures
	}{
		// The runs compare their outputs without the byte figures: that
		// the same run gives the same figures is TestRunToRun's to check,
		// on one run at a time. Five cold-cache builds and runs at once,
		// on a machine with two busy loops, made one run's go statement
		// line differ by about 100 bytes of uninstrumented allocation
		// (3 against 3.1 KiB) in 1 of 2 suite runs at 01191e1.
		{name: "run", args: []string{"run", "-p", "1,4", "."}, want: "read", report: "MHWM", noFigures: true},
		// The testing package's own allocations in a test's root vary
		// from run to run.
		{name: "test", args: []string{"test", "-p", "1,4", "."}, want: "ok  \texample.com/conc", report: "MHWM", noFigures: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{
				"go.mod":       "module example.com/conc\n\ngo 1.22\n",
				"main.go":      strings.Replace(helloMain, "os.Exit(3)", "", 1),
				"main_test.go": "package main\n\nimport \"testing\"\n\nfunc TestMain1(t *testing.T) { main() }\n",
				"stdin.txt":    "hello\n",
			})
			cache := t.TempDir()
			cmds := make([]*exec.Cmd, concurrentRuns)
			outs := make([]*strings.Builder, concurrentRuns)
			errs := make([]*strings.Builder, concurrentRuns)
			for i := range cmds {
				cmd := exec.Command(spbuildBin, tt.args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "SPGO_CACHE="+cache)
				// A file, not a pipe: a read from a pipe the test has not
				// written yet registers it with the runtime's poller,
				// which allocates, at a moment that follows the load.
				in, err := os.Open(filepath.Join(dir, "stdin.txt"))
				if err != nil {
					t.Fatal(err)
				}
				defer in.Close()
				cmd.Stdin = in
				outs[i], errs[i] = &strings.Builder{}, &strings.Builder{}
				cmd.Stdout, cmd.Stderr = outs[i], errs[i]
				cmds[i] = cmd
			}
			for _, cmd := range cmds {
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
			}
			failed := 0
			for i, cmd := range cmds {
				if err := cmd.Wait(); err != nil {
					failed++
					t.Errorf("run %d of %d: %v\n%s", i+1, concurrentRuns, err, errs[i].String())
				}
			}
			if failed > 0 {
				t.Fatalf("%d of %d concurrent runs failed", failed, concurrentRuns)
			}
			norm := dropTimes
			if tt.noFigures {
				norm = func(s string) string {
					s = figures.ReplaceAllString(dropTimes(s), "N")
					return strings.Join(strings.Fields(s), " ") // the columns' widths follow the figures
				}
			}
			// What each run printed: the program's output, and the
			// report without spbuild's own messages (which say who
			// built the cache entry).
			printed := func(i int) string {
				var rep []string
				for _, l := range strings.SplitAfter(errs[i].String(), "\n") {
					if !strings.HasPrefix(l, "spbuild:") {
						rep = append(rep, l)
					}
				}
				return outs[i].String() + "\n--- stderr\n" + strings.Join(rep, "")
			}
			for i := range outs {
				if !strings.Contains(outs[i].String(), tt.want) {
					t.Errorf("run %d: stdout %q lacks %q", i+1, outs[i].String(), tt.want)
				}
				if strings.Contains(outs[i].String(), tt.report) || !strings.Contains(errs[i].String(), tt.report) {
					t.Errorf("run %d: the report is not on stderr alone:\nstdout %q\nstderr %q", i+1, outs[i].String(), errs[i].String())
				}
				got := norm(printed(i))
				if want := norm(printed(0)); got != want {
					t.Errorf("run %d printed\n%s\nrun 1 printed\n%s", i+1, got, want)
				}
			}
		})
	}
}

// figures matches the byte figures of a report ("159.2 KiB").
var figures = regexp.MustCompile(`[0-9.]+ (B|KiB|MiB|GiB|TiB)`)

// dropTimes removes the durations go test prints ("ok  \tpkg\t0.01s").
func dropTimes(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "ok  \t") {
			if j := strings.LastIndexByte(l, '\t'); j > 0 {
				lines[i] = l[:j]
			}
		}
	}
	return strings.Join(lines, "\n")
}

// TestQuotedPaths: spbuild test works when spbuild's own path or TMPDIR
// holds quotes or spaces (go test's -exec is split on them), and says
// why when its path cannot be given to -exec at all. Before, a ' was
// dropped from the -exec line: the binary was not found, or the test
// profiles went to a directory that does not exist and were lost
// without a word.
func TestQuotedPaths(t *testing.T) {
	tests := []struct {
		name    string
		binDir  string // spbuild's directory ("" the usual one)
		tmpDir  string // TMPDIR ("" the usual one)
		wantErr string // in stderr when spbuild test must fail
	}{
		{name: "quote in spbuild's path", binDir: "it's mine"},
		{name: "double quote in spbuild's path", binDir: `the "tools"`},
		{name: "quote in TMPDIR", tmpDir: "tmp's"},
		{name: "both quotes in TMPDIR", tmpDir: `it's "tmp"`},
		{name: "both quotes in spbuild's path", binDir: `it's "bin"`, wantErr: "both kinds of quote"},
	}
	dir := writeTree(t, map[string]string{
		"go.mod":    "module example.com/q\n\ngo 1.22\n",
		"q.go":      "package q\n\n// Buf allocates n bytes.\nfunc Buf(n int) []byte { return make([]byte, n) }\n",
		"q_test.go": "package q\n\nimport \"testing\"\n\nfunc TestBuf(t *testing.T) { _ = Buf(1 << 20) }\n",
	})
	cache := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := spbuildBin
			if tt.binDir != "" {
				bin = filepath.Join(t.TempDir(), tt.binDir, "spbuild")
				copyFile(t, spbuildBin, bin, 0o755)
			}
			env := append(os.Environ(), "SPGO_CACHE="+cache)
			if tt.tmpDir != "" {
				tmp := filepath.Join(t.TempDir(), tt.tmpDir)
				if err := os.Mkdir(tmp, 0o755); err != nil {
					t.Fatal(err)
				}
				env = append(env, "TMPDIR="+tmp)
			}
			cmd := exec.Command(bin, "test", "-p", "1,4", ".")
			cmd.Dir, cmd.Env = dir, env
			var o, e strings.Builder
			cmd.Stdout, cmd.Stderr = &o, &e
			err := cmd.Run()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(e.String(), tt.wantErr) {
					t.Errorf("err %v, stderr %q; want a failure saying %q", err, e.String(), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("spbuild test: %v\n%s\n%s", err, o.String(), e.String())
			}
			if !strings.Contains(e.String(), "q.TestBuf") || !strings.Contains(e.String(), "MHWM_4") {
				t.Errorf("no report of q.TestBuf: the profile was lost\nstdout:\n%s\nstderr:\n%s", o.String(), e.String())
			}
		})
	}
}

// copyFile copies src to dst (creating dst's directory) with mode perm.
func copyFile(t *testing.T, src, dst string, perm os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, perm); err != nil {
		t.Fatal(err)
	}
}

// TestKilledLeavesNothing kills spbuild run (SIGKILL) while its program
// runs, then runs spbuild again with the same TMPDIR: once that has
// ended, nothing of either may be left in TMPDIR (the escape logs, the
// program's binary, the profiles and the copy of go.mod live in a
// per-run directory that the next spbuild removes when its owner is
// dead).
func TestKilledLeavesNothing(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/k\n\ngo 1.22\n",
		"main.go": `package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	buf := make([]byte, 1<<20)
	fmt.Println("ready", len(buf))
	io.Copy(io.Discard, os.Stdin)
}
`,
	})
	tmp, cache := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "TMPDIR="+tmp, "SPGO_CACHE="+cache)
	cmd := exec.Command(spbuildBin, "run", ".")
	cmd.Dir, cmd.Env = dir, env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close() }) // the program, orphaned, ends
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "ready") {
		t.Fatalf("the program did not start: %q %v", line, err)
	}
	left := func() []string {
		names, _ := filepath.Glob(filepath.Join(tmp, "*"))
		return names
	}
	if len(left()) == 0 {
		t.Fatal("spbuild run keeps nothing in TMPDIR while its program runs: this test tests nothing")
	}
	cmd.Process.Kill()
	cmd.Wait()
	_, stderr, code := spbuildEnv(t, dir, env, "build", "-o", filepath.Join(t.TempDir(), "k"), ".")
	if code != 0 {
		t.Fatalf("spbuild build: exit %d\n%s", code, stderr)
	}
	if names := left(); len(names) != 0 {
		t.Errorf("left in TMPDIR: %v", names)
	}
}

// spbuildEnv runs spbuild in dir with the environment env.
func spbuildEnv(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(spbuildBin, args...)
	cmd.Dir, cmd.Env = dir, env
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}
