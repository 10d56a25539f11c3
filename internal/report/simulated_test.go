package report

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// simRunOf is a simulated run peaking at peak bytes at time at of a run
// of makespan ns: three quarters of the peak held by main.go:31, the
// rest by main.go:40 less 4 KiB that no known line frees ahead. With
// lo < peak it is a seeded run over 5 seeds.
func simRunOf(pol string, p int, peak, lo, at, makespan int64) profile.Simulated {
	s := profile.Simulated{Policy: pol, P: p, PeakBytes: peak, PeakAtWallNS: at, MakespanWallNS: makespan,
		Lines: []profile.SimLine{{File: "main.go", Line: 31, Bytes: peak * 3 / 4}, {File: "main.go", Line: 40, Bytes: peak - peak*3/4 + 4096}, {Bytes: -4096}},
		Curve: []profile.SimPoint{{WallNS: 0}, {WallNS: at / 2, Bytes: peak / 2}, {WallNS: at, Bytes: peak}, {WallNS: makespan, Bytes: peak / 8}},
	}
	if pol == "ws" || pol == "go" {
		s.Seeds = &profile.SimSeeds{N: 5, Min: lo, Median: (lo + peak) / 2, Max: peak, MaxSeed: 2}
	}
	return s
}

// simProfile is an exact-mode profile whose root was simulated at p = 1,
// 2, 4 and 8 with every policy: df above MHWM_4, bf above MHWM_2 and
// beyond, go above MHWM_8; ws below, with a range over its seeds; three
// synchronisation edges.
func simProfile() *profile.Profile {
	const mib = 1 << 20
	var mhwm []profile.Point
	for p, b := range []int64{4, 6, 8, 10, 12, 12, 12, 12} {
		mhwm = append(mhwm, profile.Point{P: p + 1, Bytes: b * mib})
	}
	ms := int64(1_000_000)
	return &profile.Profile{Schema: profile.Schema, Program: "tiles", PMax: 8,
		Census: profile.Census{Policy: "hooks+gc-census", ErrorBound: 0.1},
		Roots: []profile.Root{{
			Name: "main.main", Exact: true, MHWM: mhwm, SerialPeak: 4 * mib,
			Work: 400, Span: 60, Strands: 40, Spawns: 8, Censuses: 12, CensusError: 64 << 10,
			Attributed: []int{1, 2, 4, 8},
			Lines: []profile.Line{
				{File: "main.go", Line: 31, Func: "main.render", AllocBytes: 64 * mib, Allocs: 16, Text: "scratch := make([]byte, Scratch)",
					MHWMBytes: map[string]int64{"1": 3 * mib, "2": 5 * mib, "4": 8 * mib, "8": 10 * mib}},
				{File: "main.go", Line: 40, Func: "main.collect", AllocBytes: 4 * mib, Allocs: 16, Text: "out = append(out, tile)",
					MHWMBytes: map[string]int64{"1": 1 * mib, "2": 1 * mib, "4": 2 * mib, "8": 2 * mib}},
			},
			Simulation: &profile.Simulation{Strands: 40, Tasks: 9, Deps: 60, SyncDeps: 3, FreesMoved: 2,
				Weights: "wall_ns", Seeds: 5, TimeSliceNS: 10 * ms},
			Simulated: []profile.Simulated{
				simRunOf("df", 1, 4*mib, 0, 5*ms, 40*ms),
				simRunOf("df", 2, 6*mib, 0, 3*ms, 21*ms),
				simRunOf("df", 4, 21*mib/2, 0, 2*ms, 11*ms),
				simRunOf("df", 8, 12*mib, 0, 1250*ms/1000, 6*ms),
				simRunOf("bf", 1, 4*mib, 0, 5*ms, 40*ms),
				simRunOf("bf", 2, 15*mib/2, 0, 4*ms, 21*ms),
				simRunOf("bf", 4, 14*mib, 0, 3*ms, 11*ms),
				simRunOf("bf", 8, 20*mib, 0, 2*ms, 6*ms),
				simRunOf("ws", 1, 4*mib, 4*mib, 5*ms, 40*ms),
				simRunOf("ws", 2, 6*mib, 5*mib, 3*ms, 20*ms),
				simRunOf("ws", 4, 9*mib, 7*mib, 2*ms, 10500*ms/1000),
				simRunOf("ws", 8, 11*mib, 17*mib/2, 1500*ms/1000, 5600*ms/1000),
				simRunOf("go", 1, 4*mib, 4*mib, 5*ms, 40*ms),
				simRunOf("go", 2, 6*mib, 6*mib, 3*ms, 22*ms),
				simRunOf("go", 4, 10*mib, 9*mib, 2*ms, 12*ms),
				simRunOf("go", 8, 13*mib, 12*mib, 1750*ms/1000, 7*ms),
			},
		}},
	}
}

