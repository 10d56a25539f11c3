package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spgo/spgo/bench/internal/harness"
)

// site is where one program is laid out in the scratch directory.
type site struct {
	mod   string // the writable copy of the module
	work  string // generated inputs, prebuilt helpers, outputs
	plain string // the plain binary
	spgo  string // the instrumented binary (spbuild build)
	prof  string // the profile of the spbuild run check
	cwd   string // where the program runs
	pkg   string // the main package as spbuild and go build are given it
}

// goEnv is the environment of every go and spbuild command: the pinned
// module's own go.mod decides, no workspace of the caller's, the local
// toolchain.
func (h *runner) goEnv(extra ...string) []string {
	env := append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod -buildvcs=false")
	return append(env, extra...)
}

// prepare fetches p's module, copies it out of the module cache, builds
// the plain binary and the helpers, and writes the inputs.
func (h *runner) prepare(p program) (site, error) {
	base := filepath.Join(h.dir, p.name)
	s := site{mod: filepath.Join(base, "mod"), work: filepath.Join(base, "work"),
		plain: filepath.Join(base, "plain"), spgo: filepath.Join(base, "spgo"), prof: filepath.Join(base, "profile.json")}
	if err := os.RemoveAll(base); err != nil {
		return s, err
	}
	if err := os.MkdirAll(s.work, 0o755); err != nil {
		return s, err
	}
	src, gomod, err := h.download(p.module)
	if err != nil {
		return s, err
	}
	if err := harness.CopyTree(src, s.mod); err != nil {
		return s, fmt.Errorf("copy %s: %w", src, err)
	}
	if _, err := os.Stat(filepath.Join(s.mod, "go.mod")); err != nil { // a module without go.mod: the proxy's
		if err := copyFile(gomod, filepath.Join(s.mod, "go.mod"), 0o644); err != nil {
			return s, err
		}
	}
	s.cwd, s.pkg = s.mod, p.pkg
	if err := h.sh(s.mod, h.goEnv(), "go", "build", "-o", s.plain, p.pkg); err != nil {
		return s, fmt.Errorf("plain build: %w", err)
	}
	for name, pkg := range p.prebuild {
		if err := h.sh(s.mod, h.goEnv(), "go", "build", "-o", filepath.Join(s.work, name), pkg); err != nil {
			return s, fmt.Errorf("build %s: %w", name, err)
		}
	}
	if p.inGen {
		modPath, _, _ := strings.Cut(p.module, "@")
		s.cwd, s.pkg = filepath.Join(s.work, "gen"), path.Join(modPath, p.pkg)
	}
	for _, g := range p.inputs {
		if err := g(s.work, s.mod); err != nil {
			return s, fmt.Errorf("generate inputs: %w", err)
		}
	}
	if p.inGen {
		work := fmt.Sprintf("go %s\n\nuse (\n\t./gen\n\t%s\n)\n", strings.TrimPrefix(runtime.Version(), "go"), s.mod)
		if err := os.WriteFile(filepath.Join(s.work, "go.work"), []byte(work), 0o644); err != nil {
			return s, err
		}
	}
	return s, nil
}

// download brings module@version into the module cache and returns its
// directory and its go.mod file.
func (h *runner) download(module string) (dir, gomod string, err error) {
	out, err := h.output(h.dir, h.goEnv(), "go", "mod", "download", "-json", module)
	if err != nil {
		return "", "", fmt.Errorf("go mod download %s: %w", module, err)
	}
	var info struct{ Dir, GoMod, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", "", fmt.Errorf("go mod download %s: %w", module, err)
	}
	if info.Error != "" || info.Dir == "" {
		return "", "", fmt.Errorf("go mod download %s: %s", module, info.Error)
	}
	return info.Dir, info.GoMod, nil
}

// copyFile copies src to dst with mode perm.
func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
