package profile

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// richSample is a valid exact-mode profile using every field: attributed
// per-line shares with splits that sum exactly to MHWM_q, a heap, and
// simulated runs (df and go above MHWM_4, ws with a line of negative
// bytes and one of no known line).
func richSample() *Profile {
	return &Profile{
		Schema: Schema, Program: "tiles", Args: []string{"-n", "3"}, PMax: 4,
		Census: Census{Policy: "hooks+gc-census", ErrorBound: 0.1},
		Roots: []Root{{
			Name: "main.main", Exact: true,
			MHWM:       []Point{{P: 1, Bytes: 100}, {P: 2, Bytes: 150}, {P: 3, Bytes: 150}, {P: 4, Bytes: 200}},
			SerialPeak: 100, Work: 10, Span: 4, Strands: 10, Spawns: 3,
			Censuses: 2, CensusError: 16, CensusLag: 8,
			Lines: []Line{
				{File: "main.go", Line: 10, Func: "main.a", AllocBytes: 300, Allocs: 3, Text: "a := make([]byte, 100)",
					MHWMBytes: map[string]int64{"1": 100, "2": 100, "4": 150},
					MHWMSplit: map[string]Split{"1": {Running: 100}, "2": {Running: 50, Completed: 50}, "4": {Running: 100, Suspended: 50}}},
				{File: "main.go", Line: 20, Func: "main.b", AllocBytes: 100, Allocs: 1,
					MHWMBytes: map[string]int64{"2": 50, "4": 50},
					MHWMSplit: map[string]Split{"2": {Running: 50}, "4": {Completed: 50}}},
			},
			Attributed: []int{1, 2, 4},
			Heap: &Heap{WallByteSeconds: 0.5, Samples: []HeapSample{
				{Strand: 1, WallSeconds: 0.001, Bytes: 100, Lines: []LineBytes{{0, 100}}},
				{Strand: 3, WallSeconds: 0.002, Bytes: 150, Lines: []LineBytes{{0, 100}, {1, 50}}},
				{Strand: 3, WallSeconds: 0.003, Bytes: 0},
			}},
			Antichain: &Antichain{P: 4, Bytes: 200, Running: 100, Completed: 50, Suspended: 50},
			Simulation: &Simulation{Strands: 10, Tasks: 4, Deps: 12, SyncDeps: 1, FreesMoved: 1,
				Weights: "wall_ns", Seeds: 3, TimeSliceNS: 10_000_000},
			Simulated: []Simulated{
				{Policy: "df", P: 1, PeakBytes: 100, PeakAtWallNS: 10, MakespanWallNS: 100,
					Lines: []SimLine{{"main.go", 10, 100}}, Curve: []SimPoint{{0, 0}, {10, 100}, {100, 0}}},
				{Policy: "df", P: 4, PeakBytes: 220, PeakAtWallNS: 20, MakespanWallNS: 60,
					Lines: []SimLine{{"main.go", 10, 170}, {"main.go", 20, 50}}, Curve: []SimPoint{{0, 0}, {20, 220}, {60, 50}}},
				{Policy: "ws", P: 1, PeakBytes: 100, PeakAtWallNS: 10, MakespanWallNS: 100,
					Lines: []SimLine{{"main.go", 10, 100}}, Seeds: &SimSeeds{N: 3, Min: 100, Median: 100, Max: 100, MaxSeed: 1}},
				{Policy: "ws", P: 4, PeakBytes: 200, PeakAtWallNS: 25, MakespanWallNS: 50,
					Lines: []SimLine{{"main.go", 10, 150}, {"main.go", 20, 60}, {"", 0, -10}},
					Seeds: &SimSeeds{N: 3, Min: 150, Median: 180, Max: 200, MaxSeed: 2}, Curve: []SimPoint{{0, 0}, {25, 200}, {50, 40}}},
				{Policy: "go", P: 4, PeakBytes: 210, PeakAtWallNS: 30, MakespanWallNS: 55,
					Lines: []SimLine{{"main.go", 10, 210}}, Seeds: &SimSeeds{N: 3, Min: 190, Median: 200, Max: 210, MaxSeed: 3}},
			},
		}},
		SourceRoot: "/src/tiles",
		Warnings:   []Warning{{Pos: "main.go:3", Message: "not instrumented"}},
		Wall:       &Wall{Start: "2026-01-02T03:04:05Z", Seconds: 1.5},
	}
}