// simThresholdProfile is a threshold-mode root (no MHWM figures) that
// was simulated with df and ws at p = 2 and 4, no synchronisation edges.
func simThresholdProfile() *profile.Profile {
	p := thresholdProfile()
	p.Partial = false
	p.Warnings = nil
	p.Roots = p.Roots[:1]
	r := &p.Roots[0]
	r.Simulation = &profile.Simulation{Strands: 12, Tasks: 3, Deps: 14, Weights: "wall_ns", Seeds: 1}
	r.Simulated = []profile.Simulated{
		simRunOf("df", 2, 3<<20, 0, 900, 2000),
		simRunOf("df", 4, 3<<20, 0, 900, 1500),
		simRunOf("ws", 2, 2<<20, 2<<20, 800, 2100),
		simRunOf("ws", 4, 2<<20, 2<<20, 700, 1600),
	}
	for i := range r.Simulated {
		if sd := r.Simulated[i].Seeds; sd != nil {
			*sd = profile.SimSeeds{N: 1, Min: sd.Max, Median: sd.Max, Max: sd.Max, MaxSeed: 1}
		}
	}
	return p
}

// simPlainProfile is simProfile without synchronisation edges, ws and
// go, and with every peak within MHWM_p: nothing to mark or explain.
func simPlainProfile() *profile.Profile {
	p := simProfile()
	r := &p.Roots[0]
	r.Simulation.SyncDeps = 0
	var keep []profile.Simulated
	for _, s := range r.Simulated {
		if s.Policy != "df" && s.Policy != "bf" {
			continue
		}
		if m, _ := r.MHWMAt(s.P); s.PeakBytes > m {
			s = simRunOf(s.Policy, s.P, m, 0, s.PeakAtWallNS, s.MakespanWallNS)
		}
		keep = append(keep, s)
	}
	r.Simulated = keep
	return p
}

// checkGolden compares got with testdata/<name>, which -update rewrites.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./report -run %s -update writes it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./report -run %s -update rewrites it):\n%s", path, t.Name(), got)
	}
}

// TestTextSimulated compares the text report of simulated schedules with
// the golden files testdata/text/*.golden.
func TestTextSimulated(t *testing.T) {
	tests := []struct {
		golden string
		p      *profile.Profile
		o      Options
	}{
		{"sim.golden", simProfile(), Options{Lines: 3}},
		{"sim-ps.golden", simProfile(), Options{Ps: []int{1, 4}, Lines: 1}},
		{"sim-nolines.golden", simProfile(), Options{}},
		{"sim-ps-none.golden", simProfile(), Options{Ps: []int{3}}},
		{"sim-plain.golden", simPlainProfile(), Options{Lines: 2}},
		{"sim-threshold.golden", simThresholdProfile(), Options{Lines: 5}},
		{"nosim.golden", func() *profile.Profile {
			p := simProfile()
			p.Roots[0].Simulation, p.Roots[0].Simulated = nil, nil
			return p
		}(), Options{Lines: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			if err := tt.p.Validate(); err != nil {
				t.Fatalf("test profile: %v", err)
			}
			var b strings.Builder
			if err := Text(&b, tt.p, tt.o); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("text", tt.golden), b.String())
		})
	}
}

func TestBytesRange(t *testing.T) {
	tests := []struct {
		lo, hi int64
		want   string
	}{
		{5 << 20, 6 << 20, "5–6 MiB"},
		{17 << 19, 11 << 20, "8.5–11 MiB"},
		{900 << 10, 1229 << 10, "900 KiB–1.2 MiB"},
		{0, 100, "0–100 B"},
		{1000, 2048, "1000 B–2 KiB"},
	}
	for _, tt := range tests {
		if got := bytesRange(tt.lo, tt.hi); got != tt.want {
			t.Errorf("bytesRange(%d, %d) = %q, want %q", tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestWallTime(t *testing.T) {
	tests := []struct {
		ns   int64
		want string
	}{
		{0, "0 ns"}, {999, "999 ns"}, {1000, "1 µs"}, {1250, "1.25 µs"}, {12_500, "12.5 µs"},
		{999_400, "999 µs"}, {999_999, "1 ms"}, {1_500_000, "1.5 ms"}, {40_000_000, "40 ms"}, {123_456_789, "123 ms"},
		{2_000_000_000, "2 s"}, {61_500_000_000, "61.5 s"},
	}
	for _, tt := range tests {
		if got := wallTime(tt.ns); got != tt.want {
			t.Errorf("wallTime(%d) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}
