package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// TestFlameBlock lays out the icicle of withPaths's main.main: callers
// at the top, allocating lines at the bottom, widths the paths' shares,
// siblings by name.
func TestFlameBlock(t *testing.T) {
	type box struct {
		name    string
		x, y, w float64
		leaf    bool
	}
	tests := []struct {
		name   string
		q      int
		change func(r *profile.Root)
		want   []box
		total  string
		left   string
	}{
		{"q=4", 4, nil, []box{
			{"root main.main", 0, 0, 1200, false},
			{"main.main", 0, 20, 300, false},
			{"main.encode", 0, 40, 300, false},
			{"main.work main.go:10", 0, 60, 300, true},
			{"main.main main.go:20", 300, 20, 300, true},
			{"main.render", 600, 20, 600, false},
			{"main.work main.go:10", 600, 40, 600, true},
		}, "2.3 KiB", ""},
		{"q=1: render's path has no share", 1, nil, []box{
			{"root main.main", 0, 0, 1200, false},
			{"main.main", 0, 20, 720, false},
			{"main.encode", 0, 40, 720, false},
			{"main.work main.go:10", 0, 60, 720, true},
			{"main.main main.go:20", 720, 20, 480, true},
		}, "1000 B", ""},
		{"a negative share is left out", 4, func(r *profile.Root) {
			r.Paths[0].MHWMBytes["4"] = -100
			r.Paths[1].MHWMBytes["4"] = 1900
		}, []box{
			{"root main.main", 0, 0, 1200, false},
			{"main.main main.go:20", 0, 20, 288, true},
			{"main.render", 288, 20, 912, false},
			{"main.work main.go:10", 288, 40, 912, true},
		}, "2.4 KiB", "100 B of negative shares (frees) not drawn"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := withPaths("")
			r := &p.Roots[0]
			if tc.change != nil {
				tc.change(r)
			}
			b := newFlameBlock(r, tc.q, false)
			var got []string
			for _, n := range b.Nodes {
				got = append(got, fmt.Sprintf("%s %.0f %.0f %.0f %v", n.Name, n.X, n.Y, n.W, n.Leaf))
			}
			var want []string
			for _, w := range tc.want {
				want = append(want, fmt.Sprintf("%s %.0f %.0f %.0f %v", w.name, w.x, w.y, w.w, w.leaf))
			}
			if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
				t.Errorf("boxes:\n%s\nwant:\n%s", g, w)
			}
			if b.Total != tc.total || b.Left != tc.left {
				t.Errorf("total %q, left %q; want %q, %q", b.Total, b.Left, tc.total, tc.left)
			}
			if depth := 0; len(b.Nodes) > 0 {
				for _, n := range b.Nodes {
					depth = max(depth, int(n.Y)/flameRow+1)
				}
				if b.H != depth*flameRow {
					t.Errorf("height %d for %d rows", b.H, depth)
				}
			}
		})
	}
}

// TestFlameLabels: a box's label is its name cut to its width, none when
// too narrow; colours are the leaf's or a caller's.
func TestFlameLabels(t *testing.T) {
	p := withPaths("")
	r := &p.Roots[0]
	r.Paths[0].MHWMBytes["4"] = 4 // main.encode's path: a sliver
	r.Paths[1].MHWMBytes["4"] = 1796
	b := newFlameBlock(r, 4, false)
	for _, n := range b.Nodes {
		switch {
		case n.W < 30 && n.Label != "":
			t.Errorf("%s, %.1f wide, labelled %q", n.Name, n.W, n.Label)
		case n.W > 400 && n.Label != n.Name:
			t.Errorf("%s, %.1f wide, labelled %q", n.Name, n.W, n.Label)
		case n.Leaf != (n.Color == flameLeaf):
			t.Errorf("%s: leaf %v, colour %s", n.Name, n.Leaf, n.Color)
		}
	}
	if got := cut("main.(*Renderer).drawTile", 10); got != "main.(*Re…" {
		t.Errorf("cut = %q", got)
	}
}

// TestFlameNone: a root without paths (a profile of an older spgo) has
// no flame graph; the page of one with paths has one block per q, the
// default shown.
func TestFlameNone(t *testing.T) {
	p := pprofTestProfile("")
	if f := newHTMLFlame(&p.Roots[0], []htmlQ{{Q: 4}}, 4); f != nil {
		t.Errorf("flame graph of a root without paths: %+v", f)
	}
	page := writeTestHTML(t, withPaths(""), HTMLOptions{})
	doc, err := parseTestHTML(page)
	if err != nil {
		t.Fatal(err)
	}
	blocks := doc.one(t, "#root-0").sel("div.flameq")
	var shown []string
	for _, b := range blocks {
		if _, hidden := b.Attr["hidden"]; !hidden {
			shown = append(shown, b.Attr["data-q"])
		}
	}
	if len(blocks) != 3 || strings.Join(shown, ",") != "4" {
		t.Errorf("%d flame blocks, shown %v; want 3 (q = 1, 2, 4), q = 4 shown", len(blocks), shown)
	}
	if len(doc.sel("div.flameq")) != 3 {
		t.Errorf("flame blocks in other roots (without paths)")
	}
}
