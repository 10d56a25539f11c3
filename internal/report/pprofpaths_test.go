package report

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	pprof "github.com/google/pprof/profile"

	"github.com/spgo/spgo/rtlib/profile"
)

// withPaths is pprofTestProfile with main.main's lines split by call
// path: main.work (main.go:10) reached from main.render and from
// main.encode, main.go:20 with an unknown path.
func withPaths(srcRoot string) *profile.Profile {
	p := pprofTestProfile(srcRoot)
	p.Roots[0].Paths = []profile.Path{
		{Line: 0, Callers: []profile.Frame{{Func: "main.encode", File: "main.go", Line: 40}, {Func: "main.main", File: "main.go", Line: 50}},
			AllocBytes: 1000, Allocs: 1, MHWMBytes: map[string]int64{"1": 600, "2": 600, "4": 600}},
		{Line: 0, Callers: []profile.Frame{{Func: "main.render", File: "main.go", Line: 45}},
			AllocBytes: 4000, Allocs: 4, MHWMBytes: map[string]int64{"1": 0, "2": 600, "4": 1200}},
		{Line: 1, Callers: []profile.Frame{},
			AllocBytes: 400, Allocs: 1, MHWMBytes: map[string]int64{"1": 400, "2": 600, "4": 600}},
		{Line: 3, Callers: []profile.Frame{{Func: "main.main", File: "main.go", Line: 55}},
			AllocBytes: 64, Allocs: 2},
	}
	return p
}

// stackOf is a sample's stack as "f:line < caller:line < …".
func stackOf(s *pprof.Sample) string {
	var fs []string
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			fs = append(fs, l.Function.Name+":"+strconv.FormatInt(l.Line, 10))
		}
	}
	return strings.Join(fs, " < ")
}

// TestPprofPaths reads the export of a profile with call paths back: each
// path is a sample whose stack holds its callers, and the samples of a
// root still sum to MHWM_q.
func TestPprofPaths(t *testing.T) {
	prof := writeParse(t, withPaths("/src"), PprofOptions{Root: "main.main"})
	want := map[string][]int64{ // mhwm_1, mhwm_2, mhwm_4, alloc_space, alloc_objects
		"main.work:10 < main.encode:40 < main.main:50 < root main.main:0": {600, 600, 600, 1000, 1},
		"main.work:10 < main.render:45 < root main.main:0":                {0, 600, 1200, 4000, 4},
		"main.main:20 < root main.main:0":                                 {400, 600, 600, 400, 1},
		"main.helper:5 < main.main:55 < root main.main:0":                 {0, 0, 0, 64, 2},
	}
	if len(prof.Sample) != len(want) {
		t.Errorf("%d samples, want %d", len(prof.Sample), len(want))
	}
	sums := make([]int64, 3)
	multi := 0
	for _, s := range prof.Sample {
		st := stackOf(s)
		w, ok := want[st]
		if !ok {
			t.Errorf("unexpected sample %s %v", st, s.Value)
			continue
		}
		if !slices.Equal(s.Value, w) {
			t.Errorf("sample %s = %v, want %v", st, s.Value, w)
		}
		if len(s.Location) > 2 {
			multi++
		}
		for i := range sums {
			sums[i] += s.Value[i]
		}
	}
	if multi != 3 {
		t.Errorf("%d samples with callers, want 3", multi)
	}
	if !slices.Equal(sums, []int64{1000, 1800, 2400}) {
		t.Errorf("samples sum to %v, want MHWM_1, _2, _4 = [1000 1800 2400]", sums)
	}
	for _, loc := range prof.Location {
		if f := loc.Line[0].Function; f.Name == "main.encode" && f.Filename != "/src/main.go" {
			t.Errorf("main.encode's file is %q, want it under the source root", f.Filename)
		}
	}
}

// TestPprofPathsOld: a profile without paths (an older spgo's) still
// exports one flat stack per line.
func TestPprofPathsOld(t *testing.T) {
	prof := writeParse(t, pprofTestProfile("/src"), PprofOptions{Root: "main.main"})
	for _, s := range prof.Sample {
		if len(s.Location) != 2 {
			t.Errorf("sample %s: want the line under the root", stackOf(s))
		}
	}
	if len(prof.Sample) != 3 {
		t.Errorf("%d samples, want 3 (the lines with a value)", len(prof.Sample))
	}
}
