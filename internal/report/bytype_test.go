package report

import (
	"strconv"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// typesWant is the analytic split of testdata/examples/types (its
// main.go's comment) at p: each type's share of MHWM_p.
func typesWant(p int64) map[string]int64 {
	n := min(p, 4)
	return map[string]int64{"[]byte": n << 20, "[]int64": n * 512 << 10, "*main.block": n * 256 << 10, "string": 4 * 128 << 10}
}

// TestByType checks ByType on the profile of testdata/examples/types:
// the shares sum to MHWM_q exactly, and each of the four types holds its
// analytic share within 3 % + 16 KiB.
func TestByType(t *testing.T) {
	p := readHTMLProfile(t, "types")
	r := &p.Roots[0]
	if !HasTypes(r) {
		t.Fatal("HasTypes is false for a profile with types")
	}
	for _, q := range []int{1, 2, 4, 64} {
		ts := ByType(r, q)
		var sum int64
		got := map[string]int64{}
		for _, s := range ts {
			sum += s.Bytes
			got[s.Type] = s.Bytes
		}
		if want, _ := r.MHWMAt(q); sum != want {
			t.Errorf("q=%d: shares sum to %d, MHWM_%d is %d", q, sum, q, want)
		}
		for name, want := range typesWant(int64(q)) {
			if g := got[name]; g < want || g > want+want*3/100+16<<10 {
				t.Errorf("q=%d: %s holds %d, want %d (+3%% + 16 KiB)", q, name, g, want)
			}
		}
		if ts[0].Type != "[]byte" {
			t.Errorf("q=%d: largest type %q, want []byte", q, ts[0].Type)
		}
	}
	if HasTypes(&readHTMLProfile(t, "tiles").Roots[0]) {
		t.Error("HasTypes is true for a profile written before types")
	}
}

// TestTextByType is show -by type: the golden files
// testdata/text/bytype*.golden, and the message for a profile without
// types.
func TestTextByType(t *testing.T) {
	tests := []struct {
		golden string
		o      Options
	}{
		{"bytype.golden", Options{By: "type", Ps: []int{1, 4}, Lines: 10}},
		{"bytype-q1.golden", Options{By: "type", Ps: []int{1}, Q: 1, Lines: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var b strings.Builder
			if err := Text(&b, readHTMLProfile(t, "types"), tt.o); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "text/"+tt.golden, b.String())
		})
	}
	var b strings.Builder
	if err := Text(&b, readHTMLProfile(t, "tiles"), Options{By: "type", Lines: 3}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "no figures by type") {
		t.Errorf("a profile without types:\n%s", b.String())
	}
}

// TestPprofByType reads back the pprof profile of -by type with
// github.com/google/pprof/profile: every sample has a "type" label, the
// root's samples of each type sum to its share, and a line of two
// types gives two samples.
func TestPprofByType(t *testing.T) {
	p := readHTMLProfile(t, "types")
	prof := writeParse(t, p, PprofOptions{By: "type", Qs: []int{1, 4}})
	if got := sampleTypes(prof); got != "mhwm_1/bytes mhwm_4/bytes alloc_space/bytes alloc_objects/count" {
		t.Fatalf("sample types %s", got)
	}
	for qi, q := range []int{1, 4} {
		byLabel := map[string]int64{}
		for _, s := range prof.Sample {
			ls := s.Label["type"]
			if len(ls) != 1 {
				t.Fatalf("sample %v: type labels %q", s.Location[0].Line, ls)
			}
			byLabel[ls[0]] += s.Value[qi]
		}
		for _, ts := range ByType(&p.Roots[0], q) {
			if byLabel[ts.Type] != ts.Bytes {
				t.Errorf("mhwm_%d of type %s: samples sum to %d, ByType says %d", q, ts.Type, byLabel[ts.Type], ts.Bytes)
			}
		}
	}
	plain := writeParse(t, p, PprofOptions{Qs: []int{1, 4}})
	for _, s := range plain.Sample {
		if _, ok := s.Label["type"]; ok {
			t.Fatal("a type label without -by type")
		}
	}

	// A line of two types: two samples, same location.
	two := &profile.Profile{Schema: profile.Schema, PMax: 1, Roots: []profile.Root{{
		Name: "main.main", Exact: true, MHWM: []profile.Point{{P: 1, Bytes: 300}}, Attributed: []int{1},
		Lines: []profile.Line{{File: "main.go", Line: 7, Func: "main.main", AllocBytes: 300, Allocs: 2,
			MHWMBytes: map[string]int64{"1": 300},
			Types: []profile.LineType{
				{Type: "[]byte", AllocBytes: 100, Allocs: 1, MHWMBytes: map[string]int64{"1": 100}},
				{Type: "string", AllocBytes: 200, Allocs: 1, MHWMBytes: map[string]int64{"1": 200}},
			}}},
	}}}
	prof = writeParse(t, two, PprofOptions{By: "type"})
	var got []string
	for _, s := range prof.Sample {
		got = append(got, s.Label["type"][0]+"="+strconv.FormatInt(s.Value[0], 10)+"@"+strconv.FormatInt(s.Location[0].Line[0].Line, 10))
	}
	if strings.Join(got, " ") != "[]byte=100@7 string=200@7" {
		t.Errorf("samples %q", got)
	}
}

// TestHTMLByType is html -by type: the table of types and the heap bands
// by type.
func TestHTMLByType(t *testing.T) {
	p := readHTMLProfile(t, "types")
	page := writeTestHTML(t, p, HTMLOptions{By: "type", Q: 4})
	doc := parsePage(t, page)
	sec := doc.one(t, "#root-0")
	rows := sec.one(t, "tbody.typerows").sel("tr")
	if len(rows) < 4 {
		t.Fatalf("%d rows of types", len(rows))
	}
	for i, want := range []string{"[]byte", "[]int64", "*main.block", "string"} {
		if !strings.HasPrefix(rows[i].text(), want) {
			t.Errorf("type row %d %q, want %s first", i, rows[i].text(), want)
		}
	}
	if !strings.Contains(rows[0].text(), "4 MiB") {
		t.Errorf("[]byte row %q lacks its 4 MiB", rows[0].text())
	}
	legend := sec.one(t, "ol.bandlegend").text()
	for _, want := range []string{"[]byte", "*main.block", "string"} {
		if !strings.Contains(legend, want) {
			t.Errorf("band legend %q lacks %s", legend, want)
		}
	}
	if strings.Contains(legend, "main.go:") {
		t.Errorf("bands by line with -by type: %q", legend)
	}
	if !strings.Contains(sec.one(t, "div.heap").text(), "Live bytes by type") {
		t.Error("the heap chart's caption does not say by type")
	}
	// By line: no table of types.
	plain := parsePage(t, writeTestHTML(t, p, HTMLOptions{}))
	if n := len(plain.sel("tbody.typerows")); n != 0 {
		t.Errorf("%d tables of types without -by type", n)
	}
}
