package rtlib

import (
	"fmt"
	"runtime/metrics"
	"strconv"
	"sync"
	"time"

	"github.com/spgo/spgo/rtlib/mhwm"
	"github.com/spgo/spgo/rtlib/profile"
)

// proot is one root's profile under way.
type proot struct {
	site     Site
	name     string
	eng      *mhwm.Engine
	tot      *mhwm.Engine // heap and goroutine stacks (acct_stack.go); nil in threshold mode
	traceMax int64        // the engine's trace limit (SPGO_TRACE_LIMIT when the root began)
	top      *dnode
	front    *dnode // the dnode whose events the engine takes next
	engErr   error
	commSeen bool
	poolSeen bool // a sync.Pool.Get reused an object of unknown size while others may run (acct_pool.go)

	// sync.Pool (acct_pool.go): the Gets, those the run served from a
	// pool, and the bytes of pooled objects left charged where they were
	// made (parts rtlib does not track).
	poolGets, poolReused, poolOver int64
	freeWaitSeen                   bool // a waiting receive took an object from a free list (poolTake)

	reasons  []string
	seen     map[string]bool
	allocB   []int64 // by site
	allocN   []int64
	groups   table[any, membership] // groups with goroutines no Wait joined yet
	limits   table[any, int]        // errgroup limits
	censuses int64
	maxSince int64
	lagged   int64
	late     int64 // bytes of deaths charged after a strand that may have caused them (descriptors aside)

	// The interval (bound): tracked bytes a census found live at once,
	// and what deaths found in their own strand can add to a strand's
	// peak (per census: the most, and the sum).
	liveLow      int64
	inMax, inSum int64
	unbounded    bool // a reason says a figure may be too low: no interval

	// The watchdog's warnings during the root: stuck.n when it began and
	// when it ended (see stuckReason).
	stuck0, stuck1     int64
	blocked0, blocked1 int64 // stuck.blocked likewise (blockedReason)
	bubble0, bubble1   int64 // bubbled.n likewise (bubbleReason)

	// The self-check: the most the process's heap can have held during
	// the root, above what it held when the root began (runtime/metrics
	// at censuses, plus what was allocated after each).
	based   bool  // base is set
	base    int64 // live heap at the root's first census
	lastObs int64 // live heap at the last census, less base
	obsPeak int64 // max of lastObs plus the bytes allocated until the next census
	shared  bool  // another root was open at a census: the heap was not this root's alone

	// Parallel subtests (dag_window.go): those forked and not ended, and
	// whether the test function has returned meanwhile (the root then
	// closes at the last SubEnd).
	pendingSubs int
	lingering   bool

	// The observed bound (observeHeap): the most the process's heap can
	// have held between the root's first census and its last, absolute
	// (nothing subtracted), so that no schedule's figure for the run
	// that happened can be above it.
	heapSeen   bool
	heapLast   int64  // live heap at the last reading
	heapAllocs uint64 // the runtime's bytes allocated then
	heapPeak   int64

	// Goroutine stacks (acct_stack.go): goroutines forked, how many were
	// seen grown past their starting size and by how much in all, and
	// whether sizes could not be read at all.
	stackN, stackGrown, stackExtra int64
	stackMaxGrow                   int64 // the most one goroutine grew by
	stackBlind                     bool

	done    bool
	partial bool
	res     *mhwm.Result
	resTot  *mhwm.Result // tot's answer
	out     *profile.Root
	enc     []byte // out encoded (profile.EncodeRoot), once
}

// roots counts the roots open now (begun, not finished); the baton
// holder's.
var roots struct{ open int }

// prof holds the roots of the run, in the order they began.
var prof struct {
	mu      sync.Mutex // Flush may come from any goroutine
	roots   []*proot
	names   map[string]int // roots begun so far by name
	start   time.Time
	written bool
}

func (r *proot) reason(s string) {
	if r.seen[s] || len(r.reasons) >= 20 {
		return
	}
	r.seen[s] = true
	r.reasons = append(r.reasons, s)
}

func (r *proot) reasonAt(site Site, s string) {
	r.reason(sitePos(site) + ": " + s)
}

// sitePos is "file:line" of site.
func sitePos(site Site) string {
	if rec, ok := Lookup(site); ok {
		return fmt.Sprintf("%s:%d", sourceName(rec.File), rec.Line)
	}
	return "?"
}

// siteAlloc adds one allocation of n bytes to site's totals.
func (r *proot) siteAlloc(site Site, n int64) {
	r.siteBytes(site, n)
	r.allocN[site]++
}

