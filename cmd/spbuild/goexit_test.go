package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// TestMainGoexitPartial: main.main that leaves through runtime.Goexit
// ends the process with the Go runtime's fatal error and exit status 2,
// as the original does, and the profile says the run did not end
// normally.
func TestMainGoexitPartial(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/ge\n\ngo 1.22\n",
		"main.go": `package main

import (
	"fmt"
	"runtime"
)

var sink []byte

func main() {
	done := make(chan struct{})
	go func() {
		<-done
		fmt.Println("worker")
	}()
	defer close(done)
	sink = make([]byte, 1<<20)
	runtime.Goexit()
}
`,
	})
	prof := filepath.Join(t.TempDir(), "p.json")
	stdout, stderr, code := spbuild(t, dir, t.TempDir(), "run", "-q", "-json", prof, ".")
	if code != 2 || stdout != "worker\n" || !strings.Contains(stderr, "main called runtime.Goexit") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	p, err := profile.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Partial || len(p.Roots) != 1 || p.Roots[0].Exact {
		t.Errorf("partial %v, %d roots (exact %v): want partial, one inexact root", p.Partial, len(p.Roots), len(p.Roots) > 0 && p.Roots[0].Exact)
	}
	if m, _ := p.Roots[0].MHWMAt(1); m < 1<<20 {
		t.Errorf("MHWM_1 %d: the root's figures up to Goexit are lost", m)
	}
}
