package driver

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// Dependencies instrumented from the module cache (-instrument). The go
// command refuses an overlay for a file beneath GOMODCACHE, so the entry
// holds a copy of each such module (deps/<path>@<version>), the generated
// go.mod or go.work replaces the module by its copy, and the overlay
// replaces the copy's files.

// depModule is a module of the cache that holds instrumented packages.
type depModule struct {
	Path, Version string
	Dir           string // in the module cache
	Copy          string // the copy in the entry's final directory
}

// cacheDeps returns the modules of the cache (modcache: GOMODCACHE) that
// hold packages of pkgs, with where final (the entry's directory) will
// hold their copies.
func cacheDeps(pkgs []listPkg, modcache, final string) []depModule {
	if modcache == "" {
		return nil
	}
	seen := map[string]bool{}
	var deps []depModule
	for _, lp := range pkgs {
		mod := lp.Module
		if mod == nil || mod.Main || mod.Version == "" || !within(modcache, mod.Dir) || seen[mod.Dir] {
			continue
		}
		seen[mod.Dir] = true
		deps = append(deps, depModule{
			Path: mod.Path, Version: mod.Version, Dir: mod.Dir,
			Copy: filepath.Join(final, "deps", filepath.FromSlash(mod.Path)+"@"+mod.Version),
		})
	}
	slices.SortFunc(deps, func(a, b depModule) int { return strings.Compare(a.Dir, b.Dir) })
	return deps
}

// within reports whether path lies under dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// copyDeps copies each module of deps into tmp, the entry's directory
// before it is renamed to final (their Copy paths name final).
func copyDeps(deps []depModule, tmp, final string) error {
	for _, d := range deps {
		rel, err := filepath.Rel(final, d.Copy)
		if err != nil {
			return err
		}
		if err := copyTree(d.Dir, filepath.Join(tmp, rel)); err != nil {
			return fmt.Errorf("copy %s@%s out of the module cache: %w", d.Path, d.Version, err)
		}
		if _, err := os.Stat(filepath.Join(tmp, rel, "go.mod")); os.IsNotExist(err) {
			// A module without a go.mod: a replacement directory needs one.
			mod := []byte("module " + modfile.AutoQuote(d.Path) + "\n")
			if err := os.WriteFile(filepath.Join(tmp, rel, "go.mod"), mod, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyTree copies the regular files and directories under src to dst,
// writable (the module cache's are read-only).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case e.IsDir():
			return os.MkdirAll(to, 0o755)
		case e.Type().IsRegular():
			return copyFile(p, to)
		}
		return nil // the cache holds no links or devices
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// relocated returns the path of file, a file of the module cache, in the
// copy of the module of deps that holds it (file itself if none).
func relocated(deps []depModule, file string) string {
	for _, d := range deps {
		if rel, err := filepath.Rel(d.Dir, file); err == nil && filepath.IsLocal(rel) {
			return filepath.Join(d.Copy, rel)
		}
	}
	return file
}

// replaceDeps adds to a go.mod or go.work (add: its AddReplace) the
// replacement of each module of deps by its copy.
func replaceDeps(deps []depModule, add func(oldPath, oldVers, newPath, newVers string) error) error {
	for _, d := range deps {
		if err := add(d.Path, d.Version, d.Copy, ""); err != nil {
			return fmt.Errorf("replace %s@%s by its instrumented copy: %w", d.Path, d.Version, err)
		}
	}
	return nil
}
