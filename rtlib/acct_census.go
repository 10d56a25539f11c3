package rtlib

import "runtime/metrics"

// When censuses run under the bounded policy, besides the budget (see
// resetBudget): at strand boundaries and before large allocations, where
// a death found later would be charged in a later strand or at a join,
// too late for every schedule that runs other work in between
// (ACCOUNTING.md, "When censuses run"). Each rule says what it costs and
// what it fixed.

// censusAt takes a census at a strand boundary of d, right before the
// boundary's event: always under the strand and oracle policies, when
// due says so under the bounded one. No program code runs between the
// census and the event, so what it saw live is seen live in the strand
// after it (mem.fresh).
func censusAt(d *dnode, due func(*dnode) bool) {
	if d == nil || d.detached {
		return
	}
	if atBoundaries() || cfg.census == censusBounded && due(d) {
		census(d, 0)
		mem.fresh = d
	}
}

// markCheck is how many external-call markers pass between two looks at
// the heap (a runtime/metrics reading, about 300 ns).
const markCheck = 256

// heapGrown reports whether the heap grew by the census budget since the
// last census, by the runtime's count of bytes allocated: uninstrumented
// code (the standard library, dependencies) allocates where no hook
// sees it, and a program that allocates mostly there got almost no
// censuses (stdlibheavy: one in its whole run, 36 MB reported for at
// most 16). The count is off by up to a span per size class between
// collections; it only decides when to collect.
func heapGrown() bool { return allocatedSinceCensus() >= mem.budget }

// allocatedSinceCensus is the heap bytes the program allocated since the
// last census by the runtime's count (rtlib's own aside), off by up to a
// span per size class between collections.
func allocatedSinceCensus() int64 {
	metrics.Read(mem.samples[:1])
	return int64(mem.samples[0].Value.Uint64()-mem.allocsAt) - mem.own - ownTasks.Load() - mem.ownLarge
}

// lagDue: uninstrumented code allocated at least lagCensusMin bytes
// that the hooks did not explain since the last census. Small objects
// are counted only at censuses, and one after the boundary (a spawn, a
// task's end) would charge them to the strand running then, not to the
// one that made them (strconvkeep's 200 000 strings: 1.2 MB charged so).
//
// The least it acts on is lagCensusMin, and 1 % of the program's live
// bytes at the last census, as for boundaryMin: a collection costs in
// proportion to the heap (and the goroutines' stacks), and what a
// smaller lag moves between strands is within the figures' tolerance.
// Without the relative part, 100 000 goroutines sleeping on timers
// (ants's TestNoPool: about 200 bytes of timer each) took a census per
// 16 KiB of timers, each scanning every stack: 86 s against 0.2 s.
func lagDue(d *dnode) bool {
	return allocatedSinceCensus()-mem.since >= max(lagCensusMin, mem.live/100) // not explained by hooks
}

// lagCensusMin is the least unexplained allocation lagDue acts on.
const lagCensusMin = 16 << 10

// endDue: task d ends holding at least endCensusMin bytes, in tracked
// objects and pool chunks not found dead (a death found after the task
// ended is charged at its join), or it had a census and ran on since
// (left in the interval, its tail would make every death the next census
// finds wait for the join of the task and whoever finds them); or lagDue.
func endDue(d *dnode) bool {
	return d.bigLive+d.pooled >= endCensusMin || d.censused && d.ranIn == mem.interval || lagDue(d)
}

// forkDue: before d spawns, the goroutines it joined since its last
// census held at least endCensusMin bytes at their joins: what they
// handed to d, d may have dropped since, and a death found in the new
// goroutine would be charged there, where every sibling the goroutine
// runs beside would hold it too (a hand-off: eight 1 MiB results dropped
// after a join, then eight 2 MiB scratch tasks, reported MHWM_8 22 MiB
// for 16); or lagDue.
func forkDue(d *dnode) bool { return d.received >= endCensusMin || lagDue(d) }

// joinDue: before d's Wait is applied, the goroutines it may join, and
// what the function waiting allocated, hold at least boundaryMin bytes
// in tracked (large) objects: what they hold is then seen live at the
// end of the strand before the join, and a death found later in the
// strand after it happened there (not counted late).
func joinDue(d *dnode) bool {
	held := d.top().big // the function's own, still live or not
	for _, s := range d.scopes {
		for _, k := range s.kids {
			held += k.bigLive // d's from the join on
		}
	}
	return held >= boundaryMin()
}

// leaveDue: a function that spawns returns (d's top scope closes) after
// allocating at least boundaryMin bytes in tracked (large) objects:
// small ones alone (a fine-grained fork-join's frames) would cost a
// collection per call. What such a function allocated for its own use
// (a merge buffer, quicksort's scratch) dies at its return; found later,
// the death is charged in a later strand of the task, and every schedule
// that runs the function's goroutines' siblings in between holds it:
// quicksort at its test size reported MHWM_1 4.22 MiB for 3.60.
func leaveDue(d *dnode) bool { return len(d.scopes) >= 2 && d.top().big >= boundaryMin() }

// bigAlloc reports whether an allocation of n bytes by d needs a census
// before it under the bounded policy: it is large (at least boundaryMin,
// 1 % of the program's live bytes) and d holds tracked objects that may
// have died since the last census, its own or those of the goroutines it
// joined since (strassen's temporaries, found dead after the joiner's
// next product was allocated: the figures' interval 512 KiB wide).
// A strand that drops a buffer and allocates the next would otherwise
// hold both at its peak until the budget runs out, and MHWM_p adds that
// for every strand of its worst case (random programs: up to 16 % above
// the oracle, marked exact).
func bigAlloc(d *dnode, n int64) bool {
	return cfg.census == censusBounded && n >= boundaryMin() && (d.bigLive > 0 || d.received > 0)
}

// boundaryMin is the least a join or a return must concern for a census
// there: endCensusMin, and 1 % of the program's live bytes at the last
// census, which keeps the collections' cost (proportional to the heap)
// in proportion to what they can find. What it lets through is bounded:
// along one chain of nested calls the skipped allocations shrink
// geometrically in the usual divide and conquer, so the deaths they
// delay add up to a few percent of the live heap per running strand
// (quicksort at its default size: MHWM_1 281.4 MiB for its serial peak
// of 280.2, with 1 %; 310.5 with 3 %).
func boundaryMin() int64 { return max(endCensusMin, mem.live/100) }

// endCensusMin is how many bytes a task must hold, in tracked objects
// and pool chunks not found dead, for its end to get a census: a death
// found after the task ended is charged at the join of the task, which
// raises every figure whose worst case holds the task as completed
// (the root's late bytes say how much was charged so).
const endCensusMin = 4 << 10
