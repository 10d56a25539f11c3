package mhwm

import (
	"slices"
	"unsafe"
)

// The attribution trace is a compact serial record of one run: one token per
// structural event and one record per strand with its exact per-site
// composition. Replaying it rebuilds the SP tree that the online run folded,
// which the backtrack (docs/algorithms.md, "Attribution to lines") needs. Spawned children all of whose
// strands have m = s = 0 are cut from the trace as soon as they return (their
// parent's strands on either side are merged), which preserves every MHWM_q
// and keeps the trace proportional to the memory-active part of the
// run.

type token uint8

const (
	tokSpawn token = iota
	tokReturn
	tokSync
	tokCall
	tokCallReturn // the callee had an open block: a strand ended
	tokCallGoOn   // the callee had no open block: the strand goes on
	tokLimit      // SetLimit: the next value of trace.limits
)

// SiteBytes is a signed byte count charged to an allocation site.
type SiteBytes struct {
	Site  Site
	Bytes int64
}

// strandRec is one strand: its summary and two site vectors in trace.sites:
// tot (net bytes per site, Σ = s) and pk (the composition at the first moment
// the strand's running sum reached m; Σ = m).
type strandRec struct {
	m, s       int64
	serial     int64 // 1-based serial number of the strand in the run
	at         int64 // Config.Clock at the strand's end (0 without a clock)
	tot0, tot1 int   // tot = sites[tot0:tot1]
	pk1        int   // pk = sites[tot1:pk1]
}

// active reports whether the strand matters to the MHWM or to attribution:
// a strand with m = s = 0 that freed one site's bytes and allocated as many
// at another still moves bytes between sites.
func (r strandRec) active() bool { return r.m != 0 || r.s != 0 || r.tot1 > r.tot0 }

type trace struct {
	toks    []token
	strands []strandRec
	sites   []SiteBytes
	limits  []int
}

// recFrame is the recorder's view of one open scope.
type recFrame struct {
	spawned                      bool
	toks, strands, sites, limits int  // trace lengths at the scope's spawn token
	active                       bool // holds a strand with m ≠ 0 or s ≠ 0
	liveSpawns                   int  // spawn tokens of the open block left in the trace
	limited                      bool // its open or next block has a limit
}

// recorder builds the trace during the run.
type recorder struct {
	t       trace
	log     []SiteBytes // the current strand's allocations (+) and frees (−)
	serial  int64
	merge   bool // the next strand record continues the last one
	frames  []recFrame
	limited int         // frames with a limit: nothing below them is cut
	scratch []SiteBytes // for aggregation
	mbuf    []SiteBytes // for merging
	clock   func() int64
	grown   func(alloc, dropped int64) // Config.Grown

	// held is the bytes of the backing arrays the recorder holds, limit
	// the most it may (Config.TraceLimit; 0: no limit). over is set when
	// an append would have passed limit: the append was not done, and the
	// engine drops the recorder before its next event.
	held, limit int64
	over        bool
}

// appendRec appends xs to s; when that allocates a new backing array it
// reports the array's bytes, and those of the array it replaces, to
// r.grown. If the new array, with everything the recorder holds (the
// array it replaces included: both are reachable while it is copied),
// would pass r.limit, it appends nothing and sets r.over.
func appendRec[T any](r *recorder, s []T, xs ...T) []T {
	if r.over {
		return s
	}
	c := cap(s)
	var z T
	size := int64(unsafe.Sizeof(z))
	if need := len(s) + len(xs); need > c {
		n := max(need, growCap(c))
		if r.limit > 0 && r.held+int64(n)*size > r.limit {
			n = need // no room to spare: just what is needed
			if r.held+int64(n)*size > r.limit {
				r.over = true
				return s
			}
		}
		grown := make([]T, len(s), n)
		copy(grown, s)
		s = grown
		r.held += int64(n-c) * size
		if r.grown != nil {
			r.grown(int64(n)*size, int64(c)*size)
		}
	}
	return append(s, xs...)
}

