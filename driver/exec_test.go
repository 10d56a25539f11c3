//go:build unix

package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestQuoteField(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{in: "/usr/bin/spbuild", want: "/usr/bin/spbuild"},
		{in: "/my tools/spbuild", want: "'/my tools/spbuild'"},
		{in: "/it's/spbuild", want: `"/it's/spbuild"`},
		{in: `/a "b"/spbuild`, want: `'/a "b"/spbuild'`},
		{in: `/it's "b"/spbuild`, err: "both kinds of quote"},
	}
	for _, tt := range tests {
		got, err := quoteField(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("quoteField(%q) = %q, %v; want an error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("quoteField(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestExecTestLoss: ExecTest never lets a test binary's profile go
// missing silently: a missing profile directory stops it, and a binary
// that reports it could not write its profile fails.
func TestExecTestLoss(t *testing.T) {
	tests := []struct {
		name    string
		script  string // the test binary
		noDir   bool   // the profile directory is missing
		code    int
		wantErr string
	}{
		{name: "profile written", script: `echo '{}' > "$SPGO_PROFILE"`, code: 0},
		{name: "test fails", script: "exit 1", code: 1},
		{name: "profile not written", script: `echo "spgo: write profile $SPGO_PROFILE: no space left on device" >&2`, code: 1, wantErr: "was not written"},
		{name: "profile not written, no newline", script: `printf "spgo: write profile $SPGO_PROFILE: no space" >&2; exit 3`, code: 3, wantErr: "was not written"},
		{name: "another file not written", script: `echo "spgo: write profile /elsewhere.json: no space left on device" >&2`, code: 0},
		{name: "no directory", script: "exit 0", noDir: true, code: 2, wantErr: "directory for the test profiles is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "pkg.test")
			if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+tt.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			profDir := filepath.Join(dir, "profiles")
			if !tt.noDir {
				os.Mkdir(profDir, 0o755)
			}
			t.Setenv(execProfilesVar, profDir)
			var stdout, stderr strings.Builder
			code, err := execTest([]string{bin}, nil, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr.String())
			}
			if (err != nil) != (tt.wantErr != "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want %q", err, tt.wantErr)
			}
		})
	}
}
