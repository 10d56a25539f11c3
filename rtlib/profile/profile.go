// Package profile is spgo's profile format, schema spgo.profile/v1: the
// data model an instrumented program writes when it ends and spreport
// reads. It depends on the standard library only (it is linked into
// instrumented programs).
//
// The fields DESIGN.md names are fixed: schema, roots[].name,
// roots[].exact, roots[].mhwm[] = {p, bytes}, roots[].lines[] = {file,
// line, func, alloc_bytes, allocs, mhwm_bytes: {"<p>": bytes}}. Fields may
// be added within v1; readers ignore fields they do not know. Everything
// is deterministic for a deterministic run except the fields under
// "wall", which are wall-clock times and say so.
package profile

// Schema is the value of the schema field of every profile this package
// writes and the only one Read accepts.
const Schema = "spgo.profile/v1"

// Profile is one run of an instrumented program (or test binary).
type Profile struct {
	Schema  string   `json:"schema"`
	Program string   `json:"program"`
	Args    []string `json:"args,omitempty"`
	// PMax is the largest processor count every figure was computed for.
	PMax int `json:"pmax"`
	// Threshold is the threshold mode's M in bytes, 0 in exact mode.
	Threshold int64 `json:"threshold,omitempty"`
	// Census says how memory was measured and the error bound.
	Census Census `json:"census"`
	Roots  []Root `json:"roots"`
	// SourceRoot is the directory that relative Line.File names are
	// relative to (the main module's root; SPGO_SOURCE_ROOT); empty when
	// every name is absolute.
	SourceRoot string `json:"source_root,omitempty"`
	// Partial is set when the profile was written before the program
	// ended normally (a panic, os.Exit, log.Fatal, a signal).
	Partial  bool      `json:"partial,omitempty"`
	Warnings []Warning `json:"warnings,omitempty"`
	// Wall holds wall-clock figures, the only fields that change from
	// run to run.
	Wall *Wall `json:"wall,omitempty"`
}

// Census is the memory-measurement policy of a run.
type Census struct {
	// Policy names the mechanism, e.g. "hooks+gc-census".
	Policy string `json:"policy"`
	// ErrorBound is the bounded-error rule's E: a census runs before the
	// heap grows past M·(1+E) − L bytes since the last one.
	ErrorBound float64 `json:"error_bound"`
}

// Root is one root: main.main, or one test, benchmark, fuzz target or
// example.
type Root struct {
	Name string `json:"name"`
	// Exact is false when a figure of this root is an upper bound rather
	// than the value: non-series-parallel synchronisation, an
	// approximation, a delayed join. Reasons says which.
	Exact   bool     `json:"exact"`
	Reasons []string `json:"reasons,omitempty"`
	// MHWM is MHWM_p for p = 1 … PMax, in order.
	MHWM []Point `json:"mhwm"`
	// SerialPeak is the peak of the child-first serial run.
	SerialPeak int64 `json:"serial_peak"`
	// Work and Span are in the run's time unit (hook events).
	Work    int64 `json:"work"`
	Span    int64 `json:"span"`
	Strands int64 `json:"strands"`
	Spawns  int64 `json:"spawns"`
	// Censuses is how many censuses ran; CensusError bounds, in bytes,
	// how much a figure may be above the true model value because of
	// when deaths were found.
	Censuses    int64 `json:"censuses"`
	CensusError int64 `json:"census_error_bytes"`
	// CensusLag is how many bytes of small allocations by uninstrumented
	// code were seen only at a census (runtime/metrics counts them when
	// their span leaves the allocation cache) and charged to the strand
	// running then rather than to the one that made them.
	CensusLag int64 `json:"census_lag_bytes"`
	// Lines is the per-line table, sorted by file and line.
	Lines []Line `json:"lines"`
	// Antichain describes the worst case for the largest p.
	Antichain *Antichain `json:"antichain,omitempty"`
	// Threshold is the threshold mode's answer (MHWM is empty then).
	Threshold *ThresholdAnswer `json:"threshold,omitempty"`
}

// ThresholdAnswer is the threshold mode's answer for (M, P): AtLeastHalf
// true guarantees MHWM_P ≥ M/2, false guarantees MHWM_P < M.
type ThresholdAnswer struct {
	M           int64 `json:"m"`
	P           int   `json:"p"`
	Value       int64 `json:"value"`
	AtLeastHalf bool  `json:"at_least_half"`
}

// Point is one MHWM figure.
type Point struct {
	P     int   `json:"p"`
	Bytes int64 `json:"bytes"`
}

// Line is one source line's share.
type Line struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Func       string `json:"func"`
	AllocBytes int64  `json:"alloc_bytes"`
	Allocs     int64  `json:"allocs"`
	// MHWMBytes maps p (as a decimal string) to the bytes this line
	// contributes to MHWM_p's worst-case antichain.
	MHWMBytes map[string]int64 `json:"mhwm_bytes"`
}

// Antichain summarises a worst-case antichain: the bytes of its strands
// that are running, completed (kept after their end) and suspended.
type Antichain struct {
	P         int   `json:"p"`
	Bytes     int64 `json:"bytes"`
	Running   int64 `json:"running"`
	Completed int64 `json:"completed"`
	Suspended int64 `json:"suspended"`
}

// Warning is something the run could not do as asked, with the site.
type Warning struct {
	Pos     string `json:"pos,omitempty"` // file:line
	Message string `json:"message"`
}

// Wall holds wall-clock figures.
type Wall struct {
	Start   string  `json:"start"` // RFC 3339
	Seconds float64 `json:"seconds"`
}

// MHWMAt returns MHWM_p, and false if p is outside the profile.
func (r *Root) MHWMAt(p int) (int64, bool) {
	if p < 1 || p > len(r.MHWM) {
		return 0, false
	}
	return r.MHWM[p-1].Bytes, true
}
