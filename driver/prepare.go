package driver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spgo/spgo/rewrite"
)

// Config says what to instrument and how to build it.
type Config struct {
	// Dir is the directory the patterns are relative to; "" is the
	// current directory.
	Dir string
	// Tests instruments the test files of the target packages too.
	Tests bool
	// BuildFlags are passed to every go command (-tags, -race, ...).
	BuildFlags []string
	// Instrument names more packages to instrument (patterns), beyond
	// the main module's packages the targets depend on.
	Instrument []string
	// Env is the go command's environment; nil is os.Environ().
	Env []string
	// CacheDir holds rewritten packages and the runtime; "" is
	// $SPGO_CACHE, else spgo under the user's cache directory.
	CacheDir string
	// Log receives notes (cache hits, vendor mode); nil discards them.
	Log io.Writer
	// Child, if set, is called with true before a child program (the
	// instrumented program, or go test) starts and with false once it
	// has ended: while it runs, SIGINT and SIGTERM are the child's (a
	// terminal sends SIGINT to it too; Run and Test pass SIGTERM on).
	Child func(running bool)
}

// Prepared is an instrumented build, ready for the go command.
type Prepared struct {
	// Module is the main module's path and Root its directory.
	Module, Root string
	// Flags are the go command flags that select the instrumented
	// build: -overlay, and -modfile or -mod.
	Flags []string
	// Env is the go command's environment (GOWORK in a workspace).
	Env []string
	// Packages lists the instrumented packages: import path → directory.
	Packages map[string]string
	// Files is how many files were instrumented.
	Files int
	// Warnings lists what was not instrumented or makes figures
	// inexact, with positions.
	Warnings []rewrite.Warning
	// Cached is set when the rewrite was found in the cache.
	Cached bool
	// Entry is the cache entry's directory.
	Entry string
	// Targets are the packages the patterns matched (not their
	// dependencies), in the go command's order.
	Targets []Target

	mod      *module // the main module, for builds without spbuild
	modCache string  // GOMODCACHE, for the hint after a test timeout
}

// Target is a package the patterns given to Prepare matched.
type Target struct {
	ImportPath string
	Name       string // the package clause's name: "main" for a program
	Dir        string
	// Files are the package's Go files (cgo files included, test files
	// not), relative to Dir.
	Files []string
}

// listPkg is what spbuild reads of `go list -json`.
type listPkg struct {
	ImportPath string
	Name       string
	Dir        string
	ForTest    string
	DepOnly    bool
	Module     *struct {
		Path, Version, Dir string
		Main               bool
	}
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
}

// Prepare instruments the packages that building patterns involves and
// returns how to build them.
func Prepare(ctx context.Context, cfg Config, patterns ...string) (*Prepared, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	env := environ(cfg.Env)
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	ge, err := readGoEnv(ctx, dir, env)
	if err != nil {
		return nil, err
	}
	if strings.Contains(ge.GOFLAGS, "-modfile") {
		return nil, fmt.Errorf("GOFLAGS sets -modfile (%s): spbuild generates its own; unset it", ge.GOFLAGS)
	}
	m, err := readModule(ge, cfg.BuildFlags)
	if err != nil {
		return nil, err
	}
	cache, err := cacheDir(cfg.CacheDir, env)
	if err != nil {
		return nil, err
	}
	// Every go command before the build reads a copy of go.mod, so that
	// -mod=mod (a flag or GOFLAGS) edits the copy, never the user's.
	lcfg, cleanup, err := withListModFile(cfg, m)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	p := &Prepared{Module: m.Path, Root: m.Root, Env: env, mod: m, modCache: ge.GOMODCACHE}
	j := &job{cfg: cfg, lcfg: lcfg, env: env, dir: dir, cache: cache, ge: ge, m: m, patterns: patterns}
	if err := j.entry(ctx, p); err != nil {
		return nil, err
	}
	overlay := filepath.Join(p.Entry, "overlay", "overlay.json")
	p.Flags = []string{"-overlay=" + overlay}
	switch {
	case m.Vendor && m.injected():
		// From vendor/, through a generated workspace (vendor.go).
		p.Env = setEnv(env, "GOWORK", filepath.Join(p.Entry, "go.work"))
		p.Flags = append(p.Flags, "-mod=vendor")
		logf(cfg.Log, "spbuild: building from %s through the workspace %s\n", m.vendorDir(), filepath.Join(p.Entry, "go.work"))
	case m.Work == "":
		p.Flags = append(p.Flags, "-modfile="+filepath.Join(p.Entry, "go.mod"))
	case m.injected():
		p.Env = setEnv(env, "GOWORK", filepath.Join(p.Entry, "go.work"))
	}
	return p, nil
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// cacheDir returns (and creates) spbuild's cache directory.
func cacheDir(dir string, env []string) (string, error) {
	if dir == "" {
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "SPGO_CACHE="); ok && v != "" {
				dir = v
			}
		}
		if dir != "" && !filepath.IsAbs(dir) {
			// Relative to the directory spbuild runs in, it would put
			// the cache (instrumented copies of the user's files, a
			// go.mod) inside the user's module. The go command refuses
			// a relative GOCACHE the same way.
			return "", fmt.Errorf("SPGO_CACHE=%q is a relative path: set it to an absolute path", dir)
		}
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory (set SPGO_CACHE): %w", err)
		}
		dir = filepath.Join(base, "spgo")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dir, "entries"), 0o755); err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	return dir, nil
}

