package report

import (
	"strconv"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// tLine builds a profile line with shares for q = 1, 2.
func tLine(file string, n int, fn, text string, q1, q2 int64) profile.Line {
	return profile.Line{File: file, Line: n, Func: fn, Text: text, Allocs: 1, AllocBytes: max(q1, q2),
		MHWMBytes: map[string]int64{"1": q1, "2": q2}}
}

func tRoot(name string, lines ...profile.Line) profile.Root {
	var m1, m2 int64
	for _, l := range lines {
		m1 += l.MHWMBytes["1"]
		m2 += l.MHWMBytes["2"]
	}
	return profile.Root{Name: name, Exact: true, Attributed: []int{1, 2}, Lines: lines,
		MHWM: []profile.Point{{P: 1, Bytes: m1}, {P: 2, Bytes: m2}}}
}

func tProf(roots ...profile.Root) *profile.Profile {
	return &profile.Profile{Schema: profile.Schema, PMax: 2, Roots: roots}
}

// checkSums checks the invariant of every diff: the lines' deltas sum to
// the root's.
func checkSums(t *testing.T, d *Diff) {
	t.Helper()
	for _, r := range d.Roots {
		sum := int64(0)
		for _, l := range r.Lines {
			sum += l.Delta()
		}
		if sum != r.Delta() {
			t.Errorf("root %s: lines sum to %d, root delta %d", r.Name, sum, r.Delta())
		}
	}
}

func TestDiffProfiles(t *testing.T) {
	base := tProf(
		tRoot("main.main",
			tLine("main.go", 10, "main.work", "buf := make([]byte, n)", 100, 200),
			tLine("main.go", 20, "main.work", "out := make([]byte, 8)", 8, 16),
			tLine("main.go", 30, "main.keep", "keep = append(keep, x)", 50, 50),
			tLine("main.go", 31, "main.keep", "keep = append(keep, x)", 5, 5), // the same text twice
		),
		tRoot("TestGone", tLine("a.go", 1, "p.A", "x := new(T)", 7, 7)),
	)
	change := tProf(
		tRoot("main.main",
			// Lines moved down by 3 (renumbered), one grew, one is new,
			// one is gone.
			tLine("main.go", 13, "main.work", "buf := make([]byte, n)", 100, 300),
			tLine("main.go", 33, "main.keep", "keep = append(keep, x)", 50, 50),
			tLine("main.go", 34, "main.keep", "keep = append(keep, x)", 5, 9),
			tLine("main.go", 40, "main.extra", "tmp := make([]int, k)", 0, 64),
		),
		tRoot("TestNew", tLine("b.go", 2, "p.B", "y := new(U)", 3, 3)),
	)
	d, err := DiffProfiles(base, change, "base.json", "change.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	checkSums(t, d)
	if len(d.Roots) != 3 {
		t.Fatalf("%d roots, want 3 (matched, added, removed)", len(d.Roots))
	}
	m := d.Roots[0]
	if m.Name != "main.main" || m.Status != "matched" || m.Base != 271 || m.Change != 423 || m.BaseQ != 2 {
		t.Fatalf("main.main: %+v", m)
	}
	want := []struct {
		pos             string
		baseLine, delta int64
	}{
		{"main.go:13", 10, 100}, // largest increase first
		{"main.go:40", 0, 64},
		{"main.go:34", 31, 4}, // the second of two equal lines matches the second
		{"main.go:20", 20, -16},
	}
	if len(m.Lines) != len(want) {
		t.Fatalf("lines %+v, want %d", m.Lines, len(want))
	}
	for i, w := range want {
		l := m.Lines[i]
		if l.Pos() != w.pos || int64(l.BaseLine) != w.baseLine || l.Delta() != w.delta {
			t.Errorf("line %d = %s (base line %d) %+d, want %s (%d) %+d", i, l.Pos(), l.BaseLine, l.Delta(), w.pos, w.baseLine, w.delta)
		}
	}
	if a, r := d.Roots[1], d.Roots[2]; a.Status != "added" || a.Name != "TestNew" || r.Status != "removed" || r.Name != "TestGone" {
		t.Errorf("roots %+v %+v", a, r)
	}

	change.Partial = true
	var b strings.Builder
	if d, _ := DiffProfiles(base, change, "b", "c", 0); d.WriteText(&b, DiffOptions{}) != nil || !strings.Contains(b.String(), "the change's run ended early") {
		t.Errorf("a partial change is not flagged:\n%s", b.String())
	}
	d1, err := DiffProfiles(base, change, "b", "c", 1)
	if err != nil {
		t.Fatal(err)
	}
	checkSums(t, d1)
	if d1.Roots[0].Delta() != 155-163 {
		t.Errorf("delta at q=1 = %d, want %d", d1.Roots[0].Delta(), 155-163)
	}
}

// TestDiffUnattributed: a profile whose lines do not sum to MHWM (an old
// or damaged one) still gives deltas that sum exactly, through an
// "(unattributed)" row.
func TestDiffUnattributed(t *testing.T) {
	b := tProf(tRoot("main.main", tLine("m.go", 1, "main.f", "a", 10, 20)))
	c := tProf(tRoot("main.main", tLine("m.go", 1, "main.f", "a", 10, 20)))
	c.Roots[0].MHWM[1].Bytes = 50
	d, err := DiffProfiles(b, c, "b", "c", 0)
	if err != nil {
		t.Fatal(err)
	}
	checkSums(t, d)
	if l := d.Roots[0].Lines; len(l) != 1 || l[0].Func != unattributed || l[0].Delta() != 30 {
		t.Errorf("lines %+v", l)
	}
}

func TestDiffPs(t *testing.T) {
	p := tProf(tRoot("main.main",
		tLine("m.go", 1, "main.f", "a", 10, 30),
		tLine("m.go", 2, "main.f", "b", 10, 0),
		tLine("m.go", 3, "main.g", "c", 5, 5)))
	d, err := DiffPs(p, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkSums(t, d)
	r := d.Roots[0]
	if r.Base != 25 || r.Change != 35 || len(r.Lines) != 2 || r.Lines[0].Delta() != 20 || r.Lines[1].Delta() != -10 {
		t.Errorf("diff %+v", r)
	}
	if d.Base != "p=1" || d.Change != "p=2" {
		t.Errorf("labels %q %q", d.Base, d.Change)
	}
}

func TestDiffErrors(t *testing.T) {
	ok := tProf(tRoot("main.main", tLine("m.go", 1, "main.f", "a", 1, 2)))
	// p = 3 is not listed and MHWM_3 ≠ MHWM_2: no per-line figures.
	unlisted := tProf(tRoot("main.main", tLine("m.go", 1, "main.f", "a", 1, 2)))
	unlisted.PMax = 3
	unlisted.Roots[0].MHWM = append(unlisted.Roots[0].MHWM, profile.Point{P: 3, Bytes: 5})
	thr := &profile.Profile{Schema: profile.Schema, PMax: 4, Threshold: 1 << 20, Roots: []profile.Root{{Name: "main.main", Threshold: &profile.ThresholdAnswer{M: 1 << 20, P: 4}}}}
	for _, tt := range []struct {
		name string
		err  func() error
		want string
	}{
		{"threshold base", func() error { _, err := DiffProfiles(thr, ok, "t.json", "ok.json", 0); return err }, "t.json has no MHWM figures"},
		{"q too large", func() error { _, err := DiffProfiles(ok, ok, "a", "b", 3); return err }, "p = 3 is outside a (pmax 2)"},
		{"ps threshold", func() error { _, err := DiffPs(thr, 1, 2); return err }, "no MHWM figures"},
		{"ps range", func() error { _, err := DiffPs(ok, 1, 9); return err }, "p = 9 is outside"},
		{"not attributed", func() error { _, err := DiffPs(unlisted, 1, 3); return err },
			`root "main.main" has no per-line figures for p = 3 (the run gave them for p = 1 2; SPGO_ATTRIBUTE=4 in the program's environment gives every p)`},
	} {
		if err := tt.err(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestLimit(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    Limit
		bad     bool
		exceeds map[int64]bool // change from a base of 1000 B
	}{
		{in: "5%", want: Limit{Percent: 5, IsPercent: true}, exceeds: map[int64]bool{1050: false, 1051: true, 900: false}},
		{in: "2.5 %", want: Limit{Percent: 2.5, IsPercent: true}, exceeds: map[int64]bool{1025: false, 1026: true}},
		{in: "1KiB", want: Limit{Bytes: 1024}, exceeds: map[int64]bool{2024: false, 2025: true}},
		{in: "100B", want: Limit{Bytes: 100}, exceeds: map[int64]bool{1100: false, 1101: true}},
		{in: "100", bad: true}, // 100 bytes or 100 %? Say which.
		{in: "0%", want: Limit{IsPercent: true}, exceeds: map[int64]bool{1000: false, 1001: true}},
		{in: "-5%", bad: true}, {in: "five", bad: true}, {in: "3 parsecs", bad: true}, {in: "", bad: true},
	} {
		l, err := ParseLimit(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseLimit(%q) = %+v, want an error", tt.in, l)
			}
			continue
		}
		if err != nil || l != tt.want {
			t.Errorf("ParseLimit(%q) = %+v, %v; want %+v", tt.in, l, err, tt.want)
			continue
		}
		for change, want := range tt.exceeds {
			r := RootDiff{Status: "matched", Base: 1000, Change: change}
			if got := r.Exceeds(l); got != want {
				t.Errorf("limit %s, 1000 → %d: exceeds = %v", tt.in, change, got)
			}
		}
	}
	// A root the base lacks grew from nothing; a removed one fails unless
	// allowed.
	for _, tt := range []struct {
		r    RootDiff
		l    Limit
		want bool
	}{
		{RootDiff{Status: "added", Change: 1 << 40}, Limit{Percent: 5, IsPercent: true}, true},
		{RootDiff{Status: "added", Change: 1 << 40}, Limit{}, true},
		{RootDiff{Status: "added", Change: 1 << 20}, Limit{Bytes: 2 << 20}, false},
		{RootDiff{Status: "added"}, Limit{Percent: 5, IsPercent: true}, false},
		{RootDiff{Status: "removed", Base: 1 << 40}, Limit{}, true},                   // the gate cannot be passed by dropping a test
		{RootDiff{Status: "removed", Base: 1 << 40, removedOK: true}, Limit{}, false}, // -allow-removed
	} {
		if got := tt.r.Exceeds(tt.l); got != tt.want {
			t.Errorf("%s root %d → %d, limit %s: exceeds = %v, want %v", tt.r.Status, tt.r.Base, tt.r.Change, tt.l, got, tt.want)
		}
	}
	// Growth from nothing exceeds every percentage.
	if r := (&RootDiff{Status: "matched", Change: 1}); !r.Exceeds(Limit{Percent: 1e9, IsPercent: true}) || r.PercentString() != "from 0" {
		t.Errorf("growth from 0: exceeds %v, %s", r.Exceeds(Limit{Percent: 1e9, IsPercent: true}), r.PercentString())
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "2G": 2 << 30, "1.5 KiB": 1536, "64MB": 64 << 20, "7": 7, "3B": 3, "1TiB": 1 << 40} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "1 XB", "-1", "1e30", "NaN"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestDiffFormats(t *testing.T) {
	base := tProf(tRoot("main.main", tLine("main.go", 10, "main.work", "buf := make([]byte, n) // a|b", 100, 200)))
	change := tProf(tRoot("main.main", tLine("main.go", 12, "main.work", "buf := make([]byte, n) // a|b", 100, 400)))
	d, err := DiffProfiles(base, change, "base.json", "change.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	lim := Limit{Percent: 5, IsPercent: true}
	for _, tt := range []struct {
		name  string
		write func(*Diff, *strings.Builder, DiffOptions) error
		want  []string
	}{
		{"text", func(d *Diff, b *strings.Builder, o DiffOptions) error { return d.WriteText(b, o) }, []string{
			"spgo diff: base.json → change.json",
			"main.main: 200 B → 400 B at p=2 (+200 B, +100.0%)  FAIL: grew more than 5%",
			"+200 B  main.go:12  main.work  200 B → 400 B  buf := make([]byte, n) // a|b",
			"1 root(s) grew more than 5%",
		}},
		{"markdown", func(d *Diff, b *strings.Builder, o DiffOptions) error { return d.WriteMarkdown(b, o) }, []string{
			"**1 root(s) grew more than 5%.**",
			"| `main.main` | 2 | 200 B | 400 B | +200 B | +100.0% | ❌ over 5% |",
			"| +200 B | `main.go:12` | `main.work` | 200 B | 400 B | `buf := make([]byte, n) // a\\|b` |",
		}},
		{"github", func(d *Diff, b *strings.Builder, o DiffOptions) error { return d.WriteGitHub(b, o) }, []string{
			"::error file=sub/main.go,line=12,title=spgo MHWM +200 B::main.main: this line's share of the worst case at p=2 changed by +200 B (200 B → 400 B); root total 200 B → 400 B (+100.0%25)",
			"::error title=spgo MHWM gate::main.main: 200 B → 400 B at p=2 (+200 B, +100.0%25) — more than 5%25",
		}},
	} {
		var b strings.Builder
		if err := tt.write(d, &b, DiffOptions{Limit: &lim, PathPrefix: "sub"}); err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s output lacks %q:\n%s", tt.name, w, b.String())
			}
		}
	}
}

func TestSlope(t *testing.T) {
	mk := func(vals ...int64) *profile.Root {
		r := &profile.Root{}
		for i, v := range vals {
			r.MHWM = append(r.MHWM, profile.Point{P: i + 1, Bytes: v})
		}
		return r
	}
	const M = 1 << 20
	for _, tt := range []struct {
		r    *profile.Root
		want string
	}{
		{mk(4*M, 8*M, 12*M, 16*M, 16*M), "grows by ≈ 4.0 MiB per processor from p = 1 to 4 (4 MiB → 16 MiB), then stays at 16 MiB up to p = 5"},
		{mk(M, M, M), "does not grow with p: MHWM_p = 1 MiB for every p ≤ 3"},
		{mk(M, 2*M, 10*M), "grows from 1 MiB at p = 1 to 10 MiB at p = 3, ≈ 4.5 MiB per processor on average but not linearly (see the table)"},
	} {
		s, ok := SlopeOf(tt.r)
		if !ok || s.String() != tt.want {
			t.Errorf("slope %q, want %q", s, tt.want)
		}
	}
	if _, ok := SlopeOf(&profile.Root{}); ok {
		t.Error("a threshold-mode root has a slope")
	}
}

func TestCurve(t *testing.T) {
	// MHWM_p = 1 MiB + p·2 MiB up to p = 8, then flat, pmax 64: the lines
	// shares at the attributed q (1, 2, …, 8 where it changes, 16, 32, 64).
	r := profile.Root{Name: "main.main", Exact: true}
	scratch := profile.Line{File: "m.go", Line: 5, Func: "main.tile", Text: "s := make([]byte, 2<<20)", MHWMBytes: map[string]int64{}}
	keep := profile.Line{File: "m.go", Line: 9, Func: "main.main", Text: "keep := make([]byte, 1<<20)", MHWMBytes: map[string]int64{}}
	for p := 1; p <= 64; p++ {
		k := min(p, 8)
		r.MHWM = append(r.MHWM, profile.Point{P: p, Bytes: int64(1<<20 + k*2<<20)})
		if p <= 8 || p&(p-1) == 0 {
			r.Attributed = append(r.Attributed, p)
			scratch.MHWMBytes[strconv.Itoa(p)] = int64(k * 2 << 20)
			keep.MHWMBytes[strconv.Itoa(p)] = 1 << 20
		}
	}
	r.Lines = []profile.Line{scratch, keep}
	var b strings.Builder
	if err := Curve(&b, &profile.Profile{PMax: 64, Roots: []profile.Root{r}}, CurveOptions{Lines: 5}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"MHWM_p grows by ≈ 2.0 MiB per processor from p = 1 to 8 (3 MiB → 17 MiB), then stays at 17 MiB up to p = 64",
		"lines that make up the growth from p = 1 to 8 (+14 MiB):",
		"+14 MiB  m.go:5  main.tile  2 MiB → 16 MiB  s := make([]byte, 2<<20)",
	} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("curve lacks %q:\n%s", w, b.String())
		}
	}
	if strings.Contains(b.String(), "m.go:9") {
		t.Errorf("a line with no growth is listed:\n%s", b.String())
	}
	if rows := curveRows(&r); strconv.Itoa(len(rows)) != "7" || rows[3] != 8 {
		t.Errorf("rows %v, want 1 2 4 8 16 32 64", rows)
	}
}

// TestDiffGitHubInjection: names and source text come from profiles,
// which a pull request controls. In -format github output no line but
// spgo's own annotations may read as a workflow command: the plain
// summary is fenced by stop-commands with a token derived from it.
func TestDiffGitHubInjection(t *testing.T) {
	evil := "::error file=evil.go,line=1::INJECTED"
	base := tProf(tRoot(evil, tLine("main.go", 10, evil, evil, 100, 200)))
	change := tProf(tRoot(evil, tLine("main.go", 10, evil, evil, 100, 400)))
	d, err := DiffProfiles(base, change, "base.json", "change.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	lim := Limit{Percent: 5, IsPercent: true}
	var b strings.Builder
	if err := d.WriteGitHub(&b, DiffOptions{Limit: &lim}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	token := ""
	for i, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case token != "" && l == "::"+token+"::":
			token = ""
		case token != "":
			// inside the fence: commands are not read
		case strings.HasPrefix(l, "::stop-commands::"):
			token = strings.TrimPrefix(l, "::stop-commands::")
			if !strings.HasPrefix(token, "spgo-") || strings.Contains(b.String(), "::"+token+"::INJECTED") {
				t.Errorf("line %d: token %q", i, token)
			}
		case strings.HasPrefix(l, "::error file=main.go,") || strings.HasPrefix(l, "::error title=spgo MHWM gate::"):
			// spgo's own, with the fields escaped in the message
			if strings.Contains(strings.SplitN(l, "::", 3)[1], "evil.go") {
				t.Errorf("line %d: a property from the profile: %s", i, l)
			}
		case strings.HasPrefix(l, "::"):
			t.Errorf("line %d reads as a workflow command: %s", i, l)
		}
	}
	if token != "" {
		t.Errorf("the stop-commands fence is not closed:\n%s", b.String())
	}
}

// TestDiffUnrelated: two programs' profiles, or two pmax, are compared
// with a warning that says so and at which p.
func TestDiffUnrelated(t *testing.T) {
	l := tLine("main.go", 10, "main.work", "buf := make([]byte, n)", 100, 200)
	base, change := tProf(tRoot("main.main", l)), tProf(tRoot("main.main", l))
	base.Program, change.Program = "app", "other"
	change.PMax = 1
	change.Roots[0].MHWM = change.Roots[0].MHWM[:1]
	d, err := DiffProfiles(base, change, "base.json", "change.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := d.WriteText(&b, DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"spgo diff: warning: the profiles are of two programs (app and other): roots match by name only",
		"spgo diff: warning: the profiles have different pmax (2 and 1): compared at p = 1",
	} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, b.String())
		}
	}
	base.Program, change.Program = "app", "app"
	change.PMax = 2
	change.Roots[0] = tRoot("main.main", l)
	if d, _ := DiffProfiles(base, change, "base.json", "change.json", 0); len(d.Notes) != 0 {
		t.Errorf("notes for one program at one pmax: %q", d.Notes)
	}
}
