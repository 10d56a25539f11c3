package rewrite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackagesBadInput checks that code that does not parse or type-check
// gives the messages with their positions, not a panic.
func TestPackagesBadInput(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"syntax", "package main\n\nfunc main() {\n\tgo\n}\n", "bad.go:5:1"},
		{"types", "package main\n\nfunc main() {\n\tvar x int = \"s\"\n\t_ = x\n}\n", "bad.go:4:14"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module bad\n\ngo 1.25\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Packages(context.Background(), Config{Dir: dir, NoEscape: true}, ".")
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("got %v, want a LoadError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not name %s", err, tt.want)
			}
		})
	}
}
