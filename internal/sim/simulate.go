package sim

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/spgo/spgo/rtlib/trace"
)

// DefaultTimeSlice is the Go policy's time slice: the runtime's
// forcePreemptNS, 10 ms.
const DefaultTimeSlice = 10_000_000

// DefaultSeeds is how many seeds a seeded policy runs with by default.
const DefaultSeeds = 5

// MaxP is the largest processor count Simulate accepts.
const MaxP = 1 << 16

// Options tune a simulation. The zero value is ready to use.
type Options struct {
	// Seeds: a seeded policy (WS, Go) runs once with each seed 1..Seeds
	// and reports the run with the largest peak; 0 means DefaultSeeds.
	Seeds int
	// TimeSlice is how long (ns) the Go policy runs a strand before it
	// preempts it; 0 means DefaultTimeSlice, a negative value never.
	TimeSlice int64
	// CurvePoints bounds len(Result.Curve); 0 leaves the curve out.
	CurvePoints int
}

// Point is the memory in use at time T (ns).
type Point struct {
	T     int64 // ns since the start
	Bytes int64 // memory in use
}

// SiteLive is the bytes live at an allocation site.
type SiteLive struct {
	Site  int32 // the allocation site (trace.Graph.Sites names it)
	Bytes int64 // live bytes; negative when frees of the site's memory ran ahead
}

// SeedStats summarises the peaks of a seeded policy over its seeds.
type SeedStats struct {
	N                int    // seeds run: 1..N
	Min, Median, Max int64  // peaks; Median is the lower median
	MaxSeed          uint64 // the smallest seed whose run peaked at Max
}

// Status is where a strand stood at the high-water step.
type Status uint8

// The statuses of Result.Status.
const (
	NotStarted Status = iota
	Started           // running, or preempted: counted at its peak
	Completed         // counted at its net
)

// Result is one simulated execution.
type Result struct {
	Policy string // the policy's name
	P      int    // processors
	// PeakBytes is the most memory in use at any instant: Σ Net of the
	// strands completed plus Σ Peak of those started and not completed;
	// PeakAt is the first instant it was reached (ns).
	PeakBytes, PeakAt int64
	// Makespan is when the last strand completed (ns).
	Makespan int64
	// Sites is the memory at the peak by site (completed strands' per-site
	// Net plus started strands' AtPeak): entries ≠ 0, by bytes descending,
	// then site. They sum to PeakBytes.
	Sites []SiteLive
	// Curve is memory over time, at most Options.CurvePoints points: each
	// time bucket keeps its highest point, so the peak is exact.
	Curve []Point
	// Status gives every strand's status at the high-water step.
	Status []Status
	// Seeds is set for a seeded policy: the peaks over the seeds; the rest
	// of the Result is the run of MaxSeed.
	Seeds *SeedStats
}

// Simulate runs graph g under policy pol on p processors. Time is driven
// by events and the strands' real weights: a strand started at t ends at
// t+Work. At one instant, every completion is handled (by processor
// index) before any start, and idle processors start work in index order;
// the same input gives the same Result.
func Simulate(g *trace.Graph, pol Policy, p int, opt Options) (Result, error) {
	pr, err := newPrep(g)
	if err != nil {
		return Result{}, err
	}
	return simulate(pr, pol, p, opt)
}

// SimulateAll runs every policy for every processor count in ps, in the
// order of Policies, then ps.
func SimulateAll(g *trace.Graph, ps []int, opt Options) ([]Result, error) {
	pr, err := newPrep(g)
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, pol := range Policies() {
		for _, p := range ps {
			r, err := simulate(pr, pol, p, opt)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func simulate(pr *prep, pol Policy, p int, opt Options) (Result, error) {
	if p < 1 || p > MaxP {
		return Result{}, fmt.Errorf("sim: %d processors: want 1..%d", p, MaxP)
	}
	if int(pol) >= len(policyNames) {
		return Result{}, fmt.Errorf("sim: unknown policy %d", pol)
	}
	if opt.Seeds < 0 || opt.CurvePoints < 0 {
		return Result{}, fmt.Errorf("sim: negative Seeds or CurvePoints")
	}
	slice := int64(0)
	if pol == Go {
		slice = cmp.Or(opt.TimeSlice, DefaultTimeSlice)
		slice = max(slice, 0)
	}
	if !pol.Seeded() {
		return run(pr, pol, p, 0, slice, opt)
	}
	k := cmp.Or(opt.Seeds, DefaultSeeds)
	peaks := make([]int64, 0, k)
	var best Result
	var maxSeed uint64
	for seed := uint64(1); seed <= uint64(k); seed++ {
		if p == 1 && seed > 1 { // one processor never draws
			peaks = append(peaks, best.PeakBytes)
			continue
		}
		r, err := run(pr, pol, p, seed, slice, opt)
		if err != nil {
			return Result{}, err
		}
		peaks = append(peaks, r.PeakBytes)
		if seed == 1 || r.PeakBytes > best.PeakBytes {
			best, maxSeed = r, seed
		}
	}
	slices.Sort(peaks)
	best.Seeds = &SeedStats{N: k, Min: peaks[0], Median: peaks[(k-1)/2], Max: peaks[k-1], MaxSeed: maxSeed}
	return best, nil
}
