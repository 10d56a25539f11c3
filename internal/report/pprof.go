package report

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	pprof "github.com/google/pprof/profile"

	"github.com/spgo/spgo/rtlib/profile"
)

// PprofOptions controls WritePprof.
type PprofOptions struct {
	// Qs are the processor counts given a sample type mhwm_<q>; nil means
	// DefaultPs(pmax) (1, 2, 4, … and pmax). Counts outside 1..pmax are an error.
	Qs []int
	// Root selects one root by name; "" writes every root.
	Root string
	// By is "line" (default: one sample per line) or "type": one sample
	// per line and type, labelled "type" (pprofByType).
	By string
}

// WritePprof writes p as a gzipped pprof protobuf profile (github.com/google/pprof/profile).
//
// The sample types are mhwm_<q> (bytes) for each q of o.Qs, then
// alloc_space (bytes) and alloc_objects (count); the default is mhwm_ of
// the largest q. Each call path of a root (Root.Paths) with a non-zero
// value is one sample whose stack is its line's location, its callers'
// and a frame "root <name>", and whose label "root" is the root's name;
// a root without paths (a profile of an older spgo), and every root with
// o.By "type", has one sample per line, its location under the root's
// frame, and with o.By "type" one per line and type, with the label
// "type" (pprofByType). A sample's mhwm_<q> is its path's or line's
// share of the worst case at q (Root.PathMHWM, Root.LineMHWM), so a
// root's samples sum to MHWM_q.
func WritePprof(w io.Writer, p *profile.Profile, o PprofOptions) error {
	prof, err := toPprof(p, o)
	if err == nil {
		err = prof.CheckValid()
	}
	if err == nil {
		err = prof.Write(w)
	}
	if err != nil {
		return fmt.Errorf("pprof: %w", err)
	}
	return nil
}

// toPprof builds the pprof profile of p.
func toPprof(p *profile.Profile, o PprofOptions) (*pprof.Profile, error) {
	roots, err := SelectRoots(p, o.Root)
	if err != nil {
		return nil, err
	}
	hasMHWM := slices.ContainsFunc(roots, func(r *profile.Root) bool { return len(r.MHWM) > 0 })
	qs := o.Qs
	switch {
	case qs == nil && hasMHWM:
		qs = DefaultPs(p.PMax)
	case len(qs) > 0 && !hasMHWM:
		return nil, errors.New("the profile has no MHWM figures (threshold mode?), so there is no mhwm_<q> to write")
	}
	for i, q := range qs {
		if q < 1 || q > p.PMax {
			return nil, fmt.Errorf("processor count %d is outside 1..%d", q, p.PMax)
		}
		if slices.Contains(qs[:i], q) {
			return nil, fmt.Errorf("processor count %d given twice", q)
		}
		for _, r := range roots {
			if _, ok := r.AttributedAt(q); !ok && len(r.MHWM) > 0 && len(r.Lines) > 0 {
				return nil, fmt.Errorf("root %q has no per-line figures for p = %d (%s)", r.Name, q, attributedHint(r))
			}
		}
	}

	b := &pprofBuilder{
		prof: &pprof.Profile{
			DefaultSampleType: "alloc_space",
			// One mapping that says the locations are symbolized, so
			// pprof does not look for a binary to symbolize them with.
			Mapping: []*pprof.Mapping{{ID: 1, HasFunctions: true, HasFilenames: true, HasLineNumbers: true}},
		},
		funcs: map[pprofFunc]*pprof.Function{},
		locs:  map[pprofLoc]*pprof.Location{},
	}
	prof := b.prof
	for _, q := range qs {
		prof.SampleType = append(prof.SampleType, &pprof.ValueType{Type: "mhwm_" + strconv.Itoa(q), Unit: "bytes"})
	}
	if len(qs) > 0 {
		prof.DefaultSampleType = "mhwm_" + strconv.Itoa(slices.Max(qs))
	}
	prof.SampleType = append(prof.SampleType,
		&pprof.ValueType{Type: "alloc_space", Unit: "bytes"},
		&pprof.ValueType{Type: "alloc_objects", Unit: "count"})

	prof.Comments = append(prof.Comments, fmt.Sprintf("spgo MHWM profile, program %s, pmax %d", p.Program, p.PMax))
	if p.Threshold > 0 {
		prof.Comments = append(prof.Comments, "threshold mode, M = "+Bytes(p.Threshold))
	}
	if p.Partial {
		prof.Comments = append(prof.Comments, "partial profile: the program did not end normally")
	}
	if p.Wall != nil {
		if t, err := time.Parse(time.RFC3339, p.Wall.Start); err == nil {
			prof.TimeNanos = t.UnixNano()
		}
		prof.DurationNanos = int64(p.Wall.Seconds * 1e9)
	}

	for _, r := range roots {
		state := exactness(r)
		if !r.Exact {
			if len(r.Reasons) > 0 {
				state += ": " + strings.Join(r.Reasons, "; ")
			}
		}
		prof.Comments = append(prof.Comments, fmt.Sprintf("root %s: %s", r.Name, state))
		if len(r.Paths) > 0 && o.By != "type" {
			b.pathSamples(p, r, qs)
			continue
		}
		for i := range r.Lines {
			l := &r.Lines[i]
			vs := make([]int64, 0, len(qs)+2)
			for _, q := range qs {
				v, _, _ := r.LineMHWM(l, q)
				vs = append(vs, v)
			}
			vs = append(vs, l.AllocBytes, l.Allocs)
			if !slices.ContainsFunc(vs, func(v int64) bool { return v != 0 }) {
				continue
			}
			s := &pprof.Sample{
				Location: []*pprof.Location{b.location(l.Func, sourceFile(p, l.File), l.Line), b.location("root "+r.Name, "", 0)},
				Value:    vs,
				Label:    map[string][]string{"root": {r.Name}},
			}
			if o.By == "type" {
				prof.Sample = append(prof.Sample, pprofByType(s, r, l, qs)...)
			} else {
				prof.Sample = append(prof.Sample, s)
			}
		}
	}
	return prof, nil
}

type pprofFunc struct{ name, file string }

type pprofLoc struct {
	pprofFunc
	line int
}

// pprofBuilder adds functions and locations to prof, one per distinct key.
type pprofBuilder struct {
	prof  *pprof.Profile
	funcs map[pprofFunc]*pprof.Function
	locs  map[pprofLoc]*pprof.Location
}

// location returns the location of line in function name of file.
func (b *pprofBuilder) location(name, file string, line int) *pprof.Location {
	k := pprofLoc{pprofFunc{name, file}, line}
	if loc := b.locs[k]; loc != nil {
		return loc
	}
	f := b.funcs[k.pprofFunc]
	if f == nil {
		f = &pprof.Function{ID: uint64(len(b.prof.Function) + 1), Name: name, SystemName: name, Filename: file}
		b.funcs[k.pprofFunc] = f
		b.prof.Function = append(b.prof.Function, f)
	}
	loc := &pprof.Location{
		ID:      uint64(len(b.prof.Location) + 1),
		Mapping: b.prof.Mapping[0],
		Line:    []pprof.Line{{Function: f, Line: int64(line)}},
	}
	b.locs[k] = loc
	b.prof.Location = append(b.prof.Location, loc)
	return loc
}
