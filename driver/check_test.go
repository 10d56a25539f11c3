package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrepareChecks: Prepare has the rewriter run spvet's nonsp, so that
// a goroutine nothing joins is reported where the user will read it.
func TestPrepareChecks(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/check\n\ngo 1.22\n",
		"main.go": `package main

func main() {
	done := make(chan bool)
	go func() { done <- true }()
	go func() { _ = make([]byte, 100) }()
	<-done
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Prepare(context.Background(), Config{Dir: dir, CacheDir: t.TempDir()}, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range p.Warnings {
		if strings.Contains(w.Reason, "nonsp: goroutine never joined") && w.Pos.Line == 6 {
			return
		}
	}
	t.Errorf("no nonsp warning at main.go:6 in %v", p.Warnings)
}
