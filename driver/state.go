package driver

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// sourceState is what a cache entry is made from in the user's tree, as
// found at one moment: each file's content hash, size and modification
// time, and each package directory's modification time (it changes when
// a file is added, removed or renamed). The cache key hashes the
// contents; the rest tells an edit made while the files were rewritten,
// even one that restored the content the key was hashed from.
type sourceState map[string]fileState

// fileState is one file or directory of a sourceState.
type fileState struct {
	dir     bool
	missing bool
	size    int64
	mtime   int64 // nanoseconds since 1970
	sum     [sha256.Size]byte
}

// changedError is a file that changed while spbuild rewrote it.
type changedError struct {
	path string
}

func (e *changedError) Error() string {
	return e.path + " changed while spbuild was instrumenting it"
}

// sourcePaths returns the files and the directories a rewrite of pkgs
// depends on.
func sourcePaths(m *module, pkgs []listPkg) (files, dirs []string) {
	files = m.files()
	for _, lp := range pkgs {
		dirs = append(dirs, lp.Dir)
		for _, name := range lp.files() {
			files = append(files, filepath.Join(lp.Dir, name))
		}
	}
	return files, dirs
}

// files returns the paths of the module's go.mod and go.sum, or in a
// workspace of go.work, go.work.sum and every module's go.mod and go.sum,
// and of vendor/modules.txt when building from vendor/ (present or not).
func (m *module) files() []string {
	var fs []string
	if m.Work == "" {
		fs = []string{m.GoMod, filepath.Join(m.Root, "go.sum")}
	} else {
		fs = []string{m.Work, m.Work + ".sum"}
		for _, u := range m.Uses {
			fs = append(fs, filepath.Join(u, "go.mod"), filepath.Join(u, "go.sum"))
		}
	}
	if m.Vendor {
		fs = append(fs, filepath.Join(m.vendorDir(), "modules.txt"))
	}
	return fs
}

// files returns the names of the package's Go files, test files included.
func (lp *listPkg) files() []string {
	return slices.Concat(lp.GoFiles, lp.CgoFiles, lp.TestGoFiles, lp.XTestGoFiles)
}

// readState reads the state of files and dirs; a missing file is
// recorded as missing.
func readState(files, dirs []string) (sourceState, error) {
	st := sourceState{}
	for _, d := range dirs {
		fs, err := statDir(d)
		if err != nil {
			return nil, err
		}
		st[d] = fs
	}
	for _, f := range files {
		fs, err := statFile(f)
		if err != nil {
			return nil, err
		}
		st[f] = fs
	}
	return st, nil
}

// statDir returns a directory's state.
func statDir(path string) (fileState, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileState{}, fmt.Errorf("read %s: %w", path, err)
	}
	return fileState{dir: true, mtime: fi.ModTime().UnixNano()}, nil
}

// statFile returns a file's state. It stats the file before reading it:
// a write in between leaves a modification time older than the content,
// which the next look finds changed.
func statFile(path string) (fileState, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return fileState{missing: true}, nil
	}
	if err != nil {
		return fileState{}, fmt.Errorf("read %s: %w", path, err)
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fileState{missing: true}, nil
	}
	if err != nil {
		return fileState{}, fmt.Errorf("read %s: %w", path, err)
	}
	return fileState{size: fi.Size(), mtime: fi.ModTime().UnixNano(), sum: sha256.Sum256(data)}, nil
}

// unchanged looks at the files and directories of st again and returns a
// changedError naming the first that differs.
func (st sourceState) unchanged() error {
	for _, path := range slices.Sorted(maps.Keys(st)) {
		was := st[path]
		var now fileState
		var err error
		if was.dir {
			now, err = statDir(path)
		} else {
			now, err = statFile(path)
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if err != nil || now != was {
			return &changedError{path: path}
		}
	}
	return nil
}
