package rtlib

import (
	"cmp"
	"maps"
	"slices"

	"github.com/spgo/spgo/rtlib/mhwm"
	"github.com/spgo/spgo/rtlib/profile"
)

// The names of bytes that no allocation site of a known type made
// (docs/profile.md, "By type").
const (
	typeGoroutine      = "(goroutine)"      // a spawn's descriptor, and uninstrumented bytes charged at a spawn
	typeUninstrumented = "(uninstrumented)" // uninstrumented code's bytes, charged at a call or another site
	typeUnknown        = "(unknown)"        // a site never registered
)

// siteType returns the by-type name of the bytes charged to site.
func siteType(site Site) string {
	rec, ok := Lookup(site)
	switch {
	case !ok:
		return typeUnknown
	case rec.Type != "":
		return rec.Type
	case rec.Op == OpGo || rec.Op == OpWGGo || rec.Op == OpGroupGo:
		return typeGoroutine
	}
	return typeUninstrumented
}

// typeTable splits a root's per-line rows by type (profile.Line.Types).
type typeTable struct {
	lt    *lineTable
	rows  map[*profile.Line]map[string]*profile.LineType
	names map[Site]string
}

func newTypeTable(lt *lineTable) *typeTable {
	return &typeTable{lt: lt, rows: map[*profile.Line]map[string]*profile.LineType{}, names: map[Site]string{}}
}

// name is siteType, once per site.
func (tt *typeTable) name(site Site) string {
	n, ok := tt.names[site]
	if !ok {
		n = siteType(site)
		tt.names[site] = n
	}
	return n
}

// of returns the entry of site's type in site's line.
func (tt *typeTable) of(site Site) *profile.LineType {
	l := tt.lt.row(site)
	m := tt.rows[l]
	if m == nil {
		m = map[string]*profile.LineType{}
		tt.rows[l] = m
	}
	name := tt.name(site)
	t := m[name]
	if t == nil {
		t = &profile.LineType{Type: name}
		m[name] = t
	}
	return t
}

// alloc adds site's allocation totals.
func (tt *typeTable) alloc(site Site, bytes, n int64) {
	t := tt.of(site)
	t.AllocBytes += bytes
	t.Allocs += n
}

// share adds site's share of the worst case whose key is key.
func (tt *typeTable) share(site Site, key string, bytes int64) {
	t := tt.of(site)
	if t.MHWMBytes == nil {
		t.MHWMBytes = map[string]int64{}
	}
	t.MHWMBytes[key] += bytes
}

// attach sets the Types of every line the table split, in name order.
func (tt *typeTable) attach() {
	for l, m := range tt.rows {
		l.Types = make([]profile.LineType, 0, len(m))
		for _, name := range slices.Sorted(maps.Keys(m)) {
			l.Types = append(l.Types, *m[name])
		}
	}
}

// sample returns a heap sample's bytes by type, in name order, leaving
// out types that hold none.
func (tt *typeTable) sample(sites []mhwm.SiteBytes) []profile.TypeBytes {
	by := map[string]int64{}
	for _, sb := range sites {
		by[tt.name(Site(sb.Site))] += sb.Bytes
	}
	out := make([]profile.TypeBytes, 0, len(by))
	for name, b := range by {
		if b != 0 {
			out = append(out, profile.TypeBytes{Type: name, Bytes: b})
		}
	}
	slices.SortFunc(out, func(a, b profile.TypeBytes) int { return cmp.Compare(a.Type, b.Type) })
	return out
}
