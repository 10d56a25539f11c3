package rtlib

import (
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/spgo/spgo/rtlib/mhwm"
	"github.com/spgo/spgo/rtlib/profile"
)

// build returns the profile's entry for r.
func (r *proot) build() profile.Root {
	out := profile.Root{Name: r.name, Exact: true, Censuses: r.censuses, CensusError: r.maxSince}
	res := r.res
	if res == nil {
		out.Exact = false
		out.Reasons = []string{"the root had not ended when the profile was last written: the program deadlocked, hung or was killed while it ran, and its figures are not known"}
		return out
	}
	out.Reasons = append(out.Reasons, r.reasons...)
	out.Reasons = append(out.Reasons, res.Inexact...)
	for _, s := range []string{stuckReason(r.stuck0, r.stuck1), blockedReason(r.blocked0, r.blocked1), bubbleReason(r.bubble0, r.bubble1)} {
		if s != "" {
			// Bytes charged to the wrong strand can make a figure too
			// low as well as too high: no interval.
			out.Reasons = append(out.Reasons, s)
			r.unbounded = true
		}
	}
	structural := len(out.Reasons) > 0
	if r.partial {
		out.Reasons = append(out.Reasons, "the run ended early (panic, os.Exit or log.Fatal): figures cover what ran")
	}
	out.CensusLag = r.lagged
	if r.selfCheckFails(res) {
		out.SelfCheckFailed = true
		out.Reasons = append(out.Reasons, fmt.Sprintf("self-check: the serial peak (%d bytes) is above the most the heap can have held during the root (%d bytes, runtime/metrics at censuses): deaths were charged late", res.SerialPeak, r.obsPeak))
	}
	if cfg.census == censusOff {
		out.Reasons = append(out.Reasons, "SPGO_CENSUS=off: no census ran, so nothing died before the root's end and small allocations by uninstrumented code were read only then: the figures have no error bound")
	}
	out.SerialPeak = res.SerialPeak
	out.Work, out.Span = res.Strands, res.Span
	out.Strands, out.Spawns = res.Strands, res.Spawns
	if res.MHWM != nil {
		for q := 1; q <= res.PMax; q++ {
			out.MHWM = append(out.MHWM, profile.Point{P: q, Bytes: res.MHWM[q]})
		}
	}
	// Lateness makes a root inexact only when its interval is wide: a
	// root whose late deaths the live bytes bound from below is exact.
	late := r.lateReasons(res)
	wide := r.interval(res, &out, structural) // -1: no interval
	if wide != 0 {
		out.Reasons = append(out.Reasons, late...)
		if wide > 0 && len(out.Reasons) == 0 { // nothing else says why
			pt := out.MHWM[wide-1]
			out.Reasons = append(out.Reasons, fmt.Sprintf("from p = %d the figures' interval is wider than 3 %% + 256 KiB (at p = %d: %s to %s): deaths found at censuses may have happened up to a census interval earlier", wide, wide, mib(pt.Low), mib(pt.High)))
		}
	}
	r.heapBound(&out)
	out.Exact = len(out.Reasons) == 0
	out.Unbounded = r.unbounded && !out.Exact
	if res.Threshold != nil {
		out.Threshold = &profile.ThresholdAnswer{M: res.Threshold.M, P: res.Threshold.P, Value: res.Threshold.Value, AtLeastHalf: res.Threshold.AtLeastHalf}
	}
	r.lines(res, &out)
	r.stacks(&out, structural || out.SelfCheckFailed)
	if r.poolGets > 0 {
		out.Pool = &profile.Pool{Gets: r.poolGets, Reused: r.poolReused}
	}
	return out
}

