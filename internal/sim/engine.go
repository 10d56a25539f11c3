package sim

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Event kinds, in the order they are handled at one instant.
const (
	evComplete = iota
	evPreempt
)

// event is a processor's strand ending or being preempted at time t. It
// is stale unless ver matches the processor's version (bumped at each
// start).
type event struct {
	t    int64
	kind uint8
	w    int32
	ver  uint32
}

func (a event) less(b event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.w < b.w
}

// never is the step of something that did not happen.
const never = math.MaxInt64

// engine is the state of one simulation.
type engine struct {
	pr    *prep
	sched scheduler
	p     int
	slice int64 // time slice, 0: none

	indeg  []int32
	remain []int64 // work left of each strand (less than Work once preempted)
	// startStep and doneStep are the start phase in which a strand
	// started, and the last start phase before it completed.
	startStep, doneStep []int64

	running []int32 // per processor, -1 when idle
	finish  []int64
	ver     []uint32
	idle    []uint64 // bit set of idle processors
	events  minHeap[event]

	makespan                int64
	step                    int64
	mem, peak, peakAt       int64
	peakStep                int64
	done                    int
	ready                   []readyItem
	curve                   []Point
	instantT                int64 // the instant the curve is collecting
	instantMax, instantLast int64
	wantCurve               bool
}

// run simulates one policy with one seed.
func run(pr *prep, pol Policy, p int, seed uint64, slice int64, opt Options) (Result, error) {
	n := pr.n
	e := &engine{
		pr: pr, sched: newScheduler(pol, pr, p, seed), p: p, slice: slice,
		indeg: slices.Clone(pr.indeg), remain: make([]int64, n),
		startStep: make([]int64, n), doneStep: make([]int64, n),
		running: make([]int32, p), finish: make([]int64, p), ver: make([]uint32, p),
		idle: make([]uint64, (p+63)/64), wantCurve: opt.CurvePoints > 0,
	}
	for i, s := range pr.g.Strands {
		e.remain[i] = s.Work
		e.startStep[i], e.doneStep[i] = never, never
	}
	for w := range p {
		e.running[w] = -1
		e.idle[w/64] |= 1 << (w % 64)
	}
	e.sched.init(pr.roots)
	var t int64
	for {
		e.step++
		e.startPhase(t)
		e.note(t)
		for len(e.events) > 0 && e.stale(e.events[0]) {
			e.events.pop()
		}
		if len(e.events) == 0 {
			break
		}
		t = e.events[0].t
		for len(e.events) > 0 && e.events[0].t == t {
			ev := e.events.pop()
			if e.stale(ev) {
				continue
			}
			if ev.kind == evComplete {
				e.complete(int(ev.w), t)
			} else {
				e.preempt(int(ev.w), t)
			}
		}
		e.note(t)
	}
	if e.done != n {
		return Result{}, fmt.Errorf("sim: %v on %d processors stalled with %d of %d strands not run", pol, p, n-e.done, n)
	}
	r := Result{Policy: pol.String(), P: p, PeakBytes: e.peak, PeakAt: e.peakAt, Makespan: e.makespan}
	r.Status = e.status()
	r.Sites = sitesAt(pr, r.Status)
	if e.wantCurve {
		e.flushInstant()
		r.Curve = downsample(e.curve, opt.CurvePoints, e.makespan)
	}
	return r, nil
}

// startPhase lets every idle processor, in index order, start what the
// policy gives it.
func (e *engine) startPhase(t int64) {
	for i, word := range e.idle {
		for word != 0 && e.sched.hasWork() {
			b := bits.TrailingZeros64(word)
			word &^= 1 << b
			w := i*64 + b
			if u := e.sched.pick(w, t); u >= 0 {
				e.start(w, u, t)
			}
		}
	}
}

