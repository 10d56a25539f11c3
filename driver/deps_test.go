package driver

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCacheDeps: only modules of the cache are copied, once each, and
// their files' overlay keys move into the copies.
func TestCacheDeps(t *testing.T) {
	cache, final := "/m/cache", "/spgo/entries/k"
	mod := func(path, version, dir string, main bool) listPkg {
		lp := listPkg{ImportPath: path + "/p", Dir: dir + "/p"}
		lp.Module = &struct {
			Path, Version, Dir string
			Main               bool
		}{path, version, dir, main}
		return lp
	}
	pkgs := []listPkg{
		mod("example.com/main", "", "/home/u/main", true),
		mod("golang.org/x/sync", "v0.22.0", "/m/cache/golang.org/x/sync@v0.22.0", false),
		mod("golang.org/x/sync", "v0.22.0", "/m/cache/golang.org/x/sync@v0.22.0", false), // a second package
		mod("example.com/local", "", "/home/u/local", false),                             // a replacement directory
		{ImportPath: "fmt", Dir: "/go/src/fmt"},                                          // the standard library
	}
	deps := cacheDeps(pkgs, cache, final)
	if len(deps) != 1 || deps[0].Path != "golang.org/x/sync" || deps[0].Copy != filepath.Join(final, "deps", "golang.org", "x", "sync@v0.22.0") {
		t.Fatalf("deps %+v", deps)
	}
	for _, tt := range []struct{ in, want string }{
		{"/m/cache/golang.org/x/sync@v0.22.0/semaphore/semaphore.go", filepath.Join(final, "deps/golang.org/x/sync@v0.22.0/semaphore/semaphore.go")},
		{"/home/u/main/main.go", "/home/u/main/main.go"},
		{"/m/cache/golang.org/x/sync@v0.21.0/a.go", "/m/cache/golang.org/x/sync@v0.21.0/a.go"},
	} {
		if got := relocated(deps, tt.in); got != tt.want {
			t.Errorf("relocated(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if got := cacheDeps(pkgs, "", final); got != nil {
		t.Errorf("no GOMODCACHE: %+v", got)
	}
}

// TestCopyDeps: the copy is writable, and a module without a go.mod
// gets one (a replacement directory needs it).
func TestCopyDeps(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "p", "p.go"), []byte("package p\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	tmp, final := t.TempDir(), "/final"
	deps := []depModule{{Path: "example.com/old", Version: "v1.0.0", Dir: src, Copy: filepath.Join(final, "deps", "example.com", "old@v1.0.0")}}
	if err := copyDeps(deps, tmp, final); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(tmp, "deps", "example.com", "old@v1.0.0")
	fi, err := os.Stat(filepath.Join(dst, "p", "p.go"))
	if err != nil || fi.Mode().Perm()&0o200 == 0 {
		t.Errorf("copy: %v, %v", fi, err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "go.mod")); err != nil || string(data) != "module example.com/old\n" {
		t.Errorf("go.mod %q, %v", data, err)
	}
}
