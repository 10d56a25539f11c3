package escape

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadLogs reads a log the compiler wrote for testdata/src/sites
// (inline.go, with /src for the testdata directory) and checks that the
// escaping inlined copies are attributed to their sites.
func TestReadLogs(t *testing.T) {
	found, err := readLogs("testdata/logopt")
	if err != nil {
		t.Fatal(err)
	}
	src := func(p string) string { return filepath.FromSlash("/src/sites/" + p) }
	want := []Site{
		// useKeep's copy of mk's literal.
		{File: src("inline.go"), Line: 7, Col: 23, Expr: "&T{...}", Kind: Heap, Inlined: true},
		// useBig's copy of dep.Len's make, too large for the stack.
		{File: src("dep/dep.go"), Line: 12, Col: 11, Expr: "make([]byte, 1048576)", Kind: Heap, Inlined: true},
		// useDep's copy of dep.NewP's literal.
		{File: src("dep/dep.go"), Line: 8, Col: 25, Expr: "&dep.P{...}", Kind: Heap, Inlined: true},
	}
	if !slices.Equal(found.inlined, want) {
		t.Errorf("inlined =\n%v\nwant\n%v", found.inlined, want)
	}
	for _, p := range []position{
		{src("inline.go"), 7, 23}, // mk's own literal
		{src("inline.go"), 9, 30}, // the copies at the calls
		{src("inline.go"), 15, 35},
		{src("inline.go"), 19, 39},
	} {
		if !found.escapes[p] {
			t.Errorf("no escape logged at %v", p)
		}
	}
	if found.escapes[position{src("inline.go"), 11, 31}] {
		t.Error("useDrop's copy, which does not escape, is logged")
	}
}

// TestReadLogsErrors checks that malformed logs are errors.
func TestReadLogsErrors(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"no header", `{"range":{"start":{"line":1,"character":1}},"code":"escape"}`, "not a version 0 log header"},
		{"version 1", `{"version":1,"file":"/a.go"}`, "not a version 0 log header"},
		{"bad json", `{"version":0,"file":"/a.go"}` + "\n{", "unexpected EOF"},
		{"bad location", `{"version":0,"file":"/a.go"}` + "\n" +
			`{"range":{"start":{"line":1,"character":1}},"code":"escape","relatedInformation":[{"location":{"uri":"http://x/a.go"},"message":"inlineLoc"}]}`,
			"unexpected location"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readLogs(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("readLogs = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestLogFlag checks the destination flag and its round trip through the
// URIs of the log.
func TestLogFlag(t *testing.T) {
	tests := []struct{ dir, flag string }{
		{"/tmp/spgo-escape-1", "-json=0,file:///tmp/spgo-escape-1"},
		{"/tmp/a b", "-json=0,file:///tmp/a%20b"},
	}
	for _, tt := range tests {
		dir := filepath.FromSlash(tt.dir)
		got := logFlag(dir)
		if filepath.Separator == '/' && got != tt.flag {
			t.Errorf("logFlag(%q) = %q, want %q", dir, got, tt.flag)
		}
		back, err := uriPath(strings.TrimPrefix(got, "-json=0,"))
		if err != nil || back != filepath.Clean(dir) {
			t.Errorf("uriPath(logFlag(%q)) = %q, %v", dir, back, err)
		}
	}
}
