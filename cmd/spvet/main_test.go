package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoVet builds spvet and runs the real go vet -vettool on a test module:
// the diagnostics come out with file:line and go vet exits non-zero.
func TestGoVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary and runs go vet")
	}
	bin := filepath.Join(t.TempDir(), "spvet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = filepath.Join("..", "..", "testdata", "vet", "fanout")
	out, err := cmd.CombinedOutput()
	exit, ok := err.(*exec.ExitError)
	if !ok || exit.ExitCode() == 0 {
		t.Fatalf("go vet: %v, want a non-zero exit\n%s", err, out)
	}
	for _, want := range []string{
		"main.go:21:3: nonsp: wg.Wait in a goroutine other than the one that spawns into wg",
		"main.go:28:2: nonsp: goroutine never joined",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("go vet output lacks %q:\n%s", want, out)
		}
	}
	// A clean package passes.
	cmd = exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = filepath.Join("..", "..", "analyzer", "internal", "groups")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet on a clean package: %v\n%s", err, out)
	}
}

// TestStandalone runs spvet as its own driver with -json.
func TestStandalone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "spvet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-json", "./...")
	cmd.Dir = filepath.Join("..", "..", "testdata", "vet", "fanout")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), `"nonsp"`) || !strings.Contains(string(out), "goroutine never joined") {
		t.Errorf("spvet -json output:\n%s", out)
	}
}
