package report

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// noSource is an HTMLOptions.Source that finds no file.
func noSource(string) ([]byte, error) { return nil, os.ErrNotExist }

// visibleSimP returns the p of the one simulated block not hidden.
func visibleSimP(t *testing.T, sec *htmlNode) string {
	t.Helper()
	var shown []string
	for _, b := range sec.sel("div.simp") {
		if _, hidden := b.Attr["hidden"]; !hidden {
			shown = append(shown, b.Attr["data-p"])
		}
	}
	if len(shown) != 1 {
		t.Fatalf("simulated blocks shown: %v, want one", shown)
	}
	return shown[0]
}

func attrFloat(t *testing.T, n *htmlNode, name string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(n.Attr[name], 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", n.Tag, name, n.Attr[name], err)
	}
	return f
}

// TestHTMLSimulated checks the simulated-schedules card: the table of
// peaks beside MHWM_p with its marks and notes, a block per simulated p
// (the per-line view's p shown), the chart's curves against the MHWM_p
// line, and the lines at the ws peak.
func TestHTMLSimulated(t *testing.T) {
	p := simProfile()
	page := writeTestHTML(t, p, HTMLOptions{Lines: 2, Source: noSource})
	if again := writeTestHTML(t, p, HTMLOptions{Lines: 2, Source: noSource}); again != page {
		t.Error("two pages of one profile differ")
	}
	doc := parsePage(t, page)
	sec := doc.one(t, "#root-0")
	card := sec.one(t, "div.sim")
	if h := card.one(t, "h3").text(); !strings.Contains(h, "Simulated schedules") || !strings.Contains(h, "simulated") {
		t.Errorf("heading %q", h)
	}
	if head := card.one(t, "p.legend").text(); !strings.Contains(head, "strand durations measured, figures may vary from run to run") {
		t.Errorf("card does not say the figures are simulated and vary: %q", head)
	}

	// The table: a row per p, MHWM_p then df, bf, ws, go.
	table := card.one(t, "table.simtable")
	var head []string
	for _, th := range table.sel("th") {
		head = append(head, th.text())
	}
	if got := strings.Join(head, " "); got != "p MHWMp df bf ws go" {
		t.Errorf("table head %q", got)
	}
	rows := table.one(t, "tbody").sel("tr")
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4 (p = 1, 2, 4, 8)", len(rows))
	}
	cells := rows[3].sel("td")
	for i, want := range []string{"8", "12 MiB", "12 MiB", "20 MiB*", "11 MiB (8.5–11 MiB)", "13 MiB* (12–13 MiB)"} {
		if got := cells[i].text(); got != want {
			t.Errorf("p = 8 cell %d: %q, want %q", i, got, want)
		}
	}
	var over []string
	for _, td := range table.sel("td.over") {
		over = append(over, td.Parent.Attr["data-p"]+":"+td.text())
	}
	if got := strings.Join(over, " "); got != "2:7.5 MiB* 4:10.5 MiB* 4:14 MiB* 8:20 MiB* 8:13 MiB* (12–13 MiB)" {
		t.Errorf("marked cells %q", got)
	}
	if tip := cells[4].Attr["title"]; !strings.Contains(tip, "seed 2 of 5") || !strings.Contains(tip, "median 9.8 MiB") {
		t.Errorf("ws cell title %q", tip)
	}
	notes := card.text()
	for _, want := range []string{
		"Seeded policies (ws, go): the largest peak over 5 seeds",
		"The graph has 3 synchronisation edges that are not series-parallel",
		"Above MHWM_p (df, bf, go)",
		"Recorded graph: 40 strands in 9 tasks, 60 dependencies (3 not series-parallel); strand durations: wall_ns.",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("card lacks %q", want)
		}
	}

	// A block per p, the per-line view's (8) shown.
	if n := len(card.sel("div.simp")); n != 4 {
		t.Errorf("%d simulated blocks, want 4", n)
	}
	if got := visibleSimP(t, sec); got != "8" {
		t.Errorf("simulated block shown for p = %s, want 8", got)
	}
	var block *htmlNode
	for _, b := range card.sel("div.simp") {
		if b.Attr["data-p"] == "8" {
			block = b
		}
	}

	// The chart: a curve and a peak per policy, MHWM_8 for reference;
	// bf (20 MiB) above it, ws (11 MiB) below it.
	chart := block.one(t, "svg.simchart")
	if !strings.Contains(chart.Attr["aria-label"], "simulated") || !strings.Contains(chart.one(t, "text.simmark").text(), "simulated") {
		t.Error("chart not labelled as simulated")
	}
	if n := len(chart.sel("path.simcurve")); n != 4 || chart.Attr["data-series"] != "4" {
		t.Errorf("%d curves, want 4", n)
	}
	ref := chart.one(t, "g.mhwmref")
	if got := ref.one(t, "text").text(); got != "MHWM_8 = 12 MiB (bound)" {
		t.Errorf("reference label %q", got)
	}
	refY := attrFloat(t, ref.one(t, "line"), "y1")
	peakY := map[string]float64{}
	for _, g := range chart.sel("g.simseries") {
		peakY[g.Attr["data-policy"]] = attrFloat(t, g.one(t, "circle.simpeak"), "cy")
		d := g.one(t, "path.simcurve").Attr["d"]
		if !strings.HasPrefix(d, "M78 ") || !strings.Contains(d, "H") || !strings.Contains(d, "V") {
			t.Errorf("%s curve %q: not steps from x = 0", g.Attr["data-policy"], d)
		}
	}
	if !(peakY["bf"] < refY && refY < peakY["ws"]) {
		t.Errorf("bf peak at y %g, MHWM_8 at %g, ws peak at %g: want bf above the line, ws below", peakY["bf"], refY, peakY["ws"])
	}
	if legend := block.one(t, "ol.simlegend").text(); !strings.Contains(legend, "ws (work stealing)peak 11 MiB") {
		t.Errorf("legend %q", legend)
	}

	// The lines at the ws peak, Lines of them.
	lines := block.one(t, "table.simlines").one(t, "tbody").sel("tr")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2", len(lines))
	}
	if got := lines[0].text(); !strings.Contains(got, "main.go:31") || !strings.Contains(got, "main.render") || !strings.Contains(got, "8.2 MiB") || !strings.Contains(got, "75.0%") || !strings.Contains(got, "scratch := make") {
		t.Errorf("first line %q", got)
	}
	if more := block.one(t, "p.more").text(); more != "… 1 more lines" {
		t.Errorf("more %q", more)
	}
	if h := block.sel("h4")[1].text(); !strings.Contains(h, "11 MiB at 1.5 ms of 5.6 ms, seed 2 of 5") {
		t.Errorf("lines heading %q", h)
	}
}

