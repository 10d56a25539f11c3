package driver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// module is the user's main module (or workspace), as read.
type module struct {
	Path   string   // module path ("" at a workspace's root, outside its modules)
	Root   string   // directory of go.mod (of go.work at a workspace's root)
	GoMod  string   // go.mod path ("" at a workspace's root)
	GoLine string   // its go line ("1.16" if absent, as for the go command)
	Vendor bool     // the go command builds it from a vendor directory
	Work   string   // go.work path in workspace mode
	Uses   []string // in workspace mode, the directories of its modules
}

// readModule finds the main module of env's go command: the module of
// the current directory, in a workspace or not, or the workspace itself
// in a directory of it outside its modules (where the go command builds
// their packages by import path, as go run example.com/app does).
// flags are the build flags, for -mod.
func readModule(e *goEnv, flags []string) (*module, error) {
	work := e.GOWORK != "" && e.GOWORK != "off"
	if (e.GOMOD == "" || e.GOMOD == os.DevNull) && work {
		m := &module{Root: filepath.Dir(e.GOWORK), GoLine: "1.16", Work: e.GOWORK}
		if err := m.readWork(); err != nil {
			return nil, err
		}
		return m, m.setVendor(e.GOFLAGS, flags, "")
	}
	if e.GOMOD == "" || e.GOMOD == os.DevNull {
		return nil, errors.New("not in a module: spbuild instruments the packages of a Go module (no go.mod here or in a parent directory, and no go.work; GO111MODULE=off is not supported)")
	}
	data, err := os.ReadFile(e.GOMOD)
	if err != nil {
		return nil, fmt.Errorf("read go.mod: %w", err)
	}
	f, err := modfile.ParseLax(e.GOMOD, data, nil)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", e.GOMOD, err)
	}
	if f.Module == nil {
		return nil, fmt.Errorf("%s has no module line", e.GOMOD)
	}
	m := &module{Path: f.Module.Mod.Path, Root: filepath.Dir(e.GOMOD), GoMod: e.GOMOD, GoLine: "1.16"}
	goLine := ""
	if f.Go != nil {
		m.GoLine, goLine = f.Go.Version, f.Go.Version
	}
	if work {
		m.Work = e.GOWORK
		if err := m.readWork(); err != nil {
			return nil, err
		}
	}
	return m, m.setVendor(e.GOFLAGS, flags, goLine)
}

// injected reports whether the runtime must be added to the build: not
// when the main module is spgo itself.
func (m *module) injected() bool { return m.Path != RuntimeModule }

// genModFile writes into dir a copy of the user's go.mod that requires the
// runtime and replaces it by rtDir, with go.sum beside it; it returns the
// -modfile path. Relative replacement directories are made absolute (the
// copy lives elsewhere).
func (m *module) genModFile(dir, rtDir string, deps []depModule) (string, error) {
	data, err := os.ReadFile(m.GoMod)
	if err != nil {
		return "", fmt.Errorf("read go.mod: %w", err)
	}
	f, err := modfile.Parse(m.GoMod, data, nil)
	if err != nil {
		return "", fmt.Errorf("parse %s: %w", m.GoMod, err)
	}
	if err := addRuntime(f, m.Root, rtDir); err != nil {
		return "", err
	}
	if err := replaceDeps(deps, f.AddReplace); err != nil {
		return "", err
	}
	out, err := f.Format()
	if err != nil {
		return "", fmt.Errorf("format go.mod: %w", err)
	}
	modPath := filepath.Join(dir, "go.mod")
	if err := os.WriteFile(modPath, out, 0o644); err != nil {
		return "", fmt.Errorf("write modfile: %w", err)
	}
	if err := copySum(filepath.Join(m.Root, "go.sum"), filepath.Join(dir, "go.sum")); err != nil {
		return "", err
	}
	return modPath, nil
}

// copyModFile copies the user's go.mod and go.sum into dir unchanged and
// returns the copy's path, for -modfile: the go command resolves
// relative replacements against the module's root, not the file's
// directory, and a vendor/modules.txt still matches the copy.
func (m *module) copyModFile(dir string) (string, error) {
	data, err := os.ReadFile(m.GoMod)
	if err != nil {
		return "", fmt.Errorf("read go.mod: %w", err)
	}
	modPath := filepath.Join(dir, "go.mod")
	if err := os.WriteFile(modPath, data, 0o644); err != nil {
		return "", fmt.Errorf("write modfile: %w", err)
	}
	if err := copySum(filepath.Join(m.Root, "go.sum"), filepath.Join(dir, "go.sum")); err != nil {
		return "", err
	}
	return modPath, nil
}

// addRuntime edits a go.mod: relative replacements absolute (against
// root), and the runtime required and replaced by rtDir.
func addRuntime(f *modfile.File, root, rtDir string) error {
	for _, r := range f.Replace {
		if modfile.IsDirectoryPath(r.New.Path) && !filepath.IsAbs(r.New.Path) {
			abs := filepath.Join(root, r.New.Path)
			if err := f.AddReplace(r.Old.Path, r.Old.Version, abs, ""); err != nil {
				return fmt.Errorf("edit go.mod: %w", err)
			}
		}
	}
	for _, r := range f.Require {
		if r.Mod.Path == RuntimeModule {
			if err := f.DropRequire(RuntimeModule); err != nil {
				return fmt.Errorf("edit go.mod: %w", err)
			}
		}
	}
	for _, r := range f.Replace {
		if r.Old.Path == RuntimeModule {
			if err := f.DropReplace(RuntimeModule, r.Old.Version); err != nil {
				return fmt.Errorf("edit go.mod: %w", err)
			}
		}
	}
	if err := f.AddRequire(RuntimeModule, runtimeVersion); err != nil {
		return fmt.Errorf("edit go.mod: %w", err)
	}
	if err := f.AddReplace(RuntimeModule, "", rtDir, ""); err != nil {
		return fmt.Errorf("edit go.mod: %w", err)
	}
	f.Cleanup()
	return nil
}