// lateReasons says why r's figures may be too high or too low because
// deaths or allocations were charged late: the deaths charged at a join
// or in a later strand after a census found them (each raises any
// figure by at most its bytes), the small allocations by
// uninstrumented code charged to a strand that may not have made them,
// and the parts of objects put back into a sync.Pool that stay charged
// where they were made.
func (r *proot) lateReasons(res *mhwm.Result) []string {
	var out []string
	top := res.SerialPeak
	if res.MHWM != nil {
		top = max(top, res.MHWM[res.PMax])
	}
	if r.late > slackOf(top) {
		out = append(out, fmt.Sprintf("%d bytes of deaths were found after the strand that may have dropped them had ended, and are charged later (in a later strand or at a join): that lateness can raise a figure by up to that much", r.late))
	}
	if s := r.poolReason(top); s != "" {
		out = append(out, s)
	}
	if r.lagged*100 > top && r.lagged > lagExact {
		out = append(out, fmt.Sprintf("%d bytes of small allocations by uninstrumented code (over 1%% of the figures and %d KiB) were seen only at a census and charged to the strand running then, possibly after the strand that made them", r.lagged, lagExact>>10))
	}
	return out
}

// heapBound holds the serial figure to what the run observed
// (observeHeap): the root's objects are part of the heap, so the run
// that happened held at most r.heapPeak of them, whatever the model
// says. A serial peak above that is lowered to it, and above it by
// more than the slack it fails the self-check (late deaths: the other
// figures are likely too high too). The interval's high end is held to
// the bound as well.
func (r *proot) heapBound(out *profile.Root) {
	b := r.heapPeak
	if !r.heapSeen || b <= 0 {
		return
	}
	if out.SerialPeak > b {
		if out.SerialPeak > b+slackOf(b) && !out.SelfCheckFailed {
			out.SelfCheckFailed = true
			out.Reasons = append(out.Reasons, fmt.Sprintf("self-check: the model's serial peak (%s) is above the most the heap held during the run (%s: the live heap at a census plus what the runtime allocated before the next): the serial figure is that bound, and the other figures are likely too high", mib(out.SerialPeak), mib(b)))
		}
		out.SerialPeak = b
	}
	if out.SerialHigh != 0 {
		out.SerialHigh = min(max(out.SerialHigh, out.SerialPeak), max(b, out.SerialPeak))
		out.SerialLow = min(out.SerialLow, out.SerialPeak)
	}
}

// selfCheckFails reports whether r's serial peak is above the most the
// process's heap can have held during the root, by more than the slack.
func (r *proot) selfCheckFails(res *mhwm.Result) bool {
	return r.based && !r.shared && r.censuses > 0 && res.SerialPeak > r.obsPeak+slackOf(r.obsPeak)
}

// interval sets the bounds of the truth beside each of out's figures
// (ACCOUNTING.md, "The interval"). Above: a figure plus the small bytes
// charged at a census to a strand that may not have made them (each
// moved allocation changes any figure by at most its bytes). Below: the
// tracked bytes a census found live at once, and, when the accounting
// alone makes the figures inexact (structural is false), the figure less
// everything lateness can have added: the late deaths, the lagged
// allocations, the pooled parts left charged (poolOver), and, for p strands at once, the p largest additions of
// deaths found in their own strand. A reason that says a figure may be
// too low, or SPGO_CENSUS=off, leaves no interval (-1). Bounds are then
// tightened by the truth's growth in p. wide is the least p whose
// interval is wider than the slack, 0 if none.
func (r *proot) interval(res *mhwm.Result, out *profile.Root, structural bool) (wide int) {
	if r.unbounded || cfg.census == censusOff || res.MHWM == nil {
		return -1
	}
	structural = structural || r.selfCheckFails(res)
	if debugCensus {
		fmt.Fprintf(os.Stderr, "interval %s: live %d late %d lagged %d in max %d sum %d structural %v\n", r.name, r.liveLow, r.late, r.lagged, r.inMax, r.inSum, structural)
	}
	out.SerialLow, out.SerialHigh = r.low(res.SerialPeak, 1, structural), res.SerialPeak+r.lagged
	return r.bound(out.MHWM, structural, 0, func(int64) int64 { return 0 })
}

// low is the lower end of figure v at p: the tracked bytes a census
// found live at once, and unless structural, v less everything lateness
// can have added (see interval).
func (r *proot) low(v, p int64, structural bool) int64 {
	l := r.liveLow
	if !structural {
		l = max(l, v-r.late-r.lagged-min(r.inSum, p*r.inMax)-r.poolOver)
	}
	return min(max(l, 0), v)
}

