// Package profile is spgo's profile format, schema spgo.profile/v1: the
// data model an instrumented program writes when it ends and spreport
// reads. It depends on the standard library only (it is linked into
// instrumented programs).
//
// These fields are fixed (docs/profile.md): schema, roots[].name,
// roots[].exact, roots[].mhwm[] = {p, bytes}, roots[].lines[] = {file,
// line, func, alloc_bytes, allocs, mhwm_bytes: {"<p>": bytes}}. Fields may
// be added within v1; readers ignore fields they do not know. Everything
// is deterministic for a deterministic run except the wall-clock fields,
// which say so in their names: "wall", and the heap series'
// "wall_seconds" and "wall_byte_seconds"; and the simulated runs
// (Root.Simulated), which replay the strands with their measured
// durations, so that their times ("*_wall_ns") and with them their
// peaks, lines and curves may differ from run to run.
package profile

import "strconv"

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
	// Exact is false when a figure of this root may be off by more than
	// 3 % + 256 KiB: non-series-parallel synchronisation, an
	// approximation, a delayed join (upper bounds), or accounting whose
	// interval (Point.Low … Point.High) is wider than that. Reasons says
	// which.
	Exact   bool     `json:"exact"`
	Reasons []string `json:"reasons,omitempty"`
	// Unbounded is true when a reason says a figure may be below the
	// truth (a pool's reuse that a parallel schedule would not have, a
	// limit not modelled, bytes charged to the wrong strand): the figures
	// then bound nothing, and there is no interval. Never with Exact.
	Unbounded bool `json:"unbounded,omitempty"`
	// SelfCheckFailed is true when the run's own observation contradicts
	// the model: the serial peak the model computed was above the most
	// the process's heap held during the root (runtime/metrics at
	// censuses). SerialPeak is then that observed bound, and the other
	// figures are likely too high. Never with Exact.
	SelfCheckFailed bool `json:"self_check_failed,omitempty"`
	// MHWM is MHWM_p for p = 1 … PMax, in order.
	MHWM []Point `json:"mhwm"`
	// SerialPeak is the peak of the child-first serial run; SerialLow
	// and SerialHigh bound its truth as Point.Low and Point.High do
	// (both zero: no interval).
	SerialPeak int64 `json:"serial_peak"`
	SerialLow  int64 `json:"serial_low,omitempty"`
	SerialHigh int64 `json:"serial_high,omitempty"`
	// Work and Span are in the run's time unit (hook events).
	Work    int64 `json:"work"`
	Span    int64 `json:"span"`
	Strands int64 `json:"strands"`
	Spawns  int64 `json:"spawns"`
	// Censuses is how many censuses ran; CensusError is the most bytes
	// allocated between two of them. It is not a bound on the figures'
	// error: a root whose deaths were found late says so in Reasons
	// (deaths charged at a later join, the serial-peak self-check).
	Censuses    int64 `json:"censuses"`
	CensusError int64 `json:"census_error_bytes"`
	// CensusLag is how many bytes of small allocations by uninstrumented
	// code were seen only at a census (runtime/metrics counts them when
	// their span leaves the allocation cache) and charged to the strand
	// running then rather than to the one that made them.
	CensusLag int64 `json:"census_lag_bytes"`
	// Lines is the per-line table, sorted by file and line.
	Lines []Line `json:"lines"`
	// Attributed lists, in increasing order, the processor counts q whose
	// per-line shares Lines[].MHWMBytes hold: 1, the powers of two, PMax,
	// the first q where MHWM_q reaches MHWM_PMax, and the other q where
	// MHWM_q changes as far as the run's budget went (SPGO_ATTRIBUTE).
	// The worst case for an unlisted q is that of the largest listed q
	// below it when the two MHWM figures are equal (the antichain chosen
	// is then the same); otherwise q has no per-line figures. Use
	// Root.LineMHWM. Empty in threshold mode.
	Attributed []int `json:"attributed,omitempty"`
	// Paths splits the lines by call path (Path); absent in profiles of
	// spgo before call paths, whose lines then have no paths.
	Paths []Path `json:"paths,omitempty"`
	// Heap is the serial run's live heap over time by line (exact mode).
	Heap *Heap `json:"heap,omitempty"`
	// Antichain describes the worst case for the largest p.
	Antichain *Antichain `json:"antichain,omitempty"`
	// Threshold is the threshold mode's answer (MHWM is empty then).
	Threshold *ThresholdAnswer `json:"threshold,omitempty"`
	// Simulation describes the recorded graph the Simulated runs replayed
	// (spbuild run -simulate); nil when the root was not recorded.
	Simulation *Simulation `json:"simulation,omitempty"`
	// Simulated holds the schedule simulations of the root's recorded
	// graph, by policy (df, bf, ws, go) then p.
	Simulated []Simulated `json:"simulated,omitempty"`
	// Regions are the work and span per spawn site of the recorded graph
	// (spbuild run -simulate), the root's first, then by site; nil when
	// the root was not recorded.
	Regions []Region `json:"regions,omitempty"`
	// Stacks is the root's memory with its goroutines' stacks counted
	// beside the heap; nil in threshold mode, for a root that had not
	// ended, and in profiles of spgo before stacks. MHWM stays the
	// headline: the heap.
	Stacks *Stacks `json:"stacks,omitempty"`
	// Pool counts the root's sync.Pool Gets by instrumented code; nil
	// when there were none.
	Pool *Pool `json:"pool,omitempty"`
}

