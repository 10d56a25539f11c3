package rtlib

import (
	"fmt"
	"slices"

	"github.com/spgo/spgo/rtlib/profile"
)

// pathRows builds a root's per-path table beside its per-line table.
type pathRows struct {
	rows map[pathRowKey]*profile.Path
	keep bool // some row has callers
}

type pathRowKey struct {
	line lineKey
	path int32
}

// row returns the row of key site s, whose line lt knows.
func (pr *pathRows) row(lt *lineTable, s Site) *profile.Path {
	lt.row(s)
	var id int32
	if int(s) < len(paths.of) {
		id = paths.of[s]
	}
	k := pathRowKey{lt.bySit[s], id}
	if pa := pr.rows[k]; pa != nil {
		return pa
	}
	pa := &profile.Path{Callers: []profile.Frame{}}
	for _, f := range sitePath(s) {
		pa.Callers = append(pa.Callers, profile.Frame{Func: f.fn, File: sourceName(f.file), Line: int(f.line)})
		pr.keep = true
	}
	if pr.rows == nil {
		pr.rows = map[pathRowKey]*profile.Path{}
	}
	pr.rows[k] = pa
	return pa
}

// alloc adds allocation totals of key site s.
func (pr *pathRows) alloc(lt *lineTable, s Site, bytes, n int64) {
	pa := pr.row(lt, s)
	pa.AllocBytes += bytes
	pa.Allocs += n
}

// share adds key site s's share of the worst case at the processor count
// key.
func (pr *pathRows) share(lt *lineTable, s Site, key string, bytes int64) {
	pa := pr.row(lt, s)
	if pa.MHWMBytes == nil {
		pa.MHWMBytes = map[string]int64{}
	}
	pa.MHWMBytes[key] += bytes
}

// build returns the rows, on the sorted lines rows, in profile order;
// nil if no row has a call path.
func (pr *pathRows) build(rows []profile.Line) []profile.Path {
	if !pr.keep {
		return nil
	}
	index := make(map[lineKey]int, len(rows))
	for i, l := range rows {
		index[lineKey{l.File, l.Line, l.Func}] = i
	}
	out := make([]profile.Path, 0, len(pr.rows))
	for k, pa := range pr.rows {
		pa.Line = index[k.line]
		out = append(out, *pa)
	}
	slices.SortFunc(out, func(a, b profile.Path) int { return profile.ComparePaths(&a, &b) })
	return out
}

// pathsWarning says how many allocations were charged without their path
// because the run had more than maxPaths; "" if none.
func pathsWarning() string {
	if paths.dropped == 0 {
		return ""
	}
	return fmt.Sprintf("%d allocations came after the first %d call paths and are listed by line only", paths.dropped, maxPaths)
}
