package sim

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/trace"
)

func TestDownsample(t *testing.T) {
	pts := []Point{{0, 1}, {1, 5}, {2, 3}, {3, 3}, {4, 9}, {5, 2}, {6, 9}, {7, 0}}
	tests := []struct {
		k    int
		want []Point
	}{
		{8, pts},
		{100, pts},
		{4, []Point{{1, 5}, {2, 3}, {4, 9}, {6, 9}}}, // width 2: buckets {0,1} {2,3} {4,5} {6,7}
		{2, []Point{{1, 5}, {4, 9}}},                 // width 4: the first 9 is kept
		{1, []Point{{4, 9}}},
	}
	for _, tc := range tests {
		if got := downsample(pts, tc.k, 7); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("k=%d: got %v, want %v", tc.k, got, tc.want)
		}
	}
}

// TestCurve checks the curve of docs/algorithms.md's parent-and-children example with children of 10 and 20 ns
// on two processors: each instant keeps its highest value, then its last
// value when that is lower. At t = 10 the first child's completion comes
// before anything starts, so the instant's highest value is already 15.
func TestCurve(t *testing.T) {
	g, _ := build(t, []op{alloc(5), spawn(alloc(10), work(10), free(10)), spawn(alloc(10), work(20), free(10)), sync(), free(5)}, 1)
	r, err := Simulate(g, DF, 2, Options{CurvePoints: 100})
	if err != nil {
		t.Fatal(err)
	}
	want := []Point{{0, 25}, {10, 15}, {20, 5}, {20, 0}}
	if !reflect.DeepEqual(r.Curve, want) || r.PeakBytes != 25 || r.PeakAt != 0 || r.Makespan != 20 {
		t.Fatalf("curve %v, peak %d at %d, end %d", r.Curve, r.PeakBytes, r.PeakAt, r.Makespan)
	}
	if want := []SiteLive{{1, 25}}; !reflect.DeepEqual(r.Sites, want) {
		t.Fatalf("sites %v", r.Sites)
	}
}

// TestSitesAtPeak checks the per-site split: completed strands count
// their per-site net, running ones their share at the peak.
func TestSitesAtPeak(t *testing.T) {
	bd := newBuilder("sites")
	root := bd.task(-1, 0)
	s0 := bd.begin(root)
	bd.alloc(s0, 3, 40) // kept: completed, net 40 at site 3
	bd.alloc(s0, 4, 7)
	bd.free(s0, 4, 7)
	bd.end(s0)
	child := bd.task(root, 9)
	s1 := bd.begin(child) // running at the peak
	bd.work(s1, 10)
	bd.free(s1, 3, 40)
	bd.alloc(s1, 5, 30)
	bd.alloc(s1, 3, 45)
	bd.free(s1, 5, 30)
	bd.end(s1)
	s2 := bd.strand(root, 10, 2) // site 1, running beside s1
	bd.dep(s0, s1, trace.Spawn)
	bd.dep(s0, s2, trace.Cont)
	g := bd.graph(t)
	r, err := Simulate(g, BF, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// s1 runs −40, −10, +35 (its peak: site 3 −40+45 = 5, site 5 30),
	// then +5. Live: s0's 40 at site 3 (site 4 nets 0), s1's 35, s2's 2.
	want := []SiteLive{{3, 45}, {5, 30}, {1, 2}}
	if r.PeakBytes != 77 || !reflect.DeepEqual(r.Sites, want) {
		t.Fatalf("peak %d, sites %v", r.PeakBytes, r.Sites)
	}
}

func TestSimulateErrors(t *testing.T) {
	g, _ := build(t, []op{spawn(alloc(1)), sync()}, 1)
	tests := []struct {
		name string
		g    *trace.Graph
		p    int
		pol  Policy
		opt  Options
		want string
	}{
		{"p0", g, 0, DF, Options{}, "0 processors"},
		{"nil", nil, 1, DF, Options{}, "nil graph"},
		{"policy", g, 1, Policy(9), Options{}, "unknown policy"},
		{"seeds", g, 1, WS, Options{Seeds: -1}, "negative"},
		{"invalid", &trace.Graph{Name: "x"}, 1, DF, Options{}, "no strands"},
	}
	for _, tc := range tests {
		_, err := Simulate(tc.g, tc.pol, tc.p, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestPolicyNames(t *testing.T) {
	for _, p := range Policies() {
		q, err := ParsePolicy(strings.ToUpper(p.String()))
		if err != nil || q != p {
			t.Errorf("%v: %v %v", p, q, err)
		}
	}
	if _, err := ParsePolicy("lifo"); err == nil {
		t.Error("unknown policy accepted")
	}
}

// TestSimulateAll checks the order of SimulateAll's results and that
// they match single simulations.
func TestSimulateAll(t *testing.T) {
	g := randomGraph(t, 300, 7)
	rs, err := SimulateAll(g, []int{1, 4}, Options{Seeds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 8 {
		t.Fatalf("%d results", len(rs))
	}
	for i, r := range rs {
		pol, p := Policies()[i/2], []int{1, 4}[i%2]
		one, _ := Simulate(g, pol, p, Options{Seeds: 2})
		if r.Policy != pol.String() || r.P != p || !reflect.DeepEqual(r, one) {
			t.Errorf("result %d: %s p=%d", i, r.Policy, r.P)
		}
	}
}
