package report

import (
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

const kib, mib = 1 << 10, 1 << 20

func TestParseNoise(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Noise
		spec string
		bad  bool
	}{
		{in: "32KiB,1%", want: Noise{Bytes: 32 * kib, Percent: 1}, spec: "32 KiB,1%"},
		{in: "2% , 64KiB", want: Noise{Bytes: 64 * kib, Percent: 2}, spec: "64 KiB,2%"},
		{in: "16KiB", want: Noise{Bytes: 16 * kib}, spec: "16 KiB"},
		{in: "0.5%", want: Noise{Percent: 0.5}, spec: "0.5%"},
		{in: "off", spec: "off"},
		{in: "0", spec: "off"},
		{in: "1%,2%", bad: true}, {in: "1KiB,2KiB", bad: true}, {in: "16", bad: true},
		{in: "lots", bad: true}, {in: "", bad: true}, {in: "-1%", bad: true},
	} {
		n, err := ParseNoise(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseNoise(%q) = %+v, want an error", tt.in, n)
			}
			continue
		}
		if err != nil || n != tt.want || n.Spec() != tt.spec {
			t.Errorf("ParseNoise(%q) = %+v (spec %q), %v; want %+v (%q)", tt.in, n, n.Spec(), err, tt.want, tt.spec)
		}
		if back, err := ParseNoise(n.Spec()); err != nil || back != n {
			t.Errorf("ParseNoise(%q.Spec()) = %+v, %v", tt.in, back, err)
		}
	}
	if d := DefaultNoise(); d.String() != "max(32 KiB, 1%)" {
		t.Errorf("default floor %s", d)
	}
}

func TestNoiseWithin(t *testing.T) {
	n := Noise{Bytes: 32 * kib, Percent: 1}
	for _, tt := range []struct {
		b, c int64
		want bool
	}{
		{2 * mib, 2*mib + 14*kib, true},    // runtime jitter on a 2 MiB line
		{0, 32 * kib, true},                // a line appearing with a few KiB
		{0, 32*kib + 1, false},             // one byte more
		{32 * mib, 32*mib - 300*kib, true}, // 1 % of 32 MiB is 327.68 KiB
		{32 * mib, 32*mib + 400*kib, false},
		{mib, 2 * mib, false},
		{5, 5, true},
	} {
		if got := n.Within(tt.b, tt.c); got != tt.want {
			t.Errorf("%s: %d → %d within = %v, want %v", n, tt.b, tt.c, got, tt.want)
		}
	}
	if (Noise{}).Within(1, 2) || !(Noise{}).Within(3, 3) {
		t.Error("the zero floor: only equal figures are noise")
	}
}

func TestSimilarity(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		alike bool
	}{
		{"buf := make([]byte, n)", "buf := make([]byte, 2*n)", true},
		{"scratch := make([]byte, Scratch)", "scratch := make([]byte, Scratch+Pad)", true},
		{"x := new(T)", "ch := make(chan int)", false},
		{"keep = append(keep, x)", "wg.Wait()", false},
		{"", "", true},
	} {
		if got := similarity(tt.a, tt.b) >= minSimilarity; got != tt.alike {
			t.Errorf("similarity(%q, %q) = %.2f, alike %v, want %v", tt.a, tt.b, similarity(tt.a, tt.b), got, tt.alike)
		}
	}
	if d := editDistance([]rune("kitten"), []rune("sitting")); d != 3 {
		t.Errorf("edit distance kitten/sitting = %d, want 3", d)
	}
}

// TestDiffNoiseGate: the noise floor keeps a root's jitter from failing
// the gate, never a root the base lacks.
func TestDiffNoiseGate(t *testing.T) {
	small := func(name string, b int64) *profile.Profile {
		return tProf(tRoot(name, tLine("t.go", 3, "p.TestSmall", "x := make([]byte, n)", b, b)))
	}
	lim := Limit{Percent: 5, IsPercent: true}
	for _, tt := range []struct {
		name        string
		base, chg   *profile.Profile
		noise       Noise
		wantFailing int
		wantSummary string
	}{
		{"jitter within the floor", small("p.TestSmall", 40*kib), small("p.TestSmall", 43*kib), DefaultNoise(), 0,
			"no root grew more than 5% beyond the noise floor max(32 KiB, 1%) (1 grew within it)"},
		{"jitter without a floor", small("p.TestSmall", 40*kib), small("p.TestSmall", 43*kib), Noise{}, 1,
			"1 root(s) grew more than 5%"},
		{"real growth", small("p.TestSmall", 40*kib), small("p.TestSmall", 400*kib), DefaultNoise(), 1,
			"1 root(s) grew more than 5%"},
		{"new root under the floor", small("p.TestSmall", 40*kib), tProf(append(small("p.TestSmall", 40*kib).Roots, small("p.TestNew", 8*kib).Roots...)...), DefaultNoise(), 1,
			"1 root(s) grew more than 5% (1 of them new: not in the base, so grown from 0)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := DiffProfiles(tt.base, tt.chg, "b", "c", 0)
			if err != nil {
				t.Fatal(err)
			}
			d.SetNoise(tt.noise)
			checkSums(t, d)
			if got := len(d.Failing(lim)); got != tt.wantFailing {
				t.Errorf("%d failing, want %d", got, tt.wantFailing)
			}
			if got := d.failSummary(lim); got != tt.wantSummary {
				t.Errorf("summary %q, want %q", got, tt.wantSummary)
			}
			var b strings.Builder
			if err := d.WriteGitHub(&b, DiffOptions{Limit: &lim}); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(b.String(), "::error"); got != (tt.wantFailing > 0) {
				t.Errorf("::error in the output = %v, want %v:\n%s", got, tt.wantFailing > 0, b.String())
			}
		})
	}
}
