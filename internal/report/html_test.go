package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	stdhtml "html"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spgo/spgo/rtlib/profile"
)

// A tiny HTML parser for the tests: tags must nest (the report closes
// every element it opens, as does a browser's serialised DOM); script,
// style, title and textarea hold raw text.

type htmlNode struct {
	Tag    string // "" for text
	Attr   map[string]string
	Text   string
	Kids   []*htmlNode
	Parent *htmlNode
}

var htmlVoid = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

var htmlRaw = map[string]bool{"script": true, "style": true, "title": true, "textarea": true}

func parseTestHTML(s string) (*htmlNode, error) {
	root := &htmlNode{Tag: "#document", Attr: map[string]string{}}
	cur := root
	line := func(i int) int { return 1 + strings.Count(s[:i], "\n") }
	addText := func(t string, raw bool) {
		if t == "" {
			return
		}
		if !raw {
			t = stdhtml.UnescapeString(t)
		}
		cur.Kids = append(cur.Kids, &htmlNode{Text: t, Parent: cur})
	}
	i := 0
	for i < len(s) {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			addText(s[i:], false)
			break
		}
		addText(s[i:i+j], false)
		i += j
		switch {
		case strings.HasPrefix(s[i:], "<!--"):
			k := strings.Index(s[i:], "-->")
			if k < 0 {
				return nil, fmt.Errorf("line %d: unterminated comment", line(i))
			}
			i += k + 3
		case strings.HasPrefix(s[i:], "<!"):
			k := strings.IndexByte(s[i:], '>')
			if k < 0 {
				return nil, fmt.Errorf("line %d: unterminated <!", line(i))
			}
			i += k + 1
		case strings.HasPrefix(s[i:], "</"):
			k := strings.IndexByte(s[i:], '>')
			if k < 0 {
				return nil, fmt.Errorf("line %d: unterminated end tag", line(i))
			}
			name := strings.ToLower(strings.TrimSpace(s[i+2 : i+k]))
			if cur.Tag != name {
				return nil, fmt.Errorf("line %d: </%s> closes <%s>", line(i), name, cur.Tag)
			}
			cur = cur.Parent
			i += k + 1
		default:
			n := &htmlNode{Attr: map[string]string{}, Parent: cur}
			k := i + 1
			for k < len(s) && !strings.ContainsRune(" \t\n\r/>", rune(s[k])) {
				k++
			}
			n.Tag = strings.ToLower(s[i+1 : k])
			if n.Tag == "" {
				return nil, fmt.Errorf("line %d: bare <", line(i))
			}
			selfClose := false
			for {
				for k < len(s) && strings.ContainsRune(" \t\n\r", rune(s[k])) {
					k++
				}
				if k >= len(s) {
					return nil, fmt.Errorf("line %d: unterminated <%s", line(i), n.Tag)
				}
				if s[k] == '>' {
					k++
					break
				}
				if strings.HasPrefix(s[k:], "/>") {
					selfClose = true
					k += 2
					break
				}
				a := k
				for k < len(s) && !strings.ContainsRune(" \t\n\r=/>", rune(s[k])) {
					k++
				}
				name := strings.ToLower(s[a:k])
				if name == "" {
					return nil, fmt.Errorf("line %d: bad attribute in <%s", line(i), n.Tag)
				}
				val := ""
				if k < len(s) && s[k] == '=' {
					k++
					if k < len(s) && (s[k] == '"' || s[k] == '\'') {
						q := s[k]
						e := strings.IndexByte(s[k+1:], q)
						if e < 0 {
							return nil, fmt.Errorf("line %d: unterminated attribute %s", line(i), name)
						}
						val = s[k+1 : k+1+e]
						k += e + 2
					} else {
						a := k
						for k < len(s) && !strings.ContainsRune(" \t\n\r>", rune(s[k])) {
							k++
						}
						val = s[a:k]
					}
				}
				if _, dup := n.Attr[name]; dup {
					return nil, fmt.Errorf("line %d: duplicate attribute %s in <%s>", line(i), name, n.Tag)
				}
				n.Attr[name] = stdhtml.UnescapeString(val)
			}
			cur.Kids = append(cur.Kids, n)
			i = k
			if selfClose || htmlVoid[n.Tag] {
				continue
			}
			if htmlRaw[n.Tag] {
				e := strings.Index(s[i:], "</"+n.Tag)
				if e < 0 {
					return nil, fmt.Errorf("line %d: unterminated <%s>", line(i), n.Tag)
				}
				cur = n
				addText(s[i:i+e], n.Tag == "script" || n.Tag == "style")
				cur = n.Parent
				k := strings.IndexByte(s[i+e:], '>')
				i += e + k + 1
				continue
			}
			cur = n
		}
	}
	if cur != root {
		return nil, fmt.Errorf("<%s> not closed", cur.Tag)
	}
	return root, nil
}

func (n *htmlNode) hasClass(c string) bool {
	return slicesContains(strings.Fields(n.Attr["class"]), c)
}

