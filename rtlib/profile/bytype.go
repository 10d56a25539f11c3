package profile

import (
	"fmt"
	"strings"
)

// LineType is the part of a line's figures that values of one type
// make up (Line.Types): a line with several allocation sites can
// allocate several types. Type names a Go type as source writes it,
// named types qualified by their package's name ("[]byte",
// "map[string]int", "*main.Node"), or, for bytes no allocation site of a
// known type made, one of the names in parentheses of docs/profile.md,
// "By type": "(goroutine)", "(uninstrumented)", "(unknown)".
type LineType struct {
	Type       string `json:"type"`
	AllocBytes int64  `json:"alloc_bytes"`
	Allocs     int64  `json:"allocs"`
	// MHWMBytes is the type's part of the line's MHWMBytes, same keys.
	MHWMBytes map[string]int64 `json:"mhwm_bytes,omitempty"`
}

// TypeBytes is the bytes values of one type hold at a heap sample
// (HeapSample.Types).
type TypeBytes struct {
	Type  string `json:"type"`
	Bytes int64  `json:"bytes"`
}

// validateTypes checks the by-type fields of root r: each line's types
// named, listed once in increasing order, and summing to the line's
// alloc_bytes, allocs and mhwm_bytes (key for key); each heap sample's
// types likewise, summing to the sample's bytes. Both are optional
// (profiles of spgo before them have none), but a line or sample that
// has them has them all.
func validateTypes(r *Root, bad func(string, ...any) error) error {
	for _, l := range r.Lines {
		if len(l.Types) == 0 {
			continue
		}
		where := fmt.Sprintf("root %s: %s:%d: types", r.Name, l.File, l.Line)
		var bytes, n int64
		mhwm := map[string]int64{}
		ok := true
		for k, t := range l.Types {
			if err := checkTypeName(t.Type, k, func(i int) string { return l.Types[i].Type }); err != "" {
				return bad("%s: %s", where, err)
			}
			if t.AllocBytes < 0 || t.Allocs < 0 {
				return bad("%s: %s: alloc_bytes %d or allocs %d < 0", where, t.Type, t.AllocBytes, t.Allocs)
			}
			bytes, ok = sumAnd(ok, bytes, t.AllocBytes)
			n, ok = sumAnd(ok, n, t.Allocs)
			for _, key := range sortedKeys(t.MHWMBytes) {
				if _, in := l.MHWMBytes[key]; !in {
					return bad("%s: %s: mhwm_bytes for p = %s, which the line has none for", where, t.Type, key)
				}
				mhwm[key], ok = sumAnd(ok, mhwm[key], t.MHWMBytes[key])
			}
		}
		if !ok {
			return bad("%s: sums beyond the int64 range", where)
		}
		if bytes != l.AllocBytes || n != l.Allocs {
			return bad("%s: alloc_bytes and allocs sum to %d and %d, the line's are %d and %d", where, bytes, n, l.AllocBytes, l.Allocs)
		}
		for _, key := range sortedKeys(l.MHWMBytes) {
			if mhwm[key] != l.MHWMBytes[key] {
				return bad("%s: mhwm_bytes for p = %s sum to %d, the line's is %d", where, key, mhwm[key], l.MHWMBytes[key])
			}
		}
	}
	if r.Heap == nil {
		return nil
	}
	for j, s := range r.Heap.Samples {
		if len(s.Types) == 0 {
			continue
		}
		total, ok := int64(0), true
		for k, t := range s.Types {
			if err := checkTypeName(t.Type, k, func(i int) string { return s.Types[i].Type }); err != "" {
				return bad("root %s: heap sample %d: types: %s", r.Name, j, err)
			}
			total, ok = sumAnd(ok, total, t.Bytes)
		}
		if !ok || total != s.Bytes {
			return bad("root %s: heap sample %d: types' bytes sum to %s, bytes is %d", r.Name, j, sumString(total, ok), s.Bytes)
		}
	}
	return nil
}

// checkTypeName says what is wrong with the k-th type name of a list
// (at(i) is the i-th), or "": names are not empty and strictly
// increasing.
func checkTypeName(name string, k int, at func(int) string) string {
	switch {
	case name == "":
		return fmt.Sprintf("type %d has no name", k)
	case k > 0 && strings.Compare(at(k-1), name) >= 0:
		return fmt.Sprintf("%q after %q: not strictly increasing", name, at(k-1))
	}
	return ""
}

// sumAnd is sum(t, n) when ok is still true.
func sumAnd(ok bool, t, n int64) (int64, bool) {
	if !ok {
		return t, false
	}
	return sum(t, n)
}
