package sim

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/spgo/spgo/rtlib/profile"
	"github.com/spgo/spgo/rtlib/trace"
)

// ProfileCurvePoints is the curve size (Options.CurvePoints) for
// simulations whose results go into a profile: enough for a chart.
const ProfileCurvePoints = 240

// Describe summarises g and the options it is simulated with, for a
// profile's Root.Simulation.
func Describe(g *trace.Graph, opt Options) *profile.Simulation {
	s := &profile.Simulation{
		Strands: int64(len(g.Strands)), Tasks: int64(len(g.Tasks)), Deps: int64(len(g.Deps)),
		Weights: "wall_ns", Seeds: cmp.Or(opt.Seeds, DefaultSeeds),
		TimeSliceNS: cmp.Or(opt.TimeSlice, DefaultTimeSlice),
	}
	for _, d := range g.Deps {
		if d.Kind > trace.Join {
			s.SyncDeps++
		}
	}
	for _, f := range g.Frees {
		if f.Placed != f.At {
			s.FreesMoved++
		}
	}
	return s
}

// ForProfile converts r, a Result of simulating g, into a profile's
// Simulated entry: sites become lines (named by g.Sites, "file:line").
func ForProfile(g *trace.Graph, r Result) profile.Simulated {
	out := profile.Simulated{
		Policy: r.Policy, P: r.P, PeakBytes: r.PeakBytes,
		PeakAtWallNS: r.PeakAt, MakespanWallNS: r.Makespan,
	}
	byLine := map[profile.SimLine]int64{}
	for _, s := range r.Sites {
		file, line := splitPos(g.Sites[s.Site])
		byLine[profile.SimLine{File: file, Line: line}] += s.Bytes
	}
	for l, b := range byLine {
		if b != 0 {
			l.Bytes = b
			out.Lines = append(out.Lines, l)
		}
	}
	slices.SortFunc(out.Lines, func(a, b profile.SimLine) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	if s := r.Seeds; s != nil {
		out.Seeds = &profile.SimSeeds{N: s.N, Min: s.Min, Median: s.Median, Max: s.Max, MaxSeed: s.MaxSeed}
	}
	for _, p := range r.Curve {
		out.Curve = append(out.Curve, profile.SimPoint{WallNS: p.T, Bytes: p.Bytes})
	}
	return out
}

// splitPos splits a site name "file:line" (the recorder's form); any
// other name is a file with line 0, and "?" or "" no file.
func splitPos(name string) (string, int) {
	if name == "" || name == "?" {
		return "", 0
	}
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		if n, err := strconv.Atoi(name[i+1:]); err == nil && n > 0 {
			return name[:i], n
		}
	}
	return name, 0
}
