package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheDirRelative: a relative SPGO_CACHE is refused before anything
// is written (it would have put the cache inside the user's module);
// an absolute one is made.
func TestCacheDirRelative(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	for _, v := range []string{"relative/cache", "./c", "c"} {
		_, err := cacheDir("", []string{"SPGO_CACHE=" + v})
		if err == nil || !strings.Contains(err.Error(), "relative path") {
			t.Errorf("SPGO_CACHE=%s: err %v, want a refusal", v, err)
		}
	}
	if entries, _ := os.ReadDir(wd); len(entries) != 0 {
		t.Errorf("the working directory got %d entries", len(entries))
	}
	abs := filepath.Join(t.TempDir(), "cache")
	got, err := cacheDir("", []string{"SPGO_CACHE=" + abs})
	if err != nil || got != abs {
		t.Fatalf("SPGO_CACHE=%s: %q, %v", abs, got, err)
	}
	if _, err := os.Stat(filepath.Join(abs, "entries")); err != nil {
		t.Error(err)
	}
}
