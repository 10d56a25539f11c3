package rtlib

import "testing"

// betweenRoots keeps what TestRootStartsClean allocates between roots.
var betweenRoots [][]byte

// TestRootStartsClean: small objects that uninstrumented code allocates
// between two roots (the testing package between two tests) are no
// root's: the census that opens the second root reads them, but charges
// them to nobody. Before, it charged them to the new root, and a test's
// figures grew with the tests before it (bild's blend tests: 17 KiB run
// alone, 476 KiB after sixteen others).
func TestRootStartsClean(t *testing.T) {
	inRoot(func() {})
	for range 4096 {
		betweenRoots = append(betweenRoots, make([]byte, 48)) // 192 KiB of small objects
	}
	inRoot(func() {})
	prof.mu.Lock()
	root := prof.roots[len(prof.roots)-1].build()
	prof.mu.Unlock()
	betweenRoots = nil
	if m, _ := root.MHWMAt(1); m > 64<<10 {
		t.Errorf("MHWM_1 = %d: what was allocated before the root was charged to it (reasons %q)", m, root.Reasons)
	}
}