// bound sets the interval of each figure of pts, p = 1 … in order: the
// low end (less below, tightened by the truth's growth in p) and the
// figure plus the lagged bytes and above(p). It returns the least p
// whose interval is wider than the slack, 0 if none.
func (r *proot) bound(pts []profile.Point, structural bool, below int64, above func(p int64) int64) (wide int) {
	var floor int64
	for i := range pts {
		pt := &pts[i]
		floor = max(floor, r.low(pt.Bytes, int64(pt.P), structural)-below)
		pt.Low, pt.High = min(max(floor, 0), pt.Bytes), pt.Bytes+r.lagged+above(int64(pt.P))
		if wide == 0 && pt.High-pt.Low > slackOf(pt.High) {
			wide = pt.P
		}
	}
	return wide
}

// stacks sets out.Stacks from the total engine's answer (acct_stack.go):
// the heap's interval, widened by the stack growth the run saw. Below:
// the growth is what the instrumented frames needed, which are the
// original's and more, so the original's may have been none of it.
// Above: growth is charged where rtlib saw it, perhaps later in its
// strand than it happened, which can lower the strand's peak by what it
// grew by; p running strands at once, at most p times the most one
// goroutine grew. Without an interval for the heap, where stack sizes
// could not be read, or without paint (the race detector), where growth
// may go unseen, the total has none either, but for a root that started
// no goroutine: its total is its heap.
func (r *proot) stacks(out *profile.Root, structural bool) {
	t := r.resTot
	if t == nil || t.MHWM == nil {
		return
	}
	st := &profile.Stacks{StartBytes: stackStart, Goroutines: r.stackN, Grown: r.stackGrown, GrownBytes: r.stackExtra,
		SerialPeak: max(t.SerialPeak, out.SerialPeak)}
	for q := 1; q <= t.PMax; q++ {
		st.Total = append(st.Total, profile.Point{P: q, Bytes: max(t.MHWM[q], out.MHWM[q-1].Bytes)})
	}
	if out.SerialHigh != 0 && (!r.stackBlind && stackPainting || r.stackN == 0) {
		above := func(p int64) int64 { return min(r.stackExtra, p*r.stackMaxGrow) }
		st.SerialLow = min(max(r.low(st.SerialPeak, 1, structural)-r.stackExtra, 0), st.SerialPeak)
		st.SerialHigh = st.SerialPeak + r.lagged + above(1)
		wide := r.bound(st.Total, structural, r.stackExtra, above)
		st.Exact = out.Exact && wide == 0 && st.SerialHigh-st.SerialLow <= slackOf(st.SerialHigh)
	}
	out.Stacks = st
}

// mib formats n bytes in MiB for a reason's text.
func mib(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }

// slackOf is the difference between a figure and the truth that still
// counts as exact: 3 % + 256 KiB.
func slackOf(v int64) int64 { return v*3/100 + 256<<10 }

// attributedQs are the processor counts the per-line table gives: 1,
// the powers of two, pmax and the first q where MHWM_q reaches MHWM_pmax
// (the ends of the curve's growth), then the other q where MHWM_q
// changes, smallest first, while the SPGO_ATTRIBUTE budget lasts (each
// costs a walk of the run's tree). A q left out has no per-line figures
// unless MHWM_q equals the figure of the largest listed q below it.
func attributedQs(res *mhwm.Result, budget int) []int {
	pmax := res.PMax
	want := map[int]bool{1: true, pmax: true}
	for q := 1; q <= pmax; q *= 2 {
		want[q] = true
	}
	sat := pmax
	for sat > 1 && res.MHWM[sat-1] == res.MHWM[pmax] {
		sat--
	}
	want[sat] = true
	for q := 2; q <= pmax && len(want) < budget; q++ {
		if res.MHWM[q] != res.MHWM[q-1] {
			want[q] = true
		}
	}
	return slices.Sorted(maps.Keys(want))
}
