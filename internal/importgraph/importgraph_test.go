package importgraph

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write the import graph into docs/design.md")

// skipped are the packages the design page leaves out of its graph: the
// measurement tools under bench/, this generator and the docs check.
var skipped = []string{"bench/", "internal/importgraph", "internal/doccheck"}

// TestDesignGraph fails when the import graph in docs/design.md is not
// the one `go list` gives now; -update writes the current one.
func TestDesignGraph(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Load(root, skipped...)
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"rtlib", "rtlib/mhwm", "rewrite", "driver", "cmd/spbuild"} {
		if _, ok := g[must]; !ok {
			t.Fatalf("go list found no package %s: %v", must, g)
		}
	}
	path := filepath.Join(root, "docs", "design.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := g.Markdown()
	if *update {
		out, err := Splice(doc, want)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := Block(doc)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if got != want {
		t.Errorf("docs/design.md: the import graph is stale; run go test ./internal/importgraph -update\n--- want\n%s", want)
	}
}

// TestMarkdown checks the rendering on a small graph: sorted, the root
// package named spgo, one edge a line.
func TestMarkdown(t *testing.T) {
	g := Graph{"b": {"a", "."}, "a": {}, ".": {"a"}}
	md := g.Markdown()
	for _, want := range []string{
		"  root[\"spgo\"]\n  a[\"a\"]\n  b[\"b\"]\n",
		"  root --> a\n  b --> root\n  b --> a\n",
		"| `b` | `spgo`, `a` |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if md != g.Markdown() {
		t.Error("Markdown is not deterministic")
	}
}

// TestSplice replaces the block and keeps what surrounds it.
func TestSplice(t *testing.T) {
	doc := []byte("head\n" + Begin + "\nold\n" + End + "\ntail\n")
	out, err := Splice(doc, Begin+"\nnew\n"+End)
	if err != nil {
		t.Fatal(err)
	}
	if want := "head\n" + Begin + "\nnew\n" + End + "\ntail\n"; string(out) != want {
		t.Errorf("Splice = %q, want %q", out, want)
	}
	if _, err := Splice([]byte("no markers"), ""); err == nil {
		t.Error("Splice without markers: no error")
	}
}
