package mhwm

import (
	"fmt"
	"sync"
)

// Site identifies an allocation site (a source line, in spgo). Site 0 is
// "(unattributed)": allocations below a sampling threshold, frees of blocks
// whose site is unknown.
type Site int32

// MaxP is the largest processor bound an Engine accepts. Exact mode keeps
// O(P) words per open scope and spends O(P) per fold at least.
const MaxP = 1 << 16

// MaxLimit is the largest errgroup limit modelled exactly: a limited block
// costs O(P·min(limit, children)) per fold. A larger limit is exact only for
// blocks with at most that many children; others are reported inexact.
const MaxLimit = 1024

// MaxBytes bounds the bytes a run may allocate in total, and MaxWork the
// time units it may report, so that no water mark overflows int64.
const (
	MaxBytes = 1 << 62
	MaxWork  = 1 << 62
)

// Config selects what an Engine computes.
type Config struct {
	// P is the largest processor count asked about (pmax ≥ 1). In exact
	// mode the run answers MHWM_q for every q ≤ P.
	P int
	// Threshold, when > 0, selects the threshold mode (docs/algorithms.md, "Threshold mode"): the run
	// answers only whether MHWM_P ≥ Threshold/2 or MHWM_P < Threshold, in
	// O(1) words per open block and time independent of P.
	Threshold int64
	// Attribution keeps a compact serial trace of strand summaries so that
	// Result.Attribute can return the worst-case antichain and a per-site
	// map for any q (exact mode only).
	Attribution bool
	// Clock, when set with Attribution, is read at the end of every strand
	// so that Result.SerialHeap can give times (in the clock's units).
	Clock func() int64
	// Grown, when set with Attribution, is called whenever the trace's
	// storage gets a new backing array, with the array's bytes and those
	// of the array it replaces (garbage from then on; 0 for none), so
	// that a caller measuring the heap can tell the engine's bytes from
	// its own; and with alloc 0 for each array when the trace is dropped
	// (TraceLimit, Result.DropTrace). The storage stays reachable from
	// the engine and the Result until then.
	Grown func(alloc, dropped int64)
	// Made, when set, is called with the bytes of every array the exact
	// domain makes for its summaries, blocks and frames (recycled, they
	// grow with the depth and width of the DAG, not with its length), so
	// that a caller counting the heap's allocations can tell the
	// engine's from its own. They stay reachable from the engine.
	Made func(n int64)
	// TraceLimit, when > 0 with Attribution, bounds the bytes the trace's
	// storage may hold, counting, while an array is copied to a larger
	// one, both. An event that would need more drops the trace: the
	// figures do not change, but Attribute, Diff and SerialHeap have
	// nothing to answer from (Result.TraceDropped says when).
	TraceLimit int64
}

// EventError reports an event that does not fit the stream so far. The
// engine's state is as it was before the event.
type EventError struct {
	Index  int64  // 1-based position of the event in the stream
	Event  string // "alloc", "free", "spawn", "return", "sync", "call", "callreturn", "setlimit", "exit"
	Reason string
}

func (e *EventError) Error() string {
	return fmt.Sprintf("mhwm: event %d (%s): %s", e.Index, e.Event, e.Reason)
}

// core is the summary domain behind an Engine: exact or threshold.
type core interface {
	depth() int
	topSpawned() bool
	topOpen() bool
	spawn(m, s, dur int64)
	ret(m, s, dur int64)
	sync(m, s, dur int64)
	call()
	callReturn(m, s, dur int64)
	setLimit(limit int)
}

// Engine computes the memory high-water mark of one root online from the
// events of its serial, child-first execution (docs/algorithms.md, "The event driver"). It holds O(p·D)
// words, D being the depth of open scopes. An Engine is not safe for
// concurrent use: spgo runs instrumented code serially.
type Engine struct {
	cfg    Config
	events int64

	cur, peak, dur        int64 // current strand
	serialCur, serialPeak int64
	allocated             int64 // total bytes allocated
	strands, spawns       int64
	workTime              int64

	core    core
	exact   *driver[comp, *block, *exactAlg]
	approx  *driver[approx, *approxBlock, approxAlg]
	rec     *recorder
	dropped int64 // strands when the trace was dropped; 0: it was not
	exited  bool
}

