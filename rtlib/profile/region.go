package profile

// Region is the work and span of the computation a spawn site starts,
// after Cilkscale's per-region table (Root.Regions): the goroutines
// spawned there and everything they spawn, summed over the site's
// outermost instances (those not inside another instance of the same
// site, so that recursion is not counted twice). The root's own entry
// has Site "" and stands for the whole root.
//
// Two units: strands (the recorded graph's strands, maximal runs of a
// task between two scheduling events: deterministic counts, the same on
// every run) and wall-clock nanoseconds (each strand's duration in the
// recorded serial run, which includes the runtime's bookkeeping and
// varies from run to run; the field names end in _wall_ns). Span is the
// longest chain of dependent strands inside the region, by count or by
// duration; parallelism is work / span.
type Region struct {
	// Site is the spawn site, "file:line"; "" for the root.
	Site string `json:"site"`
	// Instances is how many goroutines the site spawned; Outermost how
	// many of them the figures sum (1 for the root).
	Instances int64 `json:"instances"`
	Outermost int64 `json:"outermost"`
	// WorkStrands and SpanStrands are the strands of the regions and
	// their longest chains, summed over the outermost instances.
	WorkStrands int64 `json:"work_strands"`
	SpanStrands int64 `json:"span_strands"`
	// WorkWallNS and SpanWallNS are the same in nanoseconds of the
	// recorded run's wall clock.
	WorkWallNS int64 `json:"work_wall_ns"`
	SpanWallNS int64 `json:"span_wall_ns"`
}

// validateRegions checks root r's regions: the root's first when
// present, sites listed once, 1 ≤ outermost ≤ instances, and in each
// unit 0 ≤ span ≤ work, with at least one strand per outermost instance
// in the span.
func validateRegions(r *Root, bad func(string, ...any) error) error {
	seen := map[string]bool{}
	for i, g := range r.Regions {
		where := "root " + r.Name + ": region " + g.Site
		if g.Site == "" {
			where = "root " + r.Name + ": the root's region"
			if i != 0 {
				return bad("%s is not listed first", where)
			}
		}
		if seen[g.Site] {
			return bad("%s listed twice", where)
		}
		seen[g.Site] = true
		switch {
		case g.Outermost < 1 || g.Outermost > g.Instances:
			return bad("%s: outermost %d outside 1..instances %d", where, g.Outermost, g.Instances)
		case g.SpanStrands < g.Outermost || g.SpanStrands > g.WorkStrands:
			return bad("%s: span_strands %d outside outermost %d..work_strands %d", where, g.SpanStrands, g.Outermost, g.WorkStrands)
		case g.SpanWallNS < 0 || g.SpanWallNS > g.WorkWallNS:
			return bad("%s: span_wall_ns %d outside 0..work_wall_ns %d", where, g.SpanWallNS, g.WorkWallNS)
		}
	}
	return nil
}
