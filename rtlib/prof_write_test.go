package rtlib

import (
	"path/filepath"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// TestProfileRootsEncodedOnce: the profile is written again at every
// root's end (a test binary has no later moment), and a finished root
// is encoded once, not at every later write: imaging's 301 tests spent
// most of their instrumented time re-encoding the roots before them.
// The file still holds every root.
func TestProfileRootsEncodedOnce(t *testing.T) {
	oldPath, oldAnnounce := cfg.path, cfg.announce
	cfg.path, cfg.announce = filepath.Join(t.TempDir(), "p.json"), false
	defer func() { cfg.path, cfg.announce = oldPath, oldAnnounce }()
	prof.mu.Lock()
	before := len(prof.roots)
	prof.mu.Unlock()
	var first *proot
	var firstEnc *byte
	for i := range 4 {
		inRoot(func() { sinkB = make([]byte, 4096+i) })
		prof.mu.Lock()
		r := prof.roots[before]
		prof.mu.Unlock()
		if len(r.enc) == 0 {
			t.Fatalf("after root %d: the first root is not encoded", i)
		}
		if first == nil {
			first, firstEnc = r, &r.enc[0]
		} else if &r.enc[0] != firstEnc {
			t.Errorf("after root %d: the first root was encoded again", i)
		}
	}
	p, err := profile.ReadFile(cfg.path)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Roots) != before+4 {
		t.Errorf("%d roots in the file, want %d", len(p.Roots), before+4)
	}
	// One function begun as a root four times: four names.
	names := map[string]bool{}
	for _, r := range p.Roots[before:] {
		names[r.Name] = true
	}
	if len(names) != 4 {
		t.Errorf("root names %v: want four distinct ones (name, name#2, …)", names)
	}
}
