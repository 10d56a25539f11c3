package trace

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// docExample is the example of the package documentation.
const docExample = `spgo.trace/v1
site 1 "main.go:12"
root "main"
task 0 -1 0
task 1 0 2
strand 0 0 100 0 0
dep 0 1 spawn
dep 0 2 cont
strand 1 1 2500 1024 1024 1:1024:1024
strand 2 0 50 0 0
dep 1 3 join
dep 2 3 seq
strand 3 0 10 -1024 0 1:-1024:0
end
`

// sampleGraph is docExample as a Graph.
func sampleGraph() *Graph {
	return &Graph{
		Name:  "main",
		Sites: map[int32]string{1: "main.go:12"},
		Tasks: []Task{{0, -1, 0}, {1, 0, 2}},
		Strands: []Strand{
			{ID: 0, Task: 0, Work: 100},
			{ID: 1, Task: 1, Work: 2500, Net: 1024, Peak: 1024, Sites: []SiteBytes{{1, 1024, 1024}}},
			{ID: 2, Task: 0, Work: 50},
			{ID: 3, Task: 0, Work: 10, Net: -1024, Sites: []SiteBytes{{1, -1024, 0}}},
		},
		Deps: []Dep{{0, 1, Spawn}, {0, 2, Cont}, {1, 3, Join}, {2, 3, Seq}},
	}
}

func TestReadDocExample(t *testing.T) {
	gs, err := Read(strings.NewReader(docExample))
	if err != nil {
		t.Fatal(err)
	}
	want := sampleGraph()
	want.Deps = []Dep{{0, 1, Spawn}, {0, 2, Cont}, {1, 3, Join}, {2, 3, Seq}}
	if len(gs) != 1 || !reflect.DeepEqual(gs[0], want) {
		t.Fatalf("got %+v\nwant %+v", gs, want)
	}
}

