package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/spgo/spgo/analyzer/nonsp"
	"github.com/spgo/spgo/rewrite"
)

// maxAttempts is how many times Prepare lists and rewrites packages whose
// files keep changing meanwhile before it gives up.
const maxAttempts = 3

// testHookRewrite, when set (by tests), runs after the cache key is
// hashed and before the rewriter reads the files.
var testHookRewrite func()

// job is one Prepare: what the cache entry is made from.
type job struct {
	cfg      Config // as given: the cache key hashes its flags
	lcfg     Config // cfg with the listing -modfile, for go list and the rewriter
	env      []string
	dir      string // the absolute directory patterns are relative to
	cache    string
	ge       *goEnv
	m        *module
	patterns []string
}

// entry lists the packages, finds or builds their cache entry and fills
// in p. When files change while they are rewritten, it starts again.
func (j *job) entry(ctx context.Context, p *Prepared) error {
	for attempt := 1; ; attempt++ {
		err := j.tryEntry(ctx, p)
		var ce *changedError
		if !errors.As(err, &ce) {
			return err
		}
		if attempt == maxAttempts {
			return fmt.Errorf("%w (%d times): instrument it when it stops changing", err, attempt)
		}
		logf(j.cfg.Log, "spbuild: %v; instrumenting again\n", err)
	}
}

// tryEntry is one attempt of entry.
func (j *job) tryEntry(ctx context.Context, p *Prepared) error {
	pkgs, targets, err := listPackages(ctx, j.dir, j.env, j.lcfg, j.patterns)
	if err != nil {
		return err
	}
	p.Targets = targets
	if len(pkgs) == 0 {
		return fmt.Errorf("no package of the main module matches %s: spbuild instruments the main module's packages (use -instrument for others)", strings.Join(j.patterns, " "))
	}
	files, dirs := sourcePaths(j.m, pkgs)
	st, err := readState(files, dirs)
	if err != nil {
		return err
	}
	key, err := entryKey(j.ge, j.m, j.cfg, j.patterns, pkgs, st)
	if err != nil {
		return err
	}
	p.Packages = map[string]string{}
	for _, lp := range pkgs {
		p.Packages[lp.ImportPath] = lp.Dir
	}
	p.Entry = filepath.Join(j.cache, "entries", key)
	if meta, err := readEntry(p.Entry); err == nil {
		p.Cached, p.Files, p.Warnings = true, meta.Files, meta.Warnings
		logf(j.cfg.Log, "spbuild: %d instrumented file(s) from the cache (%s)\n", p.Files, p.Entry)
		return nil
	}
	return j.buildEntry(ctx, pkgs, st, p)
}

// entryMeta is written last into a cache entry: its presence means the
// entry is complete.
type entryMeta struct {
	Files    int
	Warnings []rewrite.Warning
}

// readEntry reads a complete cache entry's metadata.
func readEntry(dir string) (*entryMeta, error) {
	data, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return nil, err
	}
	var m entryMeta
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// buildEntry rewrites the packages and writes a complete cache entry at
// p.Entry (in a temporary directory renamed into place). The files must
// still be as st found them (what the key hashes) once the rewrite and
// the generated go.mod are written; if not, it returns a changedError
// and leaves no entry.
func (j *job) buildEntry(ctx context.Context, pkgs []listPkg, st sourceState, p *Prepared) error {
	paths := make([]string, len(pkgs))
	for i, lp := range pkgs {
		paths[i] = lp.ImportPath
	}
	if testHookRewrite != nil {
		testHookRewrite()
	}
	res, err := rewrite.Packages(ctx, rewrite.Config{Dir: j.dir, Tests: j.cfg.Tests, BuildFlags: j.lcfg.BuildFlags, Env: j.env, Check: []*analysis.Analyzer{nonsp.Analyzer}}, paths...)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Join(j.cache, "entries"), ".new-*")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	// The overlay's file names are fixed by its final place.
	final := p.Entry
	if _, err := res.WriteOverlay(filepath.Join(tmp, "overlay")); err != nil {
		return err
	}
	vendored := ""
	var deps []depModule
	if j.m.Vendor && j.m.injected() {
		vendored = j.m.vendorDir()
	} else if j.m.injected() {
		deps = cacheDeps(pkgs, j.ge.GOMODCACHE, final)
		if err := copyDeps(deps, tmp, final); err != nil {
			return err
		}
	}
	if err := relocateOverlay(filepath.Join(tmp, "overlay"), final, vendored, deps); err != nil {
		return err
	}
	if err := writeModFiles(j.cache, tmp, j.m, deps); err != nil {
		return err
	}
	if err := st.unchanged(); err != nil {
		return err
	}
	meta, err := json.Marshal(entryMeta{Files: len(res.Files), Warnings: res.Warnings})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "meta.json"), meta, 0o644); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	won, err := commitEntry(tmp, final)
	if err != nil {
		return err
	}
	if !won {
		// Another spbuild put the same entry in place first: its
		// files are the same, and it may be building from them.
		meta, err := readEntry(final)
		if err != nil {
			return fmt.Errorf("cache: %w", err)
		}
		p.Cached, p.Files, p.Warnings = true, meta.Files, meta.Warnings
		logf(j.cfg.Log, "spbuild: %d instrumented file(s) from another spbuild (%s)\n", p.Files, final)
		return nil
	}
	p.Files, p.Warnings = len(res.Files), res.Warnings
	logf(j.cfg.Log, "spbuild: instrumented %d file(s)\n", p.Files)
	return nil
}

