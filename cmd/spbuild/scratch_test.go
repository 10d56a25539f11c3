//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScratchStale: a scratch directory is another spbuild's to remove
// only once its lock is dropped; one without a lock file is kept while
// young (its spbuild may be about to lock it).
func TestScratchStale(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	live, err := newScratch()
	if err != nil {
		t.Fatal(err)
	}
	defer live.remove()
	dead, err := newScratch()
	if err != nil {
		t.Fatal(err)
	}
	dead.lock.Close() // as if its process had been killed
	young := filepath.Join(os.TempDir(), scratchPrefix+"young")
	if err := os.Mkdir(young, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := newScratch() // removes the stale ones
	if err != nil {
		t.Fatal(err)
	}
	defer s.remove()
	for _, tt := range []struct {
		name, dir string
		kept      bool
	}{
		{"live", live.dir, true},
		{"dead", dead.dir, false},
		{"young without a lock file", young, true},
		{"the new one", s.dir, true},
	} {
		if _, err := os.Stat(tt.dir); (err == nil) != tt.kept {
			t.Errorf("%s: stat error %v, want kept = %v", tt.name, err, tt.kept)
		}
	}
}
