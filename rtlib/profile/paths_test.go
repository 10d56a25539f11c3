package profile

import (
	"bytes"
	"strings"
	"testing"
)

// pathSample is richSample with its lines split by call path.
func pathSample() *Profile {
	p := richSample()
	p.Roots[0].Paths = []Path{
		{Line: 0, Callers: []Frame{{"main.c", "main.go", 30}, {"main.main", "main.go", 40}},
			AllocBytes: 200, Allocs: 2, MHWMBytes: map[string]int64{"1": 100, "2": 60, "4": 100}},
		{Line: 0, Callers: []Frame{{"main.d", "main.go", 35}},
			AllocBytes: 100, Allocs: 1, MHWMBytes: map[string]int64{"1": 0, "2": 40, "4": 50}},
		{Line: 1, Callers: []Frame{},
			AllocBytes: 100, Allocs: 1, MHWMBytes: map[string]int64{"2": 50, "4": 50}},
	}
	return p
}

func TestValidatePaths(t *testing.T) {
	paths := func(p *Profile) []Path { return p.Roots[0].Paths }
	const r0 = "invalid profile: root main.main: "
	tests := []struct {
		name   string
		change func(p *Profile)
		want   string // "" for a change that keeps the profile valid
	}{
		{"as made", func(*Profile) {}, ""},
		{"no paths (an older profile)", func(p *Profile) { p.Roots[0].Paths = nil }, ""},
		{"line out of range", func(p *Profile) { paths(p)[2].Line = 2 }, r0 + "path 2: line index 2 outside the 2 lines"},
		{"negative line", func(p *Profile) { paths(p)[0].Line = -1 }, r0 + "path 0: line index -1 outside the 2 lines"},
		{"unsorted", func(p *Profile) { ps := paths(p); ps[0], ps[1] = ps[1], ps[0] }, r0 + "path 1: not after path 0 (paths are sorted by line and callers, each once)"},
		{"repeated", func(p *Profile) { paths(p)[1].Callers = paths(p)[0].Callers }, r0 + "path 1: not after path 0 (paths are sorted by line and callers, each once)"},
		{"caller without function", func(p *Profile) { paths(p)[0].Callers[1].Func = "" }, r0 + "path 0: caller 1 has no function or file, or a negative line"},
		{"caller without file", func(p *Profile) { paths(p)[1].Callers[0].File = "" }, r0 + "path 1: caller 0 has no function or file, or a negative line"},
		{"negative allocs", func(p *Profile) { paths(p)[2].Allocs = -1 }, r0 + "path 2: alloc_bytes 100 or allocs -1 < 0"},
		{"key the line lacks", func(p *Profile) { paths(p)[2].MHWMBytes["1"] = 0 }, r0 + `path 2: mhwm_bytes has figures for p = "1", its line has none`},
		{"allocations do not sum", func(p *Profile) { paths(p)[1].AllocBytes = 99 }, r0 + "main.go:10: paths allocate 299 bytes in 3 allocations, the line 300 in 3"},
		{"a line without paths", func(p *Profile) { p.Roots[0].Paths = paths(p)[:2] }, r0 + "main.go:20: paths allocate 0 bytes in 0 allocations, the line 100 in 1"},
		{"shares do not sum", func(p *Profile) { paths(p)[0].MHWMBytes["4"] = 90 }, r0 + "main.go:10: paths' mhwm_bytes for p = 4 sum to 140, the line's is 150"},
		{"shares moved between paths", func(p *Profile) {
			paths(p)[0].MHWMBytes["2"] = 100
			paths(p)[1].MHWMBytes["2"] = 0
		}, ""},
		{"a negative share", func(p *Profile) {
			paths(p)[0].MHWMBytes["4"] = 160
			paths(p)[1].MHWMBytes["4"] = -10
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := pathSample()
			tc.change(p)
			err := p.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Fatalf("Validate = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestPathsRoundTrip writes a profile with paths and reads it back; the
// same profile without paths, as an older spgo wrote it, still reads.
func TestPathsRoundTrip(t *testing.T) {
	for _, p := range []*Profile{pathSample(), richSample()} {
		var buf bytes.Buffer
		if err := Encode(&buf, p); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), `"paths"`); got != (p.Roots[0].Paths != nil) {
			t.Errorf("paths written: %v, want %v", got, !got)
		}
		q, err := Read(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if len(q.Roots[0].Paths) != len(p.Roots[0].Paths) {
			t.Fatalf("read %d paths, wrote %d", len(q.Roots[0].Paths), len(p.Roots[0].Paths))
		}
		for i, pa := range q.Roots[0].Paths {
			if ComparePaths(&pa, &p.Roots[0].Paths[i]) != 0 || pa.AllocBytes != p.Roots[0].Paths[i].AllocBytes {
				t.Errorf("path %d read back as %+v, wrote %+v", i, pa, p.Roots[0].Paths[i])
			}
		}
	}
}

func TestPathMHWM(t *testing.T) {
	p := pathSample()
	r := &p.Roots[0]
	for _, tc := range []struct {
		path, q int
		want    int64
		ok      bool
	}{
		{0, 1, 100, true}, {0, 2, 60, true}, {1, 2, 40, true},
		{0, 3, 60, true}, // MHWM_3 = MHWM_2: the worst case of 2
		{0, 4, 100, true}, {2, 1, 0, true}, {0, 5, 0, false},
	} {
		got, ok := r.PathMHWM(&r.Paths[tc.path], tc.q)
		if got != tc.want || ok != tc.ok {
			t.Errorf("PathMHWM(path %d, %d) = %d, %v, want %d, %v", tc.path, tc.q, got, ok, tc.want, tc.ok)
		}
	}
}