// siteBytes adds n bytes to site's totals without counting an
// allocation: bytes of uninstrumented code, whose number of objects is
// not known.
func (r *proot) siteBytes(site Site, n int64) {
	if int(site) >= len(r.allocB) {
		k := max(int(site)+1, len(sites.all))
		r.allocB, r.allocN = heldGrow(r.allocB, k), heldGrow(r.allocN, k)
	}
	r.allocB[site] += n
}

// membership is what r.groups knows of a group: the task that spawned
// its first goroutine, and how many of its goroutines no Wait joined
// yet. A group leaves the table when that number drops to zero, so the
// table holds neither the program's groups nor rtlib's tasks longer
// than the goroutines do.
type membership struct {
	spawner *dnode
	n       int
}

// member records that one goroutine spawner spawned joins group g.
func (r *proot) member(g any, spawner *dnode) {
	m, ok := r.groups.get(g)
	if !ok {
		m.spawner = spawner
	}
	m.n++
	r.groups.put(g, m)
}

// joined records that a Wait joined one goroutine of group g (nil: of no
// group). Goroutines a task's end joins stay members: a Wait elsewhere
// may still join them.
func (r *proot) joined(g any) {
	if g == nil {
		return
	}
	m, ok := r.groups.get(g)
	if !ok {
		return
	}
	if m.n--; m.n > 0 {
		r.groups.put(g, m)
	} else {
		r.groups.del(g)
	}
}

// hasForeignMembers reports whether group g has goroutines no Wait
// joined yet that another task than d spawned.
func (r *proot) hasForeignMembers(d *dnode, g any) bool {
	m, ok := r.groups.get(g)
	return ok && m.spawner != d
}

// delayReason says why the join of s's block waits.
func (r *proot) delayReason(s *scope) string {
	for _, k := range s.kids {
		switch {
		case k.group == nil:
			return fmt.Sprintf("the goroutine spawned at %s is in no group waited for here; this Wait's join is delayed until it is joined (at the latest the end of the root)", sitePos(k.site))
		case !k.subtreeDone():
			return fmt.Sprintf("the goroutine spawned at %s (or one it spawned) was still running when the Wait returned; the join is delayed", sitePos(k.site))
		case k.escapes:
			return fmt.Sprintf("the goroutine spawned at %s left goroutines running when it ended; the join is delayed", sitePos(k.site))
		}
	}
	return "the Wait joins only some of the goroutines outstanding here (another group); the join is delayed until all are joined"
}

// beginRoot opens the profile of a root run by task t.
func beginRoot(t *Task, site Site) {
	cfgSites()
	began := time.Now()
	// The trace serves the per-line figures of the profile: with
	// SPGO_PROFILE=off nothing would read it.
	mc := mhwm.Config{P: cfg.pmax, Threshold: cfg.threshold, Attribution: cfg.threshold == 0 && cfg.path != "off",
		Clock: func() int64 { return int64(time.Since(began)) }, Grown: ownGrown, Made: ownAlloc, TraceLimit: cfg.traceMax}
	eng, err := mhwm.New(mc)
	if err != nil {
		panic(err) // cfg ranges make this impossible
	}
	r := &proot{site: site, eng: eng, traceMax: mc.TraceLimit, seen: map[string]bool{}, groups: newTable[any, membership](ifaceHash), limits: newTable[any, int](ifaceHash)}
	if cfg.threshold == 0 && cfg.stacks {
		// The total: the same events with the stacks' among them, no
		// per-line trace (the lines are the heap engine's).
		r.tot, err = mhwm.New(mhwm.Config{P: cfg.pmax, Clock: mc.Clock, Grown: ownGrown, Made: ownAlloc})
		if err != nil {
			panic(err)
		}
		stackStartRead()
	}
	if rec, ok := Lookup(site); ok {
		r.name = rec.Func
	} else {
		r.name = fmt.Sprintf("root@%d", site)
	}
	r.stuck0, r.blocked0, r.bubble0 = stuck.n.Load(), stuck.blocked.Load(), bubbled.n.Load()
	d := newDnode(r, nil, site)
	d.direct = true
	r.top, r.front = d, d
	roots.open++
	recBeginRoot(r, d)
	prof.mu.Lock()
	if prof.start.IsZero() {
		prof.start = time.Now()
	}
	// A root begun again (go test -count=2, a function that is a root
	// called twice) is named name#2, name#3, …: a profile's root names
	// are unique, and reports and diffs match roots by name.
	if prof.names == nil {
		prof.names = map[string]int{}
	}
	prof.names[r.name]++
	if n := prof.names[r.name]; n > 1 {
		r.name += "#" + strconv.Itoa(n)
	}
	prof.roots = append(prof.roots, r)
	prof.mu.Unlock()
	t.dstack = append(t.dstack, t.dn)
	t.dn = d
	if !mem.on {
		// The first root: collect once, so that what the program did
		// before (package initialisation) is the baseline, flushed out
		// of the allocation caches and not charged to the root. From here
		// on only censuses collect (acct_gc.go).
		gcOff()
		growTimerHeap()
		collect()
		mem.on = true
		mem.lastLarge, mem.lastSmall = readAllocs()
		mem.hookedLarge, mem.hookedSmall, mem.own, mem.ownLarge = 0, 0, 0, 0
		ownTasks.Store(0)
		metrics.Read(mem.samples[2:])
		mem.baseline = max(0, int64(mem.samples[2].Value.Uint64())-ownLive())
		// The first root has no opening census: its observed bound
		// starts from this collection.
		observeHeap(r, int64(mem.samples[2].Value.Uint64()), mem.samples[0].Value.Uint64())
		mem.based = true
		r.based, r.base = true, mem.baseline
		mem.holder = d
		noteRan(d)
		return
	}
	chargeUninstrumented(mem.holder)
	mem.holder = d
	noteRan(d)
	if cfg.census != censusOff {
		// A clean start: garbage of earlier roots, and what was
		// allocated between them, is not this one's.
		mem.beginning = true
		census(d, 0)
		mem.beginning = false
	}
}

