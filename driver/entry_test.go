package driver

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCommitEntry: a new entry is renamed into place; a complete entry
// already there (another spbuild won) is kept, never removed; a
// directory without meta.json is replaced.
func TestCommitEntry(t *testing.T) {
	tests := []struct {
		name     string
		existing map[string]string // files at final before the commit; nil: none
		won      bool
		want     string // meta.json at final afterwards
	}{
		{name: "empty place", won: true, want: `{"Files":2}`},
		{name: "complete entry in place", existing: map[string]string{"meta.json": `{"Files":1}`, "overlay/x.go": "x"}, won: false, want: `{"Files":1}`},
		{name: "incomplete entry in place", existing: map[string]string{"overlay/x.go": "x"}, won: true, want: `{"Files":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries := t.TempDir()
			tmp, final := filepath.Join(entries, ".new-1"), filepath.Join(entries, "key")
			writeFiles(t, tmp, map[string]string{"meta.json": `{"Files":2}`, "overlay/x.go": "y"})
			if tt.existing != nil {
				writeFiles(t, final, tt.existing)
			}
			won, err := commitEntry(tmp, final)
			if err != nil {
				t.Fatal(err)
			}
			if won != tt.won {
				t.Errorf("won = %v, want %v", won, tt.won)
			}
			if got, err := os.ReadFile(filepath.Join(final, "meta.json")); err != nil || string(got) != tt.want {
				t.Errorf("meta.json %q (%v), want %q", got, err, tt.want)
			}
			left, _ := filepath.Glob(filepath.Join(entries, ".old-*"))
			if len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// writeFiles writes files (slash paths → contents) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