// listPackages returns the packages to instrument: the main module's
// packages among the targets and their dependencies (test variants
// included with cfg.Tests), plus the packages cfg.Instrument names; and
// the targets, the packages the patterns match.
func listPackages(ctx context.Context, dir string, env []string, cfg Config, patterns []string) ([]listPkg, []Target, error) {
	args := []string{"list", "-deps", "-json=ImportPath,Name,Dir,ForTest,DepOnly,Module,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles"}
	if cfg.Tests {
		args = append(args, "-test")
	}
	args = append(append(args, cfg.BuildFlags...), "--")
	out, err := goOutput(ctx, dir, env, append(args, patterns...)...)
	if err != nil {
		return nil, nil, err
	}
	extra := map[string]bool{}
	if len(cfg.Instrument) > 0 {
		eout, err := goOutput(ctx, dir, env, append(append([]string{"list"}, cfg.BuildFlags...), append([]string{"--"}, cfg.Instrument...)...)...)
		if err != nil {
			return nil, nil, fmt.Errorf("-instrument: %w", err)
		}
		for _, l := range strings.Fields(string(eout)) {
			extra[l] = true
		}
	}
	var pkgs []listPkg
	var targets []Target
	seen := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var lp listPkg
		if err := dec.Decode(&lp); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, nil, fmt.Errorf("go list: %w", err)
		}
		if lp.ForTest != "" || strings.HasSuffix(lp.ImportPath, ".test") || seen[lp.ImportPath] {
			continue // the test variants' files are the package's
		}
		if !lp.DepOnly {
			targets = append(targets, Target{ImportPath: lp.ImportPath, Name: lp.Name, Dir: lp.Dir, Files: slices.Concat(lp.GoFiles, lp.CgoFiles)})
		}
		main := lp.Module != nil && lp.Module.Main
		if !main && !extra[lp.ImportPath] || strings.HasPrefix(lp.ImportPath, runtimeImport) {
			continue
		}
		seen[lp.ImportPath] = true
		pkgs = append(pkgs, lp)
	}
	return pkgs, targets, nil
}

// entryKey hashes everything a rewrite depends on.
func entryKey(ge *goEnv, m *module, cfg Config, patterns []string, pkgs []listPkg, st sourceState) (string, error) {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field("spgo-entry-v1")
	exe, err := selfHash()
	if err != nil {
		return "", err
	}
	field(exe)
	for _, v := range []string{ge.GOVERSION, ge.GOOS, ge.GOARCH, ge.GOFLAGS, ge.CGO_ENABLED, ge.GOEXPERIMENT, m.Root, m.Work, fmt.Sprint(cfg.Tests), fmt.Sprint(m.Vendor)} {
		field(v)
	}
	for _, list := range [][]string{cfg.BuildFlags, cfg.Instrument, patterns} {
		field(fmt.Sprint(len(list)))
		for _, s := range list {
			field(s)
		}
	}
	for _, f := range m.files() {
		field(f)
		sum := st[f].sum
		h.Write(sum[:])
	}
	for _, lp := range pkgs {
		field(lp.ImportPath)
		field(lp.Dir)
		for _, name := range lp.files() {
			f := st[filepath.Join(lp.Dir, name)]
			if f.missing {
				return "", fmt.Errorf("hash %s: %w", filepath.Join(lp.Dir, name), os.ErrNotExist)
			}
			field(name)
			h.Write(f.sum[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// selfHash identifies the running spbuild (its rewriter and runtime):
// the hash of its executable.
func selfHash() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cache key: %w", err)
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", fmt.Errorf("cache key: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("cache key: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// withListModFile returns cfg with a -modfile flag naming a private copy
// of the user's go.mod and go.sum, for the go commands that list and
// analyse the packages, and a function that removes the copy. In a
// workspace (where -modfile is not allowed, nor is -mod=mod) cfg is
// returned as it is.
func withListModFile(cfg Config, m *module) (Config, func(), error) {
	if m.Work != "" {
		return cfg, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "spbuild-mod-*")
	if err != nil {
		return cfg, nil, fmt.Errorf("copy of go.mod: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	mf, err := m.copyModFile(dir)
	if err != nil {
		cleanup()
		return cfg, nil, err
	}
	cfg.BuildFlags = append([]string{"-modfile=" + mf}, cfg.BuildFlags...)
	return cfg, cleanup, nil
}