// TestStreaming writes a graph the way a recorder does, strands when they
// end and deps when they are known (some before their strands), two
// roots, a site named between them, and reads it back.
func TestStreaming(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Site(1, "main.go:12")
	w.BeginRoot("main")
	w.Task(Task{0, -1, 0})
	w.Strand(Strand{ID: 0, Task: 0, Work: 100})
	w.Task(Task{1, 0, 2})
	w.Dep(Dep{0, 1, Spawn})
	w.Dep(Dep{0, 2, Cont})
	w.Dep(Dep{1, 3, Join}) // before strands 1 and 3 are written
	w.Strand(Strand{ID: 1, Task: 1, Work: 2500, Net: 1024, Peak: 1024, Sites: []SiteBytes{{1, 1024, 1024}}})
	w.Dep(Dep{2, 3, Seq})
	w.Strand(Strand{ID: 2, Task: 0, Work: 50})
	w.Strand(Strand{ID: 3, Task: 0, Work: 10, Net: -1024, Sites: []SiteBytes{{1, -1024, 0}}})
	w.EndRoot()
	w.Site(2, "a b \"c\"\n")
	w.BeginRoot("TestX")
	w.Task(Task{7, -1, 0})
	w.Strand(Strand{ID: 0, Task: 7, Work: 1, Net: 5, Peak: 9, Sites: []SiteBytes{{2, 5, 9}}})
	if err := w.EndRoot(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	gs, err := Read(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	want := sampleGraph()
	want.Deps = []Dep{{0, 1, Spawn}, {0, 2, Cont}, {1, 3, Join}, {2, 3, Seq}}
	want2 := &Graph{
		Name:    "TestX",
		Sites:   map[int32]string{1: "main.go:12", 2: "a b \"c\"\n"},
		Tasks:   []Task{{7, -1, 0}},
		Strands: []Strand{{ID: 0, Task: 7, Work: 1, Net: 5, Peak: 9, Sites: []SiteBytes{{2, 5, 9}}}},
	}
	if !reflect.DeepEqual(gs, []*Graph{want, want2}) {
		t.Fatalf("got %+v %+v", gs[0], gs[1])
	}
}

// TestManySites checks that a strand with more sites than fit on one
// line continues on more records and reads back whole.
func TestManySites(t *testing.T) {
	s := Strand{ID: 0, Task: 0}
	for i := range 3*sitesPerLine + 7 {
		s.Sites = append(s.Sites, SiteBytes{Site: int32(i), Net: int64(i % 5), AtPeak: int64(i % 3)})
		s.Net += int64(i % 5)
		s.Peak += int64(i % 3)
	}
	s.Peak = max(s.Peak, s.Net)
	s.Sites[0].AtPeak += s.Peak - sumAtPeak(s.Sites)
	g := &Graph{Name: "r", Sites: map[int32]string{}, Tasks: []Task{{0, -1, 0}}, Strands: []Strand{s}}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.WriteGraph(g); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n := strings.Count(buf.String(), "\nmore "); n != 3 {
		t.Errorf("%d more records, want 3", n)
	}
	gs, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gs[0], g) {
		t.Fatal("round trip changed the graph")
	}
}

func sumAtPeak(s []SiteBytes) (n int64) {
	for _, x := range s {
		n += x.AtPeak
	}
	return n
}

// TestReadErrors checks that each kind of bad file is refused with the
// line and the reason.
func TestReadErrors(t *testing.T) {
	const h = "spgo.trace/v1\n"
	const root = h + "root \"r\"\ntask 0 -1 0\n"
	tests := []struct {
		name, in, want string
		line           int
	}{
		{"empty", "", "empty file", 0},
		{"foreign", "{\"schema\": \"spgo.profile/v1\"}\n", "not a trace file", 1},
		{"version", "spgo.trace/v2\n", "unsupported version", 1},
		{"unknown record", h + "frob 1\n", `unknown record "frob"`, 2},
		{"unknown in root", root + "frob\n", `unknown record "frob"`, 4},
		{"outside root", h + "strand 0 0 0 0 0\n", "strand record outside a root", 2},
		{"bad number", root + "strand 0 0 1x 0 0\n", `bad work "1x"`, 4},
		{"overflow", root + "strand 0 0 0 99999999999999999999 0\n", "bad net", 4},
		{"id range", root + "strand 4294967296 0 0 0 0\n", "bad strand ID", 4},
		{"short strand", root + "strand 0 0 0 0\n", "strand takes", 4},
		{"bad site entry", root + "strand 0 0 0 1 1 3:1\n", "not SITE:NET:ATPEAK", 4},
		{"duplicate strand", root + "strand 0 0 0 0 0\nstrand 0 0 0 0 0\n", "duplicate strand 0 (first on line 4)", 5},
		{"missing strand", root + "strand 0 0 0 0 0\nstrand 2 0 0 0 0\nend\n", "missing strand 1", 6},
		{"no strands", root + "end\n", "no strands", 4},
		{"dep unknown", root + "strand 0 0 0 0 0\ndep 0 5 seq\nend\n", "unknown strand 5", 5},
		{"dep kind", root + "strand 0 0 0 0 0\ndep 0 0 fork\n", `unknown dep kind "fork"`, 5},
		{"cycle", root + "strand 0 0 0 0 0\nstrand 1 0 0 0 0\nstrand 2 0 0 0 0\ndep 0 1 seq\ndep 1 2 seq\ndep 2 1 chan\nend\n", "cycle through strand 1 (dep 2→1)", 9},
		{"self dep", root + "strand 0 0 0 0 0\ndep 0 0 seq\nend\n", "cycle through strand 0", 5},
		{"peak below net", root + "strand 0 0 0 5 4 1:5:4\n", "peak 4 below max(0, net 5)", 4},
		{"negative peak", root + "strand 0 0 0 -5 -1 1:-5:-1\n", "peak -1 below", 4},
		{"negative work", root + "strand 0 0 -1 0 0\n", "work -1", 4},
		{"site sum net", root + "strand 0 0 0 5 5 1:4:5\nend\n", "site nets sum to 4, not net 5", 4},
		{"site sum peak", root + "strand 0 0 0 5 6 1:5:5\nmore 2:0:0\nend\n", "sum to 5, not peak 6", 4},
		{"site twice", root + "strand 0 0 0 2 2 1:1:1\nmore 1:1:1\ndep 0 0 seq\n", "site 1 listed twice", 4},
		{"more alone", root + "more 1:1:1\n", "more record not after a strand", 4},
		{"truncated", root + "strand 0 0 0 0 0\n", `truncated: root "r" not ended`, 2},
		{"nested root", root + "root \"s\"\n", `root begins inside root "r"`, 4},
		{"unquoted", h + "root main\n", "double-quoted", 2},
		{"bad quote", h + "site 1 \"a\n", "bad quoted string", 2},
		{"renamed site", h + "site 1 \"a\"\nsite 1 \"b\"\n", `site 1 renamed: "b", named "a" on line 2`, 3},
		{"unknown task", root + "strand 0 3 0 0 0\nend\n", "unknown task 3", 4},
		{"orphan task", root + "task 1 9 0\nstrand 0 0 0 0 0\nend\n", "unknown parent task 9", 4},
		{"two root tasks", root + "task 1 -1 0\nstrand 0 0 0 0 0\nend\n", "no parent but is not the root task", 4},
		{"task cycle", root + "task 1 2 0\ntask 2 1 0\nstrand 0 0 0 0 0\nend\n", "its own ancestor", 4},
		{"census outside root", h + "census 0 -1\n", "census record outside a root", 2},
		{"census gap", root + "census 1 -1 0\n", "census 1 before census 0", 4},
		{"census short", root + "census 0\n", "census takes", 4},
		{"census cut changed", root + "census 0 -1 0\ncensus 0 2 1\n", "continued with cut strand 2, was -1", 5},
		{"census strand", root + "strand 0 0 0 0 0\ncensus 0 -1 7\nend\n", "census 0: unknown strand 7", 5},
		{"census cut", root + "strand 0 0 0 0 0\ncensus 0 3\nend\n", "census 0: unknown cut strand 3", 5},
		{"free short", root + "free 0 1 8 0\n", "free takes", 4},
		{"free bytes", root + "free 0 1 0 0 -1\n", "free of 0 bytes", 4},
		{"free census", root + "strand 0 0 0 0 0\nfree 0 1 8 0 -1\nend\n", "unknown census 0", 5},
		{"free strand", root + "strand 0 0 0 0 0\ncensus 0 -1 0\nfree 4 1 8 0 -1\nend\n", "free at unknown strand 4", 6},
		{"free alloc", root + "strand 0 0 0 0 0\ncensus 0 -1 0\nfree 0 1 8 0 9\nend\n", "unknown allocating strand 9", 6},
		{"task twice", root + "task 0 -1 0\nstrand 0 0 0 0 0\nend\n", "task 0 declared twice", 4},
		{"root task parent", h + "root \"r\"\ntask 0 1 0\ntask 1 -1 0\nstrand 0 0 0 0 0\nend\n", "root task 0 (strand 0's) has parent 1", 3},
		{"end args", root + "strand 0 0 0 0 0\nend 1\n", "end takes no arguments", 5},
		{"too much work", root + "strand 0 0 4611686018427387904 0 0\nstrand 1 0 1 0 0\nend\n", "Σ work exceeds", 5},
		{"long line", h + "# " + strings.Repeat("x", MaxLine) + "\n", "line longer than", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a *FormatError", err)
			}
			if !strings.Contains(fe.Reason, tc.want) || fe.Line != tc.line {
				t.Fatalf("got line %d: %q, want line %d: %q", fe.Line, fe.Reason, tc.line, tc.want)
			}
		})
	}
}