// Pool is how a root used sync.Pool. The figures model every Get that
// the run served with an object put back as an allocation of it, freed
// at its Put, since in a parallel schedule that Get may find the pool
// empty: p tasks in progress hold p objects. Reused is the run's own
// reuse, to read beside them.
type Pool struct {
	// Gets is how many Gets instrumented code made.
	Gets int64 `json:"gets"`
	// Reused is how many of them the run served with an object
	// instrumented code had put back (the others called New).
	Reused int64 `json:"reused"`
}

// Stacks is a root's memory with goroutine stacks: the goroutines the
// root started hold a stack of the runtime's starting size from their
// go statement until they are joined, as they hold their descriptor.
// Growth beyond the starting size is not in Total; the instrumented
// run's growth bounds it, and Total's High ends add it.
type Stacks struct {
	// StartBytes is the runtime's starting stack size (2 KiB unless
	// GODEBUG=adaptivestackstart=1).
	StartBytes int64 `json:"start_bytes"`
	// Goroutines is how many goroutines the root started.
	Goroutines int64 `json:"goroutines"`
	// Grown is how many of them the instrumented run saw with a stack
	// larger than StartBytes, and GrownBytes the sum of what each grew by
	// (rtlib's own frames grow stacks too: an upper bound of the
	// original's growth).
	Grown      int64 `json:"grown"`
	GrownBytes int64 `json:"grown_bytes"`
	// Exact is false when a Total figure may be off by more than 3 % +
	// 256 KiB: the heap figures are not exact, or stack growth makes an
	// interval wider than that.
	Exact bool `json:"exact"`
	// Total is MHWM_p of the heap and the stacks together, p = 1 …
	// PMax, each at least the heap's MHWM_p, with its interval (Low and
	// High both zero: none).
	Total []Point `json:"total"`
	// SerialPeak is the child-first serial run's peak of the two
	// together; SerialLow and SerialHigh bound it (both zero: no
	// interval).
	SerialPeak int64 `json:"serial_peak"`
	SerialLow  int64 `json:"serial_low,omitempty"`
	SerialHigh int64 `json:"serial_high,omitempty"`
}

// Simulation describes a root's recorded computation graph (package
// rtlib/trace) and how it was simulated (package sim).
type Simulation struct {
	Strands int64 `json:"strands"`
	Tasks   int64 `json:"tasks"`
	Deps    int64 `json:"deps"`
	// SyncDeps counts the dependencies that are not series-parallel
	// (channel, mutex, condition variable and errgroup-limit edges): with
	// any, simulated peaks are the realistic figures and MHWM is the
	// series-parallel bound of a relaxed graph.
	SyncDeps int64 `json:"sync_deps"`
	// FreesMoved counts the deaths placed earlier than the
	// series-parallel accounting could charge them, because the
	// synchronisation edges order them after every strand that might have
	// dropped the last reference.
	FreesMoved int64 `json:"frees_moved"`
	// Weights says what a strand's duration is: "wall_ns", the
	// nanoseconds it held the processor in the recorded (serial) run.
	// Simulated figures depend on these measured durations, so unlike
	// MHWM they may differ from run to run.
	Weights string `json:"weights"`
	// Seeds is how many seeds the seeded policies (ws, go) ran with.
	Seeds int `json:"seeds"`
	// TimeSliceNS is the go policy's preemption time slice.
	TimeSliceNS int64 `json:"time_slice_ns"`
}

