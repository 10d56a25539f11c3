package driver

import (
	"bufio"
	"bytes"
	"fmt"
	"go/version"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// Building from vendor/.
//
// The go command reads vendor/modules.txt from the main module's vendor
// directory with os.ReadFile (an overlay cannot replace it) and checks
// that it lists every requirement of go.mod: the generated go.mod, which
// requires the runtime, fails that check, and building from the module
// cache instead fails offline. In workspace mode, though, the vendor
// directory is the one beside go.work, and a workspace's modules (the
// runtime's included) are never vendored. So a build from vendor/ goes
// through a generated workspace in the cache entry that uses the user's
// module (or the user's workspace's modules) and the runtime, with a
// vendor directory of its own beside it: the user's modules.txt marked
// for a workspace, replacement directories relative to the entry, and a
// symbolic link to each of the user's vendored trees.

// setVendor sets m.Vendor as the go command decides it: the -mod flag of
// flags, else of GOFLAGS; without one, vendor/ is used when it exists,
// the go line (goLine for a module, "" if there is none, or go.work's)
// is 1.14 or later and modules.txt was made for m's mode (workspace or
// not).
func (m *module) setVendor(goflags string, flags []string, goLine string) error {
	if mod := modFlag(goflags, flags); mod != "" {
		m.Vendor = mod == "vendor"
		return nil
	}
	if fi, err := os.Stat(m.vendorDir()); err != nil || !fi.IsDir() {
		return nil
	}
	if m.Work != "" {
		f, err := m.parseWork()
		if err != nil {
			return err
		}
		goLine = ""
		if f.Go != nil {
			goLine = f.Go.Version
		}
	}
	if goLine == "" || version.Compare("go"+goLine, "go1.14") < 0 {
		return nil
	}
	forWork, err := modulesForWorkspace(filepath.Join(m.vendorDir(), "modules.txt"))
	if err != nil {
		return err
	}
	m.Vendor = forWork == (m.Work != "")
	return nil
}

// modFlag returns the value of the last -mod flag of flags, else of
// GOFLAGS ("" if none sets it).
func modFlag(goflags string, flags []string) string {
	for _, list := range [][]string{flags, strings.Fields(goflags)} {
		mod := ""
		for _, f := range list {
			if !strings.HasPrefix(f, "-") {
				continue
			}
			if v, ok := strings.CutPrefix(strings.TrimPrefix(f[1:], "-"), "mod="); ok {
				mod = v
			}
		}
		if mod != "" {
			return mod
		}
	}
	return ""
}

// vendorDir is the vendor directory the go command would use for m.
func (m *module) vendorDir() string {
	if m.Work != "" {
		return filepath.Join(filepath.Dir(m.Work), "vendor")
	}
	return filepath.Join(m.Root, "vendor")
}

// modulesForWorkspace reports whether the modules.txt at path was made
// by go work vendor (it has a "## workspace" line); a missing one was
// not.
func modulesForWorkspace(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "## workspace" {
			return true, nil
		}
	}
	return false, nil
}

// writeVendor makes dir/vendor the vendor directory of the workspace
// genWorkFile wrote into dir: the user's modules.txt, marked for a
// workspace, its relative replacement directories made relative to dir,
// and a symbolic link to every other entry of the user's vendor
// directory. dir is a temporary directory renamed to the entry's final
// place later, beside it (both are in the cache's entries directory), so
// paths relative to it stay right.
func (m *module) writeVendor(dir string) error {
	src := m.vendorDir()
	data, err := os.ReadFile(filepath.Join(src, "modules.txt"))
	if err != nil {
		return fmt.Errorf("vendor directory: %w", err)
	}
	base := m.Root
	if m.Work != "" {
		base = filepath.Dir(m.Work)
	}
	var out strings.Builder
	if m.Work == "" {
		out.WriteString("## workspace\n")
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		out.WriteString(rebaseReplacement(line, base, dir))
	}
	vdir := filepath.Join(dir, "vendor")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return fmt.Errorf("vendor directory: %w", err)
	}
	if err := os.WriteFile(filepath.Join(vdir, "modules.txt"), []byte(out.String()), 0o644); err != nil {
		return fmt.Errorf("vendor directory: %w", err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return fmt.Errorf("vendor directory: %w", err)
	}
	for _, e := range entries {
		if e.Name() == "modules.txt" {
			continue
		}
		if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(vdir, e.Name())); err != nil {
			return fmt.Errorf("vendor directory: %w", err)
		}
	}
	return nil
}

// rebaseReplacement returns a line of modules.txt with its replacement
// directory, if relative (to from), made relative to to, as the go
// command writes it: "# example.com/dep v1.0.0 => ../dep".
func rebaseReplacement(line, from, to string) string {
	head, repl, ok := strings.Cut(line, " => ")
	if !ok || !strings.HasPrefix(head, "# ") {
		return line
	}
	end := strings.IndexAny(repl, " \r\n")
	if end < 0 {
		end = len(repl)
	}
	dir := repl[:end]
	if !modfile.IsDirectoryPath(dir) || filepath.IsAbs(dir) {
		return line
	}
	return head + " => " + relDir(to, filepath.Join(from, dir)) + repl[end:]
}

// relDir returns dir relative to base as go.mod and modules.txt spell a
// relative directory (starting with ./ or ../), or dir itself if it
// cannot be made relative.
func relDir(base, dir string) string {
	rel, err := filepath.Rel(base, dir)
	if err != nil {
		return dir
	}
	if rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		rel = "." + string(filepath.Separator) + rel
	}
	return rel
}
