package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fillMain fills its TMPDIR, then returns: the runtime finds no room
// for the profile.
const fillMain = `package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = make([]byte, 1<<20) }()
	wg.Wait()
	f, err := os.Create(filepath.Join(os.TempDir(), "fill"))
	if err != nil {
		panic(err)
	}
	buf := make([]byte, 1<<16)
	for {
		if _, err := f.Write(buf); err != nil {
			fmt.Println("full")
			break
		}
	}
	f.Close()
}
`

// TestDiskFull: a program that leaves no room for its profile gets a
// message saying so and what to do, not "killed before it could?".
// TMPDIR is a small tmpfs, which only root may mount: the test is
// skipped otherwise.
func TestDiskFull(t *testing.T) {
	tmp := t.TempDir()
	if err := syscall.Mount("tmpfs", tmp, "tmpfs", 0, "size=64m"); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(tmp, syscall.MNT_DETACH) })
	dir := writeTree(t, map[string]string{
		"go.mod":  "module example.com/fill\n\ngo 1.22\n",
		"main.go": fillMain,
	})
	env := append(os.Environ(), "TMPDIR="+tmp, "SPGO_CACHE="+t.TempDir())
	stdout, stderr, code := spbuildEnv(t, dir, env, "run", ".")
	if code == 0 || stdout != "full\n" {
		t.Errorf("exit %d, stdout %q; want a failure after the program's output", code, stdout)
	}
	for _, want := range []string{"could not write its profile", "no space left on device", "free space on that file system or set TMPDIR"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "killed") {
		t.Errorf("stderr guesses the program was killed:\n%s", stderr)
	}
	os.Remove(filepath.Join(tmp, "fill"))
}