// thresholdSample is a valid threshold-mode profile.
func thresholdSample() *Profile {
	return &Profile{
		Schema: Schema, Program: "tiles", PMax: 64, Threshold: 16 << 20,
		Census: Census{Policy: "hooks+gc-census", ErrorBound: 0.1},
		Roots: []Root{{
			Name: "main.main", Exact: true, SerialPeak: 100, Work: 10, Span: 4, Strands: 10, Spawns: 3,
			Lines:     []Line{{File: "main.go", Line: 10, Func: "main.a", AllocBytes: 300, Allocs: 3, MHWMBytes: map[string]int64{}}},
			Threshold: &ThresholdAnswer{M: 16 << 20, P: 64, Value: 35 << 20, AtLeastHalf: true},
		}},
	}
}

func TestValidSamples(t *testing.T) {
	for name, p := range map[string]*Profile{"sample": sample(), "richSample": richSample(), "thresholdSample": thresholdSample()} {
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, p); err != nil {
			t.Fatal(err)
		}
		got, err := Read(&buf)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(got, p) {
			t.Errorf("%s: round trip changed the profile:\n%+v\n%+v", name, got, p)
		}
	}
}

// TestValidateRules breaks richSample one rule at a time and checks that
// Validate, and Read of the encoded profile, reject it with a one-line
// FormatError naming the root and the field; and that the variants the
// rules allow pass.
func TestValidateRules(t *testing.T) {
	root := func(p *Profile) *Root { return &p.Roots[0] }
	line := func(p *Profile, i int) *Line { return &p.Roots[0].Lines[i] }
	sampleAt := func(p *Profile, i int) *HeapSample { return &p.Roots[0].Heap.Samples[i] }
	sim := func(p *Profile, i int) *Simulated { return &p.Roots[0].Simulated[i] }
	const r0 = "invalid profile: root main.main: "
	const df1 = r0 + "simulated df at p = 1: "
	const df4 = r0 + "simulated df at p = 4: "
	const ws4 = r0 + "simulated ws at p = 4: "
	const l0 = r0 + "main.go:10: "
	const l1 = r0 + "main.go:20: "
	p0 := richSample()
	tests := []struct {
		name   string
		change func(p *Profile)
		want   string // "" for a change that keeps the profile valid
	}{
		// unbounded
		{"unbounded and exact", func(p *Profile) { root(p).Exact, root(p).Unbounded = true, true }, r0 + "unbounded, yet exact or with an interval"},
		{"unbounded with an interval", func(p *Profile) {
			root(p).Exact, root(p).Unbounded, root(p).SerialLow, root(p).SerialHigh = false, true, 1, 1<<40
		}, r0 + "unbounded, yet exact or with an interval"},
		// attributed
		{"attributed decreasing", func(p *Profile) { root(p).Attributed = []int{1, 4, 2} }, r0 + "attributed not strictly increasing (2 after 4)"},
		{"attributed repeated", func(p *Profile) { root(p).Attributed = []int{1, 2, 2, 4} }, r0 + "attributed not strictly increasing (2 after 2)"},
		{"attributed 0", func(p *Profile) { root(p).Attributed = []int{0, 1, 2, 4} }, r0 + "attributed p = 0 outside 1..pmax 4"},
		{"attributed above pmax", func(p *Profile) { root(p).Attributed = []int{1, 2, 4, 5} }, r0 + "attributed p = 5 outside 1..pmax 4"},
		{"attributed not from 1", func(p *Profile) {
			root(p).Attributed = []int{2, 4}
			delete(line(p, 0).MHWMBytes, "1")
			delete(line(p, 0).MHWMSplit, "1")
		}, r0 + "attributed starts with 2, not 1"},
		{"attributed not from 1, no per-line figures", func(p *Profile) {
			root(p).Attributed = []int{2, 4}
			root(p).MHWM = []Point{{P: 1, Bytes: 0}, {P: 2, Bytes: 0}, {P: 3, Bytes: 0}, {P: 4, Bytes: 0}}
			for i := range root(p).Lines {
				line(p, i).MHWMBytes, line(p, i).MHWMSplit = nil, nil
			}
		}, ""},
		{"attributed without MHWM", func(p *Profile) {
			root(p).MHWM = nil
			p.Threshold = 1 << 20
		}, ""},
		// issue #38's bad profiles
		{"no MHWM, not threshold mode", func(p *Profile) { root(p).MHWM = nil }, r0 + "no MHWM figures, yet neither threshold mode nor a partial profile"},
		{"no MHWM, partial", func(p *Profile) { root(p).MHWM = nil; p.Partial = true }, ""},
		{"no roots", func(p *Profile) { p.Roots = nil }, "invalid profile: no roots"},
		{"duplicate root", func(p *Profile) { p.Roots = append(p.Roots, p.Roots[0]) }, "invalid profile: roots 0 and 1 are both named main.main"},
		{"negative line", func(p *Profile) { line(p, 0).Line = -3 }, "invalid profile: root main.main: main.go:-3: line -3 < 0"},
		{"antichain p", func(p *Profile) { root(p).Antichain = &Antichain{P: -1} }, r0 + "antichain p = -1 outside 1..pmax 4"},
		// pool
		{"pool valid", func(p *Profile) { root(p).Pool = &Pool{Gets: 16, Reused: 15} }, ""},
		{"pool reused more than got", func(p *Profile) { root(p).Pool = &Pool{Gets: 1, Reused: 2} }, r0 + "pool: 2 of 1 Gets reused"},
		{"pool negative", func(p *Profile) { root(p).Pool = &Pool{Gets: -1} }, r0 + "pool: 0 of -1 Gets reused"},
		// stacks
		{"stacks valid", func(p *Profile) { root(p).Stacks = stacksOf(root(p), 2048) }, ""},
		{"stacks total below the heap", func(p *Profile) {
			st := stacksOf(root(p), 2048)
			st.Total[2].Bytes = root(p).MHWM[2].Bytes - 1
			root(p).Stacks = st
		}, r0 + "stacks: total_3 = " + strconv.FormatInt(root(p0).MHWM[2].Bytes-1, 10) + " is below the heap's or the total for p-1, or above 2^62"},
		{"stacks totals short", func(p *Profile) {
			st := stacksOf(root(p), 2048)
			st.Total = st.Total[:2]
			root(p).Stacks = st
		}, r0 + "stacks: 2 total figures for 4 MHWM figures"},
		{"stacks exact, heap not", func(p *Profile) {
			root(p).Exact, root(p).Reasons = false, []string{"x"}
			st := stacksOf(root(p), 2048)
			st.Exact = true
			root(p).Stacks = st
		}, r0 + "stacks exact, yet the heap figures are not"},
		{"stacks more grown than goroutines", func(p *Profile) {
			st := stacksOf(root(p), 2048)
			st.Grown = st.Goroutines + 1
			root(p).Stacks = st
		}, r0 + "stacks: 4 grown of 3 goroutines"},
		{"stacks serial below the heap's", func(p *Profile) {
			st := stacksOf(root(p), 2048)
			st.SerialPeak = root(p).SerialPeak - 1
			root(p).Stacks = st
		}, r0 + "stacks: serial peak " + strconv.FormatInt(root(p0).SerialPeak-1, 10) + " below the heap's " + strconv.FormatInt(root(p0).SerialPeak, 10)},
		{"stacks negative start", func(p *Profile) {
			st := stacksOf(root(p), 2048)
			st.StartBytes = -1
			root(p).Stacks = st
		}, r0 + "stacks: start_bytes -1 outside 0..2^62"},
		// per-line keys
		{"mhwm_bytes key not attributed", func(p *Profile) { line(p, 0).MHWMBytes["3"] = 0 }, l0 + "mhwm_bytes has figures for p = 3, not one of attributed"},
		{"mhwm_bytes key not canonical", func(p *Profile) { line(p, 0).MHWMBytes["01"] = 0 }, l0 + `mhwm_bytes has figures for p = "01"`},
		{"mhwm_bytes key above pmax", func(p *Profile) { line(p, 1).MHWMBytes["9"] = 0 }, l1 + `mhwm_bytes has figures for p = "9"`},
		{"mhwm_split key not attributed", func(p *Profile) { line(p, 1).MHWMSplit["3"] = Split{} }, l1 + "mhwm_split has figures for p = 3, not one of attributed"},
		{"mhwm_split key not a number", func(p *Profile) { line(p, 1).MHWMSplit["x"] = Split{} }, l1 + `mhwm_split has figures for p = "x"`},
		{"keys without attributed", func(p *Profile) {
			root(p).Attributed = nil
			line(p, 0).MHWMBytes["3"] = 150
			line(p, 0).MHWMSplit["3"] = Split{Running: 150}
		}, ""},
		{"split without mhwm_bytes entry, zero", func(p *Profile) { line(p, 1).MHWMSplit["1"] = Split{} }, ""},
		{"split without mhwm_bytes entry, non-zero", func(p *Profile) { line(p, 1).MHWMSplit["1"] = Split{Running: 5} }, l1 + "mhwm_split for p = 1 totals 5, mhwm_bytes is 0"},
		{"split total", func(p *Profile) { line(p, 0).MHWMSplit["4"] = Split{Running: 90, Suspended: 50} }, l0 + "mhwm_split for p = 4 totals 140, mhwm_bytes is 150"},
		{"split overflow", func(p *Profile) {
			line(p, 0).MHWMSplit["4"] = Split{Running: math.MaxInt64, Completed: 1, Suspended: math.MinInt64 + 148}
		}, l0 + "mhwm_split for p = 4 totals beyond the int64 range, mhwm_bytes is 150"},
		{"negative shares", func(p *Profile) {
			line(p, 0).MHWMBytes["4"] = 250
			line(p, 0).MHWMSplit["4"] = Split{Running: 250}
			line(p, 1).MHWMBytes["4"] = -50
			line(p, 1).MHWMSplit["4"] = Split{Completed: -50}
		}, ""},
		// the exact attribution
		{"shares above MHWM", func(p *Profile) {
			line(p, 1).MHWMBytes["4"] = 60
			line(p, 1).MHWMSplit["4"] = Split{Completed: 60}
		}, r0 + "lines' mhwm_bytes for attributed p = 4 sum to 210, MHWM_4 is 200"},
		{"shares below MHWM", func(p *Profile) {
			delete(line(p, 1).MHWMBytes, "2")
			delete(line(p, 1).MHWMSplit, "2")
		}, r0 + "lines' mhwm_bytes for attributed p = 2 sum to 100, MHWM_2 is 150"},
		{"shares overflow", func(p *Profile) {
			line(p, 0).MHWMBytes["1"] = math.MaxInt64
			line(p, 0).MHWMSplit["1"] = Split{Running: math.MaxInt64}
			line(p, 1).MHWMBytes["1"] = 1
			line(p, 1).MHWMSplit["1"] = Split{Running: 1}
		}, r0 + "lines' mhwm_bytes for attributed p = 1 sum to beyond the int64 range, MHWM_1 is 100"},
		// heap
		{"heap strand decreasing", func(p *Profile) { sampleAt(p, 1).Strand = 0 }, r0 + "heap sample 1: strand 0 before strand 1 of sample 0"},
		{"heap strand negative", func(p *Profile) { sampleAt(p, 0).Strand = -1 }, r0 + "heap sample 0: strand -1 < 0"},
		{"heap index above", func(p *Profile) { sampleAt(p, 1).Lines[1].Index = 2 }, r0 + "heap sample 1: line index 2 outside the 2 lines"},
		{"heap index negative", func(p *Profile) { sampleAt(p, 0).Lines[0].Index = -1 }, r0 + "heap sample 0: line index -1 outside the 2 lines"},
		{"heap index without lines", func(p *Profile) { root(p).Lines = nil; root(p).Attributed = nil }, r0 + "heap sample 0: line index 0 outside the 0 lines"},
		{"heap indices decreasing", func(p *Profile) { sampleAt(p, 1).Lines = []LineBytes{{1, 50}, {0, 100}} }, r0 + "heap sample 1: line indices not strictly increasing (0 after 1)"},
		{"heap indices repeated", func(p *Profile) { sampleAt(p, 1).Lines = []LineBytes{{0, 100}, {0, 50}} }, r0 + "heap sample 1: line indices not strictly increasing (0 after 0)"},
		{"heap sum", func(p *Profile) { sampleAt(p, 1).Bytes = 149 }, r0 + "heap sample 1: lines' bytes sum to 150, bytes is 149"},
		{"heap sum empty", func(p *Profile) { sampleAt(p, 2).Bytes = 1 }, r0 + "heap sample 2: lines' bytes sum to 0, bytes is 1"},
		{"heap sum overflow", func(p *Profile) {
			sampleAt(p, 1).Lines = []LineBytes{{0, math.MaxInt64}, {1, 1}}
		}, r0 + "heap sample 1: lines' bytes sum to beyond the int64 range, bytes is 150"},
		{"heap empty", func(p *Profile) { root(p).Heap = &Heap{} }, ""},
		// counts that cannot be negative
		{"alloc_bytes", func(p *Profile) { line(p, 1).AllocBytes = -1 }, l1 + "alloc_bytes -1 < 0"},
		{"allocs", func(p *Profile) { line(p, 0).Allocs = -2 }, l0 + "allocs -2 < 0"},
		{"serial_peak", func(p *Profile) { root(p).SerialPeak = -1 }, r0 + "serial_peak -1 < 0"},
		{"work", func(p *Profile) { root(p).Work = -1 }, r0 + "work -1 < 0"},
		{"span", func(p *Profile) { root(p).Span = -1 }, r0 + "span -1 < 0"},
		{"strands", func(p *Profile) { root(p).Strands = -1 }, r0 + "strands -1 < 0"},
		{"spawns", func(p *Profile) { root(p).Spawns = -1 }, r0 + "spawns -1 < 0"},
		{"censuses", func(p *Profile) { root(p).Censuses = -1 }, r0 + "censuses -1 < 0"},
		{"census_error_bytes", func(p *Profile) { root(p).CensusError = -1 }, r0 + "census_error_bytes -1 < 0"},
		{"census_lag_bytes", func(p *Profile) { root(p).CensusLag = -1 }, r0 + "census_lag_bytes -1 < 0"},
		{"profile threshold", func(p *Profile) { p.Threshold = -1 }, "invalid profile: threshold -1 < 0"},
		// threshold answers
		{"threshold p 0", func(p *Profile) { root(p).Threshold = &ThresholdAnswer{M: 16, P: 0} }, r0 + "threshold p = 0 outside 1..pmax 4"},
		{"threshold p above pmax", func(p *Profile) { root(p).Threshold = &ThresholdAnswer{M: 16, P: 5} }, r0 + "threshold p = 5 outside 1..pmax 4"},
		{"threshold m", func(p *Profile) { root(p).Threshold = &ThresholdAnswer{M: 0, P: 4} }, r0 + "threshold m = 0 < 1"},
		// the simulation
		{"simulated without a simulation", func(p *Profile) { root(p).Simulation = nil }, r0 + "5 simulated runs without a simulation"},
		{"simulation strands", func(p *Profile) { root(p).Simulation.Strands = -1 }, r0 + "simulation strands -1 < 0"},
		{"simulation tasks", func(p *Profile) { root(p).Simulation.Tasks = -1 }, r0 + "simulation tasks -1 < 0"},
		{"simulation deps", func(p *Profile) { root(p).Simulation.Deps = -1 }, r0 + "simulation deps -1 < 0"},
		{"simulation sync_deps", func(p *Profile) { root(p).Simulation.SyncDeps = -2 }, r0 + "simulation sync_deps -2 < 0"},
		{"simulation frees_moved", func(p *Profile) { root(p).Simulation.FreesMoved = -1 }, r0 + "simulation frees_moved -1 < 0"},
		{"simulation seeds", func(p *Profile) { root(p).Simulation.Seeds = -1 }, r0 + "simulation seeds -1 < 0"},
		{"simulation time slice", func(p *Profile) { root(p).Simulation.TimeSliceNS = -1 }, r0 + "simulation time_slice_ns -1 < 0"},
		{"simulation without weights", func(p *Profile) { root(p).Simulation.Weights = "" }, r0 + "simulation has no weights (what a strand's duration is)"},
		{"simulation alone, without weights", func(p *Profile) { root(p).Simulated = nil; root(p).Simulation.Weights = "" }, ""},
		{"simulation of an empty graph", func(p *Profile) { root(p).Simulated = nil; root(p).Simulation = &Simulation{} }, ""},
		// simulated runs: policy, p and order
		{"policy unknown", func(p *Profile) { sim(p, 0).Policy = "dfs" }, r0 + `simulated run 0: policy "dfs" is not one of df, bf, ws, go`},
		{"policy in capitals", func(p *Profile) { sim(p, 3).Policy = "WS" }, r0 + `simulated run 3: policy "WS" is not one of df, bf, ws, go`},
		{"policy empty", func(p *Profile) { sim(p, 4).Policy = "" }, r0 + `simulated run 4: policy "" is not one of df, bf, ws, go`},
		{"p 0", func(p *Profile) { sim(p, 0).P = 0 }, r0 + "simulated run 0 (df): p = 0 outside 1..65536"},
		{"p negative", func(p *Profile) { sim(p, 2).P = -1 }, r0 + "simulated run 2 (ws): p = -1 outside 1..65536"},
		{"p above 2^16", func(p *Profile) { sim(p, 4).P = MaxPMax + 1 }, r0 + "simulated run 4 (go): p = 65537 outside 1..65536"},
		{"p above pmax", func(p *Profile) { sim(p, 1).P = 8 }, ""},
		{"listed twice", func(p *Profile) { sim(p, 1).P = 1 }, df1 + "listed twice"},
		{"p decreasing", func(p *Profile) {
			s := root(p).Simulated
			s[0], s[1] = s[1], s[0]
		}, df1 + "listed after df at p = 4 (the order is df, bf, ws, go, then p)"},
		{"policies out of order", func(p *Profile) {
			s := root(p).Simulated
			root(p).Simulated = []Simulated{s[0], s[1], s[4], s[2], s[3]}
		}, r0 + "simulated ws at p = 1: listed after go at p = 4 (the order is df, bf, ws, go, then p)"},
		{"bf between df and ws", func(p *Profile) {
			s := root(p).Simulated
			bf := s[1]
			bf.Policy = "bf"
			root(p).Simulated = []Simulated{s[0], s[1], bf, s[2], s[3], s[4]}
		}, ""},
		{"one run only", func(p *Profile) { root(p).Simulated = root(p).Simulated[4:] }, ""},
		// peak and times
		{"peak negative", func(p *Profile) { sim(p, 0).PeakBytes = -1 }, df1 + "peak_bytes -1 outside 0..2^62"},
		{"peak above 2^62", func(p *Profile) { sim(p, 0).PeakBytes = MaxBytes + 1 }, df1 + "peak_bytes 4611686018427387905 outside 0..2^62"},
		{"peak_at negative", func(p *Profile) { sim(p, 1).PeakAtWallNS = -1 }, df4 + "peak_at_wall_ns -1 < 0"},
		{"makespan negative", func(p *Profile) { sim(p, 1).MakespanWallNS = -1 }, df4 + "makespan_wall_ns -1 < 0"},
		{"peak after makespan", func(p *Profile) { sim(p, 0).PeakAtWallNS = 101 }, df1 + "peak_at_wall_ns 101 after makespan_wall_ns 100"},
		{"peak at makespan", func(p *Profile) { sim(p, 0).PeakAtWallNS = 100; sim(p, 0).Curve = nil }, ""},
		{"no time at all", func(p *Profile) {
			s := sim(p, 0)
			s.PeakAtWallNS, s.MakespanWallNS, s.Curve = 0, 0, []SimPoint{{0, 100}}
		}, ""},
		// lines at the peak
		{"lines sum below", func(p *Profile) { sim(p, 3).Lines[2].Bytes = -20 }, ws4 + "lines' bytes sum to 190, peak_bytes is 200"},
		{"lines sum above", func(p *Profile) { sim(p, 1).Lines[1].Bytes = 51 }, df4 + "lines' bytes sum to 221, peak_bytes is 220"},
		{"no lines", func(p *Profile) { sim(p, 4).Lines = nil }, r0 + "simulated go at p = 4: lines' bytes sum to 0, peak_bytes is 210"},
		{"no lines, no peak", func(p *Profile) {
			s := sim(p, 0)
			s.PeakBytes, s.Lines, s.Curve = 0, nil, []SimPoint{{0, 0}}
		}, ""},
		{"lines overflow", func(p *Profile) {
			sim(p, 1).Lines = []SimLine{{"main.go", 10, math.MaxInt64}, {"main.go", 20, 1}, {"main.go", 30, math.MinInt64 + 219}}
		}, df4 + "lines' bytes sum to beyond the int64 range, peak_bytes is 220"},
		{"line twice", func(p *Profile) { sim(p, 1).Lines[1].Line = 10 }, df4 + "line main.go:10 listed twice"},
		{"unknown line twice", func(p *Profile) {
			sim(p, 1).Lines = []SimLine{{"main.go", 10, 220}, {"", 0, 5}, {"", 0, -5}}
		}, df4 + "line :0 listed twice"},
		{"one line in two files", func(p *Profile) { sim(p, 1).Lines[1].File = "other.go"; sim(p, 1).Lines[1].Line = 10 }, ""},
		{"negative line, any order", func(p *Profile) {
			sim(p, 1).Lines = []SimLine{{"main.go", 30, -30}, {"main.go", 10, 200}, {"main.go", 20, 50}}
		}, ""},
		// seeds
		{"seeds n 0", func(p *Profile) { sim(p, 3).Seeds.N = 0 }, ws4 + "seeds n = 0 < 1"},
		{"seeds max_seed 0", func(p *Profile) { sim(p, 3).Seeds.MaxSeed = 0 }, ws4 + "seeds max_seed 0 outside 1..n 3"},
		{"seeds max_seed above n", func(p *Profile) { sim(p, 3).Seeds.MaxSeed = 4 }, ws4 + "seeds max_seed 4 outside 1..n 3"},
		{"seeds min above median", func(p *Profile) { sim(p, 3).Seeds.Min = 190 }, ws4 + "seeds min 190, median 180, max 200: not 0 ≤ min ≤ median ≤ max"},
		{"seeds median above max", func(p *Profile) { sim(p, 3).Seeds.Median = 201 }, ws4 + "seeds min 150, median 201, max 200: not 0 ≤ min ≤ median ≤ max"},
		{"seeds min negative", func(p *Profile) { sim(p, 3).Seeds.Min = -1 }, ws4 + "seeds min -1, median 180, max 200: not 0 ≤ min ≤ median ≤ max"},
		{"seeds max not the peak", func(p *Profile) { sim(p, 3).Seeds.Max = 199 }, ws4 + "seeds max 199, peak_bytes is 200"},
		{"one seed", func(p *Profile) { sim(p, 3).Seeds = &SimSeeds{N: 1, Min: 200, Median: 200, Max: 200, MaxSeed: 1} }, ""},
		{"seeds of df", func(p *Profile) { sim(p, 0).Seeds = &SimSeeds{N: 1, Min: 100, Median: 100, Max: 100, MaxSeed: 1} }, ""},
		{"ws without seeds", func(p *Profile) { sim(p, 3).Seeds = nil }, ""},
		// the curve
		{"curve time negative", func(p *Profile) { sim(p, 0).Curve[0].WallNS = -1 }, df1 + "curve point 0: wall_ns -1 < 0"},
		{"curve time decreasing", func(p *Profile) { sim(p, 0).Curve[2].WallNS = 5 }, df1 + "curve point 2: wall_ns 5 before wall_ns 10 of point 1"},
		{"curve time repeated", func(p *Profile) { sim(p, 0).Curve[2].WallNS = 10 }, ""},
		{"curve bytes negative", func(p *Profile) { sim(p, 1).Curve[2].Bytes = -1 }, df4 + "curve point 2: bytes -1 outside 0..2^62"},
		{"curve bytes above 2^62", func(p *Profile) { sim(p, 1).Curve[2].Bytes = MaxBytes + 1 }, df4 + "curve point 2: bytes 4611686018427387905 outside 0..2^62"},
		{"curve below the peak", func(p *Profile) { sim(p, 0).Curve[1].Bytes = 90 }, df1 + "curve's highest point 90, peak_bytes is 100"},
		{"curve above the peak", func(p *Profile) { sim(p, 3).Curve[2].Bytes = 201 }, ws4 + "curve's highest point 201, peak_bytes is 200"},
		{"curve of one point", func(p *Profile) { sim(p, 3).Curve = []SimPoint{{25, 200}} }, ""},
		// one line even for a name with a newline
		{"name with newline", func(p *Profile) { root(p).Name = "a\nb\u2028c"; root(p).Work = -1 }, `invalid profile: root 0: its name "a\nb\u2028c" holds a control character`},
		{"line text with newline", func(p *Profile) { root(p).Lines[0].Text = "x\n::error file=evil.go,line=1::INJECTED" }, `invalid profile: root main.main: "main.go":10: a control character in its file, function or text`},
		// the existing rules still hold
		{"MHWM decreasing", func(p *Profile) { root(p).MHWM[3].Bytes = 90 }, r0 + "MHWM_4 = 90 is below MHWM_3"},
		{"MHWM count", func(p *Profile) { root(p).MHWM = root(p).MHWM[:3] }, r0 + "3 MHWM figures for pmax 4"},
		{"interval", func(p *Profile) { root(p).MHWM[1].Low, root(p).MHWM[1].High = 140, 160 }, ""},
		{"interval exact", func(p *Profile) { root(p).MHWM[1].Low, root(p).MHWM[1].High = 150, 150 }, ""},
		{"interval low above", func(p *Profile) { root(p).MHWM[1].Low, root(p).MHWM[1].High = 151, 160 }, r0 + "MHWM_2: low 151 outside 0..150"},
		{"interval low negative", func(p *Profile) { root(p).MHWM[1].Low, root(p).MHWM[1].High = -1, 160 }, r0 + "MHWM_2: low -1 outside 0..150"},
		{"interval high below", func(p *Profile) { root(p).MHWM[1].Low, root(p).MHWM[1].High = 140, 149 }, r0 + "MHWM_2: high 149 below 150 or above 2^62"},
		{"interval low only", func(p *Profile) { root(p).MHWM[1].Low = 140 }, r0 + "MHWM_2: high 0 below 150 or above 2^62"},
		{"serial interval", func(p *Profile) { root(p).SerialLow, root(p).SerialHigh = 90, 110 }, ""},
		{"serial interval wrong", func(p *Profile) { root(p).SerialLow, root(p).SerialHigh = 101, 110 }, r0 + "serial peak: low 101 outside 0..100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := richSample()
			tt.change(p)
			check := func(how string, err error) {
				t.Helper()
				if tt.want == "" {
					if err != nil {
						t.Errorf("%s: valid profile rejected: %v", how, err)
					}
					return
				}
				var fe *FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("%s: got %v, want a FormatError", how, err)
				}
				if err.Error() != tt.want {
					t.Errorf("%s: error\n%q, want\n%q", how, err, tt.want)
				}
				if strings.ContainsAny(err.Error(), "\n\r") {
					t.Errorf("%s: error %q is not one line", how, err)
				}
			}
			check("Validate", p.Validate())
			var buf bytes.Buffer
			if err := Encode(&buf, p); err != nil {
				t.Fatal(err)
			}
			_, err := Read(&buf)
			check("Read", err)
		})
	}
}

