package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestExecName(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"example.com/tool", "tool"},
		{"example.com/tool/v2", "tool"},
		{"example.com/tool/v1", "v1"},
		{"example.com/tool/v0", "v0"},
		{"example.com/tool/cmd/x", "x"},
		{"v2", "v2"},
		{"hello", "hello"},
	} {
		if got := execName(tt.path); got != tt.want {
			t.Errorf("execName(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestBuildOutputName: spbuild build names its output as go build does,
// after the import path, not the directory.
func TestBuildOutputName(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	dir := writeTree(t, map[string]string{
		"checkout/go.mod":  "module example.com/tool/v2\n\ngo 1.22\n",
		"checkout/main.go": "package main\n\nfunc main() {}\n",
	})
	mod := filepath.Join(dir, "checkout")
	plain := exec.Command("go", "build", ".")
	plain.Dir = mod
	if out, err := plain.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(mod, "tool")); err != nil {
		t.Fatalf("go build's output: %v", err)
	}
	os.Remove(filepath.Join(mod, "tool"))
	if _, stderr, code := spbuild(t, mod, t.TempDir(), "build", "."); code != 0 {
		t.Fatalf("spbuild build: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(mod, "tool")); err != nil {
		t.Errorf("spbuild build's output is not named tool: %v", err)
	}
	if _, err := os.Stat(filepath.Join(mod, "checkout")); err == nil {
		t.Error("spbuild build named its output after the directory")
	}
}
