package report

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	pprof "github.com/google/pprof/profile"

	"github.com/spgo/spgo/rtlib/profile"
)

// pprofTestProfile is a profile with pmax 4 and three roots: main.main
// (exact, shares at 1, 2 and 4, MHWM_3 = MHWM_2), TestOther (not exact,
// sharing main.go:10 with main.main) and TestThreshold (no MHWM). Its
// lines' shares sum to each root's MHWM_q.
func pprofTestProfile(srcRoot string) *profile.Profile {
	mhwm := func(bs ...int64) []profile.Point {
		var ps []profile.Point
		for i, b := range bs {
			ps = append(ps, profile.Point{P: i + 1, Bytes: b})
		}
		return ps
	}
	return &profile.Profile{
		Schema: profile.Schema, Program: "demo", PMax: 4, SourceRoot: srcRoot,
		Wall: &profile.Wall{Start: "2026-01-02T03:04:05Z", Seconds: 1.5},
		Roots: []profile.Root{{
			Name: "main.main", Exact: true,
			MHWM:       mhwm(1000, 1800, 1800, 2400),
			Attributed: []int{1, 2, 4},
			Lines: []profile.Line{
				{File: "main.go", Line: 10, Func: "main.work", AllocBytes: 5000, Allocs: 5,
					MHWMBytes: map[string]int64{"1": 600, "2": 1200, "4": 1800}},
				{File: "main.go", Line: 20, Func: "main.main", AllocBytes: 400, Allocs: 1,
					MHWMBytes: map[string]int64{"1": 400, "2": 600, "4": 600}},
				{File: "main.go", Line: 30, Func: "main.main"}, // all zero: no sample
				{File: "util.go", Line: 5, Func: "main.helper", AllocBytes: 64, Allocs: 2},
			},
		}, {
			Name: "TestOther", Exact: false, Reasons: []string{"x.go:3: channel communication"},
			MHWM:       mhwm(500, 500, 500, 500),
			Attributed: []int{1, 2, 4},
			Lines: []profile.Line{
				{File: "main.go", Line: 10, Func: "main.work", AllocBytes: 500, Allocs: 1,
					MHWMBytes: map[string]int64{"1": 500, "2": 500, "4": 500}},
				{File: "/abs/lib.go", Line: 7, Func: "lib.F", AllocBytes: 100, Allocs: 1},
			},
		}, {
			Name: "TestThreshold", Exact: true,
			Lines: []profile.Line{{File: "util.go", Line: 5, Func: "main.helper", AllocBytes: 32, Allocs: 1}},
		}},
	}
}

func writeParse(t *testing.T, p *profile.Profile, o PprofOptions) *pprof.Profile {
	t.Helper()
	var b bytes.Buffer
	if err := WritePprof(&b, p, o); err != nil {
		t.Fatal(err)
	}
	prof, err := pprof.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	return prof
}

func sampleTypes(prof *pprof.Profile) string {
	var ts []string
	for _, st := range prof.SampleType {
		ts = append(ts, st.Type+"/"+st.Unit)
	}
	return strings.Join(ts, " ")
}

func TestPprofSampleTypes(t *testing.T) {
	threshold := &profile.Profile{Schema: profile.Schema, PMax: 4, Roots: pprofTestProfile("").Roots[2:]}
	tests := []struct {
		name  string
		p     *profile.Profile
		o     PprofOptions
		types string
		dflt  string
	}{
		{"default", pprofTestProfile(""), PprofOptions{},
			"mhwm_1/bytes mhwm_2/bytes mhwm_4/bytes alloc_space/bytes alloc_objects/count", "mhwm_4"},
		{"qs", pprofTestProfile(""), PprofOptions{Qs: []int{3, 1}},
			"mhwm_3/bytes mhwm_1/bytes alloc_space/bytes alloc_objects/count", "mhwm_3"},
		{"threshold", threshold, PprofOptions{},
			"alloc_space/bytes alloc_objects/count", "alloc_space"},
		{"threshold root", pprofTestProfile(""), PprofOptions{Root: "TestThreshold"},
			"alloc_space/bytes alloc_objects/count", "alloc_space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prof := writeParse(t, tt.p, tt.o)
			if got := sampleTypes(prof); got != tt.types {
				t.Errorf("sample types %q, want %q", got, tt.types)
			}
			if prof.DefaultSampleType != tt.dflt {
				t.Errorf("default sample type %q, want %q", prof.DefaultSampleType, tt.dflt)
			}
		})
	}
}