// Simulated is one policy's simulated execution of a root's recorded
// graph on P processors. Memory in use is the model's: the net bytes of
// the strands completed plus the peak bytes of those started. Times are
// the recorded strands' wall-clock durations.
type Simulated struct {
	// Policy is "df" (depth-first, serial-elision priority), "bf"
	// (breadth-first, FIFO), "ws" (work stealing) or "go" (Go-runtime
	// like).
	Policy    string `json:"policy"`
	P         int    `json:"p"`
	PeakBytes int64  `json:"peak_bytes"`
	// PeakAtWallNS is when PeakBytes was first reached, and
	// MakespanWallNS when the last strand ended, in simulated time.
	PeakAtWallNS   int64 `json:"peak_at_wall_ns"`
	MakespanWallNS int64 `json:"makespan_wall_ns"`
	// Lines are the bytes live at the peak by line, bytes descending;
	// they sum to PeakBytes.
	Lines []SimLine `json:"lines,omitempty"`
	// Seeds summarises a seeded policy's peaks over its seeds; the rest of
	// the figures are those of the seed with the largest peak.
	Seeds *SimSeeds `json:"seeds,omitempty"`
	// Curve is memory in use over simulated time; each point is the
	// highest of its interval, so the peak is on it.
	Curve []SimPoint `json:"curve,omitempty"`
}

// SimLine is the bytes one line holds at a simulated peak. File and Line
// are empty and 0 for bytes of no known line.
type SimLine struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Bytes int64  `json:"bytes"`
}

// SimSeeds summarises a seeded policy's peaks over seeds 1..N.
type SimSeeds struct {
	N       int    `json:"n"`
	Min     int64  `json:"min"`
	Median  int64  `json:"median"`
	Max     int64  `json:"max"`
	MaxSeed uint64 `json:"max_seed"`
}

// SimPoint is the memory in use at a moment of simulated time.
type SimPoint struct {
	WallNS int64 `json:"wall_ns"`
	Bytes  int64 `json:"bytes"`
}

// ThresholdAnswer is the threshold mode's answer for (M, P): AtLeastHalf
// true guarantees MHWM_P ≥ M/2, false guarantees MHWM_P < M.
type ThresholdAnswer struct {
	M           int64 `json:"m"`
	P           int   `json:"p"`
	Value       int64 `json:"value"`
	AtLeastHalf bool  `json:"at_least_half"`
}

// Point is one MHWM figure and the interval that holds the truth.
type Point struct {
	P     int   `json:"p"`
	Bytes int64 `json:"bytes"`
	// Low and High bound the true MHWM_p of the run's computation (the
	// figure with every death charged where it happened): Low ≤ Bytes ≤
	// High. Both zero: no interval (the root's Reasons say why, as with
	// SPGO_CENSUS=off). For a root with non-series-parallel
	// synchronisation or a delayed join, the truth bounded is the
	// series-parallel relaxation's from above and the real one's from
	// below.
	Low  int64 `json:"low,omitempty"`
	High int64 `json:"high,omitempty"`
}

// Interval returns the bounds of the truth and whether p has them.
func (p Point) Interval() (low, high int64, ok bool) {
	return p.Low, p.High, p.High != 0
}

// Line is one source line's share.
type Line struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Func       string `json:"func"`
	AllocBytes int64  `json:"alloc_bytes"`
	Allocs     int64  `json:"allocs"`
	// Text is the source line, trimmed of surrounding space; empty when
	// the file could not be read when the profile was written.
	Text string `json:"text,omitempty"`
	// MHWMBytes maps p (as a decimal string) to the bytes this line
	// contributes to MHWM_p's worst-case antichain. Over all lines they
	// sum to MHWM_p exactly. Only the p of Root.Attributed are present.
	MHWMBytes map[string]int64 `json:"mhwm_bytes"`
	// MHWMSplit splits MHWMBytes by the state of the strands holding the
	// bytes in the worst case; keys as MHWMBytes.
	MHWMSplit map[string]Split `json:"mhwm_split,omitempty"`
	// Types splits the line's figures by the type of the values
	// allocated, in increasing order of name; absent in profiles of
	// spgo before it.
	Types []LineType `json:"types,omitempty"`
}