func (e *engine) start(w int, u int32, t int64) {
	e.idle[w/64] &^= 1 << (w % 64)
	e.running[w] = u
	e.ver[w]++
	if e.startStep[u] == never {
		e.startStep[u] = e.step
		e.mem += e.pr.g.Strands[u].Peak
	}
	end := t + e.remain[u]
	e.finish[w] = end
	e.events.push(event{t: end, kind: evComplete, w: int32(w), ver: e.ver[w]})
	if ss := e.sched.sliceStart(w); e.slice > 0 && e.slice < math.MaxInt64-ss {
		if at := max(ss+e.slice, t); at < end {
			e.events.push(event{t: at, kind: evPreempt, w: int32(w), ver: e.ver[w]})
		}
	}
}

// stale reports whether ev is about a strand since preempted or completed.
func (e *engine) stale(ev event) bool { return ev.ver != e.ver[ev.w] || e.running[ev.w] < 0 }

func (e *engine) stop(w int) int32 {
	u := e.running[w]
	e.running[w] = -1
	e.idle[w/64] |= 1 << (w % 64)
	return u
}

func (e *engine) complete(w int, t int64) {
	u := e.stop(w)
	s := &e.pr.g.Strands[u]
	e.mem += s.Net - s.Peak
	e.doneStep[u] = e.step
	e.remain[u] = 0
	e.makespan = t
	e.done++
	e.ready = e.pr.release(u, e.indeg, e.ready)
	e.sched.complete(w, u, e.ready)
}

func (e *engine) preempt(w int, t int64) {
	u := e.stop(w)
	e.ver[w]++ // its completion event is stale now
	e.remain[u] = e.finish[w] - t
	e.sched.preempt(w, u)
}

// note records the memory after a phase: the peak (first reached) and the
// curve, which keeps per instant its highest and its last value.
func (e *engine) note(t int64) {
	if e.mem > e.peak {
		e.peak, e.peakAt, e.peakStep = e.mem, t, e.step
	}
	if !e.wantCurve {
		return
	}
	if t != e.instantT {
		e.flushInstant()
		e.instantT, e.instantMax = t, e.mem
	}
	e.instantMax = max(e.instantMax, e.mem)
	e.instantLast = e.mem
}

func (e *engine) flushInstant() {
	e.curve = append(e.curve, Point{e.instantT, e.instantMax})
	if e.instantLast != e.instantMax {
		e.curve = append(e.curve, Point{e.instantT, e.instantLast})
	}
}

// status returns every strand's status after the peak's start phase.
func (e *engine) status() []Status {
	st := make([]Status, e.pr.n)
	k := e.peakStep
	for i := range st {
		switch {
		case e.doneStep[i] < k:
			st[i] = Completed
		case e.startStep[i] <= k:
			st[i] = Started
		}
	}
	return st
}

// sitesAt returns the memory by site in the state st.
func sitesAt(pr *prep, st []Status) []SiteLive {
	by := map[int32]int64{}
	for i, s := range st {
		for _, sb := range pr.g.Strands[i].Sites {
			switch s {
			case Completed:
				by[sb.Site] += sb.Net
			case Started:
				by[sb.Site] += sb.AtPeak
			}
		}
	}
	var out []SiteLive
	for site, b := range by {
		if b != 0 {
			out = append(out, SiteLive{site, b})
		}
	}
	slices.SortFunc(out, func(a, b SiteLive) int {
		if a.Bytes != b.Bytes {
			if a.Bytes > b.Bytes {
				return -1
			}
			return 1
		}
		return int(a.Site) - int(b.Site)
	})
	return out
}

// downsample keeps at most k points of pts (times 0..end): it splits the
// time axis into k equal buckets and keeps each bucket's first highest
// point, so the global peak survives exactly.
func downsample(pts []Point, k int, end int64) []Point {
	if len(pts) <= k {
		return pts
	}
	width := end/int64(k) + 1
	var out []Point
	bucket := int64(-1)
	for _, pt := range pts {
		if b := pt.T / width; b != bucket {
			bucket = b
			out = append(out, pt)
		} else if last := &out[len(out)-1]; pt.Bytes > last.Bytes {
			*last = pt
		}
	}
	return out
}
