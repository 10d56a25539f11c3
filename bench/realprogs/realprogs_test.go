package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPrograms checks the pinned list: enough programs, unique names,
// exact versions, packages inside the module, generated inputs only.
func TestPrograms(t *testing.T) {
	if len(programs) < 15 {
		t.Errorf("%d programs, want at least 15", len(programs))
	}
	exact := regexp.MustCompile(`^[a-z0-9.\-/]+@v[0-9]+\.[0-9]+\.[0-9]+(-[0-9a-z.\-]+)?$`)
	seen := map[string]bool{}
	for _, p := range programs {
		if seen[p.name] {
			t.Errorf("%s: listed twice", p.name)
		}
		seen[p.name] = true
		if !exact.MatchString(strings.ToLower(p.module)) {
			t.Errorf("%s: module %q is not module@exact-version", p.name, p.module)
		}
		if !strings.HasPrefix(p.pkg, ".") {
			t.Errorf("%s: package %q is not relative to the module's root", p.name, p.pkg)
		}
		if p.note == "" {
			t.Errorf("%s: no note", p.name)
		}
	}
}

// TestGeneratorsDeterministic runs every generator twice and compares
// what they wrote, byte for byte.
func TestGeneratorsDeterministic(t *testing.T) {
	gens := map[string]generator{"text": genText, "paths": genPaths, "docs": genDocs, "png": genPNG,
		"kv": genKV, "shell": genShell, "benthos": genBenthos, "workflows": genWorkflows, "gomodule": genGoModule}
	for name, g := range gens {
		a, b := t.TempDir(), t.TempDir()
		for _, d := range []string{a, b} {
			if err := g(d, d); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if fa, fb := snapshot(t, a), snapshot(t, b); fa != fb {
			t.Errorf("%s: two runs wrote different files", name)
		}
	}
}

// snapshot is every file under dir, relative name and contents.
func snapshot(t *testing.T, dir string) string {
	var buf bytes.Buffer
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		buf.WriteString(rel + "\n")
		buf.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestExpand checks {w} and globbing of arguments.
func TestExpand(t *testing.T) {
	w := t.TempDir()
	for _, f := range []string{"b.yml", "a.yml"} {
		if err := os.WriteFile(filepath.Join(w, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Join(expand([]string{"-x", "{w}/*.yml", "{w}/none*"}, w), " ")
	want := strings.Join([]string{"-x", filepath.Join(w, "a.yml"), filepath.Join(w, "b.yml"), w + "/none*"}, " ")
	if got != want {
		t.Errorf("expand = %q, want %q", got, want)
	}
}

// TestWarnings counts only spgo's warning lines.
func TestWarnings(t *testing.T) {
	n, first := warnings([]byte("x\nspgo: warning: one\nspgo: note\nspgo: warning: two\n"))
	if n != 2 || first != "spgo: warning: one" {
		t.Errorf("warnings = %d, %q", n, first)
	}
}
