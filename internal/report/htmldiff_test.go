package report

import (
	"strings"
	"testing"
)

// TestHTMLDiffNoiseEdited: the diff view lists the lines above the noise
// floor with an edited line's former text, and counts the rest in one
// note, as the text report does.
func TestHTMLDiffNoiseEdited(t *testing.T) {
	cases := map[string]int{}
	for i, c := range diffCases {
		cases[c.name] = i
	}
	for _, tt := range []struct {
		name  string
		rows  int
		texts []string
	}{
		{"noise", 1, []string{"3 line(s) within the noise floor max(32 KiB, 1%), not listed: net -18 KiB"}},
		{"edited", 3, []string{"buf := make([]byte, 2*n)  (edited; was: buf := make([]byte, n))"}},
	} {
		c := diffCases[cases[tt.name]]
		d, err := DiffProfiles(c.base, c.change, "base.json", "change.json", 0)
		if err != nil {
			t.Fatal(err)
		}
		d.SetNoise(c.noise)
		sec := parsePage(t, writeTestHTML(t, c.change, HTMLOptions{Diff: d, Lines: 20})).one(t, "#diff")
		if rows := sec.one(t, "table.dlines").sel("tr"); len(rows) != tt.rows+1 { // and the header
			t.Errorf("%s: %d rows, want %d", tt.name, len(rows), tt.rows)
		}
		for _, w := range tt.texts {
			if !strings.Contains(sec.text(), w) {
				t.Errorf("%s: the diff view lacks %q:\n%s", tt.name, w, sec.text())
			}
		}
	}
}
