//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// stuckMain's goroutine blocks in a system call rtlib does not see (a
// raw read of a pipe that main writes to only after it gets the baton):
// the watchdog must take the baton from it.
const stuckMain = `package main

import (
	"fmt"
	"sync"
	"syscall"
)

func main() {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		panic(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf := make([]byte, 1)
		syscall.Read(p[0], buf)
	}()
	syscall.Write(p[1], []byte{1})
	wg.Wait()
	fmt.Println("done")
}
`

// TestWatchdogInEveryReport: a watchdog event makes the figures inexact,
// and every output says why: the text report on stderr, the profile, the
// HTML report and the pprof profile's comments.
func TestWatchdogInEveryReport(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":  "module example.com/stuck\n\ngo 1.22\n",
		"main.go": stuckMain,
	})
	out := t.TempDir()
	js, html, pb := filepath.Join(out, "p.json"), filepath.Join(out, "r.html"), filepath.Join(out, "p.pb.gz")
	cmd := exec.Command(spbuildBin, "run", "-json", js, "-html", html, "-pprof", pb, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SPGO_CACHE="+t.TempDir(), "SPGO_WATCHDOG=100ms")
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("spbuild run: %v\n%s", err, e.String())
	}
	if o.String() != "done\n" {
		t.Errorf("stdout %q, want the program's alone", o.String())
	}
	// Once for the read; on a loaded machine the watchdog may also take
	// the baton from a holder the system did not run for its period.
	why := regexp.MustCompile(`the watchdog took the baton \d+ time\(s\) from a goroutine stuck in uninstrumented code`)
	if !strings.Contains(e.String(), "not exact") || !why.MatchString(e.String()) {
		t.Errorf("the text report does not say why the figures are not exact:\n%s", e.String())
	}
	p, err := profile.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Roots) != 1 || p.Roots[0].Exact || !why.MatchString(strings.Join(p.Roots[0].Reasons, "\n")) {
		t.Errorf("profile roots: %+v", p.Roots)
	}
	h, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !why.Match(h) {
		t.Error("the HTML report does not give the reason")
	}
	pp := readPprof(t, pb)
	if !why.MatchString(strings.Join(pp.Comments, "\n")) {
		t.Errorf("pprof comments: %q", pp.Comments)
	}
}