// New returns an engine for cfg.
func New(cfg Config) (*Engine, error) {
	if cfg.P < 1 || cfg.P > MaxP {
		return nil, fmt.Errorf("mhwm: processor bound %d: want 1..%d", cfg.P, MaxP)
	}
	if cfg.Threshold < 0 {
		return nil, fmt.Errorf("mhwm: threshold %d: want > 0 (or 0 for exact mode)", cfg.Threshold)
	}
	if cfg.TraceLimit < 0 {
		return nil, fmt.Errorf("mhwm: trace limit %d: want > 0 (or 0 for none)", cfg.TraceLimit)
	}
	if cfg.Threshold > 0 && cfg.Attribution {
		return nil, fmt.Errorf("mhwm: attribution needs exact mode, not a threshold")
	}
	e := &Engine{cfg: cfg}
	if cfg.Threshold > 0 {
		e.approx = &driver[approx, *approxBlock, approxAlg]{}
		e.approx.init(approxAlg{Threshold{M: cfg.Threshold, P: cfg.P}})
		e.core = e.approx
	} else {
		e.exact = &driver[comp, *block, *exactAlg]{made: cfg.Made}
		e.exact.init(&exactAlg{p: cfg.P, made: cfg.Made})
		e.core = e.exact
	}
	if cfg.Attribution {
		e.rec = newRecorder(cfg.Grown, cfg.TraceLimit)
		e.rec.clock = cfg.Clock
	}
	return e, nil
}

func (e *Engine) fail(event, format string, args ...any) error {
	return &EventError{Index: e.events, Event: event, Reason: fmt.Sprintf(format, args...)}
}

// check counts an event and rejects any after Exit.
func (e *Engine) check(event string) error {
	e.events++
	if e.exited {
		return e.fail(event, "after exit")
	}
	return nil
}

// Alloc records n bytes allocated at site by the current strand.
func (e *Engine) Alloc(site Site, n int64) error {
	if err := e.check("alloc"); err != nil {
		return err
	}
	if n < 0 {
		return e.fail("alloc", "negative size %d", n)
	}
	if site < 0 {
		return e.fail("alloc", "negative site %d", site)
	}
	if n > MaxBytes-e.allocated {
		return e.fail("alloc", "the run would allocate more than 2^62 bytes in total")
	}
	e.allocated += n
	e.cur += n
	e.peak = max(e.peak, e.cur)
	e.serialCur += n
	e.serialPeak = max(e.serialPeak, e.serialCur)
	if e.recording() {
		e.rec.alloc(site, n)
	}
	return nil
}

// Free records n bytes, allocated at site, released in the current strand.
// The bytes may have been allocated by any earlier strand; freeing more than
// is live in the run so far is an error.
func (e *Engine) Free(site Site, n int64) error {
	if err := e.check("free"); err != nil {
		return err
	}
	if n < 0 {
		return e.fail("free", "negative size %d", n)
	}
	if site < 0 {
		return e.fail("free", "negative site %d", site)
	}
	if n > e.serialCur {
		return e.fail("free", "frees %d bytes but only %d are live", n, e.serialCur)
	}
	e.cur -= n
	e.serialCur -= n
	if e.recording() {
		e.rec.alloc(site, -n)
	}
	return nil
}

// Work adds d units of time (the caller's clock) to the current strand; with
// it, Result.WorkTime and SpanTime are durations as well as strand counts.
func (e *Engine) Work(d int64) error {
	if err := e.check("work"); err != nil {
		return err
	}
	if d < 0 {
		return e.fail("work", "negative duration %d", d)
	}
	if d > MaxWork-e.workTime-e.dur {
		return e.fail("work", "the run's total work would exceed 2^62")
	}
	e.dur += d
	return nil
}

// endStrand returns the current strand's summary and starts a new strand.
func (e *Engine) endStrand() (m, s, dur int64) {
	m, s, dur = e.peak, e.cur, e.dur
	e.cur, e.peak, e.dur = 0, 0, 0
	e.strands++
	e.workTime += dur
	return m, s, dur
}

// Spawn ends the current strand; the spawned child runs next (child first).
func (e *Engine) Spawn() error {
	if err := e.check("spawn"); err != nil {
		return err
	}
	e.spawns++
	m, s, dur := e.endStrand()
	e.core.spawn(m, s, dur)
	if e.recording() {
		e.rec.spawn(m, s)
	}
	return nil
}