func TestPprofSamples(t *testing.T) {
	p := pprofTestProfile("/src")
	qs := []int{1, 2, 3, 4}
	prof := writeParse(t, p, PprofOptions{Qs: qs})

	type key struct {
		root, fn, file string
		line           int64
	}
	got := map[key][]int64{}
	sums := map[string][]int64{} // root → sum of each value
	for _, s := range prof.Sample {
		if len(s.Location) != 2 {
			t.Fatalf("sample has %d locations, want 2", len(s.Location))
		}
		root := s.Label["root"]
		if len(root) != 1 {
			t.Fatalf("sample has root label %q", root)
		}
		leaf, top := s.Location[0].Line[0], s.Location[1].Line[0]
		if top.Function.Name != "root "+root[0] {
			t.Errorf("top frame %q under root label %q", top.Function.Name, root[0])
		}
		k := key{root[0], leaf.Function.Name, leaf.Function.Filename, leaf.Line}
		if got[k] != nil {
			t.Errorf("two samples for %v", k)
		}
		got[k] = s.Value
		if sums[root[0]] == nil {
			sums[root[0]] = make([]int64, len(s.Value))
		}
		for i, v := range s.Value {
			sums[root[0]][i] += v
		}
	}
	want := map[key][]int64{
		{"main.main", "main.work", "/src/main.go", 10}:      {600, 1200, 1200, 1800, 5000, 5},
		{"main.main", "main.main", "/src/main.go", 20}:      {400, 600, 600, 600, 400, 1},
		{"main.main", "main.helper", "/src/util.go", 5}:     {0, 0, 0, 0, 64, 2},
		{"TestOther", "main.work", "/src/main.go", 10}:      {500, 500, 500, 500, 500, 1},
		{"TestOther", "lib.F", "/abs/lib.go", 7}:            {0, 0, 0, 0, 100, 1},
		{"TestThreshold", "main.helper", "/src/util.go", 5}: {0, 0, 0, 0, 32, 1},
	}
	if len(got) != len(want) {
		t.Errorf("%d samples, want %d: %v", len(got), len(want), got)
	}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("sample %v = %v, want %v", k, got[k], w)
		}
	}
	for _, r := range p.Roots {
		for i, q := range qs {
			m, _ := r.MHWMAt(q)
			if sums[r.Name][i] != m {
				t.Errorf("%s: mhwm_%d sums to %d, want MHWM_%d = %d", r.Name, q, sums[r.Name][i], q, m)
			}
		}
	}

	// One location per distinct (file, line, func), and one per root.
	if len(prof.Location) != 4+3 {
		t.Errorf("%d locations, want 7", len(prof.Location))
	}
	for _, l := range prof.Location {
		if l.ID == 0 || len(l.Line) != 1 {
			t.Errorf("location %d has %d lines", l.ID, len(l.Line))
		}
	}
	if want := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano(); prof.TimeNanos != want {
		t.Errorf("TimeNanos %d, want %d", prof.TimeNanos, want)
	}
	comments := strings.Join(prof.Comments, "\n")
	for _, w := range []string{
		"spgo MHWM profile, program demo, pmax 4",
		"root main.main: exact",
		"root TestOther: not exact (an upper bound): x.go:3: channel communication",
	} {
		if !strings.Contains(comments, w) {
			t.Errorf("comments lack %q:\n%s", w, comments)
		}
	}
}

func TestPprofRoot(t *testing.T) {
	prof := writeParse(t, pprofTestProfile(""), PprofOptions{Root: "TestOther"})
	if len(prof.Sample) != 2 {
		t.Errorf("%d samples, want 2", len(prof.Sample))
	}
	for _, s := range prof.Sample {
		if r := s.Label["root"]; len(r) != 1 || r[0] != "TestOther" {
			t.Errorf("sample of root %q", r)
		}
	}
	// Names stay as they are without a source root.
	if f := prof.Sample[0].Location[0].Line[0].Function.Filename; f != "main.go" {
		t.Errorf("file name %q, want main.go", f)
	}
}

func TestPprofDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := WritePprof(&a, pprofTestProfile(""), PprofOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WritePprof(&b, pprofTestProfile(""), PprofOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two writes of one profile differ")
	}
}

func TestPprofErrors(t *testing.T) {
	threshold := &profile.Profile{Schema: profile.Schema, PMax: 4, Roots: pprofTestProfile("").Roots[2:]}
	tests := []struct {
		name string
		p    *profile.Profile
		o    PprofOptions
		want string
	}{
		{"q 0", pprofTestProfile(""), PprofOptions{Qs: []int{0}}, "pprof: processor count 0 is outside 1..4"},
		{"q > pmax", pprofTestProfile(""), PprofOptions{Qs: []int{2, 5}}, "pprof: processor count 5 is outside 1..4"},
		{"q twice", pprofTestProfile(""), PprofOptions{Qs: []int{2, 2}}, "pprof: processor count 2 given twice"},
		{"root", pprofTestProfile(""), PprofOptions{Root: "nope"},
			`pprof: no root "nope" in the profile; roots: main.main, TestOther, TestThreshold`},
		{"no mhwm", threshold, PprofOptions{Qs: []int{4}}, "pprof: the profile has no MHWM figures"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			err := WritePprof(&b, tt.p, tt.o)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// goToolPprof runs go tool pprof with args in dir and returns its output.
func goToolPprof(t *testing.T, dir string, args ...string) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	cmd := exec.Command(goCmd, append([]string{"tool", "pprof"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestPprofGoTool(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	dir := t.TempDir()
	src := "package main\n\nfunc work() {\n" + strings.Repeat("\n", 5) + "\tbuf := make([]byte, 1800) // line 9\n\t_ = buf\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	p := pprofTestProfile(dir)
	p.Roots[0].Lines[0].Line = 9 // the make in src
	write := func(name string, p *profile.Profile) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := WritePprof(f, p, PprofOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	write("new.pb.gz", p)
	base := pprofTestProfile(dir)
	base.Roots[0].Lines[0].Line = 9
	base.Roots[0].Lines[0].MHWMBytes["4"] = 1000 // 800 less
	write("base.pb.gz", base)

	tests := []struct {
		name string
		args []string
		want []string // regexps
	}{
		{"top", []string{"-top", "-unit=B", "-sample_index=mhwm_4", "new.pb.gz"}, []string{
			`Type: mhwm_4`,
			`of 2900B total`, // 2400 + 500
			`2300B .* main\.work`,
			`600B .* main\.main\n`,
			`2400B .* root main\.main`,
			`500B .* root TestOther`,
		}},
		{"top alloc", []string{"-top", "-unit=B", "-sample_index=alloc_space", "new.pb.gz"}, []string{
			`of 6096B total`,
			`96B .* main\.helper`,
			`100B .* lib\.F`,
		}},
		{"tagfocus", []string{"-top", "-unit=B", "-tagfocus=root=TestOther", "new.pb.gz"}, []string{
			`accounting for 500B, 17.24% of 2900B total`,
		}},
		{"list", []string{"-list=main.work", "-unit=B", "-sample_index=mhwm_4", "new.pb.gz"}, []string{
			`ROUTINE =+ main\.work in ` + regexp.QuoteMeta(filepath.Join(dir, "main.go")),
			`1800B +1800B +9:\s+buf := make\(\[\]byte, 1800\) // line 9`,
			`500B +500B +10:\s+_ = buf`, // TestOther's share
		}},
		{"diff", []string{"-top", "-unit=B", "-sample_index=mhwm_4", "-diff_base=base.pb.gz", "new.pb.gz"}, []string{
			`accounting for 800B`,
			`800B .* main\.work`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := goToolPprof(t, dir, tt.args...)
			for _, w := range tt.want {
				if !regexp.MustCompile(w).MatchString(out) {
					t.Errorf("output lacks %s:\n%s", strconv.Quote(w), out)
				}
			}
		})
	}
}
