package rtlib

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"time"
	"unsafe"

	"github.com/spgo/spgo/rtlib/trace"
)

// The recorder for schedule simulation (SPGO_TRACE, package sim): every
// strand of a root as the run makes it (a task's run between two
// scheduling events: spawn, Done, Wait, a channel operation, a lock or an
// unlock, its end), with its duration, its bytes by site and the
// dependencies between strands, streamed to a spgo.trace/v1 file. Unlike
// the engine's view (dag_node.go), channel and mutex edges are kept: a
// simulation that respects them gives realistic peaks for pipelines and
// worker pools. Only the holder records, so no locking; roots begun
// while another is recorded (a subtest's) are not recorded.

// recTask is a recorded task's open strand.
type recTask struct {
	id     int32
	strand int32 // its open strand, -1 after its end
	last   int32 // its last ended strand
	work   int64 // ns held in the open strand so far
	net    int64
	peak   int64
	sites  []trace.SiteBytes // the open strand's bytes by site; AtPeak as of the peak
	group  any               // the group its end or Done was released to
	ran    int32             // its strand last listed in rec.ran, +1
	ranIn  int32             // the census interval it was listed in
	rel    int32             // its release's index in rec.groups[group]
	relS   int32             // the strand released there, -1: none
	liveAt int32             // its index in rec.live
}

// recDeath is a death deferred to a join: the census that found it and
// the strand that allocated the bytes (-1 if unknown).
type recDeath struct{ census, alloc int32 }

// chanRec matches a channel's sends and receives in order: the k-th
// receive gets the k-th value sent, and the (k+cap)-th send waits for the
// k-th receive (for an unbuffered channel, both wait for each other).
type chanRec struct {
	cap          int64
	sends, recvs map[int64]recOp // the operations a later one may match
	nsend, nrecv int64
}

// recOp is a completed channel operation: the strand that ended with it
// and the strand that began after it.
type recOp struct{ ended, next int32 }

// limRec is an errgroup with a limit: its forks so far and the last
// strands of its tasks that ended and whose slot no fork took yet.
type limRec struct {
	forks int64
	ends  []int32
}

var rec struct {
	path    string
	f       *os.File
	w       *trace.Writer
	failed  bool
	root    *proot
	tasks   int32
	n       int32 // strands so far
	named   map[Site]bool
	groups  map[any][]int32 // strands released to a WaitGroup or errgroup
	chans   map[unsafe.Pointer]*chanRec
	closes  map[unsafe.Pointer]int32   // a closed channel's close (the strand that ended with it)
	signals map[unsafe.Pointer]int32   // a condition variable's latest signal or broadcast
	locks   map[unsafe.Pointer][]int32 // the write unlocks a lock waits for
	rlocks  map[unsafe.Pointer][]int32 // the read unlocks a write lock waits for
	live    []*recTask                 // tasks not ended, in no order (recTask.liveAt)
	limits  map[any]*limRec            // errgroups with a limit
	held    *recTask                   // whose strand is timed
	heldAt  time.Time
	ran     []int32 // strands that held the baton since the last census
	cens    int32   // censuses recorded in the root
	mute    bool    // recAdd ignores the bytes (a death the trace places itself)
}

func init() { rec.path = os.Getenv("SPGO_TRACE") }

// recFail reports a recording error once and stops recording.
func recFail(err error) {
	if err != nil && !rec.failed {
		rec.failed = true
		fmt.Fprintf(os.Stderr, "spgo: trace %s: %v; no more recorded\n", rec.path, err)
	}
}

// recBeginRoot starts recording root r, whose task is d, if a trace is
// asked for and no other root is being recorded.
func recBeginRoot(r *proot, d *dnode) {
	if rec.path == "" || rec.failed || rec.root != nil {
		return
	}
	if rec.w == nil {
		f, err := os.Create(rec.path)
		if err != nil {
			recFail(err)
			return
		}
		rec.f, rec.w = f, trace.NewWriter(f)
		rec.named = map[Site]bool{}
	}
	rec.root, rec.tasks, rec.n = r, 0, 0
	rec.groups = map[any][]int32{}
	rec.chans = map[unsafe.Pointer]*chanRec{}
	rec.closes = map[unsafe.Pointer]int32{}
	rec.signals = map[unsafe.Pointer]int32{}
	rec.locks = map[unsafe.Pointer][]int32{}
	rec.rlocks = map[unsafe.Pointer][]int32{}
	rec.live = nil
	rec.limits = map[any]*limRec{}
	rec.ran, rec.cens, rec.mute = rec.ran[:0], 0, false
	recFail(rec.w.BeginRoot(r.name))
	d.rec = recNewTask(-1, 0)
	rec.held, rec.heldAt = d.rec, time.Now()
	recRan(d.rec)
}

