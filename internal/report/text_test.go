package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

func TestBytes(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"},
		{34 << 20, "34 MiB"}, {3 << 30, "3 GiB"}, {-2048, "-2 KiB"},
	}
	for _, tt := range tests {
		if got := Bytes(tt.n); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestDefaultPs(t *testing.T) {
	for pmax, want := range map[int]string{1: "[1]", 64: "[1 2 4 8 16 32 64]", 10: "[1 2 4 8 10]"} {
		if got := fmt.Sprint(DefaultPs(pmax)); got != want {
			t.Errorf("DefaultPs(%d) = %s, want %s", pmax, got, want)
		}
	}
}

func TestText(t *testing.T) {
	p := &profile.Profile{Schema: profile.Schema, PMax: 4, Partial: true, Roots: []profile.Root{{
		Name: "main.main", Exact: false, Reasons: []string{"main.go:9: channel communication"},
		MHWM:       []profile.Point{{P: 1, Bytes: 1 << 20}, {P: 2, Bytes: 2 << 20}, {P: 3, Bytes: 3 << 20}, {P: 4, Bytes: 3 << 20}},
		SerialPeak: 1 << 20,
		Attributed: []int{1, 2, 3, 4},
		Lines: []profile.Line{
			{File: "main.go", Line: 12, Func: "main.work", AllocBytes: 8 << 20, Allocs: 8, Text: "buf := make([]byte, n)",
				MHWMBytes: map[string]int64{"1": 1 << 20, "2": 2 << 20, "3": 3<<20 - 1, "4": 3<<20 - 1},
				MHWMSplit: map[string]profile.Split{"4": {Running: 2 << 20, Completed: 1<<20 - 1}}},
			{File: "main.go", Line: 20, Func: "main.main", AllocBytes: 4096, MHWMBytes: map[string]int64{"3": 1, "4": 1}},
		},
	}}}
	var b strings.Builder
	if err := Text(&b, p, Options{Lines: 1}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"partial profile",
		"main.main: not exact",
		"because: main.go:9: channel communication",
		"1 MiB  2 MiB  3 MiB",
		"lines in the worst case at p=4 (MHWM_4 = 3 MiB)",
		"main.go:12  main.work  3 MiB",
		"100.0%  2 MiB    1024 KiB   -          8 MiB in 8  buf := make([]byte, n)",
		"… 1 more lines",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestTextInterval checks that an inexact root with intervals shows
// them in text and HTML (low and high, the serial peak's too), and an
// exact one does not.
func TestTextInterval(t *testing.T) {
	pt := func(q int, lo, b, hi int64) profile.Point {
		return profile.Point{P: q, Bytes: b << 10, Low: lo << 10, High: hi << 10}
	}
	for _, exact := range []bool{false, true} {
		p := &profile.Profile{Schema: profile.Schema, PMax: 2, Roots: []profile.Root{{
			Name: "main.main", Exact: exact, MHWM: []profile.Point{pt(1, 100, 300, 310), pt(2, 150, 600, 620)},
			SerialPeak: 300 << 10, SerialLow: 90 << 10, SerialHigh: 310 << 10,
		}}}
		if !exact {
			p.Roots[0].Reasons = []string{"deaths were found late"}
		}
		var h strings.Builder
		if err := WriteHTML(&h, p, HTMLOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"not exact: intervals", "<th>low</th><th>high</th>", `<td>300 KiB</td><td class="quiet">100 KiB</td><td class="quiet">310 KiB</td>`, `<td class="quiet">90 KiB</td><td class="quiet">310 KiB</td>`} {
			if strings.Contains(h.String(), w) != !exact {
				t.Errorf("exact %v: HTML has %q: %v", exact, w, !exact)
			}
		}
		var b strings.Builder
		if err := Text(&b, p, Options{}); err != nil {
			t.Fatal(err)
		}
		want := []string{"main.main: not exact: the truth lies between low and high", "low  100 KiB  150 KiB", "high  310 KiB  620 KiB", "serial peak 300 KiB (truth 90 KiB to 310 KiB)"}
		for _, w := range want {
			if strings.Contains(b.String(), w) != !exact {
				t.Errorf("exact %v: report has %q: %v\n%s", exact, w, !exact, b.String())
			}
		}
	}
}

func TestTextOptions(t *testing.T) {
	p := &profile.Profile{Schema: profile.Schema, PMax: 2, Roots: []profile.Root{
		{Name: "TestA", Exact: true, MHWM: []profile.Point{{P: 1, Bytes: 10}, {P: 2, Bytes: 20}}, Attributed: []int{1, 2},
			Lines: []profile.Line{{File: "a.go", Line: 3, Func: "p.A", Allocs: 2, AllocBytes: 20, MHWMBytes: map[string]int64{"1": 10, "2": 20}}}},
		{Name: "TestB", Exact: true, MHWM: []profile.Point{{P: 1, Bytes: 5}, {P: 2, Bytes: 5}}},
	}}
	tests := []struct {
		name      string
		o         Options
		want, not []string
		err       string
	}{
		{"all", Options{Lines: 5}, []string{"TestA: exact", "TestB: exact", "at p=2 (MHWM_2 = 20 B)", "a.go:3"}, nil, ""},
		{"root", Options{Lines: 5, Root: "TestB"}, []string{"TestB: exact"}, []string{"TestA"}, ""},
		{"q", Options{Lines: 5, Q: 1, Root: "TestA"}, []string{"at p=1 (MHWM_1 = 10 B)", "10 B   100.0%"}, nil, ""},
		{"unknown root", Options{Root: "TestC"}, nil, nil, `no root "TestC" in the profile; roots: TestA, TestB`},
		{"bad q", Options{Q: 3}, nil, nil, "p = 3 is outside the profile (pmax 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			err := Text(&b, p, tt.o)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tt.not {
				if strings.Contains(b.String(), w) {
					t.Errorf("report has %q:\n%s", w, b.String())
				}
			}
		})
	}
}

// TestStacks: a root with goroutine stacks shows a "+stacks" row beside
// the heap's in the text report and a column in the HTML page, with a
// note naming the heap as the headline and saying how exact the total
// is: exact, or its interval at pmax.
func TestStacks(t *testing.T) {
	tests := []struct {
		name  string
		exact bool
		grown int64
		want  []string
	}{
		{"exact", true, 0, []string{"+stacks  19.8 MiB  20.1 MiB", "+stacks adds the stacks of the 10000 goroutines the root started, 2 KiB each from go statement to join: serial peak 19.8 MiB, exact"}},
		{"grown", false, 3, []string{"+stacks  19.8 MiB  20.1 MiB", "not exact: at p=2 between 19.6 MiB and 21.6 MiB", "Frames of 3 goroutines needed more than 2 KiB, 1 MiB more in all"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			heap := []profile.Point{{P: 1, Bytes: 300 << 10}, {P: 2, Bytes: 600 << 10}}
			st := &profile.Stacks{StartBytes: 2048, Goroutines: 10000, Exact: tt.exact, SerialPeak: 300<<10 + 20000<<10,
				Total: []profile.Point{{P: 1, Bytes: 300<<10 + 20000<<10}, {P: 2, Bytes: 600<<10 + 20000<<10}}}
			if tt.grown > 0 {
				st.Grown, st.GrownBytes = tt.grown, 1<<20
				st.Total[1].Low, st.Total[1].High = 196<<20/10, 216<<20/10
			}
			p := &profile.Profile{Schema: profile.Schema, PMax: 2, Roots: []profile.Root{{
				Name: "main.main", Exact: true, MHWM: heap, SerialPeak: 300 << 10, Stacks: st}}}
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := Text(&b, p, Options{}); err != nil {
				t.Fatal(err)
			}
			for _, w := range append(tt.want, "MHWM is the heap (the headline: budgets and diffs use it)") {
				if !strings.Contains(b.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, b.String())
				}
			}
			var h strings.Builder
			if err := WriteHTML(&h, p, HTMLOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, w := range []string{"+ stacks</th>", `<td class="stacks">20.1 MiB</td>`, "goroutines the root started, 2 KiB each from go statement to join: serial peak 19.8 MiB"} {
				if !strings.Contains(h.String(), w) {
					t.Errorf("HTML lacks %q", w)
				}
			}
			// No goroutines (the total is the heap), or no stacks figures
			// (a profile of spgo before them): no row, no note.
			for _, st := range []*profile.Stacks{{StartBytes: 2048, Exact: true, SerialPeak: 300 << 10, Total: heap}, nil} {
				p.Roots[0].Stacks = st
				b.Reset()
				if err := Text(&b, p, Options{}); err != nil {
					t.Fatal(err)
				}
				h.Reset()
				if err := WriteHTML(&h, p, HTMLOptions{}); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(b.String(), "stacks") || strings.Contains(h.String(), "+ stacks") {
					t.Errorf("a root without goroutines' stacks mentions them:\n%s", b.String())
				}
			}
		})
	}
}

// TestPoolNote: a root whose Gets reused objects put back into a
// sync.Pool says how many, in text and HTML, beside figures that count
// each as allocated; one that reused none, or made no Get, says nothing.
func TestPoolNote(t *testing.T) {
	tests := []struct {
		name string
		pool *profile.Pool
		want string
	}{
		{"reused", &profile.Pool{Gets: 16, Reused: 15}, "sync.Pool: this run served 15 of 16 Gets with an object put back; the figures count each of them as allocated until its Put"},
		{"none reused", &profile.Pool{Gets: 3}, ""},
		{"no gets", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &profile.Profile{Schema: profile.Schema, PMax: 2, Roots: []profile.Root{{
				Name: "main.main", Exact: true, MHWM: []profile.Point{{P: 1, Bytes: 2 << 20}, {P: 2, Bytes: 4 << 20}}, SerialPeak: 2 << 20, Pool: tt.pool}}}
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			var b, h strings.Builder
			if err := Text(&b, p, Options{}); err != nil {
				t.Fatal(err)
			}
			if err := WriteHTML(&h, p, HTMLOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, out := range []string{b.String(), h.String()} {
				if got := strings.Contains(out, "sync.Pool:"); got != (tt.want != "") || tt.want != "" && !strings.Contains(out, tt.want) {
					t.Errorf("want %q (or nothing about the pool when empty), got:\n%s", tt.want, out)
				}
			}
		})
	}
}
