//go:build unix

package report

import (
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlameInBrowser loads the report of the callers example (its helper
// main.buffer called by main.render and main.encode) in headless
// Chromium: the flame graph of the shown p is visible with the callers
// above the helper, it follows #q=, and the screenshot shows its boxes.
func TestFlameInBrowser(t *testing.T) {
	bin := findChromium(t)
	dir := t.TempDir()
	p := readHTMLProfile(t, "callers")
	abs, err := filepath.Abs(filepath.Join("..", "..", "testdata", "examples", "callers"))
	if err != nil {
		t.Fatal(err)
	}
	p.SourceRoot = abs
	file := filepath.Join(dir, "callers.html")
	if err := os.WriteFile(file, []byte(writeTestHTML(t, p, HTMLOptions{})), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + filepath.ToSlash(file)

	// shown returns the flame block the script left visible, and the
	// boxes' titles by name.
	shown := func(t *testing.T, hash string) (q string, boxes map[string]string) {
		dom := string(runChromium(t, bin, url+hash, "--dump-dom"))
		doc, err := parseTestHTML(dom)
		if err != nil {
			t.Fatalf("DOM dump does not parse: %v", err)
		}
		if doc.one(t, "body").Attr["data-flame"] != "1" {
			t.Fatal("the flame graph's script did not finish")
		}
		var vis []*htmlNode
		for _, b := range doc.one(t, "#root-0").sel("div.flameq") {
			if _, hidden := b.Attr["hidden"]; !hidden {
				vis = append(vis, b)
			}
		}
		if len(vis) != 1 {
			t.Fatalf("%d flame blocks visible, want 1", len(vis))
		}
		boxes = map[string]string{}
		for _, g := range vis[0].sel("g.fnode") {
			boxes[g.Attr["data-name"]+" @"+g.Attr["data-y"]] = g.one(t, "title").text()
		}
		if got := doc.one(t, "div.flame").one(t, "span.qlabel").text(); got != vis[0].Attr["data-q"] {
			t.Errorf("the heading says p = %s, the block shown is p = %s", got, vis[0].Attr["data-q"])
		}
		return vis[0].Attr["data-q"], boxes
	}

	t.Run("dom", func(t *testing.T) {
		t.Parallel()
		q, boxes := shown(t, "")
		if q != "64" {
			t.Errorf("flame graph at p = %s, want the default 64", q)
		}
		for name, want := range map[string]string{
			"root main.main @0":          "5.5 MiB",
			"main.render @40":            "main.render: 4 MiB,",
			"main.encode @40":            "main.encode: 1.5 MiB,",
			"main.buffer main.go:36 @60": "",
		} {
			title, ok := boxes[name]
			if !ok {
				t.Errorf("no box %q among %v", name, boxes)
			} else if !strings.Contains(title, want) {
				t.Errorf("box %q: title %q lacks %q", name, title, want)
			}
		}
	})

	t.Run("dom-q1", func(t *testing.T) {
		t.Parallel()
		q, boxes := shown(t, "#q=1")
		if q != "1" {
			t.Fatalf("flame graph at p = %s, want 1", q)
		}
		// At p = 1 the worst case is encode's two chunks: no frame of
		// render is live.
		if _, ok := boxes["main.render @40"]; ok {
			t.Errorf("main.render in the worst case at p = 1: %v", boxes)
		}
		if title := boxes["main.encode @40"]; !strings.Contains(title, "1.5 MiB") {
			t.Errorf("main.encode at p = 1: %q, want 1.5 MiB", title)
		}
	})

	t.Run("screenshot", func(t *testing.T) {
		t.Parallel()
		img := screenshot(t, bin, url, filepath.Join(dir, "flame.png"), "1200,2200")
		counts := map[color.RGBA]int{}
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
			}
		}
		// The allocating lines' boxes: two, together the page's width
		// less the margins, one row high.
		if n := counts[hexColor(t, flameLeaf)]; n < 5000 {
			t.Errorf("the allocating lines' colour %s covers %d pixels, want the flame graph's bottom row", flameLeaf, n)
		}
		callers := 0
		for _, c := range flameColors {
			callers += counts[hexColor(t, c)]
		}
		if callers < 15000 {
			t.Errorf("the callers' colours cover %d pixels, want three rows of boxes", callers)
		}
	})
}