// Return ends the running spawned child (and its implicit sync) and resumes
// the parent's continuation.
func (e *Engine) Return() error {
	if err := e.check("return"); err != nil {
		return err
	}
	if !e.core.topSpawned() {
		if e.core.depth() > 1 {
			return e.fail("return", "inside a called function that has not returned")
		}
		return e.fail("return", "no spawned task is running")
	}
	m, s, dur := e.endStrand()
	e.core.ret(m, s, dur)
	if e.recording() {
		e.rec.ret(m, s)
	}
	return nil
}

// Sync joins every child spawned in the current scope since its last sync.
// A sync in a scope with no outstanding spawn is an error: the caller knows
// whether it spawned.
func (e *Engine) Sync() error {
	if err := e.check("sync"); err != nil {
		return err
	}
	if !e.core.topOpen() {
		return e.fail("sync", "no spawn is outstanding in this scope")
	}
	m, s, dur := e.endStrand()
	e.core.sync(m, s, dur)
	if e.recording() {
		e.rec.sync(m, s)
	}
	return nil
}

// Call opens the sync scope of a called function that may spawn. The current
// strand goes on into the callee.
func (e *Engine) Call() error {
	if err := e.check("call"); err != nil {
		return err
	}
	e.core.call()
	if e.recording() {
		e.rec.call()
	}
	return nil
}

// CallReturn closes the scope opened by the matching Call, with an implicit
// sync if the callee left spawns outstanding.
func (e *Engine) CallReturn() error {
	if err := e.check("callreturn"); err != nil {
		return err
	}
	if e.core.depth() == 1 || e.core.topSpawned() {
		return e.fail("callreturn", "no called function is open")
	}
	if e.core.topOpen() { // the implicit sync ends the strand
		m, s, dur := e.endStrand()
		e.core.callReturn(m, s, dur)
		if e.recording() {
			e.rec.callReturn(true, m, s)
		}
	} else { // the strand goes on in the caller
		e.core.callReturn(0, 0, 0)
		if e.recording() {
			e.rec.callReturn(false, 0, 0)
		}
	}
	return nil
}

// SetLimit gives the current scope's next sync block an errgroup limit
// (errgroup.Group.SetLimit): at most limit of its children may be started
// and unfinished at once; a child spawned but not yet run holds a slot, and
// the parent blocks at a spawn while limit children are unfinished. MHWM is
// then the worst case over the schedules that respect the limit, which can
// be below or ABOVE the unlimited figure (a parent blocked in Go keeps its
// memory without using a processor). The limit governs one block: set it
// again for the group's next block. A negative limit removes it. Limits
// need exact mode. Limits above MaxLimit are exact only for blocks with at
// most that many children; Result.Exact says when one was not.
func (e *Engine) SetLimit(limit int) error {
	if err := e.check("setlimit"); err != nil {
		return err
	}
	switch {
	case e.exact == nil:
		return e.fail("setlimit", "threshold mode does not model limits; use exact mode")
	case limit == 0:
		return e.fail("setlimit", "a limit of 0 lets no child start")
	case e.core.topOpen():
		return e.fail("setlimit", "the scope has outstanding spawns; set the limit before the block's first spawn")
	}
	limit = max(limit, 0)
	e.core.setLimit(limit)
	if e.recording() {
		e.rec.setLimit(limit)
	}
	return nil
}

// Exit ends the root: every scope must have returned. It returns the result;
// the engine accepts no further events.
func (e *Engine) Exit() (*Result, error) {
	if err := e.check("exit"); err != nil {
		return nil, err
	}
	if d := e.core.depth(); d > 1 {
		return nil, e.fail("exit", "%d spawned tasks or calls have not returned", d-1)
	}
	m, s, dur := e.endStrand()
	e.exited = true
	res := &Result{
		Exact:      true,
		PMax:       e.cfg.P,
		Net:        e.serialCur,
		SerialPeak: e.serialPeak,
		Strands:    e.strands,
		Spawns:     e.spawns,
		WorkTime:   e.workTime,
	}
	if e.exact != nil {
		g, sp := e.exact.exit(m, s, dur)
		if len(e.exact.inexact) > 0 {
			res.Exact, res.Inexact = false, e.exact.inexact
		}
		res.R = append([]int64(nil), g.R...)
		res.MHWM = make([]int64, e.cfg.P+1)
		for q := range res.MHWM {
			res.MHWM[q] = g.MHWM(q)
		}
		res.Span, res.SpanTime = sp.n, sp.d
	} else {
		g, sp := e.approx.exit(m, s, dur)
		t := Threshold{M: e.cfg.Threshold, P: e.cfg.P}
		v := g.Value(t)
		res.Threshold = &ThresholdResult{M: t.M, P: t.P, Value: v, AtLeastHalf: t.Decide(v)}
		res.Span, res.SpanTime = sp.n, sp.d
	}
	if e.recording() {
		t := e.rec.exit(m, s)
		if e.rec.over {
			e.rec.t = *t
			e.dropTrace()
		} else {
			res.trace = t
			res.grown = e.cfg.Grown
			e.rec.release() // the recorder's working arrays; the trace is res's
			e.rec = nil
		}
	}
	res.TraceDropped = e.dropped
	return res, nil
}

