package driver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// staleMain is a program with something to instrument; %s is its version.
const staleMain = `package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	bufs := make([][]byte, 2)
	for i := range bufs {
		wg.Add(1)
		go func() { defer wg.Done(); bufs[i] = make([]byte, 1<<20) }()
	}
	wg.Wait()
	fmt.Println("VERSION %s", len(bufs[0]))
}
`

// TestStaleEntry edits a file after the cache key is hashed and before
// the rewriter reads it (testHookRewrite). The entry Prepare returns must
// hold the code on disk, and no entry may hold code other than its
// key's: going back to the first version must give the first version's
// code, not the edit's.
func TestStaleEntry(t *testing.T) {
	tests := []struct {
		name    string
		edits   []string // versions written by the hook, one per attempt
		wantErr string
		want    string // version in the returned entry
	}{
		{name: "one edit", edits: []string{"B"}, want: "B"},
		{name: "edit and back", edits: []string{"B", "A"}, want: "A"},
		{name: "never settles", edits: []string{"B", "C", "D"}, wantErr: "changed while spbuild was instrumenting it (3 times)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, cache := t.TempDir(), t.TempDir()
			main := filepath.Join(dir, "main.go")
			writeVersion(t, main, "A")
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/stale\n\ngo 1.22\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := Config{Dir: dir, CacheDir: cache}
			edits := tt.edits
			testHookRewrite = func() {
				if len(edits) > 0 {
					writeVersion(t, main, edits[0])
					edits = edits[1:]
				}
			}
			p, err := Prepare(context.Background(), cfg, ".")
			testHookRewrite = nil
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if got := instrumentedVersion(t, p, main); got != tt.want {
					t.Errorf("the entry holds VERSION %s, the disk VERSION %s", got, tt.want)
				}
			}
			// Every version on disk now gets its own code, from the cache
			// or not.
			for _, v := range []string{"A", "B", "A"} {
				writeVersion(t, main, v)
				p, err := Prepare(context.Background(), cfg, ".")
				if err != nil {
					t.Fatal(err)
				}
				if got := instrumentedVersion(t, p, main); got != v {
					t.Errorf("VERSION %s on disk, VERSION %s in the entry (cached %v)", v, got, p.Cached)
				}
			}
		})
	}
}

// writeVersion writes staleMain at version v to path.
func writeVersion(t *testing.T, path, v string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Replace(staleMain, "%s", v, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// instrumentedVersion returns the version in the instrumented copy of
// file in p's entry.
func instrumentedVersion(t *testing.T, p *Prepared, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(p.Entry, "overlay", "overlay.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		t.Fatal(err)
	}
	repl, ok := ov.Replace[file]
	if !ok {
		t.Fatalf("%s is not in the overlay: %v", file, ov.Replace)
	}
	src, err := os.ReadFile(repl)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(src), `"VERSION `)
	if !ok {
		t.Fatalf("no VERSION in the instrumented file:\n%s", src)
	}
	return after[:1]
}