// growCap is the capacity that replaces a full array of capacity c: twice
// c while small, then a quarter more (as Go's append), so that an array
// near the limit does not need twice its size to grow.
func growCap(c int) int {
	if c < 256 {
		return max(2*c, 8)
	}
	return c + c/4
}

// release reports every array the recorder holds to r.grown as garbage.
func (r *recorder) release() {
	giveBack(r.grown, r.arrays())
	r.held = 0
}

// giveBack reports arrays of the given bytes to grown (Config.Grown, if
// set) as garbage.
func giveBack(grown func(alloc, dropped int64), arrays []int64) {
	if grown == nil {
		return
	}
	for _, b := range arrays {
		if b > 0 {
			grown(0, b)
		}
	}
}

// arrays returns the bytes of each backing array the recorder holds.
func (r *recorder) arrays() []int64 {
	return append(r.t.arrays(),
		bytesOf(r.log), bytesOf(r.scratch), bytesOf(r.mbuf), bytesOf(r.frames))
}

// arrays returns the bytes of each of the trace's backing arrays.
func (t *trace) arrays() []int64 {
	return []int64{bytesOf(t.toks), bytesOf(t.strands), bytesOf(t.sites), bytesOf(t.limits)}
}

// bytesOf is the bytes of s's backing array.
func bytesOf[T any](s []T) int64 {
	var z T
	return int64(cap(s)) * int64(unsafe.Sizeof(z))
}

func newRecorder(grown func(alloc, dropped int64), limit int64) *recorder {
	r := &recorder{grown: grown, limit: limit}
	r.frames = appendRec(r, r.frames, recFrame{})
	return r
}

func (r *recorder) alloc(site Site, n int64) { r.log = appendRec(r, r.log, SiteBytes{site, n}) }

func (r *recorder) top() *recFrame { return &r.frames[len(r.frames)-1] }

// aggregate appends the per-site sums of evs to r.t.sites, in site order,
// leaving out sites whose sum is 0.
func (r *recorder) aggregate(evs []SiteBytes) {
	sorted := appendRec(r, r.scratch[:0], evs...)
	slices.SortFunc(sorted, func(a, b SiteBytes) int { return int(a.Site) - int(b.Site) })
	r.scratch = sorted
	for i := 0; i < len(sorted); {
		site, sum := sorted[i].Site, int64(0)
		for ; i < len(sorted) && sorted[i].Site == site; i++ {
			sum += sorted[i].Bytes
		}
		if sum != 0 {
			r.t.sites = appendRec(r, r.t.sites, SiteBytes{site, sum})
		}
	}
}

// endStrand records the strand that just ended with summary (m, s).
func (r *recorder) endStrand(m, s int64) {
	r.serial++
	tot0 := len(r.t.sites)
	r.aggregate(r.log)
	tot1 := len(r.t.sites)
	peakAt := 0 // events up to the first index where the running sum is m
	if m > 0 {
		run := int64(0)
		for i, ev := range r.log {
			run += ev.Bytes
			if run == m {
				peakAt = i + 1
				break
			}
		}
	}
	r.aggregate(r.log[:peakAt])
	r.log = r.log[:0]
	rec := strandRec{m: m, s: s, serial: r.serial, tot0: tot0, tot1: tot1, pk1: len(r.t.sites)}
	if r.clock != nil {
		rec.at = r.clock()
	}
	if rec.active() {
		r.top().active = true
	}
	if r.merge {
		r.merge = false
		last := len(r.t.strands) - 1
		rec = r.mergeRecs(r.t.strands[last], rec)
		r.t.strands = r.t.strands[:last]
	}
	r.t.strands = appendRec(r, r.t.strands, rec)
}