// recording reports whether the trace is kept. A recorder that could not
// take the last event's records (over Config.TraceLimit) is dropped
// here, before the next event.
func (e *Engine) recording() bool {
	if e.rec == nil {
		return false
	}
	if e.rec.over {
		e.dropTrace()
		return false
	}
	return true
}

// dropTrace gives up the trace: its arrays are garbage from now on.
func (e *Engine) dropTrace() {
	e.rec.release()
	e.rec = nil
	e.dropped = max(e.strands, 1)
}

// Result is what one root's run established.
type Result struct {
	// Exact is false when a figure is not the exact worst case; Inexact
	// says why. Threshold mode answers its question exactly.
	Exact   bool
	Inexact []string

	PMax int
	// MHWM[q] is the q-processor memory high-water mark for 0 ≤ q ≤ PMax
	// (exact mode; nil in threshold mode). MHWM[0] = max(0, Net).
	MHWM []int64
	// R is the root's R array: R[k] is the worst water mark of an antichain
	// of exactly k strands, with memory-inactive components skipped (so only
	// its prefix maxima are meaningful).
	R []int64
	// Net is the bytes still live at the end; SerialPeak the peak of the
	// child-first serial execution that produced the events.
	Net, SerialPeak int64
	// Strands and Spawns count the run's strands and spawns. Work = Strands.
	Strands, Spawns int64
	// Span is the longest chain of strands; WorkTime and SpanTime are the
	// same in the caller's time units (see Engine.Work), 0 if none given.
	Span, WorkTime, SpanTime int64
	// Threshold is set in threshold mode.
	Threshold *ThresholdResult
	// TraceDropped is, when the run's attribution trace was dropped
	// because it would have passed Config.TraceLimit, the number of
	// strands the run had ended by then (at least 1); 0 otherwise.
	TraceDropped int64

	trace      *trace
	grown      func(alloc, dropped int64) // Config.Grown, for DropTrace
	freed      bool                       // DropTrace was called
	replayOnce sync.Once                  // the tree rebuilt from trace, for Attribute
	tree       *tnode
	treeErr    error
	// sumsMu guards sums, the net bytes per site of the completed parts
	// the backtracks so far charged as a whole (picker.sum), shared by
	// the backtracks of every q.
	sumsMu sync.Mutex
	sums   map[*tnode][]SiteBytes
}

// ThresholdResult answers the threshold question for (M, P).
type ThresholdResult struct {
	M     int64
	P     int
	Value int64 // R', the stripped-robust water mark
	// AtLeastHalf true guarantees MHWM_P ≥ M/2; false guarantees MHWM_P < M.
	AtLeastHalf bool
}

// DropTrace frees the attribution trace and what Attribute built from it,
// telling Config.Grown; Attribute, Diff and SerialHeap have nothing to
// answer from afterwards. It must not run concurrently with them.
func (r *Result) DropTrace() {
	if r.trace == nil {
		return
	}
	giveBack(r.grown, r.trace.arrays())
	r.trace, r.tree, r.sums, r.freed = nil, nil, nil, true
}

// noTrace explains why a Result has no trace to answer from.
func (r *Result) noTrace() error {
	switch {
	case r.TraceDropped > 0:
		return fmt.Errorf("mhwm: the attribution trace was dropped after %d strands: it would have passed Config.TraceLimit", r.TraceDropped)
	case r.freed:
		return fmt.Errorf("mhwm: the attribution trace was freed (Result.DropTrace)")
	}
	return fmt.Errorf("mhwm: the run kept no trace (Config.Attribution)")
}

// Parallelism returns work/span in strands.
func (r *Result) Parallelism() float64 {
	if r.Span == 0 {
		return 0
	}
	return float64(r.Strands) / float64(r.Span)
}
