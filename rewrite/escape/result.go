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
	files map[string][]Site // sorted by line, col
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

// Files returns the files that have decisions, sorted.
func (r *Result) Files() []string {
	files := make([]string, 0, len(r.files))
	for f := range r.files {
		files = append(files, f)
	}
	slices.Sort(files)
	return files
}
