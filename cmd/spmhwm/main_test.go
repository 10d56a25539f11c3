package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden runs spmhwm on the bundled streams and compares the report with
// testdata/*.golden.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"tiles.golden", []string{"-p", "8", "../../rtlib/mhwm/testdata/tiles.ev"}},
		{"tiles-threshold.golden", []string{"-p", "4", "-threshold", "20000000", "../../rtlib/mhwm/testdata/tiles.ev"}},
		{"limited.golden", []string{"-p", "8", "../../rtlib/mhwm/testdata/limited.ev"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(tc.args, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			path := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != string(want) {
				t.Errorf("output differs from %s:\n%s", path, out.String())
			}
		})
	}
}

// TestErrors: bad input gets one clear line and a non-zero exit.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.ev")
	os.WriteFile(bad, []byte("alloc 1 10\nsync\n"), 0o644)
	foreign := filepath.Join(dir, "foreign.ev")
	os.WriteFile(foreign, []byte("\x89PNG\r\n\x1a\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{bad}, 1, "line 2: mhwm: event 2 (sync): no spawn is outstanding"},
		{[]string{foreign}, 1, `line 1: unknown event`},
		{[]string{filepath.Join(dir, "missing.ev")}, 1, "no such file"},
		{[]string{"-p", "0", bad}, 1, "processor bound 0"},
		{nil, 2, "usage"},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}
