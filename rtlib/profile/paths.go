package profile

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

// Path is one call path to a line of the per-line table: the part of the
// line's figures allocated while that stack of instrumented functions
// was running. A root's paths split its lines exactly: the paths of a
// line sum to its alloc_bytes, allocs and every mhwm_bytes figure.
type Path struct {
	// Line is the index of the line in Root.Lines.
	Line int `json:"line"`
	// Callers are the frames above the line's function, innermost first:
	// the call in the function that called it, then the call in that
	// function's caller, up to the root's function. Only instrumented
	// functions appear; a run of frames of one function (recursion)
	// appears as its innermost frame; at most 32 return addresses are
	// read. Empty: no path is known (bytes charged at a call into
	// uninstrumented code, or a run with more paths than recorded).
	Callers []Frame `json:"callers"`
	// AllocBytes and Allocs are what was allocated on the path over the
	// run.
	AllocBytes int64 `json:"alloc_bytes"`
	Allocs     int64 `json:"allocs"`
	// MHWMBytes maps p (as a decimal string) to the path's share of the
	// worst case at p, with the keys of its line's MHWMBytes.
	MHWMBytes map[string]int64 `json:"mhwm_bytes,omitempty"`
}

// Frame is a call in a call path: the calling function and the line of
// the call.
type Frame struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// PathMHWM returns path pa's share of MHWM_q, and false if the root has
// no per-line shares for q (as LineMHWM).
func (r *Root) PathMHWM(pa *Path, q int) (int64, bool) {
	a, ok := r.AttributedAt(q)
	if !ok {
		return 0, false
	}
	return pa.MHWMBytes[strconv.Itoa(a)], true
}

// ComparePaths orders paths by line, then by their callers frame by
// frame (function, file, line), a prefix first: the order of
// Root.Paths.
func ComparePaths(a, b *Path) int {
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return slices.CompareFunc(a.Callers, b.Callers, func(x, y Frame) int {
		return cmp.Or(cmp.Compare(x.Func, y.Func), cmp.Compare(x.File, y.File), cmp.Compare(x.Line, y.Line))
	})
}

// validatePaths checks r.Paths (see Validate).
func (p *Profile) validatePaths(r *Root, bad func(string, ...any) error) error {
	if len(r.Paths) == 0 {
		return nil
	}
	type sums struct {
		bytes, allocs int64
		mhwm          map[string]int64
	}
	byLine := make([]sums, len(r.Lines))
	for j := range r.Paths {
		pa := &r.Paths[j]
		where := fmt.Sprintf("root %s: path %d", r.Name, j)
		if pa.Line < 0 || pa.Line >= len(r.Lines) {
			return bad("%s: line index %d outside the %d lines", where, pa.Line, len(r.Lines))
		}
		if j > 0 && ComparePaths(&r.Paths[j-1], pa) >= 0 {
			return bad("%s: not after path %d (paths are sorted by line and callers, each once)", where, j-1)
		}
		for k, f := range pa.Callers {
			if f.Func == "" || f.File == "" || f.Line < 0 {
				return bad("%s: caller %d has no function or file, or a negative line", where, k)
			}
		}
		if pa.AllocBytes < 0 || pa.Allocs < 0 {
			return bad("%s: alloc_bytes %d or allocs %d < 0", where, pa.AllocBytes, pa.Allocs)
		}
		s := &byLine[pa.Line]
		var ok1, ok2 bool
		s.bytes, ok1 = sum(s.bytes, pa.AllocBytes)
		s.allocs, ok2 = sum(s.allocs, pa.Allocs)
		if !ok1 || !ok2 {
			return bad("%s: alloc_bytes or allocs overflow", where)
		}
		for _, k := range sortedKeys(pa.MHWMBytes) {
			if _, ok := r.Lines[pa.Line].MHWMBytes[k]; !ok {
				return bad("%s: mhwm_bytes has figures for p = %q, its line has none", where, k)
			}
			if s.mhwm == nil {
				s.mhwm = map[string]int64{}
			}
			v, ok := sum(s.mhwm[k], pa.MHWMBytes[k])
			if !ok {
				return bad("%s: mhwm_bytes for p = %s overflow", where, k)
			}
			s.mhwm[k] = v
		}
	}
	for i, l := range r.Lines {
		s := byLine[i]
		where := fmt.Sprintf("root %s: %s:%d", r.Name, l.File, l.Line)
		if s.bytes != l.AllocBytes || s.allocs != l.Allocs {
			return bad("%s: paths allocate %d bytes in %d allocations, the line %d in %d", where, s.bytes, s.allocs, l.AllocBytes, l.Allocs)
		}
		for _, k := range sortedKeys(l.MHWMBytes) {
			if s.mhwm[k] != l.MHWMBytes[k] {
				return bad("%s: paths' mhwm_bytes for p = %s sum to %d, the line's is %d", where, k, s.mhwm[k], l.MHWMBytes[k])
			}
		}
	}
	return nil
}