// recEndRoot ends the recording of r: the open strands end, the trace is
// flushed.
func recEndRoot(r *proot) {
	if rec.root != r {
		return
	}
	recSwitch(nil)
	open := make([]*recTask, 0, len(rec.live))
	for _, t := range rec.live {
		if t.strand >= 0 {
			open = append(open, t)
		}
	}
	slices.SortFunc(open, func(a, b *recTask) int { return cmp.Compare(a.id, b.id) })
	for _, t := range open {
		recEnd(t)
	}
	recFail(rec.w.EndRoot())
	recFail(rec.w.Flush())
	rec.root, rec.groups, rec.chans, rec.locks, rec.rlocks, rec.live, rec.limits = nil, nil, nil, nil, nil, nil, nil
	rec.closes, rec.signals = nil, nil
}

// recNewTask declares a task and opens its first strand.
func recNewTask(parent int32, site Site) *recTask {
	t := &recTask{id: rec.tasks, strand: -1, last: -1, relS: -1}
	ownAlloc(int64(unsafe.Sizeof(*t))) // rtlib's, not the program's
	rec.tasks++
	recName(site)
	recFail(rec.w.Task(trace.Task{ID: t.id, Parent: parent, Site: int32(site)}))
	recOpen(t)
	t.liveAt = int32(len(rec.live))
	rec.live = ownAppend(rec.live, t) // rtlib's memory, as the task record's
	return t
}

func recName(site Site) {
	if site > 0 && !rec.named[site] {
		rec.named[site] = true
		recFail(rec.w.Site(int32(site), sitePos(site)))
	}
}

// recOpen opens t's next strand.
func recOpen(t *recTask) {
	t.strand = rec.n
	rec.n++
	t.work, t.net, t.peak = 0, 0, 0
	t.sites = t.sites[:0]
	if t == rec.held {
		recRan(t)
	}
}

// recRan lists t's open strand as one that held the baton since the last
// census.
func recRan(t *recTask) {
	if t.strand < 0 || t.ran == t.strand+1 && t.ranIn == rec.cens {
		return
	}
	t.ran, t.ranIn = t.strand+1, rec.cens
	rec.ran = ownAppend(rec.ran, t.strand)
}

// recStrand returns d's open recorded strand, or -1.
func recStrand(d *dnode) int32 {
	if t := recOpenOf(d); t != nil {
		return t.strand
	}
	return -1
}

// recCensus records a census run by c: the strands that may have dropped
// the references it finds dead. It returns the census's number, or -1
// if c's root is not being recorded.
func recCensus(c *dnode) int32 {
	if rec.root == nil || c.root != rec.root {
		return -1
	}
	// The census cuts c's strand (the reader merges the parts again): a
	// death it finds that c's part so far may have caused can then be
	// placed right after that part.
	cut := int32(-1)
	if t := recOpenOf(c); t != nil {
		_, cut = recSplit(t)
		if n := len(rec.ran); n > 0 && rec.ran[n-1] == cut {
			rec.ran = rec.ran[:n-1] // it runs after the census
		}
	}
	k := rec.cens
	recFail(rec.w.Census(k, trace.Census{Ran: rec.ran, Cut: cut}))
	rec.cens++
	rec.ran = rec.ran[:0]
	if t := recOpenOf(c); t != nil {
		recRan(t)
	}
	return k
}

// recCommCensus runs a census before d, whose root is recorded,
// synchronises with another task (a channel operation, a lock) while it
// holds as much as a task must at its end to get one (Task.Return) and
// at least half that much was allocated since the last census: the
// deaths it finds are then placed before the synchronisation, not after
// whatever other tasks run until the next census, which under another
// schedule would hold them longer than the program does. The second
// condition keeps these censuses fewer than the budget's. Only recorded
// roots get them; they can only lower a figure's census error.
func recCommCensus(d *dnode) {
	if rec.root == nil || d.root != rec.root || cfg.census == censusOff {
		return
	}
	much := max(cfg.minBudget, int64(float64(mem.water)*cfg.errBound))
	if d.bigLive >= much && mem.since >= much/2 {
		census(d, 0)
	}
}

// recFree records a death of n bytes at site deferred to the join d just
// made: the trace's reader places it (trace.Free). It reports whether it
// did.
func recFree(d *dnode, site Site, n int64, rd recDeath) bool {
	t := recOpenOf(d)
	if t == nil || rd.census < 0 {
		return false
	}
	recName(site)
	recFail(rec.w.Free(trace.Free{At: t.strand, Site: int32(site), Bytes: n, Census: rd.census, Alloc: rd.alloc}))
	return true
}

