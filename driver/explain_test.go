package driver

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestMissingProfile: a run that left no profile is explained by what
// the runtime reported, the signal that ended it, or a main function
// spbuild did not instrument; never by a guess.
func TestMissingProfile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"cgo/main.go":   "package main\n\nimport \"C\"\n\nfunc main() {}\n",
		"cgo/other.go":  "package main\n\nfunc f() {}\n",
		"plain/main.go": "package main\n\nfunc main() {}\n",
	})
	entry := filepath.Join(dir, "entry")
	ov, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(dir, "plain", "main.go"): "/x.go"}})
	writeFiles(t, entry, map[string]string{"overlay/overlay.json": string(ov)})
	cgo := Target{ImportPath: "m/cgo", Name: "main", Dir: filepath.Join(dir, "cgo"), Files: []string{"other.go", "main.go"}}
	plain := Target{ImportPath: "m/plain", Name: "main", Dir: filepath.Join(dir, "plain"), Files: []string{"main.go"}}
	tests := []struct {
		name   string
		target Target
		exit   Exit
		want   []string
	}{
		{"disk full", plain, Exit{ProfileErr: "write /t/p/.x.tmp: no space left on device"}, []string{"could not write its profile: write /t/p/.x.tmp: no space left on device", "no room in /t/p", "set TMPDIR"}},
		{"other write error", plain, Exit{ProfileErr: "permission denied"}, []string{"could not write its profile: permission denied"}},
		{"killed", plain, Exit{Code: 137, Signal: syscall.SIGKILL}, []string{"ended by signal 9 (killed) before it could write its profile"}},
		{"cgo main", cgo, Exit{}, []string{"main function is in " + filepath.Join(dir, "cgo", "main.go") + ", a cgo file", "move func main"}},
		{"exit elsewhere", plain, Exit{Code: 2}, []string{"exited (status 2) without writing its profile", "os.Exit in a dependency"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Prepared{Entry: entry, Targets: []Target{tt.target}}
			err := p.MissingProfile(tt.exit, "/t/p/profile.json")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
}

// TestCheckMain: spbuild run on a package that is not a program says
// so, and what to run instead, before anything is built.
func TestCheckMain(t *testing.T) {
	p := &Prepared{Targets: []Target{{ImportPath: "example.com/lib", Name: "lib"}}}
	err := p.checkMain("./lib")
	if err == nil || !strings.Contains(err.Error(), "example.com/lib (package lib) is not a main package") || !strings.Contains(err.Error(), "spbuild test ./lib") {
		t.Errorf("error %v", err)
	}
	p.Targets[0].Name = "main"
	if err := p.checkMain("."); err != nil {
		t.Errorf("a main package: %v", err)
	}
}

// TestAlignLines: the lines of an instrumented copy's header map to the
// user's lines with the same text; lines the rewriter added map to the
// user line that follows them.
func TestAlignLines(t *testing.T) {
	user := strings.Split("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nvar x = 1\n", "\n")
	copy := strings.Split("//go:build go1.21\n\npackage main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\tspgo_rt \"github.com/spgo/spgo/rtlib\"\n)\n\nvar x = 1\n", "\n")
	got := alignLines(copy, user)
	want := []int{1, 1, 1, 2, 3, 4, 5, 6, 6, 7, 8, 9}
	if len(got) != len(want) {
		t.Fatalf("alignLines = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("copy line %d (%q) → %d, want %d", i+1, copy[i], got[i], want[i])
		}
	}
}