// TestReadTestdata reads the real profiles in testdata: they satisfy
// every rule, the exact attribution included, and round-trip.
func TestReadTestdata(t *testing.T) {
	for name, data := range testdataProfiles(t) {
		p, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var buf bytes.Buffer
		if err := Encode(&buf, p); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&buf)
		if err != nil {
			t.Errorf("%s: re-read: %v", name, err)
		} else if !reflect.DeepEqual(normalized(p), again) {
			t.Errorf("%s: round trip changed the profile", name)
		}
		for _, r := range p.Roots {
			switch {
			case p.Threshold != 0 && (r.Threshold == nil || len(r.MHWM) != 0 || len(r.Attributed) != 0):
				t.Errorf("%s: %s: threshold mode without a threshold answer only", name, r.Name)
			case p.Threshold == 0 && (len(r.MHWM) == 0 || len(r.Attributed) == 0 || r.Heap == nil):
				t.Errorf("%s: %s: exact mode without MHWM, attributed and heap", name, r.Name)
			}
		}
	}
}

// TestReadTooLarge checks that Read refuses, without reading on, a file
// larger than the limit (1 GiB, lowered here).
func TestReadTooLarge(t *testing.T) {
	if maxSize != 1<<30 {
		t.Fatalf("maxSize = %d, want 1 GiB", maxSize)
	}
	defer func(old int64) { maxSize = old }(maxSize)
	maxSize = 2 << 10

	var valid bytes.Buffer
	Encode(&valid, sample())
	if valid.Len() > 2<<10 {
		t.Fatalf("sample is %d bytes", valid.Len())
	}
	exact := append(valid.Bytes(), bytes.Repeat([]byte(" "), 2<<10-valid.Len())...)
	if _, err := Read(bytes.NewReader(exact)); err != nil {
		t.Errorf("a profile of exactly the limit: %v", err)
	}
	src := &endless{}
	_, err := Read(src)
	var fe *FormatError
	if !errors.As(err, &fe) || err.Error() != "file larger than 2 KiB, not read as an spgo profile" {
		t.Errorf("got %v, want a FormatError saying the file is larger than 2 KiB", err)
	}
	if src.n > 2<<10+1 {
		t.Errorf("read %d bytes of an endless file with a limit of 2 KiB", src.n)
	}
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, append(exact, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); !errors.As(err, &fe) || !strings.Contains(err.Error(), "big.json: file larger than 2 KiB") {
		t.Errorf("ReadFile: got %v, want a FormatError saying the file is larger than 2 KiB", err)
	}
	for n, want := range map[int64]string{1 << 30: "1 GiB", 3 << 20: "3 MiB", 1 << 10: "1 KiB", 1000: "1000 bytes", 0: "0 bytes"} {
		if got := sizeString(n); got != want {
			t.Errorf("sizeString(%d) = %q, want %q", n, got, want)
		}
	}
}

// endless is a reader of a profile that never ends.
type endless struct{ n int64 }

func (e *endless) Read(b []byte) (int, error) {
	const head = `{"schema": "spgo.profile/v1", "program": "`
	for i := range b {
		if e.n < int64(len(head)) {
			b[i] = head[e.n]
		} else {
			b[i] = 'x'
		}
		e.n++
	}
	return len(b), nil
}

// TestReadIOError checks that an error reading is returned as it is.
func TestReadIOError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Read(io.MultiReader(strings.NewReader(`{"schema"`), &failing{boom}))
	if !errors.Is(err, boom) {
		t.Errorf("got %v, want the reader's error", err)
	}
}

type failing struct{ err error }

func (f *failing) Read([]byte) (int, error) { return 0, f.err }

// stacksOf returns valid stacks figures for r: three goroutines of start
// bytes each, added to every figure of r.
func stacksOf(r *Root, start int64) *Stacks {
	st := &Stacks{StartBytes: start, Goroutines: 3, Exact: r.Exact, SerialPeak: r.SerialPeak + 3*start}
	for _, pt := range r.MHWM {
		st.Total = append(st.Total, Point{P: pt.P, Bytes: pt.Bytes + 3*start})
	}
	return st
}
