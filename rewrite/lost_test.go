package rewrite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestLostCopies rewrites escape's testdata/src/lost, whose package b
// compiles a.Gen[int] with a.buf inlined into it while the log of
// b/iter.go overwrites that of a/iter.go: the escaping copy of buf's make
// is lost. The rewrite must go on (issue 22), count buf's make as heap
// (rt.Slice, or rt.FrameSlice since only buf's variable refers to it;
// not the size test of rt.SmallSlice) and warn at the call.
func TestLostCopies(t *testing.T) {
	dir, err := filepath.Abs("escape/testdata/src/lost")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Packages(context.Background(), Config{Dir: dir}, "./...")
	if err != nil {
		t.Fatalf("rewrite: %v", err)
	}
	file := filepath.Join(dir, "a", "iter.go")
	out := res.Files[file]
	if out == nil {
		t.Fatalf("%s not rewritten", file)
	}
	if src := string(out.Src); !strings.Contains(src, "spgo_rt.Slice(") && !strings.Contains(src, "spgo_rt.FrameSlice(") || strings.Contains(src, "SmallSlice") {
		t.Errorf("buf's make is not counted as heap:\n%s", src)
	}
	warned := false
	for _, w := range res.Warnings {
		if w.Pos.Filename == file && w.Pos.Line == 13 && strings.Contains(w.Reason, "lost/a.buf count as heap") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning at %s:13 naming buf; warnings: %v", file, res.Warnings)
	}
}
