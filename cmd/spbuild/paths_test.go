package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// TestCallPaths runs spbuild on testdata/examples/callers, whose
// allocations all happen in one helper called from two functions, and
// checks the call paths end to end: the profile splits the helper's line
// between its callers with their analytic shares, the pprof export has
// their stacks, and go tool pprof -top -cum gives each caller its
// cumulative share.
func TestCallPaths(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "examples", "callers"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	js, pb := filepath.Join(out, "p.json"), filepath.Join(out, "p.pb.gz")
	if _, stderr, code := spbuild(t, dir, t.TempDir(), "run", "-q", "-json", js, "-pprof", pb, "."); code != 0 {
		t.Fatalf("spbuild run: exit %d\n%s", code, stderr)
	}
	p, err := profile.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	r := &p.Roots[0]

	// The helper's line, split by caller: render's frames at p, encode's
	// two chunks (Frame = 1 MiB, Chunk = 768 KiB, 4 workers).
	const frame, chunk = 1 * mib, 768 * kib
	byCaller := map[string]map[int]int64{}
	for i := range r.Paths {
		pa := &r.Paths[i]
		l := r.Lines[pa.Line]
		if l.Func != "main.buffer" {
			continue
		}
		if len(pa.Callers) == 0 {
			t.Fatalf("a path of main.buffer without callers: %+v", pa)
		}
		c := pa.Callers[0]
		if filepath.IsAbs(c.File) || c.File != l.File {
			t.Errorf("caller %s at %s:%d: want main.go, relative like its line", c.Func, c.File, c.Line)
		}
		if byCaller[c.Func] == nil {
			byCaller[c.Func] = map[int]int64{}
		}
		for _, q := range []int{1, 2, 4, 64} {
			v, _ := r.PathMHWM(pa, q)
			byCaller[c.Func][q] += v
		}
	}
	for _, tc := range []struct {
		caller string
		q      int
		want   int64
	}{
		{"main.encode", 1, 2 * chunk}, {"main.render", 1, 0},
		{"main.encode", 2, 2 * chunk}, {"main.render", 2, frame},
		{"main.encode", 64, 2 * chunk}, {"main.render", 64, 4 * frame},
	} {
		got := byCaller[tc.caller][tc.q]
		if got < tc.want || got > tc.want+16*kib {
			t.Errorf("main.buffer called from %s: %d bytes of MHWM_%d, want %d (+16 KiB)", tc.caller, got, tc.q, tc.want)
		}
	}

	// The pprof export: multi-frame stacks, the helper under each caller.
	prof := readPprof(t, pb)
	under := map[string]bool{}
	for _, s := range prof.Sample {
		var names []string
		for _, loc := range s.Location {
			names = append(names, loc.Line[0].Function.Name)
		}
		if len(names) > 2 && names[0] == "main.buffer" {
			under[names[1]] = true
		}
	}
	if !under["main.render"] || !under["main.encode"] {
		t.Errorf("pprof stacks of main.buffer are under %v, want main.render and main.encode", under)
	}

	// go tool pprof -top -cum: the callers' cumulative shares of MHWM_64
	// (4 MiB and 1.5 MiB, with the few KiB of uninstrumented code).
	if testing.Short() {
		return
	}
	cmd := exec.Command("go", "tool", "pprof", "-top", "-cum", "-unit=KB", pb)
	top, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, top)
	}
	t.Logf("go tool pprof -top -cum:\n%s", top)
	for _, re := range []string{
		`Type: mhwm_64`,
		`\s41\d\d(\.\d+)?kB\s+\d+\.\d+%\s+main\.render\n`,
		`\s15\d\d(\.\d+)?kB\s+\d+\.\d+%\s+main\.encode\n`,
	} {
		if !regexp.MustCompile(re).Match(top) {
			t.Errorf("go tool pprof -top -cum: no match for %q in\n%s", re, top)
		}
	}
	if i, j := strings.Index(string(top), "main.render"), strings.Index(string(top), "main.encode"); i < 0 || j < i {
		t.Errorf("-cum order: want main.render (4 MiB) before main.encode (1.5 MiB)")
	}
}