// TestHTMLSimulatedChoice checks which simulated p a page shows, and
// the cards of roots without MHWM figures or without simulations.
func TestHTMLSimulatedChoice(t *testing.T) {
	tests := []struct {
		name string
		p    *profile.Profile
		q    int
		want string // the p shown; "" for no card
	}{
		{"q 4", simProfile(), 4, "4"},
		{"q 3 shows 2", simProfile(), 3, "2"},
		{"q 1", simProfile(), 1, "1"},
		{"threshold mode: the largest", simThresholdProfile(), 0, "4"},
		{"not simulated", func() *profile.Profile {
			p := simProfile()
			p.Roots[0].Simulated = nil
			return p
		}(), 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parsePage(t, writeTestHTML(t, tt.p, HTMLOptions{Q: tt.q, Source: noSource}))
			sec := doc.one(t, "#root-0")
			if tt.want == "" {
				if len(sec.sel("div.sim")) != 0 {
					t.Error("a simulated card for a root not simulated")
				}
				return
			}
			if got := visibleSimP(t, sec); got != tt.want {
				t.Errorf("simulated block shown for p = %s, want %s", got, tt.want)
			}
			if len(sec.sel("div.sim")[0].sel("svg.simchart")) != len(sec.sel("div.simp")) {
				t.Error("a block without its chart")
			}
		})
	}
	// Without MHWM figures: no reference line, no marks, "–" for MHWM_p.
	sec := parsePage(t, writeTestHTML(t, simThresholdProfile(), HTMLOptions{Source: noSource})).one(t, "#root-0")
	if len(sec.sel("g.mhwmref")) != 0 || len(sec.sel("td.over")) != 0 {
		t.Error("threshold-mode root has a MHWM line or marks")
	}
	if got := sec.one(t, "table.simtable").sel("td.mhwm")[0].text(); got != "–" {
		t.Errorf("MHWM_p without figures: %q", got)
	}
}

// TestHTMLSimulatedEscapes: a simulated line's file name stays text.
func TestHTMLSimulatedEscapes(t *testing.T) {
	p := simProfile()
	for i := range p.Roots[0].Simulated {
		if s := &p.Roots[0].Simulated[i]; s.Policy == "ws" {
			s.Lines[2].File, s.Lines[2].Line = hostile, 1
		}
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	page := writeTestHTML(t, p, HTMLOptions{Source: noSource})
	doc := parsePage(t, page)
	if len(doc.sel("img")) != 0 || strings.Contains(page, "<img src=x") {
		t.Error("hostile file name became markup")
	}
	if !strings.Contains(doc.one(t, "#root-0").one(t, "div.sim").text(), hostile+":1") {
		t.Error("hostile file name lost its text")
	}
}