// cfgSites sizes the slot tables to the registered sites.
func cfgSites() {
	sites.mu.Lock()
	n := len(sites.all)
	sites.mu.Unlock()
	if n > len(mem.slots) {
		mem.slots = append(mem.slots, make([]slot, n-len(mem.slots))...)
		mem.pslots = append(mem.pslots, make([]slot, n-len(mem.pslots))...)
	}
}

// endRoot closes the profile of the root task t runs: tasks still
// running are ended here (their figures up to now count), every
// goroutine never joined is joined, and the engine answers.
func endRoot(t *Task, partial bool) {
	d := t.dn
	if d == nil || d.parent != nil || d.root.done {
		return
	}
	r := d.root
	partial = partial || panicking()
	if r.pendingSubs > 0 && !partial {
		// Parallel subtests run after the test function: the root
		// stays open until the last one's SubEnd (dag_window.go).
		chargeUninstrumented(d)
		r.lingering = true
	} else {
		closeRoot(d, partial)
	}
	if n := len(t.dstack); n > 0 {
		t.dn, t.dstack = t.dstack[n-1], t.dstack[:n-1]
	} else {
		t.dn = nil
	}
	mem.holder = t.dn
}

// closeRoot ends the root whose top dnode is d: a last census, then the
// engine's answer.
func closeRoot(d *dnode, partial bool) {
	if cfg.census != censusOff {
		mem.final = true
		census(d, 0)
		mem.final = false
	} else {
		chargeUninstrumented(d)
	}
	finishRoot(d.root, partial)
}

// finishRoot ends root r's DAG and computes its result.
func finishRoot(r *proot, partial bool) {
	if r.done {
		return
	}
	r.done, r.partial = true, partial
	r.stuck1, r.blocked1, r.bubble1 = stuck.n.Load(), stuck.blocked.Load(), bubbled.n.Load()
	roots.open--
	recEndRoot(r)
	d := r.top
	// Tasks that have not ended: their events so far count, then they
	// end (detached: what they do later is not this root's).
	for f := r.front; f != nil && f != d; f = r.front {
		r.reason(fmt.Sprintf("the goroutine spawned at %s was still running (blocked) when the root ended; its memory up to then is counted", sitePos(f.site)))
		f.ret()
		f.detached = true
		if r.front == f {
			break // cannot happen: ret feeds f's Return
		}
	}
	// Everything else is joined at the end of the root (ret emits no
	// Return for a root).
	d.ret()
	r.feedSeg(d.seg)
	d.seg = d.seg[:0]
	res, err := r.eng.Exit()
	r.check(err)
	r.res = res
	if r.tot != nil {
		r.resTot, err = r.tot.Exit()
		r.check(err)
	}
	orphanRoot(r)
	d.detached = true
}
