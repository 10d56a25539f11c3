package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// scratchPrefix names spbuild's per-run temporary directories in TMPDIR.
const scratchPrefix = "spbuild-tmp-"

// lockName is the file in a scratch directory that its spbuild holds
// locked while it lives (the system drops the lock when the process
// ends, killed or not).
const lockName = ".lock"

// unlockedAge is how old a scratch directory without a lock file (its
// spbuild died before it could lock it) must be to be removed.
const unlockedAge = 10 * time.Minute

// scratch is the per-run directory that holds every temporary file
// spbuild makes (the rewriter's escape logs, the copy of go.mod, the
// program's binary, the profiles), so that nothing else of spbuild's is
// left in TMPDIR: it is removed at the end of the run, and a run killed
// before then leaves it locked by no one, for the next spbuild to remove.
type scratch struct {
	dir    string
	lock   *os.File
	remove func() // removes the directory and drops the lock; once
}

// newScratch removes the scratch directories of dead spbuilds from the
// temporary directory and makes a new one, locked.
func newScratch() (*scratch, error) {
	base := os.TempDir()
	removeStale(base)
	dir, err := os.MkdirTemp(base, scratchPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("temporary directory: %w", err)
	}
	s := &scratch{dir: dir}
	s.remove = sync.OnceFunc(s.removeNow)
	// Lock a file under another name, then rename it: another spbuild
	// never finds the lock file unlocked while this one lives.
	tmp := filepath.Join(dir, lockName+".new")
	f, err := os.Create(tmp)
	if err == nil {
		s.lock = f
		if haveLocks {
			err = lockFile(f)
		}
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, lockName))
	}
	if err != nil {
		s.remove()
		return nil, fmt.Errorf("temporary directory: %w", err)
	}
	return s, nil
}

// removeNow removes the directory and drops the lock.
func (s *scratch) removeNow() {
	os.RemoveAll(s.dir)
	if s.lock != nil {
		s.lock.Close()
	}
}

// removeStale removes the scratch directories under base whose spbuild
// has ended: their lock file is not locked (or, without one, they are
// older than unlockedAge).
func removeStale(base string) {
	dirs, _ := filepath.Glob(filepath.Join(base, scratchPrefix+"*"))
	for _, d := range dirs {
		if stale(d) {
			os.RemoveAll(d)
		}
	}
}

// stale reports whether the scratch directory d is no live spbuild's.
func stale(d string) bool {
	if !haveLocks {
		return false
	}
	f, err := os.Open(filepath.Join(d, lockName))
	if errors.Is(err, os.ErrNotExist) {
		fi, err := os.Stat(d)
		return err == nil && fi.IsDir() && time.Since(fi.ModTime()) > unlockedAge
	}
	if err != nil {
		return false
	}
	defer f.Close()
	// Held while d is removed: a spbuild that finds it locked skips d.
	return lockFile(f) == nil
}