// mergeRecs returns the strand "a then b" as one record, written at the end
// of the site array; a's and b's vectors must be the array's last entries.
func (r *recorder) mergeRecs(a, b strandRec) strandRec {
	// r.mbuf = a.tot b.tot, then the peak's vector: a.pk, or a.tot b.pk
	// (copied first: aggregating overwrites the site array's end).
	st := r.t.sites
	first := a.m >= a.s+b.m // the first moment of the peak is in a
	// r.mbuf is stored after every append: the array an append replaces
	// is no longer counted in r.held, and must not stay reachable.
	r.mbuf = appendRec(r, r.mbuf[:0], st[a.tot0:a.tot1]...)
	r.mbuf = appendRec(r, r.mbuf, st[b.tot0:b.tot1]...)
	tot := len(r.mbuf)
	if first {
		r.mbuf = appendRec(r, r.mbuf, st[a.tot1:a.pk1]...)
	} else {
		r.mbuf = appendRec(r, r.mbuf, st[a.tot0:a.tot1]...)
		r.mbuf = appendRec(r, r.mbuf, st[b.tot1:b.pk1]...)
	}
	buf := r.mbuf
	r.t.sites = r.t.sites[:a.tot0]
	out := strandRec{m: max(a.m, a.s+b.m), s: a.s + b.s, serial: a.serial, at: b.at, tot0: a.tot0}
	r.aggregate(buf[:tot])
	out.tot1 = len(r.t.sites)
	r.aggregate(buf[tot:])
	if !first {
		out.serial = b.serial
	}
	out.pk1 = len(r.t.sites)
	return out
}

func (r *recorder) spawn(m, s int64) {
	r.endStrand(m, s)
	r.top().liveSpawns++
	r.frames = appendRec(r, r.frames, recFrame{spawned: true, toks: len(r.t.toks), strands: len(r.t.strands), sites: len(r.t.sites), limits: len(r.t.limits)})
	r.t.toks = appendRec(r, r.t.toks, tokSpawn)
}

func (r *recorder) ret(m, s int64) {
	r.endStrand(m, s)
	f := r.pop()
	if f.active || r.limited > 0 { // under a limit an empty child holds a slot
		r.top().active = true
		r.t.toks = appendRec(r, r.t.toks, tokReturn)
		return
	}
	// A memory-inactive child: cut it and let the parent's strands on either
	// side of the spawn become one.
	r.t.toks = r.t.toks[:f.toks]
	r.t.strands = r.t.strands[:f.strands]
	r.t.sites = r.t.sites[:f.sites]
	r.t.limits = r.t.limits[:f.limits]
	r.top().liveSpawns--
	r.merge = true
}

// pop removes the top frame.
func (r *recorder) pop() recFrame {
	f := r.frames[len(r.frames)-1]
	r.frames = r.frames[:len(r.frames)-1]
	if f.limited {
		r.limited--
	}
	return f
}

// setLimit records a limit for the top frame's next block (0: none).
func (r *recorder) setLimit(limit int) {
	f := r.top()
	if lim := limit > 0 && limit <= MaxLimit; f.limited != lim { // as the driver
		f.limited = lim
		if f.limited {
			r.limited++
		} else {
			r.limited--
		}
	}
	r.t.toks = appendRec(r, r.t.toks, tokLimit)
	r.t.limits = appendRec(r, r.t.limits, limit)
}

func (r *recorder) sync(m, s int64) {
	r.endStrand(m, s)
	if f := r.top(); f.limited { // the limit governed this block
		f.limited = false
		r.limited--
	}
	if r.top().liveSpawns == 0 { // every child was cut: no block is left
		r.merge = true
		return
	}
	r.top().liveSpawns = 0
	r.t.toks = appendRec(r, r.t.toks, tokSync)
}

func (r *recorder) call() {
	r.frames = appendRec(r, r.frames, recFrame{})
	r.t.toks = appendRec(r, r.t.toks, tokCall)
}

func (r *recorder) callReturn(ended bool, m, s int64) {
	live := r.top().liveSpawns > 0
	if ended {
		r.endStrand(m, s)
		if !live {
			r.merge = true
		}
	}
	f := r.pop()
	if f.active {
		r.top().active = true
	}
	if live {
		r.t.toks = appendRec(r, r.t.toks, tokCallReturn)
	} else {
		r.t.toks = appendRec(r, r.t.toks, tokCallGoOn)
	}
}

func (r *recorder) exit(m, s int64) *trace {
	r.endStrand(m, s)
	t := r.t
	r.t = trace{}
	return &t
}