// recEnd ends t's open strand and writes it.
func recEnd(t *recTask) int32 {
	if t == rec.held {
		now := time.Now()
		t.work += int64(now.Sub(rec.heldAt))
		rec.heldAt = now
	}
	s := t.strand
	recFail(rec.w.Strand(trace.Strand{ID: s, Task: t.id, Work: max(t.work, 0), Net: t.net, Peak: t.peak, Sites: t.sites}))
	t.last, t.strand = s, -1
	return s
}

// recDep records that strand to cannot start before from has ended.
func recDep(from, to int32, kind trace.DepKind) {
	recFail(rec.w.Dep(trace.Dep{From: from, To: to, Kind: kind}))
}

// recOpenOf returns d's recorded task if a root is being recorded and the
// task's strand is open, else nil.
func recOpenOf(d *dnode) *recTask {
	if rec.root == nil || d == nil || d.rec == nil || d.rec.strand < 0 {
		return nil
	}
	return d.rec
}

// recSplit ends t's open strand at a scheduling event and opens the next,
// ordered after it; it returns both.
func recSplit(t *recTask) (ended, next int32) {
	ended = recEnd(t)
	recOpen(t)
	recDep(ended, t.strand, trace.Seq)
	return ended, t.strand
}

// recAdd records n bytes (negative: freed) at site in d's open strand.
func recAdd(d *dnode, site Site, n int64) {
	t := recOpenOf(d)
	if t == nil || rec.mute {
		return
	}
	recName(site)
	i := 0
	for i < len(t.sites) && t.sites[i].Site != int32(site) {
		i++
	}
	if i == len(t.sites) {
		t.sites = ownAppend(t.sites, trace.SiteBytes{Site: int32(site)})
	}
	t.sites[i].Net += n
	t.net += n
	if t.net > t.peak {
		t.peak = t.net
		for j := range t.sites {
			t.sites[j].AtPeak = t.sites[j].Net
		}
	}
}

// recSwitch times the strands: next's task holds the baton from now.
func recSwitch(next *dnode) {
	if rec.root == nil {
		return
	}
	now := time.Now()
	if h := rec.held; h != nil && h.strand >= 0 {
		h.work += int64(now.Sub(rec.heldAt))
	}
	rec.held, rec.heldAt = nil, now
	if next != nil && next.rec != nil {
		rec.held = next.rec
		recRan(next.rec)
	}
}

// recFork: parent spawned child (its dnode new) at site into group g
// (nil: not known yet). Under an errgroup limit L, the k-th Go waited for
// the (k−L)-th of the group's tasks to end: the parent's strand is split
// there.
func recFork(parent, child *dnode, site Site, g any) {
	p := recOpenOf(parent)
	if p == nil {
		return
	}
	if n := parent.root.limits.at(g); n > 0 && g != nil {
		l := rec.limits[g]
		if l == nil {
			l = &limRec{}
			rec.limits[g] = l
		}
		if l.forks >= int64(n) && len(l.ends) > 0 {
			_, next := recSplit(p)
			recDep(l.ends[0], next, trace.Other)
			l.ends = l.ends[1:]
		}
		l.forks++
	}
	ended := recEnd(p)
	recOpen(p)
	child.rec = recNewTask(p.id, site)
	recDep(ended, child.rec.strand, trace.Spawn)
	recDep(ended, p.strand, trace.Cont)
}

// recReturn: d's task ended; a member of a group (an errgroup's task, a
// WaitGroup.Go's) is released to it. A task released at a Done that no
// Wait has joined yet is released at its end instead: the strands after
// its Done (the return, the census Task.Return may run, which finds
// what the task dropped before its Done) then come before the join, as
// they do for the engine, which joins a task only once it has ended
// (dnode.completeFor). Released at its Done, a census's deaths in its
// last strand could be charged after the parent ran on past the Wait:
// a schedule of the trace would hold them longer than any the MHWM
// covers (a merge sort's buffers, ws at p = 8 above MHWM_8 by 1–2 MB).
func recReturn(d *dnode) {
	t := recOpenOf(d)
	if t == nil {
		return
	}
	recEnd(t)
	last := rec.live[len(rec.live)-1]
	last.liveAt, rec.live[t.liveAt] = t.liveAt, last
	rec.live[len(rec.live)-1] = nil
	rec.live = rec.live[:len(rec.live)-1]
	if l := rec.limits[d.group]; l != nil {
		l.ends = ownAppend(l.ends, t.last)
	}
	if d.group != nil {
		recRelease(t, d.group, t.last)
	}
	if t.relS >= 0 && t.relS != t.last {
		if m := rec.groups[t.group]; int(t.rel) < len(m) && m[t.rel] == t.relS {
			m[t.rel], t.relS = t.last, t.last
		}
	}
}