// TestWriterErrors checks what the Writer refuses locally, and that its
// first error sticks.
func TestWriterErrors(t *testing.T) {
	tests := []struct {
		name string
		do   func(w *Writer) error
		want string
	}{
		{"strand outside root", func(w *Writer) error { return w.Strand(Strand{}) }, "strand outside a root"},
		{"nested root", func(w *Writer) error { w.BeginRoot("a"); return w.BeginRoot("b") }, `root "b" begun inside root "a"`},
		{"peak", func(w *Writer) error { w.BeginRoot("a"); return w.Strand(Strand{Net: 3, Peak: 2}) }, "peak 2 below"},
		{"sums", func(w *Writer) error {
			w.BeginRoot("a")
			return w.Strand(Strand{Net: 3, Peak: 3, Sites: []SiteBytes{{1, 3, 2}}})
		}, "sum to 2, not peak 3"},
		{"kind", func(w *Writer) error { w.BeginRoot("a"); return w.Dep(Dep{0, 1, 0}) }, "invalid kind"},
		{"long name", func(w *Writer) error { return w.Site(1, strings.Repeat("é", MaxName)) }, "longer than"},
		{"unended", func(w *Writer) error { w.BeginRoot("a"); return w.Close() }, `root "a" not ended`},
		{"sticky", func(w *Writer) error { w.EndRoot(); return w.Site(1, "x") }, "end outside a root"},
		{"closed", func(w *Writer) error { w.Close(); return w.Site(1, "x") }, "writer closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.do(NewWriter(new(bytes.Buffer)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterIOError(t *testing.T) {
	w := NewWriter(failWriter{})
	if err := w.WriteGraph(sampleGraph()); err != nil {
		t.Fatalf("buffered write failed early: %v", err)
	}
	if err := w.Flush(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Flush: %v", err)
	}
	if err := w.Dep(Dep{0, 1, Seq}); err == nil {
		t.Fatal("error did not stick")
	}
}

func TestValidate(t *testing.T) {
	g := sampleGraph()
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	g.Deps = append(g.Deps, Dep{3, 0, Chan})
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), `root "main": cycle through strand`) {
		t.Fatalf("got %v", err)
	}
	g = sampleGraph()
	g.Strands[2].ID = 5
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "strand 5 at index 2") {
		t.Fatalf("got %v", err)
	}
}

func TestDepKindNames(t *testing.T) {
	for k := Spawn; k <= Other; k++ {
		got, err := ParseDepKind(k.String())
		if err != nil || got != k {
			t.Errorf("%v: %v %v", k, got, err)
		}
	}
	if s := DepKind(0).String(); s != "DepKind(0)" {
		t.Errorf("zero kind: %s", s)
	}
}
