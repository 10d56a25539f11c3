package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// raceProgs are the programs TestRace runs: every example, corpus
// programs of each kind of synchronisation rtlib hands the baton over
// in, and accuracy programs whose tasks end with a census (not
// maingoexit: under the race detector the Go runtime does not find the
// deadlock that ends it, and it hangs). dir is
// relative to the repository root; a program outside an example's
// module is copied into a module of its own (spbuild instruments only
// the main module, and rtlib's own directory never).
var raceProgs = []struct {
	dir  string
	copy bool // copy main.go into a module of its own
}{
	{dir: "testdata/examples/tiles"},
	{dir: "testdata/examples/tileslimit"},
	{dir: "testdata/examples/explosion"},
	{dir: "testdata/examples/pipeline"},
	{dir: "testdata/examples/workerpool"},
	{dir: "rewrite/testdata/corpus/closechan", copy: true},
	{dir: "rewrite/testdata/corpus/condforeign", copy: true},
	{dir: "rewrite/testdata/corpus/lockerif", copy: true},
	{dir: "rewrite/testdata/corpus/mutexhandoff", copy: true},
	{dir: "rewrite/testdata/corpus/pipeio", copy: true},
	{dir: "rewrite/testdata/corpus/selectloop", copy: true},
	{dir: "rewrite/testdata/corpus/spinpoll", copy: true},
	{dir: "rewrite/testdata/corpus/timeafter", copy: true},
	{dir: "rewrite/testdata/corpus/wggo", copy: true},
	{dir: "rtlib/testdata/accuracy/handoff", copy: true},
	{dir: "rtlib/testdata/accuracy/nested", copy: true},
}

// TestRace runs programs that are race-free under go build -race with
// spbuild run -race, and the tiles example's tests with spbuild test
// -race: the race detector must find nothing (rtlib's own state is
// handed over with the baton), and the exit status must be the
// uninstrumented program's.
func TestRace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs with the race detector")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	probe := exec.Command("go", "build", "-race", "-o", os.DevNull, ".")
	probe.Dir = filepath.Join(root, "testdata/examples/explosion")
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("no race detector here: %v\n%s", err, out)
	}
	cache := t.TempDir()
	for _, p := range raceProgs {
		t.Run(filepath.Base(p.dir), func(t *testing.T) {
			dir := filepath.Join(root, p.dir)
			if p.copy {
				dir = ownModule(t, root, dir)
			}
			bin := filepath.Join(t.TempDir(), "orig")
			goCmd(t, dir, "build", "-race", "-o", bin, ".")
			cmd := exec.Command(bin)
			cmd.Dir = dir
			out, _ := cmd.CombinedOutput()
			if strings.Contains(string(out), "WARNING: DATA RACE") {
				t.Fatalf("the program itself races:\n%s", out)
			}
			want := cmd.ProcessState.ExitCode()
			_, stderr, code := spbuild(t, dir, cache, "run", "-race", "-q", ".")
			if strings.Contains(stderr, "WARNING: DATA RACE") {
				t.Errorf("races under spbuild run -race:\n%s", stderr)
			}
			if code != want {
				t.Errorf("exit %d, uninstrumented %d\n%s", code, want, stderr)
			}
		})
	}
	t.Run("test", func(t *testing.T) {
		stdout, stderr, code := spbuild(t, filepath.Join(root, "testdata/examples/tiles"), cache, "test", "-race", ".")
		if code != 0 || strings.Contains(stdout+stderr, "WARNING: DATA RACE") {
			t.Errorf("spbuild test -race: exit %d\n%s\n%s", code, stdout, stderr)
		}
	})
}

// ownModule copies the Go files of dir into a new module and returns its
// directory; the module requires what the tiles example requires
// (golang.org/x/sync), with its go.sum.
func ownModule(t *testing.T, root, dir string) string {
	t.Helper()
	mod := t.TempDir()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	for _, f := range files {
		copyFile(t, f, filepath.Join(mod, filepath.Base(f)), 0o644)
	}
	tiles := filepath.Join(root, "testdata", "examples", "tiles")
	copyFile(t, filepath.Join(tiles, "go.sum"), filepath.Join(mod, "go.sum"), 0o644)
	gomod, err := os.ReadFile(filepath.Join(tiles, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gomod = []byte(strings.Replace(string(gomod), "module example.com/tiles", "module example.com/"+filepath.Base(dir), 1))
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), gomod, 0o644); err != nil {
		t.Fatal(err)
	}
	return mod
}
