package escape

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestMerge checks the rule for several decisions at one position: the
// strongest kind wins, and a site is Heap if any copy escapes.
func TestMerge(t *testing.T) {
	file := filepath.FromSlash("/src/a.go")
	at := func(kind Kind, expr string, inlined bool) Site {
		return Site{File: file, Line: 3, Col: 9, Expr: expr, Kind: kind, Inlined: inlined}
	}
	tests := []struct {
		name  string
		sites []Site
		want  Site
	}{
		{"one", []Site{at(Stack, "&T{...}", false)}, at(Stack, "&T{...}", false)},
		{"any copy escapes", []Site{at(Stack, "&T{...}", false), at(Heap, "&T{...}", false), at(Stack, "&T{...}", false)},
			at(Heap, "&T{...}", false)},
		{"order does not matter", []Site{at(Heap, "&T{...}", false), at(Stack, "&T{...}", false)},
			at(Heap, "&T{...}", false)},
		{"inlined copy escapes", []Site{at(Stack, "make([]byte, n)", false), at(Heap, "make([]byte, 1048576)", true)},
			at(Heap, "make([]byte, 1048576)", true)},
		{"own report preferred", []Site{at(Heap, "make([]byte, 16)", true), at(Heap, "make([]byte, n)", false)},
			at(Heap, "make([]byte, n)", false)},
		{"moved is strongest", []Site{at(Heap, "x", true), at(Moved, "x", false), at(Stack, "x", false)},
			at(Moved, "x", false)},
		{"smallest text", []Site{at(Heap, "b", false), at(Heap, "a", false)}, at(Heap, "a", false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewResult(tt.sites)
			got, ok := r.Lookup(file, 3, 9)
			if !ok || got != tt.want {
				t.Errorf("Lookup = %v, %v; want %v", got, ok, tt.want)
			}
			if all := r.Sites(file); len(all) != 1 {
				t.Errorf("Sites = %v, want one site", all)
			}
		})
	}
}

// TestLookup checks exact-position lookup and the order of Sites.
func TestLookup(t *testing.T) {
	a, b := filepath.FromSlash("/src/a.go"), filepath.FromSlash("/src/b.go")
	sites := []Site{
		{File: a, Line: 12, Col: 3, Expr: "new(T)", Kind: Heap},
		{File: a, Line: 3, Col: 9, Expr: "&T{...}", Kind: Stack},
		{File: b, Line: 1, Col: 1, Expr: "x", Kind: Moved},
		{File: a, Line: 3, Col: 2, Expr: "x", Kind: Moved},
		{File: filepath.FromSlash("/src/./a.go"), Line: 7, Col: 1, Expr: "a + b", Kind: Heap},
	}
	r := NewResult(sites)
	tests := []struct {
		file      string
		line, col int
		want      Site
		ok        bool
	}{
		{a, 3, 9, sites[1], true},
		{a, 3, 2, sites[3], true},
		{a, 12, 3, sites[0], true},
		{filepath.FromSlash("/src/x/../a.go"), 12, 3, sites[0], true},
		{a, 7, 1, Site{File: a, Line: 7, Col: 1, Expr: "a + b", Kind: Heap}, true},
		{b, 1, 1, sites[2], true},
		{a, 3, 10, Site{}, false},
		{a, 4, 9, Site{}, false},
		{a, 100, 1, Site{}, false},
		{filepath.FromSlash("/src/c.go"), 3, 9, Site{}, false},
	}
	for _, tt := range tests {
		got, ok := r.Lookup(tt.file, tt.line, tt.col)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%s, %d, %d) = %v, %v; want %v, %v", tt.file, tt.line, tt.col, got, ok, tt.want, tt.ok)
		}
	}
	var pos [][2]int
	for _, s := range r.Sites(a) {
		pos = append(pos, [2]int{s.Line, s.Col})
	}
	if want := [][2]int{{3, 2}, {3, 9}, {7, 1}, {12, 3}}; !slices.Equal(pos, want) {
		t.Errorf("Sites(a) positions = %v, want %v", pos, want)
	}
	if got, want := r.Files(), []string{a, b}; !slices.Equal(got, want) {
		t.Errorf("Files = %v, want %v", got, want)
	}
}

// TestKind checks the names and the Escapes predicate.
func TestKind(t *testing.T) {
	tests := []struct {
		k       Kind
		name    string
		escapes bool
	}{
		{Stack, "stack", false},
		{Heap, "heap", true},
		{Moved, "moved", true},
		{0, "Kind(0)", false},
	}
	for _, tt := range tests {
		if tt.k.String() != tt.name || tt.k.Escapes() != tt.escapes {
			t.Errorf("%d: String = %q, Escapes = %v; want %q, %v", int(tt.k), tt.k, tt.k.Escapes(), tt.name, tt.escapes)
		}
	}
}
