package report

import (
	"path/filepath"
	"slices"

	pprof "github.com/google/pprof/profile"

	"github.com/spgo/spgo/rtlib/profile"
)

// pathSamples adds r's samples by call path: one per path with a value,
// whose stack is the line's location, then its callers' (innermost
// first), then the root's frame.
func (b *pprofBuilder) pathSamples(p *profile.Profile, r *profile.Root, qs []int) {
	rootLoc := b.location("root "+r.Name, "", 0)
	for i := range r.Paths {
		pa := &r.Paths[i]
		vs := make([]int64, 0, len(qs)+2)
		for _, q := range qs {
			v, _ := r.PathMHWM(pa, q)
			vs = append(vs, v)
		}
		vs = append(vs, pa.AllocBytes, pa.Allocs)
		if !slices.ContainsFunc(vs, func(v int64) bool { return v != 0 }) {
			continue
		}
		l := &r.Lines[pa.Line]
		stack := []*pprof.Location{b.location(l.Func, sourceFile(p, l.File), l.Line)}
		for _, f := range pa.Callers {
			stack = append(stack, b.location(f.Func, sourceFile(p, f.File), f.Line))
		}
		b.prof.Sample = append(b.prof.Sample, &pprof.Sample{
			Location: append(stack, rootLoc),
			Value:    vs,
			Label:    map[string][]string{"root": {r.Name}},
		})
	}
}

// sourceFile is file as pprof should show it: absolute, under the
// profile's source root when relative.
func sourceFile(p *profile.Profile, file string) string {
	if p.SourceRoot != "" && file != "" && !filepath.IsAbs(file) {
		return filepath.Join(p.SourceRoot, file)
	}
	return file
}
