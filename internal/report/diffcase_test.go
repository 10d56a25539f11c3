package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// diffCases are diffs of two runs whose three outputs are compared with
// testdata/diff/<name>.golden; check states what each is about, so that
// a golden file rewritten by mistake still fails.
var diffCases = []struct {
	name         string
	base, change *profile.Profile
	noise        Noise
	check        func(t *testing.T, r *RootDiff, out string)
}{
	{
		// Runtime jitter of a few KiB on unchanged lines, and one line
		// that grew for real: only that line is annotated.
		name: "noise",
		base: tProf(tRoot("main.main",
			tLine("main.go", 31, "main.render", "scratch := make([]byte, Scratch)", 2*mib+14*kib, 4*mib+14*kib),
			tLine("main.go", 35, "main.render", "out := make([]byte, Result)", 2*mib, 2*mib),
			tLine("main.go", 47, "main.renderAll", "g.Go(func() error {", 18*kib, 18*kib),
		)),
		change: tProf(tRoot("main.main",
			tLine("main.go", 31, "main.render", "scratch := make([]byte, Scratch)", 2*mib, 4*mib),
			tLine("main.go", 35, "main.render", "out := make([]byte, Result)", 2*mib+10*kib, 4*mib+10*kib),
			tLine("main.go", 45, "main.renderAll", "tiles := make([][]byte, Tiles)", 2*kib, 2*kib),
			tLine("main.go", 47, "main.renderAll", "g.Go(func() error {", 12*kib, 12*kib),
		)),
		noise: DefaultNoise(),
		check: func(t *testing.T, r *RootDiff, out string) {
			if n := strings.Count(out, "::error file="); n != 1 || !strings.Contains(out, "::error file=main.go,line=35,") {
				t.Errorf("want one line annotation, on main.go:35 (%d)", n)
			}
			if l := r.Lines[0]; l.Line != 35 || l.Noise {
				t.Errorf("first line %+v, want main.go:35 above the floor", l)
			}
			if n, net := noiseSummary(r); n != 3 || net != -14*kib+2*kib-6*kib {
				t.Errorf("noise rows %d, net %d", n, net)
			}
		},
	},
	{
		// An edited line (its text changed, and code above it moved it
		// down by 2) is matched to its former self; a line that is new
		// and unlike anything removed is not.
		name: "edited",
		base: tProf(tRoot("main.main",
			tLine("main.go", 10, "main.work", "n := len(in)", 0, 0),
			tLine("main.go", 12, "main.work", "buf := make([]byte, n)", mib, 2*mib),
			tLine("main.go", 20, "main.work", "x := new(T)", 64, 64),
		)),
		change: tProf(tRoot("main.main",
			tLine("main.go", 12, "main.work", "n := len(in)", 0, 0),
			tLine("main.go", 14, "main.work", "buf := make([]byte, 2*n)", 2*mib, 4*mib),
			tLine("main.go", 22, "main.work", "ch := make(chan int)", 96, 96),
		)),
		check: func(t *testing.T, r *RootDiff, out string) {
			l := r.Lines[0]
			if l.BaseLine != 12 || l.Line != 14 || l.BaseText != "buf := make([]byte, n)" || l.Delta() != 2*mib {
				t.Errorf("edited line %+v", l)
			}
			if len(r.Lines) != 3 || r.Lines[1].BaseLine != 0 || r.Lines[2].Line != 0 {
				t.Errorf("want the new and the removed line apart: %+v", r.Lines)
			}
			if !strings.Contains(out, "edited line, was: buf := make([]byte, n)") {
				t.Error("the annotation does not say the line was edited")
			}
		},
	},
	{
		// Two edited lines of one function: each pairs with the most
		// alike of the removed ones, not the nearest.
		name: "edited-two",
		base: tProf(tRoot("main.main",
			tLine("w.go", 5, "main.w", "a := make([]byte, size)", 100, 100),
			tLine("w.go", 6, "main.w", "index := make(map[string]int)", 200, 200),
		)),
		change: tProf(tRoot("main.main",
			tLine("w.go", 5, "main.w", "index := make(map[string]int, n)", 300, 300),
			tLine("w.go", 6, "main.w", "a := make([]byte, size*2)", 400, 400),
		)),
		check: func(t *testing.T, r *RootDiff, out string) {
			for _, l := range r.Lines {
				if !strings.HasPrefix(l.Text, strings.SplitN(l.BaseText, " ", 2)[0]) {
					t.Errorf("%q paired with %q", l.Text, l.BaseText)
				}
			}
		},
	},
	{
		// Increases largest first, then decreases largest first.
		name: "ordering",
		base: tProf(tRoot("main.main",
			tLine("o.go", 1, "main.o", "a := make([]byte, 1)", 100, 100),
			tLine("o.go", 2, "main.o", "b := make([]byte, 2)", 100, 100),
			tLine("o.go", 3, "main.o", "c := make([]byte, 3)", 100, 100),
			tLine("o.go", 4, "main.o", "d := make([]byte, 4)", 100, 100),
			tLine("o.go", 5, "main.o", "e := make([]byte, 5)", 100, 100),
		)),
		change: tProf(tRoot("main.main",
			tLine("o.go", 1, "main.o", "a := make([]byte, 1)", 99, 99),
			tLine("o.go", 2, "main.o", "b := make([]byte, 2)", 110, 110),
			tLine("o.go", 3, "main.o", "c := make([]byte, 3)", 90, 90),
			tLine("o.go", 4, "main.o", "d := make([]byte, 4)", 101, 101),
			tLine("o.go", 5, "main.o", "e := make([]byte, 5)", 100, 100),
		)),
		check: func(t *testing.T, r *RootDiff, out string) {
			var got []string
			for _, l := range r.Lines {
				got = append(got, fmt.Sprintf("%+d", l.Delta()))
			}
			if s := strings.Join(got, " "); s != "+10 +1 -10 -1" {
				t.Errorf("order %s, want +10 +1 -10 -1", s)
			}
		},
	},
}

func TestDiffCases(t *testing.T) {
	lim := Limit{Percent: 5, IsPercent: true}
	for _, tt := range diffCases {
		t.Run(tt.name, func(t *testing.T) {
			d, err := DiffProfiles(tt.base, tt.change, "base.json", "change.json", 0)
			if err != nil {
				t.Fatal(err)
			}
			d.SetNoise(tt.noise)
			checkSums(t, d)
			var b strings.Builder
			o := DiffOptions{Limit: &lim}
			for _, w := range []struct {
				name  string
				write func(*Diff, *strings.Builder, DiffOptions) error
			}{
				{"text", func(d *Diff, b *strings.Builder, o DiffOptions) error { return d.WriteText(b, o) }},
				{"markdown", func(d *Diff, b *strings.Builder, o DiffOptions) error { return d.WriteMarkdown(b, o) }},
				{"github", func(d *Diff, b *strings.Builder, o DiffOptions) error { return d.WriteGitHub(b, o) }},
			} {
				fmt.Fprintf(&b, "== %s\n", w.name)
				if err := w.write(d, &b, o); err != nil {
					t.Fatal(err)
				}
			}
			checkGolden(t, "diff/"+tt.name+".golden", b.String())
			tt.check(t, &d.Roots[0], b.String())
		})
	}
}