func slicesContains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// find returns the elements under n (n included) that match.
func (n *htmlNode) find(match func(*htmlNode) bool) []*htmlNode {
	var out []*htmlNode
	var walk func(*htmlNode)
	walk = func(m *htmlNode) {
		if m.Tag != "" && match(m) {
			out = append(out, m)
		}
		for _, k := range m.Kids {
			walk(k)
		}
	}
	walk(n)
	return out
}

// sel finds elements by "tag", ".class", "tag.class" or "#id".
func (n *htmlNode) sel(q string) []*htmlNode {
	tag, class, id := q, "", ""
	if t, c, ok := strings.Cut(q, "."); ok {
		tag, class = t, c
	}
	if strings.HasPrefix(q, "#") {
		tag, id = "", q[1:]
	}
	return n.find(func(m *htmlNode) bool {
		return (tag == "" || m.Tag == tag) && (class == "" || m.hasClass(class)) && (id == "" || m.Attr["id"] == id)
	})
}

func (n *htmlNode) one(t *testing.T, q string) *htmlNode {
	t.Helper()
	ns := n.sel(q)
	if len(ns) != 1 {
		t.Fatalf("%d elements %q, want 1", len(ns), q)
	}
	return ns[0]
}

func (n *htmlNode) text() string {
	var b strings.Builder
	var walk func(*htmlNode)
	walk = func(m *htmlNode) {
		if m.Tag == "" {
			b.WriteString(m.Text)
		}
		for _, k := range m.Kids {
			walk(k)
		}
	}
	walk(n)
	return b.String()
}