// commitEntry renames the complete entry tmp to final. Entries appear
// only that way, whole, and a complete one is never removed: another
// spbuild may be building from it. If one is in place already (another
// spbuild won the race), commitEntry reports won = false and leaves tmp
// for the caller to remove. A directory at final without meta.json (left
// by a crash while the cache was being cleaned) is renamed aside
// (atomically: no other spbuild can be given a half-removed entry) and
// removed, and the rename is tried again.
func commitEntry(tmp, final string) (won bool, err error) {
	for range 2 {
		err = os.Rename(tmp, final)
		if err == nil {
			return true, nil
		}
		if _, rerr := readEntry(final); rerr == nil {
			return false, nil
		}
		if _, serr := os.Lstat(final); serr != nil {
			break // nothing in the way: the rename failed by itself
		}
		aside, aerr := os.MkdirTemp(filepath.Dir(final), ".old-*")
		if aerr != nil {
			return false, fmt.Errorf("cache: %w", aerr)
		}
		if rerr := os.Rename(final, filepath.Join(aside, "entry")); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			os.RemoveAll(aside)
			return false, fmt.Errorf("cache: %w", rerr)
		}
		os.RemoveAll(aside)
	}
	return false, fmt.Errorf("cache: %w", err)
}

// relocateOverlay rewrites overlay.json in dir (written in a temporary
// directory) so that its replacement paths point into the entry's final
// directory. A build from vendor/ reads the vendored packages through
// the entry's own vendor directory (writeVendor): the instrumented files
// under the user's vendor directory vendored ("" if none) are replaced
// under the entry's too, and those of the module cache in the entry's
// copies of their modules (deps).
func relocateOverlay(dir, final, vendored string, deps []depModule) error {
	file := filepath.Join(dir, "overlay.json")
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	for k, v := range ov.Replace {
		repl := filepath.Join(final, "overlay", filepath.Base(v))
		if to := relocated(deps, k); to != k {
			delete(ov.Replace, k)
			k = to
		}
		ov.Replace[k] = repl
		if rel, err := filepath.Rel(vendored, k); vendored != "" && err == nil && filepath.IsLocal(rel) {
			ov.Replace[filepath.Join(final, "vendor", rel)] = repl
		}
	}
	out, err := json.MarshalIndent(ov, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(file, out, 0o644)
}

// writeModFiles writes into an entry's directory the files that select
// the instrumented build: a go.mod that adds the runtime, or a go.work
// in a workspace and for a build from vendor/ (with its vendor
// directory), or for spgo's own module a copy of its go.mod. Modules of
// deps are replaced by their copies.
func writeModFiles(cache, dir string, m *module, deps []depModule) error {
	if !m.injected() {
		if m.Work != "" {
			return nil
		}
		_, err := m.copyModFile(dir)
		return err
	}
	goLine := m.GoLine
	if m.Work != "" {
		var err error
		if goLine, err = m.workGoLine(); err != nil {
			return err
		}
	}
	rt, err := extractRuntime(cache, goLine)
	if err != nil {
		return err
	}
	switch {
	case m.Vendor:
		if _, err := m.genWorkFile(dir, rt, nil); err != nil {
			return err
		}
		return m.writeVendor(dir)
	case m.Work != "":
		_, err = m.genWorkFile(dir, rt, deps)
	default:
		_, err = m.genModFile(dir, rt, deps)
	}
	return err
}
