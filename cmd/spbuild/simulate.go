package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spgo/spgo/internal/sim"
	"github.com/spgo/spgo/rtlib/profile"
	"github.com/spgo/spgo/rtlib/trace"
)

// simFlags are run's schedule-simulation flags.
type simFlags struct {
	on    bool
	dot   string
	dotAt string
	trace string
}

// simPs returns the processor counts simulated: the -p list, else 1, 2,
// 4, … and pmax.
func simPs(ps []int, pmax int) []int {
	if len(ps) > 0 {
		return ps
	}
	var out []int
	for p := 1; p < pmax; p *= 2 {
		out = append(out, p)
	}
	return append(out, pmax)
}

// simulate reads the trace the program recorded at path, simulates every
// root's graph for each policy and p in ps and adds the results to the
// profile's roots of the same name; with -dot it also draws one root's
// graph.
func (f *simFlags) simulate(prof *profile.Profile, path string, ps []int) error {
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("simulate: the program recorded no trace: %w", err)
	}
	graphs, err := trace.Read(file)
	file.Close()
	if err != nil {
		return fmt.Errorf("simulate: %s: %w", path, err)
	}
	opt := sim.Options{CurvePoints: sim.ProfileCurvePoints}
	byName := map[string]*profile.Root{}
	for i := range prof.Roots {
		byName[prof.Roots[i].Name] = &prof.Roots[i]
	}
	for _, g := range graphs {
		r := byName[g.Name]
		if r == nil {
			continue // a root the program left before its profile (partial)
		}
		rs, err := sim.SimulateAll(g, ps, opt)
		if err != nil {
			return fmt.Errorf("simulate %s: %w", g.Name, err)
		}
		r.Simulation = sim.Describe(g, opt)
		r.Regions = sim.Regions(g)
		r.Simulated = r.Simulated[:0]
		for _, res := range rs {
			r.Simulated = append(r.Simulated, sim.ForProfile(g, res))
		}
	}
	if err := prof.Validate(); err != nil {
		// A simulation the format refuses must not cost the profile.
		for i := range prof.Roots {
			prof.Roots[i].Simulation, prof.Roots[i].Simulated, prof.Roots[i].Regions = nil, nil, nil
		}
		return fmt.Errorf("simulate: results left out: %w", err)
	}
	if f.dot != "" {
		return f.writeDOT(graphs, ps, opt)
	}
	return nil
}

// writeDOT draws the first root's graph at the high-water step of the
// simulation -dot-at names (policy/p; default ws at the largest p).
func (f *simFlags) writeDOT(graphs []*trace.Graph, ps []int, opt sim.Options) error {
	if len(graphs) == 0 {
		return fmt.Errorf("-dot: the program recorded no root")
	}
	pol, p, err := parseAt(f.dotAt, ps[len(ps)-1])
	if err != nil {
		return err
	}
	g := graphs[0]
	r, err := sim.Simulate(g, pol, p, opt)
	if err != nil {
		return fmt.Errorf("-dot: %w", err)
	}
	out, err := os.Create(f.dot)
	if err != nil {
		return fmt.Errorf("-dot: %w", err)
	}
	if err := sim.WriteDOT(out, g, r, sim.DOTOptions{}); err != nil {
		out.Close()
		return fmt.Errorf("-dot %s: %w", f.dot, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("-dot %s: %w", f.dot, err)
	}
	return nil
}

// parseAt reads "policy/p", "policy" (p = defP) or "" (ws at defP).
func parseAt(s string, defP int) (sim.Policy, int, error) {
	if s == "" {
		return sim.WS, defP, nil
	}
	name, num, hasP := strings.Cut(s, "/")
	pol, err := sim.ParsePolicy(name)
	if err != nil {
		return 0, 0, fmt.Errorf("-dot-at %q: %w", s, err)
	}
	p := defP
	if hasP {
		if p, err = strconv.Atoi(num); err != nil || p < 1 || p > sim.MaxP {
			return 0, 0, fmt.Errorf("-dot-at %q: want policy/p with p in 1..%d", s, sim.MaxP)
		}
	}
	return pol, p, nil
}