// checkSelfContained fails if the page refers to anything outside it.
func checkSelfContained(t *testing.T, page string, doc *htmlNode) {
	t.Helper()
	for _, n := range doc.find(func(*htmlNode) bool { return true }) {
		switch n.Tag {
		case "link", "img", "iframe", "object", "embed", "image", "use", "audio", "video", "source", "base", "form":
			t.Errorf("page has a <%s> element", n.Tag)
		}
		for k, v := range n.Attr {
			if (k == "src" || k == "href" || k == "xlink:href" || k == "action" || k == "poster" || k == "srcset" || k == "data") && !strings.HasPrefix(v, "#") {
				t.Errorf("<%s %s=%q>: a reference outside the page", n.Tag, k, v)
			}
			if strings.HasPrefix(k, "on") {
				t.Errorf("<%s %s>: inline event handler", n.Tag, k)
			}
		}
		if n.Tag == "script" && n.Attr["src"] != "" {
			t.Errorf("script with src")
		}
	}
	low := strings.ToLower(page)
	for _, bad := range []string{"http://", "https://", "@import", "url(", "//cdn", "fetch(", "xmlhttprequest"} {
		if strings.Contains(low, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}

func readHTMLProfile(t testing.TB, name string) *profile.Profile {
	t.Helper()
	p, err := profile.ReadFile(filepath.Join("testdata", "html", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func writeTestHTML(t testing.TB, p *profile.Profile, o HTMLOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, p, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func parsePage(t *testing.T, page string) *htmlNode {
	t.Helper()
	doc, err := parseTestHTML(page)
	if err != nil {
		t.Fatalf("page does not parse: %v", err)
	}
	checkSelfContained(t, page, doc)
	if ns := doc.sel("html"); len(ns) != 1 || len(doc.sel("body")) != 1 || len(doc.sel("head")) != 1 {
		t.Fatal("page lacks html, head or body")
	}
	return doc
}

// pageData returns the script's JSON data.
func pageData(t *testing.T, doc *htmlNode) htmlData {
	t.Helper()
	var d htmlData
	if err := json.Unmarshal([]byte(doc.one(t, "#spgo-data").text()), &d); err != nil {
		t.Fatalf("data block: %v", err)
	}
	return d
}

// tilesDiff compares tileslimit (base) with tiles (change): lines grow
// and lines shrink.
func tilesDiff(t testing.TB) *Diff {
	d, err := DiffProfiles(readHTMLProfile(t, "tileslimit"), readHTMLProfile(t, "tiles"), "tileslimit.json", "tiles.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestHTMLRealProfile(t *testing.T) {
	p := readHTMLProfile(t, "tiles")
	d := tilesDiff(t)
	page := writeTestHTML(t, p, HTMLOptions{Title: "-pmax 64", Diff: d, SourceDir: p.SourceRoot})
	doc := parsePage(t, page)
	if again := writeTestHTML(t, p, HTMLOptions{Title: "-pmax 64", Diff: d, SourceDir: p.SourceRoot}); again != page {
		t.Error("two pages of one profile differ")
	}
	if title := doc.one(t, "head").one(t, "title").text(); title != "spgo: tiles -pmax 64" {
		t.Errorf("title %q", title)
	}
	r := &p.Roots[0]
	sec := doc.one(t, "#root-0")
	if !strings.Contains(sec.one(t, "summary").text(), "main.main") || len(sec.sel("span.ok")) == 0 {
		t.Errorf("root header: %q", sec.one(t, "summary").text())
	}
	// The MHWM table: p = 1, 2, 4, …, 64 and the serial peak.
	rows := sec.one(t, "table.mhwm").sel("tr")
	if len(rows) != 1+7+1 {
		t.Errorf("MHWM table has %d rows, want 9", len(rows))
	}
	if got := rows[4].sel("td"); got[0].text() != "8" || got[1].text() != "18 MiB" || got[2].text() != "4.46×" {
		t.Errorf("p=8 row %q", rows[4].text())
	}
	if got := rows[8].text(); !strings.Contains(got, "serial peak") || !strings.Contains(got, Bytes(r.SerialPeak)) {
		t.Errorf("serial row %q", got)
	}
	// The chart: a point per p with a tooltip, the serial reference.
	chart := sec.one(t, "svg.mhwmchart")
	pts := chart.sel("circle.pt")
	if len(pts) != 64 || chart.Attr["data-points"] != "64" {
		t.Errorf("%d points, want 64", len(pts))
	}
	if tip := pts[3].one(t, "title").text(); tip != "p = 4: MHWM 10 MiB (2.48× the serial peak)" {
		t.Errorf("tooltip %q", tip)
	}
	if !strings.Contains(chart.one(t, "g.serialref").text(), "serial peak 4 MiB") {
		t.Error("no serial peak line")
	}
	if ticks := chart.one(t, "g.yticks").text(); !strings.Contains(ticks, "32 MiB") {
		t.Errorf("y ticks %q", ticks)
	}
	// The per-line bars at pmax, largest first, and the q switch.
	bars := sec.one(t, "tbody.barrows").sel("tr")
	if len(bars) != 3 {
		t.Fatalf("%d bars, want 3", len(bars))
	}
	if got := bars[0].text(); !strings.Contains(got, "main.go:31") || !strings.Contains(got, "32 MiB") || !strings.Contains(got, "94.0%") || !strings.Contains(got, "scratch := make([]byte, Scratch)") {
		t.Errorf("first bar %q", got)
	}
	if len(bars[0].sel("span.seg")) != 3 {
		t.Error("bar not split three ways")
	}
	sel := sec.one(t, "select.qsel")
	if opts := sel.sel("option"); len(opts) != len(r.Attributed) {
		t.Errorf("%d q options, want %d", len(opts), len(r.Attributed))
	}
	if _, dis := sel.Attr["disabled"]; !dis {
		t.Error("the q switch works without the script")
	}
	// The heap bands.
	band := sec.one(t, "svg.bandchart")
	if n := len(band.sel("path.band")); n != 3 || band.Attr["data-bands"] != "3" {
		t.Errorf("%d bands, want 3 (two lines and other)", n)
	}
	legend := sec.one(t, "ol.bandlegend").sel("li")
	if len(legend) != 3 || !legend[0].hasClass("other") || !strings.Contains(legend[0].text(), "other (4 lines)") {
		t.Errorf("legend %q", sec.one(t, "ol.bandlegend").text())
	}
	head := sec.one(t, "p.hptitle").text()
	for _, want := range []string{"tiles", "-pmax 64", "120.2 KiB·s (wall clock)", "2026-11-21 10:29:02 UTC"} {
		if !strings.Contains(head, want) {
			t.Errorf("heap title %q lacks %q", head, want)
		}
	}
	// The annotated source, read from the source root, runs collapsed.
	src := sec.one(t, "table.src")
	var hot *htmlNode
	for _, tr := range src.sel("tr") {
		if tds := tr.sel("td"); len(tds) > 0 && tds[0].text() == "31" {
			hot = tr
		}
	}
	if hot == nil || !hot.hasClass("h9") || !strings.Contains(hot.text(), "32 MiB") {
		t.Errorf("line 31 not annotated as the hottest")
	}
	if n := len(src.sel("tr.gap")); n < 2 {
		t.Errorf("%d collapsed runs", n)
	}
	if !strings.Contains(src.text(), "func render(t int) []byte {") {
		t.Error("source context missing")
	}
	// The diff.
	diff := doc.one(t, "#diff")
	if !strings.Contains(diff.text(), "tileslimit.json → tiles.json") || !strings.Contains(diff.text(), "8 MiB → 34 MiB") {
		t.Errorf("diff head %q", diff.one(t, "p.dhead").text())
	}
	drows := diff.one(t, "table.dlines").sel("tr")[1:]
	if len(drows) != len(d.Roots[0].Lines) {
		t.Fatalf("%d diff rows, want %d", len(drows), len(d.Roots[0].Lines))
	}
	if !drows[0].hasClass("up") || !drows[len(drows)-1].hasClass("down") || !strings.Contains(drows[0].text(), "+32 MiB") {
		t.Errorf("diff rows not largest increase first: %q … %q", drows[0].text(), drows[len(drows)-1].text())
	}
	if len(drows[0].sel("div.pos")[0].sel("span")) != 1 || len(drows[len(drows)-1].sel("div.neg")[0].sel("span")) != 1 {
		t.Error("diverging bars on the wrong sides")
	}
	// The script's data.
	data := pageData(t, doc)
	if len(data.Roots) != 1 || fmt.Sprint(data.Roots[0].Qs) != fmt.Sprint(r.Attributed) || data.Roots[0].Qs[data.Roots[0].Q] != 64 {
		t.Errorf("data %+v", data.Roots)
	}
}

func TestHTMLNoDiff(t *testing.T) {
	page := writeTestHTML(t, readHTMLProfile(t, "tiles"), HTMLOptions{})
	doc := parsePage(t, page)
	if len(doc.sel("#diff")) != 0 {
		t.Error("diff section without a Diff")
	}
	withDiff := writeTestHTML(t, readHTMLProfile(t, "tiles"), HTMLOptions{Diff: tilesDiff(t)})
	if len(parsePage(t, withDiff).sel("#diff")) != 1 {
		t.Error("no diff section with a Diff")
	}
}

func TestHTMLInexactAndByFunc(t *testing.T) {
	p := readHTMLProfile(t, "pipeline")
	doc := parsePage(t, writeTestHTML(t, p, HTMLOptions{By: "func", Lines: 2}))
	sec := doc.one(t, "#root-0")
	if !strings.Contains(sec.one(t, "summary").text(), "not exact") {
		t.Error("inexact root not marked")
	}
	if why := sec.one(t, "div.reasons").text(); !strings.Contains(why, "main.go:34: channel communication") {
		t.Errorf("reasons %q", why)
	}
	if n := len(sec.one(t, "tbody.barrows").sel("tr")); n != 2 {
		t.Errorf("%d bars with Lines: 2", n)
	}
	if more := sec.one(t, "p.morebars").text(); more != "… 1 more lines" {
		t.Errorf("more %q", more)
	}
	names := sec.one(t, "ol.bandlegend").text()
	if !strings.Contains(names, "main.parse") || strings.Contains(names, "main.go:32") {
		t.Errorf("bands by function: %q", names)
	}
}

func TestHTMLTestBinary(t *testing.T) {
	p := readHTMLProfile(t, "tilestest")
	doc := parsePage(t, writeTestHTML(t, p, HTMLOptions{Q: 5}))
	links := doc.one(t, "#summary").sel("a.rootlink")
	if len(links) != 2 || links[1].Attr["href"] != "#root-1" {
		t.Fatalf("summary links %d", len(links))
	}
	// TestRenderAll lists every q up to 16: q = 5 is listed.
	all := doc.one(t, "#root-1")
	if q := all.sel("span.qlabel")[0].text(); q != "5" {
		t.Errorf("root 1 at q %s, want 5", q)
	}
	// TestRender lists the powers of two: q = 5 shows q = 4's worst case.
	one := doc.one(t, "#root-0")
	if q := one.sel("span.qlabel")[0].text(); q != "4" {
		t.Errorf("root 0 at q %s, want 4", q)
	}
	// The single-sample heap of TestRender still draws.
	if n := len(one.one(t, "svg.bandchart").sel("path.band")); n == 0 {
		t.Error("no bands for a one-sample heap")
	}
	// tiles_test.go is read too.
	if !strings.Contains(one.one(t, "div.source").text(), "func TestRender(t *testing.T) {") {
		t.Error("tiles_test.go not shown")
	}
}

// hostile is text a profile may carry that must stay text.
const hostile = `</script><script>alert("x")</script><img src=x onerror=alert(1)> & "q" 'a'`

func handProfile() *profile.Profile {
	lines := []profile.Line{
		{File: "a.go", Line: 10, Func: "main.work", AllocBytes: 3 << 20, Allocs: 3, Text: hostile,
			MHWMBytes: map[string]int64{"1": 1 << 20, "2": 2 << 20, "4": 3 << 20},
			MHWMSplit: map[string]profile.Split{"1": {Running: 1 << 20}, "2": {Running: 1 << 20, Suspended: 1 << 20}, "4": {Running: 2 << 20, Completed: 1 << 20}}},
		{File: "a.go", Line: 50, Func: "main." + hostile, AllocBytes: 4096, Allocs: 1, Text: "x := 1",
			MHWMBytes: map[string]int64{"1": 4096, "2": 4096, "4": 4096}},
		{File: "b.go", Line: 7, Func: "main.main", AllocBytes: 100, Allocs: 1, Text: "y := new(T)", MHWMBytes: map[string]int64{}},
	}
	var samples []profile.HeapSample
	for i := range 10 {
		samples = append(samples, profile.HeapSample{Strand: int64(i + 1), Bytes: int64(i) << 20,
			Lines: []profile.LineBytes{{Index: 0, Bytes: int64(i) << 20}, {Index: 2, Bytes: 100}}})
	}
	return &profile.Profile{Schema: profile.Schema, Program: "prog" + hostile, PMax: 4,
		Census: profile.Census{Policy: "hooks", ErrorBound: 0.1},
		Roots: []profile.Root{{
			Name: "main.main" + hostile, Exact: false, Reasons: []string{"a.go:3: " + hostile},
			MHWM:       []profile.Point{{P: 1, Bytes: 1<<20 + 4096}, {P: 2, Bytes: 2<<20 + 4096}, {P: 3, Bytes: 3<<20 + 4096}, {P: 4, Bytes: 3<<20 + 4096}},
			SerialPeak: 1 << 20, Work: 10, Span: 5, Strands: 10, Spawns: 3,
			Lines: lines, Attributed: []int{1, 2, 4},
			Heap: &profile.Heap{Samples: samples, WallByteSeconds: 0},
		}},
		Warnings: []profile.Warning{{Pos: "a.go:1", Message: hostile}},
		Wall:     &profile.Wall{Start: "2026-01-02T03:04:05Z", Seconds: 1},
	}
}

func TestHTMLEscapes(t *testing.T) {
	p := handProfile()
	src := func(file string) ([]byte, error) {
		if file == "a.go" {
			var b strings.Builder
			for i := 1; i <= 60; i++ {
				switch i {
				case 10:
					b.WriteString(hostile + "\n")
				case 30:
					b.WriteString("// <b>not bold</b> & <!-- not a comment -->\n")
				case 50:
					b.WriteString("\tx := 1\n") // as the profile saw it
				default:
					fmt.Fprintf(&b, "// line %d\n", i)
				}
			}
			return []byte(b.String()), nil
		}
		return nil, os.ErrNotExist
	}
	page := writeTestHTML(t, p, HTMLOptions{Title: "-flags " + hostile, Source: src})
	doc := parsePage(t, page)
	if n := len(doc.sel("script")); n != 2 {
		t.Errorf("%d script elements, want 2 (data and code)", n)
	}
	if len(doc.sel("img")) != 0 || len(doc.find(func(n *htmlNode) bool { return n.Tag == "b" && n.text() == "not bold" })) != 0 {
		t.Error("source text became markup")
	}
	if strings.Contains(page, `<script>alert`) || strings.Contains(page, "<img src=x") {
		t.Error("hostile text not escaped")
	}
	// The text still reads as written.
	sec := doc.one(t, "#root-0")
	if got := sec.one(t, "tbody.barrows").sel("code")[0].text(); got != hostile {
		t.Errorf("bar source text %q", got)
	}
	if !strings.Contains(doc.one(t, "#warnings").text(), hostile) || !strings.Contains(doc.one(t, "head").one(t, "title").text(), hostile) {
		t.Error("warning or title lost its text")
	}
	// The JSON data keeps it too, and no "</script" inside.
	data := doc.one(t, "#spgo-data").text()
	if strings.Contains(strings.ToLower(data), "</script") {
		t.Error("data block can end the script element")
	}
	d := pageData(t, doc)
	if l := d.Roots[0].Lines[0].([]any); l[3] != hostile {
		t.Errorf("data text %q", l[3])
	}
	// b.go is not found: only its profiled line, from Line.Text.
	var bfile *htmlNode
	for _, f := range sec.sel("div.file") {
		if strings.Contains(f.one(t, "h4").text(), "b.go") {
			bfile = f
		}
	}
	if bfile == nil || !strings.Contains(bfile.text(), "source not found") || !strings.Contains(bfile.text(), "y := new(T)") {
		t.Error("missing source not shown from Line.Text")
	}
	// a.go: lines 8–12 and 48–52 shown, the runs between collapsed.
	var afile *htmlNode
	for _, f := range sec.sel("div.file") {
		if strings.Contains(f.one(t, "h4").text(), "a.go") {
			afile = f
		}
	}
	var got []string
	for _, tr := range afile.sel("tr")[1:] {
		if tr.hasClass("gap") {
			got = append(got, "["+tr.sel("td")[1].text()+"]")
		} else {
			got = append(got, tr.sel("td")[0].text())
		}
	}
	if want := "[7 lines] 8 9 10 11 12 [35 lines] 48 49 50 51 52 [8 lines]"; strings.Join(got, " ") != want {
		t.Errorf("a.go rows %s, want %s", strings.Join(got, " "), want)
	}
	// A source that no longer matches the profile is not used.
	changed := func(file string) ([]byte, error) {
		if file == "a.go" {
			return []byte(strings.Repeat("// other\n", 60)), nil
		}
		return nil, os.ErrNotExist
	}
	doc2, err := parseTestHTML(writeTestHTML(t, handProfile(), HTMLOptions{Source: changed}))
	if err != nil {
		t.Fatal(err)
	}
	if txt := doc2.one(t, "#root-0").one(t, "div.source").text(); !strings.Contains(txt, "the source file differs from the profile") || strings.Contains(txt, "// other") {
		t.Error("a changed source file is annotated as if it matched")
	}
	// The strand clock is used when no sample has a wall time.
	if xl := sec.one(t, "svg.bandchart").text(); !strings.Contains(xl, "strands run") {
		t.Errorf("band chart x axis: %q", xl)
	}
}

func thresholdProfile() *profile.Profile {
	return &profile.Profile{Schema: profile.Schema, Program: "big", PMax: 8, Threshold: 1 << 30, Partial: true,
		Roots: []profile.Root{
			{Name: "main.main", Exact: true, SerialPeak: 1 << 20,
				Threshold: &profile.ThresholdAnswer{M: 1 << 30, P: 8, Value: 600 << 20, AtLeastHalf: true},
				Lines:     []profile.Line{{File: "m.go", Line: 3, Func: "main.main", AllocBytes: 1 << 20, Allocs: 1, Text: "b := make([]byte, 1<<20)"}}},
			{Name: "main.other", Exact: true, Threshold: &profile.ThresholdAnswer{M: 1 << 30, P: 8}},
		},
		Warnings: []profile.Warning{{Message: "something"}},
	}
}

func TestHTMLThresholdPartial(t *testing.T) {
	p := thresholdProfile()
	page := writeTestHTML(t, p, HTMLOptions{Source: func(string) ([]byte, error) { return nil, errors.New("no") }})
	doc := parsePage(t, page)
	for _, id := range []string{"#partial", "#threshold-mode", "#warnings"} {
		doc.one(t, id)
	}
	sec := doc.one(t, "#root-0")
	if !strings.Contains(sec.text(), "MHWM_8 ≥ 512 MiB (half of M = 1 GiB)") {
		t.Error("threshold answer missing")
	}
	if len(sec.sel("svg")) != 0 || len(sec.sel("p.noheap")) != 1 || len(sec.sel("select")) != 0 {
		t.Error("threshold root has charts or a q switch")
	}
	if !strings.Contains(doc.one(t, "#root-1").text(), "MHWM_8 < 1 GiB (M)") {
		t.Error("second threshold answer missing")
	}
	// The source shows the bytes allocated.
	if tr := sec.one(t, "table.src").sel("tr")[1]; !tr.hasClass("h9") || !strings.Contains(tr.text(), "1 MiB") {
		t.Errorf("threshold-mode source row %q", tr.text())
	}
	if d := pageData(t, doc); len(d.Roots) != 0 {
		t.Error("script data for a threshold-mode profile")
	}
	// An empty profile renders too.
	parsePage(t, writeTestHTML(t, &profile.Profile{Schema: profile.Schema}, HTMLOptions{}))
}

// TestHTMLBands checks the folding and the order of the heap bands.
func TestHTMLBands(t *testing.T) {
	w := htmlStepWeights([]float64{1, 2, 3, 4, 5, 6, 7, 8})
	for _, x := range w {
		if x != 1 {
			t.Fatalf("weights %v", w)
		}
	}
	series := []htmlSeries{
		{Name: "jagged", Values: []int64{0, 900, 0, 900, 0, 900, 0, 900}},
		{Name: "tiny1", Values: []int64{1, 1, 1, 1, 1, 1, 1, 1}},
		{Name: "flat", Values: []int64{500, 500, 500, 500, 500, 500, 500, 500}},
		{Name: "ramp", Values: []int64{100, 200, 300, 400, 500, 600, 700, 800}},
		{Name: "tiny2", Values: []int64{0, 0, 0, 0, 0, 0, 0, 30}},
		{Name: "none", Values: []int64{0, 0, 0, 0, 0, 0, 0, 0}},
	}
	bands := htmlOrderBands(series, w, 0.01, 19)
	var names []string
	total := 0.0
	for _, b := range bands {
		names = append(names, b.Name)
		total += b.Share
	}
	if got := strings.Join(names, " "); got != "flat ramp jagged other" {
		t.Fatalf("bands bottom first: %s, want flat ramp jagged other", got)
	}
	other := bands[3]
	if !other.Other || other.Folded != 2 || fmt.Sprint(other.Values) != "[1 1 1 1 1 1 1 31]" {
		t.Errorf("other %+v", other)
	}
	if math.Abs(total-1) > 1e-9 {
		t.Errorf("shares sum to %g", total)
	}
	// At most maxBands bands besides other: the smallest are folded.
	bands = htmlOrderBands(series, w, 0.01, 1)
	if len(bands) != 2 || bands[0].Name != "flat" || bands[1].Folded != 4 {
		t.Errorf("maxBands 1: %+v", bands)
	}
	// A run without time: every sample weighs 1.
	if w := htmlStepWeights([]float64{0, 0}); w[0] != 1 || w[1] != 1 {
		t.Errorf("zero-time weights %v", w)
	}
	if v := htmlVariation([]int64{5, 5, 5}); v != 0 {
		t.Errorf("flat variation %g", v)
	}
}

func TestHTMLTicks(t *testing.T) {
	top, ticks := htmlByteTicks(35 << 20)
	if top != 40<<20 || len(ticks) != 6 {
		t.Errorf("byte ticks for 35 MiB: top %s, %d ticks", Bytes(top), len(ticks))
	}
	if top, step, ticks := htmlNiceTicks(0.121); math.Abs(step-0.05) > 1e-12 || math.Abs(top-0.15) > 1e-12 || len(ticks) != 4 {
		t.Errorf("time ticks for 121 ms: step %g, top %g, %d ticks", step, top, len(ticks))
	}
	if s := htmlSeconds(0.1, 0.05); s != "100 ms" {
		t.Errorf("htmlSeconds = %q", s)
	}
}

// bigProfile has n lines, each in the worst case at every listed q, and
// samples heap samples holding many lines each.
func bigProfile(n, samples int) *profile.Profile {
	r := profile.Root{Name: "main.main", Exact: true, Attributed: []int{1, 2, 4, 8, 16, 32, 64}, SerialPeak: 1 << 30}
	for p := 1; p <= 64; p++ {
		r.MHWM = append(r.MHWM, profile.Point{P: p, Bytes: int64(n) * int64(min(p, 16)) * 1000})
	}
	for i := range n {
		l := profile.Line{File: "pkg" + strconv.Itoa(i%40) + "/f.go", Line: 10 + i, Func: "pkg.F" + strconv.Itoa(i%300),
			AllocBytes: int64(i) * 1000, Allocs: int64(i), Text: "x := make([]byte, " + strconv.Itoa(i) + ")",
			MHWMBytes: map[string]int64{}, MHWMSplit: map[string]profile.Split{}}
		for _, q := range r.Attributed {
			b := int64(min(q, 16)) * 1000
			l.MHWMBytes[strconv.Itoa(q)] = b
			l.MHWMSplit[strconv.Itoa(q)] = profile.Split{Running: b / 2, Suspended: b - b/2}
		}
		r.Lines = append(r.Lines, l)
	}
	h := &profile.Heap{WallByteSeconds: 12345}
	for s := range samples {
		hs := profile.HeapSample{Strand: int64(s + 1), WallSeconds: float64(s) / 100}
		for i := s % 7; i < n; i += 1 + n/60 {
			b := int64(1000 + (s*i)%5000)
			hs.Lines = append(hs.Lines, profile.LineBytes{Index: i, Bytes: b})
			hs.Bytes += b
		}
		h.Samples = append(h.Samples, hs)
	}
	r.Heap = h
	return &profile.Profile{Schema: profile.Schema, Program: "big", PMax: 64, Roots: []profile.Root{r}}
}

func TestHTMLLarge(t *testing.T) {
	p := bigProfile(5000, 400)
	start := time.Now()
	page := writeTestHTML(t, p, HTMLOptions{Source: func(string) ([]byte, error) { return nil, os.ErrNotExist }})
	took := time.Since(start)
	t.Logf("5000 lines, 400 samples: %d bytes in %v", len(page), took)
	if len(page) > 4<<20 {
		t.Errorf("page of %s, want at most 4 MiB", Bytes(int64(len(page))))
	}
	doc := parsePage(t, page)
	if n := len(doc.one(t, "tbody.barrows").sel("tr")); n != 20 {
		t.Errorf("%d bars, want the default 20", n)
	}
	if n := len(doc.one(t, "svg.bandchart").sel("path.band")); n > htmlBandMax+1 {
		t.Errorf("%d bands", n)
	}
}

func BenchmarkWriteHTML(b *testing.B) {
	p := bigProfile(5000, 400)
	o := HTMLOptions{Source: func(string) ([]byte, error) { return nil, os.ErrNotExist }}
	for b.Loop() {
		var buf bytes.Buffer
		if err := WriteHTML(&buf, p, o); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHTMLWritePages writes the example pages to $SPGO_HTML_OUT, to look
// at them in a browser.
func TestHTMLWritePages(t *testing.T) {
	dir := os.Getenv("SPGO_HTML_OUT")
	if dir == "" {
		t.Skip("SPGO_HTML_OUT not set")
	}
	pages := map[string]string{
		"tiles":     writeTestHTML(t, readHTMLProfile(t, "tiles"), HTMLOptions{Title: "-pmax 64", Diff: tilesDiff(t)}),
		"pipeline":  writeTestHTML(t, readHTMLProfile(t, "pipeline"), HTMLOptions{Title: "-pmax 64", By: "func"}),
		"tilestest": writeTestHTML(t, readHTMLProfile(t, "tilestest"), HTMLOptions{Title: "./testdata/examples/tiles", Q: 4}),
		"hand":      writeTestHTML(t, handProfile(), HTMLOptions{Title: "-x"}),
		"big":       writeTestHTML(t, bigProfile(5000, 400), HTMLOptions{}),
		"threshold": writeTestHTML(t, thresholdProfile(), HTMLOptions{}),
		"simulated": writeTestHTML(t, simProfile(), HTMLOptions{Title: "-simulate"}),
	}
	for name, page := range pages {
		if err := os.WriteFile(filepath.Join(dir, name+".html"), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHTMLEmptyHeap(t *testing.T) {
	p := handProfile()
	p.Roots[0].Heap = &profile.Heap{Samples: []profile.HeapSample{{Strand: 1}, {Strand: 2}}}
	p.Roots = append(p.Roots, profile.Root{Name: "main.noheap", Exact: true, MHWM: []profile.Point{{P: 1}, {P: 2}, {P: 3}, {P: 4}}})
	doc := parsePage(t, writeTestHTML(t, p, HTMLOptions{}))
	for _, id := range []string{"#root-0", "#root-1"} {
		sec := doc.one(t, id)
		if len(sec.sel("svg.bandchart")) != 0 || len(sec.sel("p.noheap")) != 1 {
			t.Errorf("%s: an empty or missing heap is not said so", id)
		}
	}
}

// TestHTMLSourcesConfined: the default source reader reads Go files only,
// and only below the source root, whether a profile names them relative
// to it or by an absolute path.
func TestHTMLSourcesConfined(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "root", "sub"), 0o755)
	os.MkdirAll(filepath.Join(dir, "rootx"), 0o755)
	os.WriteFile(filepath.Join(dir, "root", "a.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "root", "sub", "b.go"), []byte("package b\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.go"), []byte("package s\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "rootx", "c.go"), []byte("package c\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "root", "notes.txt"), []byte("secret\n"), 0o644)
	tests := []struct {
		root, file string
		ok         bool
	}{
		{"root", "a.go", true},
		{"root", "sub/b.go", true},
		{"root", "sub/../a.go", true},
		{"root", "../secret.go", false},
		{"root", "notes.txt", false},
		{"root", "/etc/passwd", false},
		{"root", "{dir}/root/a.go", true},
		{"root", "{dir}/root/sub/b.go", true},
		{"root", "{dir}/secret.go", false},         // a crafted profile: a file outside the root
		{"root", "{dir}/root/../secret.go", false}, // the same through the root
		{"root", "{dir}/rootx/c.go", false},        // a sibling whose name starts with the root's
		{"", "{dir}/root/a.go", false},             // no root: no absolute name
	}
	for _, tt := range tests {
		root := ""
		if tt.root != "" {
			root = filepath.Join(dir, tt.root)
		}
		file := strings.Replace(tt.file, "{dir}", dir, 1)
		src := newHTMLSources(root, nil)
		if _, err := src.lines(file); (err == nil) != tt.ok {
			t.Errorf("root %q, %s: read error %v, want readable = %v", tt.root, tt.file, err, tt.ok)
		}
	}
}

// TestHTMLAbsoluteOutsideRoot: a crafted profile that names a Go file
// outside its source root by an absolute path, with that file's line
// text guessed right, gets no line of it on the page; an absolute name
// below the root still shows its context.
func TestHTMLAbsoluteOutsideRoot(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(root, 0o755)
	file := func(text, next string) string {
		var b strings.Builder
		for i := 1; i <= 12; i++ {
			switch i {
			case 10:
				b.WriteString(text + "\n")
			case 11:
				b.WriteString(next + "\n")
			default:
				b.WriteString("// filler\n")
			}
		}
		return b.String()
	}
	secret, inside := filepath.Join(dir, "secret.go"), filepath.Join(root, "inside.go")
	os.WriteFile(secret, []byte(file("x := 1", "SECRET_TOKEN_42")), 0o644)
	os.WriteFile(inside, []byte(file("y := new(T)", "INSIDE_TOKEN_7")), 0o644)
	p := handProfile()
	p.SourceRoot = root
	r := &p.Roots[0]
	r.Lines[1].File, r.Lines[1].Line = secret, 10 // Text "x := 1"
	r.Lines[2].File, r.Lines[2].Line = inside, 10 // Text "y := new(T)"
	page := writeTestHTML(t, p, HTMLOptions{SourceDir: root})
	if strings.Contains(page, "SECRET_TOKEN_42") {
		t.Error("the page embeds a line of a file outside the source root")
	}
	if !strings.Contains(page, "INSIDE_TOKEN_7") {
		t.Error("the page lacks the context of a file below the source root named by an absolute path")
	}
}

// TestHTMLSourceDirChosen: the directory sources are read from is the
// reader's, not the profile's. A profile whose source_root is "/" (or
// any directory above the current one) gets no file read; a symbolic
// link below the source directory that leads out of it is not followed.
func TestHTMLSourceDirChosen(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	os.MkdirAll(root, 0o755)
	secret := filepath.Join(dir, "secret.go")
	os.WriteFile(secret, []byte("package s\n"), 0o644)
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644)
	if err := os.Symlink(secret, filepath.Join(root, "link.go")); err != nil {
		t.Skip(err)
	}
	os.Symlink(dir, filepath.Join(root, "up"))
	t.Chdir(root)
	for _, tt := range []struct {
		srcRoot, dirOpt string
		want            string
	}{
		{root, "", root},  // the current directory
		{"/", "", ""},     // above it: the profile does not choose
		{dir, "", ""},     // above it
		{dir, root, root}, // the reader's choice wins
	} {
		if got := sourceDir(&profile.Profile{SourceRoot: tt.srcRoot}, tt.dirOpt); got != tt.want {
			t.Errorf("source_root %q, -src %q: read from %q, want %q", tt.srcRoot, tt.dirOpt, got, tt.want)
		}
	}
	for _, tt := range []struct {
		file string
		ok   bool
	}{
		{"a.go", true},
		{"link.go", false},      // a link out of the root
		{"up/secret.go", false}, // a directory link out of it
		{secret, false},
	} {
		if _, err := readBelow(root, tt.file); (err == nil) != tt.ok {
			t.Errorf("%s: err %v, want readable %v", tt.file, err, tt.ok)
		}
	}
}