// recRelease releases t's strand s to group g: g's next Wait waits for
// it. A task is released to a group once; t.rel and t.relS keep where,
// for recReturn.
func recRelease(t *recTask, g any, s int32) {
	if t.group == g {
		return
	}
	t.group, t.rel, t.relS = g, int32(len(rec.groups[g])), s
	rec.groups[g] = ownAppend(rec.groups[g], s)
}

// recDone: d's task called Done on wg.
func recDone(d *dnode, wg any) {
	t := d.rec
	if t == nil {
		return
	}
	s := t.last
	if t.strand >= 0 {
		s, _ = recSplit(t)
	}
	if s >= 0 {
		recRelease(t, wg, s)
	}
}

// recJoin: d's task completed a Wait on g: its next strand waits for
// every strand released to g.
func recJoin(d *dnode, g any) {
	t := recOpenOf(d)
	if t == nil {
		return
	}
	_, next := recSplit(t)
	for _, s := range rec.groups[g] {
		recDep(s, next, trace.Join)
	}
	delete(rec.groups, g)
}

// recChan: the holder completed a send ('s') or receive ('r') on the
// channel at key of capacity c.
func recChan(key unsafe.Pointer, c int, dir byte) {
	t := recOpenOf(holderDnode())
	if t == nil || key == nil {
		return
	}
	ch := rec.chans[key]
	if ch == nil {
		ch = &chanRec{cap: int64(c), sends: map[int64]recOp{}, recvs: map[int64]recOp{}}
		rec.chans[key] = ch
	}
	ended, next := recSplit(t)
	op := recOp{ended, next}
	dep := func(from, to int32) { recDep(from, to, trace.Chan) }
	if dir == 's' {
		k := ch.nsend
		ch.nsend++
		if r, ok := ch.recvs[k]; ok {
			dep(ended, r.next)
		} else {
			ch.sends[k] = op
		}
		if r, ok := ch.recvs[k-ch.cap]; ok {
			dep(r.ended, next)
		}
		delete(ch.recvs, k-ch.cap)
		return
	}
	k := ch.nrecv
	ch.nrecv++
	if s, ok := ch.sends[k]; ok {
		dep(s.ended, next)
		if ch.cap == 0 {
			dep(ended, s.next) // the rendezvous, its send recorded first
		}
		delete(ch.sends, k)
	}
	if k+ch.cap >= ch.nsend {
		ch.recvs[k] = op // a later send waits for it
	}
}

// recRelay records a one-way edge through key: the holder's strand is
// cut at a release (a close, a Cond signal or broadcast), which becomes
// key's latest in m, or at an acquire (a receive of a closed channel's
// zero value, a Cond wake-up), which comes after key's latest release.
// A Cond wake-up is thus ordered after the latest signal, the one that
// woke it or a later one.
func recRelay(m map[unsafe.Pointer]int32, key unsafe.Pointer, release bool, kind trace.DepKind) {
	t := recOpenOf(holderDnode())
	if t == nil || key == nil {
		return
	}
	ended, next := recSplit(t)
	if release {
		m[key] = ended
	} else if r, ok := m[key]; ok {
		recDep(r, next, kind)
	}
}

// recUnlock: the holder unlocked the lock at key (a read lock if !w).
func recUnlock(key unsafe.Pointer, w bool) {
	t := recOpenOf(holderDnode())
	if t == nil {
		return
	}
	ended, _ := recSplit(t)
	if w {
		rec.locks[key] = ownAppend(rec.locks[key], ended)
	} else {
		rec.rlocks[key] = ownAppend(rec.rlocks[key], ended)
	}
}

// recLock: the holder acquired the lock at key (a read lock if !w): it
// waits for the unlocks before it (a read lock only for write unlocks).
func recLock(key unsafe.Pointer, w bool) {
	t := recOpenOf(holderDnode())
	if t == nil {
		return
	}
	_, next := recSplit(t)
	for _, s := range rec.locks[key] {
		recDep(s, next, trace.Mutex)
	}
	if w {
		for _, s := range rec.rlocks[key] {
			recDep(s, next, trace.Mutex)
		}
		delete(rec.locks, key)
		delete(rec.rlocks, key)
	}
}