// genWorkFile writes into dir the workspace file of the instrumented
// build, with go.work.sum beside it, and returns its path, for GOWORK: a
// copy of the user's go.work, or for a module built from vendor/ one
// that uses the module (workFile), which also uses the runtime module at
// rtDir. Its directories are absolute, but for a build from vendor/ its
// replacements' are relative to dir as the vendor directory's
// modules.txt has them (writeVendor).
func (m *module) genWorkFile(dir, rtDir string, deps []depModule) (string, error) {
	f, wdir, err := m.workFile()
	if err != nil {
		return "", err
	}
	for _, u := range f.Use {
		if !filepath.IsAbs(u.Path) {
			if err := f.AddUse(filepath.Join(wdir, u.Path), u.ModulePath); err != nil {
				return "", fmt.Errorf("edit go.work: %w", err)
			}
			if err := f.DropUse(u.Path); err != nil {
				return "", fmt.Errorf("edit go.work: %w", err)
			}
		}
	}
	for _, r := range f.Replace {
		if modfile.IsDirectoryPath(r.New.Path) && !filepath.IsAbs(r.New.Path) {
			to := filepath.Join(wdir, r.New.Path)
			if m.Vendor {
				to = relDir(dir, to)
			}
			if err := f.AddReplace(r.Old.Path, r.Old.Version, to, ""); err != nil {
				return "", fmt.Errorf("edit go.work: %w", err)
			}
		}
	}
	if err := f.AddUse(rtDir, RuntimeModule); err != nil {
		return "", fmt.Errorf("edit go.work: %w", err)
	}
	if err := replaceDeps(deps, f.AddReplace); err != nil {
		return "", err
	}
	f.Cleanup()
	workPath := filepath.Join(dir, "go.work")
	if err := os.WriteFile(workPath, modfile.Format(f.Syntax), 0o644); err != nil {
		return "", fmt.Errorf("write go.work: %w", err)
	}
	sum := m.Work + ".sum"
	if m.Work == "" {
		sum = "" // a module's go.sum is read where it is
	}
	if err := copySum(sum, workPath+".sum"); err != nil {
		return "", err
	}
	return workPath, nil
}

// workFile returns the user's workspace file and its directory, or for
// a module (built from vendor/) a workspace file that uses it, with its
// go, toolchain and godebug lines (which a workspace's module does not
// apply), and its directory.
func (m *module) workFile() (*modfile.WorkFile, string, error) {
	if m.Work != "" {
		f, err := m.parseWork()
		return f, filepath.Dir(m.Work), err
	}
	data, err := os.ReadFile(m.GoMod)
	if err != nil {
		return nil, "", fmt.Errorf("read go.mod: %w", err)
	}
	mf, err := modfile.ParseLax(m.GoMod, data, nil)
	if err != nil {
		return nil, "", fmt.Errorf("parse %s: %w", m.GoMod, err)
	}
	f := &modfile.WorkFile{Syntax: &modfile.FileSyntax{}}
	if err := f.AddGoStmt(m.GoLine); err != nil {
		return nil, "", fmt.Errorf("workspace for %s: %w", m.GoMod, err)
	}
	if mf.Toolchain != nil {
		if err := f.AddToolchainStmt(mf.Toolchain.Name); err != nil {
			return nil, "", fmt.Errorf("workspace for %s: %w", m.GoMod, err)
		}
	}
	for _, g := range mf.Godebug {
		if err := f.AddGodebug(g.Key, g.Value); err != nil {
			return nil, "", fmt.Errorf("workspace for %s: %w", m.GoMod, err)
		}
	}
	if err := f.AddUse(m.Root, m.Path); err != nil {
		return nil, "", fmt.Errorf("workspace for %s: %w", m.GoMod, err)
	}
	return f, m.Root, nil
}

// readWork reads the workspace file's module directories into m.Uses.
func (m *module) readWork() error {
	f, err := m.parseWork()
	if err != nil {
		return err
	}
	for _, u := range f.Use {
		dir := u.Path
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(m.Work), dir)
		}
		m.Uses = append(m.Uses, dir)
	}
	return nil
}

// parseWork parses the workspace file.
func (m *module) parseWork() (*modfile.WorkFile, error) {
	data, err := os.ReadFile(m.Work)
	if err != nil {
		return nil, fmt.Errorf("read go.work: %w", err)
	}
	f, err := modfile.ParseWork(m.Work, data, nil)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", m.Work, err)
	}
	return f, nil
}

// workGoLine returns the go line of the workspace file (the runtime
// module's go line must not exceed it).
func (m *module) workGoLine() (string, error) {
	f, err := m.parseWork()
	if err != nil {
		return "", err
	}
	if f.Go == nil {
		return m.GoLine, nil
	}
	return f.Go.Version, nil
}

// copySum copies a checksum file (go.sum, go.work.sum); a missing one
// (or none, src "") is copied as empty.
func copySum(src, dst string) error {
	var sum []byte
	var err error
	if src != "" {
		sum, err = os.ReadFile(src)
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", src, err)
	}
	if err := os.WriteFile(dst, sum, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}
