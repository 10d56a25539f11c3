package harness

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ScratchDir creates dir and returns it absolute with links resolved, or
// an error if it lies inside the repository at root: the third-party
// code the real-suite and real-program harnesses fetch must never land
// there.
func ScratchDir(root, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("-dir: %w", err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", fmt.Errorf("-dir: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("-dir: %w", err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("repository root: %w", err)
	}
	if rel, err := filepath.Rel(realRoot, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("-dir %s is inside the repository %s", dir, root)
	}
	return real, nil
}

// CopyTree copies the regular files and directories under src to dst,
// writable by their owner (the module cache's are read-only); it holds no
// links or devices.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.WriteFile(to, data, info.Mode().Perm()|0o200)
		}
		return nil
	})
}