// Split divides a line's share of a worst case three ways: bytes of the
// antichain's strands at their peaks (running), bytes kept by finished
// predecessors (completed), and bytes kept by finished strands whose
// join has not happened yet (suspended).
type Split struct {
	Running   int64 `json:"running,omitempty"`
	Completed int64 `json:"completed,omitempty"`
	Suspended int64 `json:"suspended,omitempty"`
}

// Total returns Running + Completed + Suspended.
func (s Split) Total() int64 { return s.Running + s.Completed + s.Suspended }

// Heap is the live heap of a root's serial run over time, by line, in
// the style of Runciman and Wakeling's heap profiles. The run's clock is
// the strand count (deterministic); WallSeconds gives wall-clock time.
type Heap struct {
	// Samples are in execution order. A sample stands for an interval of
	// the run and holds its largest state, so the serial peak is kept.
	Samples []HeapSample `json:"samples"`
	// WallByteSeconds is the integral of live bytes over wall-clock time
	// (a wall-clock figure).
	WallByteSeconds float64 `json:"wall_byte_seconds"`
}

// HeapSample is the live heap at one moment of the serial run.
type HeapSample struct {
	// Strand is how many strands had started (deterministic clock).
	Strand int64 `json:"strand"`
	// WallSeconds is the wall-clock time since the root began.
	WallSeconds float64 `json:"wall_seconds"`
	// Bytes is the live heap in the model: the sum of Lines.
	Bytes int64 `json:"bytes"`
	// Lines are the lines holding live bytes, in Root.Lines order.
	Lines []LineBytes `json:"lines,omitempty"`
	// Types are the bytes by type, in increasing order of name (absent
	// in profiles of spgo before them); they sum to Bytes.
	Types []TypeBytes `json:"types,omitempty"`
}

// LineBytes is the bytes one line holds at a heap sample; Index is the
// line's position in Root.Lines.
type LineBytes struct {
	Index int   `json:"index"`
	Bytes int64 `json:"bytes"`
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

// AttributedAt returns the listed processor count whose per-line shares
// stand for MHWM_q (the largest one ≤ q, if its MHWM is MHWM_q), and
// false when there is none or q is out of range.
func (r *Root) AttributedAt(q int) (int, bool) {
	if q < 1 || q > len(r.MHWM) {
		return 0, false
	}
	best := 0
	for _, a := range r.Attributed {
		if a <= q {
			best = a
		}
	}
	if best < 1 || best > len(r.MHWM) || r.MHWM[best-1].Bytes != r.MHWM[q-1].Bytes {
		return 0, false
	}
	return best, true
}

// LineMHWM returns line l's share of MHWM_q and its split, and false if
// the root has no per-line shares for q.
func (r *Root) LineMHWM(l *Line, q int) (int64, Split, bool) {
	a, ok := r.AttributedAt(q)
	if !ok {
		return 0, Split{}, false
	}
	key := strconv.Itoa(a)
	return l.MHWMBytes[key], l.MHWMSplit[key], true
}

// MHWMAt returns MHWM_p, and false if p is outside the profile.
func (r *Root) MHWMAt(p int) (int64, bool) {
	if p < 1 || p > len(r.MHWM) {
		return 0, false
	}
	return r.MHWM[p-1].Bytes, true
}

// IntervalAt returns the bounds of the true MHWM_p, and whether r has
// them for p.
func (r *Root) IntervalAt(p int) (low, high int64, ok bool) {
	if p < 1 || p > len(r.MHWM) {
		return 0, 0, false
	}
	return r.MHWM[p-1].Interval()
}

// TotalAt returns the heap and stacks together at p (Stacks.Total),
// with its interval, and whether r has that figure.
func (r *Root) TotalAt(p int) (bytes, low, high int64, ok bool) {
	if r.Stacks == nil || p < 1 || p > len(r.Stacks.Total) {
		return 0, 0, 0, false
	}
	pt := r.Stacks.Total[p-1]
	low, high, _ = pt.Interval()
	return pt.Bytes, low, high, true
}

// HasInterval reports whether r's figures carry intervals.
func (r *Root) HasInterval() bool {
	_, _, ok := r.IntervalAt(len(r.MHWM))
	return ok
}
