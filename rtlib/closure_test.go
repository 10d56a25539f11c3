package rtlib_test

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spgo/spgo/rewrite"
)

// TestGoClosures checks the closure sizes the rewriter puts in the site
// table of go statements and WaitGroup.Go (SiteInfo.Closure, charged at the fork and freed
// with the goroutine) against what the runtime allocates at those lines
// in the instrumented program: testdata/accounting/closures reports every
// object the runtime allocated at a go statement's line, from a memory
// profile of every allocation.
func TestGoClosures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	const pkg = "./rtlib/testdata/accounting/closures"
	res, err := rewrite.Packages(context.Background(), rewrite.Config{Dir: root}, pkg)
	if err != nil {
		t.Fatal(err)
	}
	// line → the sizes of the closures allocated there, rounded to their
	// size classes: the original's (none, one or two), and the
	// instrumented statement's.
	orig, inst := map[int][]int{}, map[int][]int{}
	for file, out := range res.Files {
		if !strings.HasSuffix(file, "closures/main.go") {
			continue
		}
		for _, s := range out.Sites {
			if s.Op != "Go" && s.Op != "WGGo" {
				continue
			}
			orig[s.Line] = []int{}
			for _, n := range []int{s.Closure, s.ArgsClosure} {
				if n != 0 {
					orig[s.Line] = append(orig[s.Line], sizeClass(n))
				}
			}
			inst[s.Line] = []int{sizeClass(s.Wrapper)}
		}
	}
	if len(orig) < 14 {
		t.Fatalf("%d spawns in the site table, want 14", len(orig))
	}
	origDir, instDir := buildBoth(t, root, []string{pkg})
	for _, b := range []struct {
		dir  string
		want map[int][]int
	}{{origDir, orig}, {instDir, inst}} {
		_, stderr := run(t, filepath.Join(b.dir, "closures"), "", "CLOSURE_REPORT=1")
		checkClosures(t, b.dir, stderr, b.want)
	}
}

// checkClosures compares the closures the program at dir reported on
// stderr with want (line → the sizes of the objects allocated there).
func checkClosures(t *testing.T, dir, stderr string, want map[int][]int) {
	t.Helper()
	got := map[int][]int{}
	for _, l := range strings.Split(stderr, "\n") {
		f := strings.Fields(l)
		if len(f) != 3 || f[0] != "closure" {
			continue
		}
		line, _ := strconv.Atoi(f[1])
		size, _ := strconv.Atoi(f[2])
		got[line] = append(got[line], size)
	}
	for line, w := range want {
		g := slices.Sorted(slices.Values(got[line]))
		if !slices.Equal(g, slices.Sorted(slices.Values(w))) {
			t.Errorf("%s: line %d: closures of %v bytes by the site table, the runtime allocated %v there", dir, line, w, g)
		}
	}
}

// sizeClass rounds n up to the runtime's size class (the small classes
// closures fall in); 0 stays 0 (no closure).
func sizeClass(n int) int {
	if n == 0 {
		return 0
	}
	for _, c := range []int{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480, 512} {
		if n <= c {
			return c
		}
	}
	return n
}
