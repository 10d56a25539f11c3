package report

import (
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// regionsProfile is the types example's profile with the regions of a
// recorded run: the root, a site spawned four times, and a recursive
// site whose three instances nest (one outermost).
func regionsProfile(t testing.TB) *profile.Profile {
	p := readHTMLProfile(t, "types")
	p.Roots[0].Regions = []profile.Region{
		{Site: "", Instances: 1, Outermost: 1, WorkStrands: 26, SpanStrands: 10, WorkWallNS: 2_060_000, SpanWallNS: 550_000},
		{Site: "main.go:69", Instances: 4, Outermost: 4, WorkStrands: 20, SpanStrands: 20, WorkWallNS: 2_000_000, SpanWallNS: 2_000_000},
		{Site: "rec.go:9", Instances: 3, Outermost: 1, WorkStrands: 3, SpanStrands: 3, WorkWallNS: 950, SpanWallNS: 950},
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTextWorkSpan is the table of show: the golden files
// testdata/text/workspan*.golden (every region; the root and the
// largest site only).
func TestTextWorkSpan(t *testing.T) {
	for _, tt := range []struct {
		golden string
		o      Options
	}{
		{"workspan.golden", Options{Ps: []int{1}}},
		{"workspan-lines1.golden", Options{Ps: []int{1}, Lines: 1}},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			var b strings.Builder
			if err := Text(&b, regionsProfile(t), tt.o); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "text/"+tt.golden, b.String())
		})
	}
	var b strings.Builder
	if err := Text(&b, readHTMLProfile(t, "types"), Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "work and span") {
		t.Errorf("a table of regions for a root not recorded:\n%s", b.String())
	}
}

func TestNanoseconds(t *testing.T) {
	for ns, want := range map[int64]string{0: "0 ns", 950: "950 ns", 2060: "2.06 µs", 13_400_000: "13.4 ms", 1_500_000_000: "1.5 s", 61_000_000_000: "61 s"} {
		if got := Nanoseconds(ns); got != want {
			t.Errorf("Nanoseconds(%d) = %q, want %q", ns, got, want)
		}
	}
}

// TestHTMLWorkSpan checks the page's table of regions: the root first,
// then by work; parallelism in both units.
func TestHTMLWorkSpan(t *testing.T) {
	doc := parsePage(t, writeTestHTML(t, regionsProfile(t), HTMLOptions{}))
	sec := doc.one(t, "#root-0")
	rows := sec.one(t, "tbody.wsrows").sel("tr")
	if len(rows) != 3 {
		t.Fatalf("%d rows of regions, want 3", len(rows))
	}
	for i, want := range []string{"(root)-26102.62.06 ms550 µs3.7", "main.go:6942020" + "1.02 ms2 ms1.0", "rec.go:93 (1 outermost)331.0950 ns950 ns1.0"} {
		if got := rows[i].text(); got != want {
			t.Errorf("row %d %q, want %q", i, got, want)
		}
	}
	if !strings.Contains(sec.one(t, "div.workspan").text(), "which vary from run to run") {
		t.Error("the table does not say the wall-clock figures vary")
	}
	if n := len(parsePage(t, writeTestHTML(t, readHTMLProfile(t, "types"), HTMLOptions{})).sel("div.workspan")); n != 0 {
		t.Errorf("%d tables of regions for a root not recorded", n)
	}
}
