package escape

import (
	"cmp"
	"path/filepath"
	"slices"
	"sort"
)

// Result holds one decision per position: the strongest of the decisions
// reported there.
type Result struct {
	files   map[string][]Site // sorted by line, col
	lost    []Site
	inlined map[position]bool
}

// NewResult merges sites by position. The merged site has the strongest
// Kind (Stack < Heap < Moved): a site is Heap if any copy of it escapes.
// Its Expr is that of a decision of that kind, preferring one reported at
// the site itself (Inlined false), then the smallest text.
func NewResult(sites []Site) *Result {
	best := make(map[position]Site)
	for _, s := range sites {
		s.File = filepath.Clean(s.File)
		if old, ok := best[s.pos()]; !ok || better(s, old) {
			best[s.pos()] = s
		}
	}
	r := &Result{files: make(map[string][]Site)}
	for _, s := range best {
		r.files[s.File] = append(r.files[s.File], s)
	}
	for _, list := range r.files {
		slices.SortFunc(list, func(a, b Site) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
		})
	}
	return r
}

// better reports whether s should replace old as the decision at their
// common position.
func better(s, old Site) bool {
	if s.Kind != old.Kind {
		return s.Kind > old.Kind
	}
	if s.Inlined != old.Inlined {
		return !s.Inlined
	}
	return s.Expr < old.Expr
}

// Lookup returns the decision at the exact position (file is cleaned; it
// should be absolute). The rewriter should treat a site without a decision
// as possibly heap: the compiler does not report every allocation (see the
// package documentation).
func (r *Result) Lookup(file string, line, col int) (Site, bool) {
	list := r.files[filepath.Clean(file)]
	i := sort.Search(len(list), func(i int) bool {
		s := list[i]
		return s.Line > line || s.Line == line && s.Col >= col
	})
	if i < len(list) && list[i].Line == line && list[i].Col == col {
		return list[i], true
	}
	return Site{}, false
}

// Sites returns the decisions in file, sorted by line and column.
func (r *Result) Sites(file string) []Site {
	return slices.Clone(r.files[filepath.Clean(file)])
}

// Lost returns the escaping copies of inlined code whose site Run could
// not find, because the compiler's optimisation log that names it was
// overwritten (see the package documentation): each is the decision -m
// reports at the outermost call the copy was inlined at (File, Line and
// Col are that call's, or the declaration of a generic function whose
// instantiation inlined it), with the copy's Expr and Kind. Their sites
// are in the code inlined there; the decisions Lookup returns for that
// code do not count these copies. Sorted by position.
func (r *Result) Lost() []Site {
	lost := slices.Clone(r.lost)
	slices.SortFunc(lost, func(a, b Site) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Expr, b.Expr))
	})
	return slices.CompactFunc(lost, func(a, b Site) bool { return a == b })
}

// InlinedAt reports whether the compiler inlined a call reported at the
// position (the '(' of the call), in some function it compiled with -m.
func (r *Result) InlinedAt(file string, line, col int) bool {
	return r.inlined[position{filepath.Clean(file), line, col}]
}

// Files returns the files that have decisions, sorted.
func (r *Result) Files() []string {
	files := make([]string, 0, len(r.files))
	for f := range r.files {
		files = append(files, f)
	}
	slices.Sort(files)
	return files
}
