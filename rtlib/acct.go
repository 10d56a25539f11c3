package rtlib

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/spgo/spgo/rtlib/mhwm"
)

// Memory accounting (see ACCOUNTING.md beside this file for the study
// behind it). Every byte is charged to the strand that allocated it,
// through the rewriter's hooks (with size and site) or, for allocations
// by uninstrumented code, through runtime/metrics read at every baton
// switch. Deaths are found by censuses: runtime.GC(), then the weak
// pointers of the tracked (large) objects and the live heap for the rest.
// A death is charged to the earliest strand that follows both the
// allocation and the census that found it: at once if the allocating
// strand precedes the running one, else at the join that orders them.
// Objects not tracked one by one (small ones, uninstrumented code's) are
// pooled by (task, epoch, site); a census knows only how many of their
// bytes died, and charges the deaths to the pools whose charge comes
// latest first, which can only over-estimate.

// slot finds a site's entry in the open block of a segment, or in the
// pool, without a map: entries are valid while the stamp matches.
type slot struct {
	stamp uint32
	idx   int32
}

// tracked is a large object followed one by one.
type tracked struct {
	wp    weak.Pointer[byte]
	bytes int64
	site  Site
	dn    *dnode
	ep    int64
	seen  seen  // where it was last known live
	at    int64 // mem.since after that point's hook (see bound)
	rs    int32 // the recorded strand that allocated it (SPGO_TRACE), else -1
	// owner is the map it is a part of (acct_map.go), seen live
	// wherever an insert into it was, nil for other objects.
	owner *mapState
}

// seen is the last point an object was known live: its allocation, or a
// census it survived, in strand st of task dn (dnode.strand). A death a
// census finds in that same strand happened in it, and is charged there
// late by no more than the strand's own work; any other death may have
// happened in an earlier strand, and counts in the root's late bytes.
type seen struct {
	dn *dnode
	st uint64
}

// seenNow is the running strand of d.
func seenNow(d *dnode) seen { return seen{d, d.strand} }

// cand is a pool chunk a census may charge deaths to.
type cand struct {
	i     int
	now   bool
	s     *scope
	depth int32
}

// chunk is the pooled (untracked) live bytes of one site allocated by
// one task in one epoch.
type chunk struct {
	dn    *dnode
	ep    int64
	seen  seen  // where its bytes were last known live (all added in that strand)
	at    int64 // mem.since after the hook that added the first of them
	site  Site
	rs    int32 // the last recorded strand that added to it (SPGO_TRACE), else -1
	bytes int64
}

// acct is the accounting state: the runtime's own, used by the baton
// holder only.
var mem struct {
	on     bool // profiling: a root is open
	holder *dnode
	stamp  uint32
	slots  []slot // by site: the open block of the holder's segment
	pslots []slot // by site: the holder's pool chunk

	// Uninstrumented allocations: runtime/metrics. Large objects are
	// counted when allocated, so they are read at every switch; small ones
	// are counted a span at a time when a span enters an allocation cache
	// and corrected when it leaves, so they are exact only after a
	// collection: they are read at censuses.
	samples     [3]metrics.Sample
	lastLarge   uint64  // large heap bytes allocated at the last reading
	hookedLarge int64   // hooked large bytes since that reading
	lastSmall   uint64  // small heap bytes allocated at the last census
	hookedSmall int64   // hooked small bytes (rounded) since that census
	own         int64   // rtlib's own small heap bytes since that census (estimate)
	ownLarge    int64   // rtlib's own large heap bytes since the last reading
	ownHeld     int64   // live bytes of rtlib's long-lived arrays (ownGrown)
	watch       []uint8 // by site: readings after its calls that found nothing, or watchLarge

	// Censuses.
	since      int64    // bytes allocated since the last census
	proven     int64    // the part of since that dies with its frame (allocFrame): no census needed
	frameLive  int64    // live bytes of frame objects (acct_frame.go)
	frameBig   int64    // the part of frameLive with weak pointers, known live at a census
	framed     []*dnode // tasks with frame objects that carry weak pointers
	budget     int64    // census when since reaches it
	live       int64    // program bytes of open roots live at the last census (estimate)
	water      int64    // the most of them a census found
	censuses   int64
	maxSince   int64     // the most bytes allocated between two censuses
	inDead     int64     // deaths this census charges in the strand last seen to hold them
	largeReads int64     // readings of large objects so far (readLarge)
	grown      int64     // bytes of buffer arrays replaced since the last census (acct_buf.go)
	inList     []inDeath // each of them, with the mem.since of the point it was last seen live
	objs       []tracked
	trackLive  int64
	pool       []chunk
	cands      []cand   // freePooled's, reused
	ran        []*dnode // tasks that ran program code since the last census
	interval   uint32   // census intervals so far
	poolLive   int64    // Σ pool
	orphan     int64    // live bytes of no open root (ended roots, outside roots)
	baseline   int64    // live bytes at the first census not otherwise known
	based      bool
	inCensus   bool
	beginning  bool   // the census that opens a root (beginRoot)
	marks      uint32 // external-call markers passed (At)
	fresh      *dnode // a census ran in it right before a strand boundary
	liftGen    uint32 // censuses so far, for lift's answers

	// A census at a task's end is followed by no program code of the
	// task: what it saw live is live when the next task takes the
	// baton. endSeen is that census's point, alias it (and the ended
	// task's later strands, its Return among them) and aliasTo the strand
	// of the task that took the baton, until the next census.
	endSeen, alias, aliasTo seen
	final                   bool   // the census at a root's end
	allocsAt                uint64 // the runtime's bytes allocated, at the last census
}

func init() {
	mem.samples[0].Name = "/gc/heap/allocs:bytes"
	mem.samples[1].Name = "/gc/heap/allocs-by-size:bytes"
	mem.samples[2].Name = "/gc/heap/live:bytes"
}

// maxSmall is the largest allocation the runtime serves from a size
// class (32 KiB less the header an object with pointers may need; the
// allocs-by-size histogram agrees for objects without pointers too).
const maxSmall = 32760

// readAllocs returns the heap bytes allocated so far in large and in
// small objects (runtime/metrics: exact for large objects; small ones
// only after a collection, see mem.samples). The histogram has one bucket
// per size class, [class+1, next class+1), and the last one, up to +Inf,
// for large objects.
func readAllocs() (large, small uint64) {
	metrics.Read(mem.samples[:2])
	h := mem.samples[1].Value.Float64Histogram()
	for i, n := range h.Counts[:len(h.Counts)-1] {
		small += n * uint64(h.Buckets[i+1]-1)
	}
	return mem.samples[0].Value.Uint64() - small, small
}

// hook counts n hooked bytes (rounded) as allocated (n < 0: takes back
// an object of -n bytes), large if the runtime allocated it as a large
// object: a request above maxSmall. The rounded size cannot say: 32 KiB
// is both the largest size class and a large object of four pages.
func hook(n int64, large bool) {
	if large {
		mem.hookedLarge += n
	} else {
		mem.hookedSmall += n
	}
}

// holderDnode is the dnode allocation hooks charge.
func holderDnode() *dnode {
	if !mem.on {
		return nil
	}
	return mem.holder
}

// allocp charges n bytes at site, the object at p (nil if not known).
// It is not inlined: pathKey leaves its frame out by position.
//
//go:noinline
func allocp(site Site, n int64, p unsafe.Pointer) {
	d, n := allocHolder(site, n)
	if d == nil {
		return
	}
	if cfg.census == censusOracle || mem.since-mem.proven+n >= mem.budget && cfg.census != censusOff || bigAlloc(d, n) {
		// Before charging the new object: deaths found now come first.
		census(d, n)
	}
	site = pathKey(site) // the site and its call path (prof_paths.go)
	d.lastSite = site
	r := d.root
	r.siteAlloc(site, n)
	d.add(site, n)
	mem.since += n
	if p != nil && n >= cfg.track && cfg.census != censusOff {
		trackObj(d, weak.Make((*byte)(p)), n, site, nil)
		mem.own += 16
	} else {
		d.pool(site, n)
	}
	hb.Store(int32(site)) // last: see beat
}

// trackObj adds the object wp points to, n bytes d allocated at site
// (a part of map owner, or nil), to the objects a census watches one by
// one. It is charged already.
func trackObj(d *dnode, wp weak.Pointer[byte], n int64, site Site, owner *mapState) {
	d.top().big += n
	mem.objs = ownAppend(mem.objs, tracked{wp: wp, bytes: n, site: site, dn: d, ep: d.epoch, seen: seenNow(d), at: mem.since, rs: recStrand(d), owner: owner})
	mem.trackLive += n
	d.bigLive += n
}

// allocHolder is the start of every allocation hook: it counts the n
// bytes (rounded to the size class, returned) as hooked and returns the
// holder's dnode to charge them to, or nil when they are nobody's (no
// root open, a detached task: orphans) and the hook is done.
func allocHolder(site Site, n int64) (*dnode, int64) {
	if inBubble() {
		return nil, n
	}
	held()
	mem.fresh = nil
	large := n > maxSmall
	n = roundSize(n)
	d := holderDnode()
	if d == nil || d.detached {
		if mem.on {
			hook(n, large)
			mem.orphan += n
		}
		hb.Store(int32(site)) // last: see beat
		return nil, n
	}
	// Hooked before a census: the census's readings then leave the new
	// object out of what uninstrumented code allocated.
	hook(n, large)
	return d, n
}

// At tells rtlib that the running task is about to call uninstrumented
// code (the standard library, a dependency, a method through an
// interface) at site. The rewriter puts rtlib.At(site) right before every
// statement that makes such a call, in the same block, with the site of
// its first one (rewrite/README.md lists the shapes). The heap bytes that
// hooks do not explain, read from runtime/metrics at the next baton
// switch, task end or census, are charged to the last site marked since
// the previous reading rather than to the last instrumented site the task
// passed; and a watchdog warning about a holder stuck in the call names
// the site (the heartbeat is stored even when no root is open). At
// allocates nothing; the caller is taken to be the holder, as allocation
// hooks do, and nothing is marked when no root is open or there is no
// holder.
func At(site Site) {
	if inBubble() {
		return
	}
	held()
	mem.fresh = nil
	if d := holderDnode(); d != nil {
		if prev := d.extSite; prev != 0 && prev != site && watched(prev) {
			watchRead(prev, chargeUninstrumented(d))
		}
		switch cfg.census {
		case censusOracle:
			// What the statements since the last reading allocated and
			// dropped is theirs, not this call's.
			census(d, 0)
		case censusBounded:
			if mem.marks++; mem.marks%markCheck == 0 && heapGrown() {
				census(d, 0)
			}
		}
		d.extSite, d.smallSite = site, site
	}
	hb.Store(int32(site)) // last: see beat
}

// Large objects that uninstrumented code allocates are counted by
// runtime/metrics when allocated, but a reading costs about 0.4 µs, too
// much for every external call. A reading at a baton switch or census
// charges them to the last external call marked since the previous one,
// which is wrong when another call in between made them (stdlibheavy:
// strings.Repeat's 1 MiB charged to the strings.Clone line after it).
// So At reads when the call marked before it, at another site, is
// watched: every site is, for its first watchQuiet calls followed by
// another site's, and for good once a reading after it found large
// bytes. A loop of calls that allocate only small objects stops costing
// readings after a few iterations.
const (
	watchQuiet = 4   // readings that find nothing before a site is not watched
	watchLarge = 255 // the site's calls allocated large objects
)

// watched reports whether At reads large allocations after a call
// marked at site.
func watched(site Site) bool {
	if int(site) >= len(mem.watch) {
		return true
	}
	w := mem.watch[site]
	return w < watchQuiet || w == watchLarge
}

// watchRead records what a reading after a call marked at site found.
func watchRead(site Site, charged int64) {
	if int(site) >= len(mem.watch) {
		mem.watch = ownAppend(mem.watch, make([]uint8, int(site)+1-len(mem.watch))...)
	}
	switch w := &mem.watch[site]; {
	case charged > 0:
		*w = watchLarge
	case *w < watchQuiet:
		*w++
	}
	hb.Store(int32(site)) // last: see beat
}

// pool adds n untracked bytes at site to d's current chunk.
func (d *dnode) pool(site Site, n int64) {
	mem.poolLive += n
	d.pooled += n
	if d.poolEp == 0 {
		mem.stamp++
		d.poolEp = mem.stamp
	}
	if int(site) < len(mem.pslots) {
		s := &mem.pslots[site]
		if s.stamp == d.poolEp && int(s.idx) < len(mem.pool) {
			c := &mem.pool[s.idx]
			if c.dn == d && c.site == site && c.ep == d.epoch && c.seen == seenNow(d) {
				c.bytes += n
				c.rs = recStrand(d)
				return
			}
		}
		s.stamp, s.idx = d.poolEp, int32(len(mem.pool))
	}
	mem.pool = ownAppend(mem.pool, chunk{dn: d, ep: d.epoch, seen: seenNow(d), at: mem.since, site: site, rs: recStrand(d), bytes: n})
}

// switchTo is called at every baton switch: the uninstrumented bytes
// allocated since the last reading are charged to the task that ran. A
// task that ended (and was not detached by the end of its root) was read
// at its end (dagReturn); only rtlib ran since, and the reading is left
// to the next holder's switch.
func switchTo(next *dnode) {
	recSwitch(next)
	if !mem.on {
		mem.holder = next
		return
	}
	if h := mem.holder; h == nil || !h.finished || h.detached {
		chargeUninstrumented(h)
	}
	if h := mem.holder; h != nil && h != next {
		if h.finished && mem.endSeen.dn == h && next != nil {
			mem.alias, mem.aliasTo = mem.endSeen, seenNow(next)
		}
		h.strand++ // others run before it goes on
		mem.fresh = nil
	}
	mem.holder = next
	noteRan(next)
}

// chargeUninstrumented reads runtime/metrics and charges the large
// objects hooks did not explain to d: at the last external call site d
// marked (At) since the previous reading, else at the last instrumented
// site d ran. Every reading starts a new interval: the mark is cleared.
func chargeUninstrumented(d *dnode) int64 {
	_, n := readLarge(d)
	return n
}

// readLarge is chargeUninstrumented, which also returns the site the
// bytes were charged to.
func readLarge(d *dnode) (Site, int64) {
	large, _ := readAllocs()
	delta := int64(large-mem.lastLarge) - mem.hookedLarge - mem.ownLarge
	mem.lastLarge, mem.hookedLarge, mem.ownLarge = large, 0, 0
	mem.largeReads++
	site := takeMark(d, func(x *dnode) *Site { return &x.extSite })
	if site == 0 && d != nil {
		site = d.lastSite
	}
	return site, chargeBytes(d, site, delta)
}

// takeMark returns the site mark of d picks out, and clears it in d and
// in the holder: At marks the holder only, and every reading charges the
// holder or the task that held the baton until now.
func takeMark(d *dnode, mark func(*dnode) *Site) (site Site) {
	if d != nil {
		m := mark(d)
		site, *m = *m, 0
	}
	if h := mem.holder; h != nil {
		*mark(h) = 0
	}
	return site
}

// chargeSmall is chargeUninstrumented for small objects, called by a
// census right after its collection, when their count is exact.
func chargeSmall(d *dnode) int64 {
	_, small := readAllocs()
	mem.own += ownTasks.Swap(0)
	delta := int64(small-mem.lastSmall) - mem.hookedSmall - mem.own

	mem.lastSmall, mem.hookedSmall, mem.own = small, 0, 0
	// Small objects are read at censuses only: the mark is the last one
	// since the previous census, which a reading of large objects in
	// between (every census and baton switch makes one) does not clear.
	// strconv.Itoa's strings in a task's loop were charged to the task's
	// go statement in its parent.
	return chargeBytes(d, takeMark(d, func(x *dnode) *Site { return &x.smallSite }), delta)
}

// chargeBytes charges delta bytes allocated by uninstrumented code to d
// at site, or at the last instrumented site d ran when site is 0.
func chargeBytes(d *dnode, site Site, delta int64) int64 {
	if delta <= 0 {
		return 0
	}
	if d == nil || d.detached || d.finished {
		// No task, or one whose part of the DAG is closed (bytes
		// after its Return: rtlib's own, mostly): no open strand to
		// charge them to.
		mem.orphan += delta
		return 0
	}
	if site == 0 {
		site = d.lastSite
	}
	d.root.siteBytes(site, delta)
	d.add(site, delta)
	mem.since += delta // first: the chunk's point is after these bytes (bound)
	d.pool(site, delta)
	return delta
}

// resetBudget applies the bounded-error rule after a census that found
// live bytes L, with M the most any census found: at most M·(1+E) − L
// more bytes before the next census (so no peak between two censuses is
// above M·(1+E)), and never less than the minimum.
func resetBudget() {
	mem.since, mem.proven, mem.grown = 0, 0, 0
	b := int64(float64(mem.water)*(1+cfg.errBound)) - mem.live
	// Rounded down to whole budget quanta, so that a few bytes more or
	// less of the runtime's own (a goroutine's g, a timer) in one run do
	// not move the next census.
	mem.budget = max(b&^(budgetQuantum-1), cfg.minBudget)
}

// budgetQuantum is the unit census budgets are rounded to.
const budgetQuantum = 4 << 10

// census collects garbage and charges the deaths it finds; c is the
// running task's dnode, and pending the bytes of an object being
// allocated, live but not yet in the tables.
func census(c *dnode, pending int64) {
	if mem.inCensus || c == nil || c.detached {
		return
	}
	mem.inCensus = true
	mem.liftGen++ // lift's answers hold for this census's running task
	defer func() { mem.inCensus = false }()
	mem.censuses++
	c.root.censuses++
	c.censused = true
	c.received = 0
	mem.maxSince = max(mem.maxSince, mem.since)
	c.root.maxSince = max(c.root.maxSince, mem.since)
	stackSeen(c) // before the reading and the collection change it
	defer stackCensusEnd(c)
	chargeUninstrumented(c)
	collect()
	stackStartRead()
	// rtlib's own live bytes as the collection found them: the heap
	// figure read below is of that moment, and what rtlib's tables grow
	// by later in this census (chargeSmall's per-site counts, the pool)
	// is not in it. Taken later, they would pass for deaths.
	own := ownLive()
	b := barrier(c)
	b.census = recCensus(c)
	alone := len(mem.ran) == 0 || len(mem.ran) == 1 && mem.ran[0] == c
	clear(mem.ran)
	mem.ran = mem.ran[:0]
	mem.interval++
	noteRan(c)
	// Small objects by uninstrumented code are seen only now: charged to
	// the running task. When no other task ran since the last census,
	// that is the task that made them; otherwise perhaps not (the root's
	// census lag counts those bytes). runtime/metrics cannot say which
	// task made them: between collections it counts a size class's
	// small objects only when their span leaves an allocation cache.
	var lag int64
	if mem.beginning {
		// The census that opens a root: what was allocated before it
		// (between two tests, by the testing package) is no one's.
		chargeSmall(nil)
	} else if lag = chargeSmall(c); !alone {
		c.root.lagged += lag
	}
	metrics.Read(mem.samples[2:])
	heapLive := int64(mem.samples[2].Value.Uint64())

	settleJoined(c)
	poolsPrune()
	bufsPrune()
	mapsPrune()

	// Tracked objects: each death where it belongs.
	keep := mem.objs[:0]
	mem.inDead = 0
	var rootLive int64 // tracked bytes of c's root live now
	for _, o := range mem.objs {
		if o.wp.Value() != nil {
			o.seen, o.at = seenNow(c), pending
			keep = append(keep, o)
			if o.dn.root == c.root {
				rootLive += o.bytes
			}
			continue
		}
		mem.trackLive -= o.bytes
		o.dn.bigLive -= o.bytes
		if m := o.owner; m != nil && m.iv == mem.interval-1 {
			o.seen, o.at = m.seen, m.at // its map was used after this census's last
		}
		free(c, o.dn, o.ep, o.seen, o.at, o.rs, o.site, o.bytes, b)
	}
	clear(mem.objs[len(keep):])
	mem.objs = keep
	rootLive += frameCensus(c, pending, b)

	// Pooled bytes: the live heap says how many died, not which. Bytes
	// no open root owns (ended roots', code outside roots') are assumed
	// to have died first; the heap as the first census found it, last.
	untracked := heapLive - mem.trackLive - mem.frameBig - own - pending - pools.held
	if !mem.based {
		mem.based = true
		mem.baseline = max(0, untracked-mem.poolLive-mem.orphan)
	}
	dead := mem.poolLive + mem.orphan + mem.baseline - untracked
	if dead < 0 {
		mem.orphan -= dead // live bytes nobody explained: nobody's deaths either
	} else {
		n := min(dead, mem.orphan)
		mem.orphan -= n
		dead -= n
		dead -= freePooled(c, dead, b)
		mem.baseline -= min(dead, mem.baseline)
	}
	if debugCensus {
		_, file, line, _ := runtime.Caller(1)
		fmt.Fprintf(os.Stderr, "  (census from %s:%d in task depth %d)\n", file, line, c.depth)
		fmt.Fprintf(os.Stderr, "census %d: heap %d tracked %d pool %d orphan %d baseline %d untracked %d lag %d alone %v\n", mem.censuses, heapLive, mem.trackLive, mem.poolLive, mem.orphan, mem.baseline, untracked, lag, alone)
	}
	// The budget follows the program's live bytes in open roots: memory
	// nobody explained (rtlib's own that it does not subtract, ended
	// roots', the heap before the first root) raised it, and with it how
	// late every death is found (finegrain: 2 MB between censuses, ten
	// in 327 679 strands, MHWM_1 30 MB for 0.02).
	for i := range mem.pool {
		mem.pool[i].seen, mem.pool[i].at = seenNow(c), pending // what is left is live now
	}
	mem.live = mem.trackLive + mem.poolLive + mem.frameLive
	mem.water = max(mem.water, mem.live)
	bound(c.root, rootLive)
	observe(c.root, heapLive-own)
	observeHeap(c.root, heapLive, mem.samples[0].Value.Uint64())
	resetBudget()
	mem.endSeen, mem.alias, mem.aliasTo = seen{}, seen{}, seen{}
	mem.allocsAt = mem.samples[0].Value.Uint64()
}

// bound feeds root r's interval (ACCOUNTING.md, "The interval") after
// a census: live is r's tracked bytes found reachable, all live at once
// in the serial run, and mem.inDead the deaths charged in the strand
// last seen to hold them (mem.inList: each with the mem.since of the
// point it was last seen live). The oracle, with a census at every hook,
// would have found each at the first hook after that point. So for any
// point a, the strand's running bytes were too high by at most the
// deaths last seen before a, and what was allocated after a: the least
// of that over the deaths' points (with one point only, a garbage chunk
// last seen at the previous census made a 1.4 MB array's death, seen at
// its growth, count as lateness in full).
func bound(r *proot, live int64) {
	r.liveLow = max(r.liveLow, live)
	if mem.inDead > 0 {
		slices.SortFunc(mem.inList, func(a, b inDeath) int { return cmp.Compare(a.at, b.at) })
		in, before := mem.inDead, int64(0)
		for _, x := range mem.inList {
			in = min(in, before+max(0, mem.since-x.at))
			before += x.n
		}
		if debugCensus && in > 100000 {
			fmt.Fprintf(os.Stderr, "  in-strand %d: dead %d since %d\n", in, mem.inDead, mem.since)
		}
		r.inSum += in
		r.inMax = max(r.inMax, in)
	}
	mem.inDead = 0
	mem.inList = mem.inList[:0]
}

// inDeath is a death in the strand that last saw it live (inStrand).
type inDeath struct{ at, n int64 }

// inStrand notes a death of n bytes this census charges in the strand
// that last saw it live, when mem.since was at.
func inStrand(at, n int64) {
	mem.inList = ownAppend(mem.inList, inDeath{at, n})
	mem.inDead += n
}

// observe feeds root r's self-check with the live heap a census found
// (rtlib's own bytes aside): until this census the program held at most
// the previous census's figure plus what it allocated since.
func observe(r *proot, live int64) {
	if !r.based {
		r.based, r.base = true, live
	} else {
		r.obsPeak = max(r.obsPeak, r.lastObs+mem.since)
	}
	r.lastObs = live - r.base
	if roots.open > 1 {
		r.shared = true
	}
}

// observeHeap feeds r's observed bound (prof_build.go's heapBound)
// with a reading taken right after a collection: the live heap, live,
// and the runtime's count of bytes allocated so far, allocs (both exact
// then, rtlib's own bytes included). Between two readings the heap held
// at most the first one's live bytes plus what was allocated meanwhile,
// and r's objects are part of the heap: whatever a root's figures say,
// the run it made held no more.
func observeHeap(r *proot, live int64, allocs uint64) {
	if r.heapSeen {
		r.heapPeak = max(r.heapPeak, r.heapLast+int64(allocs-r.heapAllocs))
	}
	r.heapSeen, r.heapLast, r.heapAllocs = true, live, allocs
}

// settleJoined gives the objects and pool chunks of joined tasks to the
// task that joined them, as of the join (where does the same on the fly),
// so that they no longer hold the joined task's dnode: a spawn-heavy
// program kept every dnode of its run reachable through its pool.
// A joined task that is the running one or its ancestor keeps its own,
// as in where.
func settleJoined(c *dnode) {
	for i := range mem.objs {
		o := &mem.objs[i]
		for o.dn.joined && o.dn.parent != nil && !ancestorOrSelf(o.dn, c) {
			o.dn.bigLive -= o.bytes
			o.ep, o.dn = o.dn.joinEp, o.dn.parent
			o.dn.bigLive += o.bytes
		}
	}
	for i := range mem.pool {
		ch := &mem.pool[i]
		for ch.dn.joined && ch.dn.parent != nil && !ancestorOrSelf(ch.dn, c) {
			ch.dn.pooled -= ch.bytes
			ch.ep, ch.dn = ch.dn.joinEp, ch.dn.parent
			ch.dn.pooled += ch.bytes
		}
	}
}

// ownLive estimates rtlib's own live heap bytes that the live-heap figure
// includes: the census tables and the engines' traces.
func ownLive() int64 {
	return int64(cap(mem.objs))*int64(unsafe.Sizeof(tracked{})) +
		int64(cap(mem.pool))*int64(unsafe.Sizeof(chunk{})) + 16*int64(len(mem.objs)) +
		mem.ownHeld
}

// ownGrown counts a new backing array of alloc bytes, replacing one of
// dropped bytes (garbage from then on; 0 for none), of one of rtlib's
// long-lived arrays: an engine's attribution trace (it is the engines'
// mhwm.Config.Grown), the call-path tables, the per-site and per-root
// tables (heldAppend, heldPut, heldGrow). They stay reachable until the
// process ends (a trace until its root is written; alloc 0 gives an
// array back), so their bytes are rtlib's both in the allocation count
// and in the live heap (ownLive): a census must not take them for the
// program's small objects that have not died.
func ownGrown(alloc, dropped int64) {
	ownAlloc(alloc) // small or large by the request, as the runtime
	mem.ownHeld += ownSize(alloc) - ownSize(dropped)
}

// heldAppend is append for rtlib's long-lived slices (see ownGrown).
func heldAppend[S ~[]E, E any](s S, xs ...E) S {
	c := cap(s)
	s = append(s, xs...)
	if cap(s) != c {
		var z E
		size := int64(unsafe.Sizeof(z))
		ownGrown(int64(cap(s))*size, int64(c)*size)
	}
	return s
}

// ownAppend is append for rtlib's own slices: a new backing array is
// rtlib's memory, not the program's, and is subtracted from the next
// reading of runtime/metrics. (Its live bytes are left in the live heap:
// unexplained there, they are nobody's, and so is their death.)
func ownAppend[S ~[]E, E any](s S, xs ...E) S {
	c := cap(s)
	s = append(s, xs...)
	if cap(s) != c {
		var z E
		n := int64(cap(s)) * int64(unsafe.Sizeof(z))
		if n < 16 && pointerful[E]() {
			// Not the tiny allocator's: a size class of its own (8 or 16).
			mem.own += (n + 7) &^ 7
		} else {
			ownAlloc(n)
		}
	}
	return s
}

// ptrTypes caches pointerful's answers.
var ptrTypes sync.Map // reflect.Type → bool

// pointerful reports whether values of E hold pointers: an array of them
// smaller than 16 bytes then has a size class (8 or 16 bytes), where a
// pointer-free one goes to the tiny allocator, which may count a whole
// block or nothing (ownSize). Without it, a goroutine's first child, a
// []*dnode of one, was 8 bytes a spawn read as the program's: 7 MB of
// census lag in fib's 514 228 spawns.
func pointerful[E any]() bool {
	t := reflect.TypeFor[E]()
	if v, ok := ptrTypes.Load(t); ok {
		return v.(bool)
	}
	b := hasPointers(t)
	ptrTypes.Store(t, b)
	return b
}

// lockedAppend is ownAppend for rtlib's arrays appended to under
// sched.mu, perhaps without the baton: their bytes go to ownTasks.
func lockedAppend[S ~[]E, E any](s S, xs ...E) S {
	c := cap(s)
	s = append(s, xs...)
	if cap(s) != c {
		var z E
		ownTasks.Add(roundSize(int64(cap(s)) * int64(unsafe.Sizeof(z))))
	}
	return s
}

// ownTasks is rtlib's bytes for Tasks made since they were last added
// to mem.own: a goroutine adopted at a hook makes its Task under sched.mu
// but without the baton, while the holder may be changing mem.
var ownTasks atomic.Int64

// ownAlloc counts an allocation of n bytes by rtlib.
func ownAlloc(n int64) {
	if n > maxSmall { // large by the request, as hook: an array of 32 760 bytes is small
		mem.ownLarge += roundSize(n)
	} else {
		mem.own += ownSize(n)
	}
}

// ownSize is what the runtime counts for an allocation of n bytes without
// pointers, as far as rtlib can tell: below 16 bytes the tiny allocator
// may count a whole block or nothing, so nothing (the safe side: bytes
// rtlib does not claim are the program's).
func ownSize(n int64) int64 {
	if n < 16 {
		return 0
	}
	return roundSize(n)
}

// where says where a death of bytes allocated by dn in epoch ep, found
// while c runs, is charged: now (in c) if the allocation precedes c's
// strand, else at the join of scope s.
func where(c, dn *dnode, ep int64) (now bool, s *scope, depth int32) {
	if dn.root != c.root {
		return false, nil, -1 // another root's object: not this root's business
	}
	// A joined task's objects are its parent's from the join on, unless
	// the task is the running one or one of its ancestors.
	if dn.joined && !ancestorOrSelf(dn, c) {
		dn, ep = lift(c, dn)
	}
	if dn == c {
		return true, nil, 0
	}
	// Walk c up to dn's depth, remembering the branch.
	x, bc := c, (*dnode)(nil)
	if x.depth > dn.depth {
		bc = ancestorAt(x, dn.depth+1)
		x = bc.parent
	}
	if x == dn {
		if ep < bc.forkEp {
			return true, nil, 0 // allocated before the branch toward c was forked
		}
		return false, bc.pscope, dn.depth
	}
	y, bq := dn, (*dnode)(nil)
	if y.depth > x.depth {
		bq = ancestorAt(y, x.depth+1)
		y = bq.parent
	}
	if x != y {
		bc, bq = branches(x, y)
		x, y = bc.parent, bq.parent
	}
	if bc == nil {
		return false, bq.pscope, x.depth // c is an ancestor of dn
	}
	// Both branches leave the common ancestor x: the join of the outer of
	// their scopes follows both.
	s = bq.pscope
	if bc.pscope.level < s.level {
		s = bc.pscope
	}
	return false, s, x.depth
}

// lift returns the task that owns the objects of dn, joined and not c or
// an ancestor of c, and the epoch of their join into it: up through the
// joins until a task that is not joined, or is c or its ancestor.
//
// Chains of joined tasks can be long (a pool whose finished task
// submits the next), and a census asks for many tasks of one chain (its
// barrier, every pool chunk): during a census, whose running task c
// fixes the answer, every task passed on the way keeps it (mem.liftGen),
// so that each link is followed once a census.
func lift(c, dn *dnode) (*dnode, int64) {
	memo := mem.inCensus
	x, ep := dn, int64(0)
	for x.joined && !ancestorOrSelf(x, c) {
		if memo && x.liftGen == mem.liftGen {
			ep, x = x.liftEp, x.liftDn
			break
		}
		ep, x = x.joinEp, x.parent
	}
	if memo {
		for y := dn; y != x && y.liftGen != mem.liftGen; y = y.parent {
			y.liftGen, y.liftDn, y.liftEp = mem.liftGen, x, ep
		}
	}
	return x, ep
}

// charge is where a death is charged: now, or at the join of scope s of
// a task at depth depth. A barrier also carries the census's number in
// the trace being recorded (-1: none).
type charge struct {
	now    bool
	s      *scope
	depth  int32
	census int32
}

// later returns the later of two charge points on the running task's
// ancestor chain: now comes first, then joins from the innermost out.
func later(a, b charge) (bool, *scope, int32) {
	switch {
	case b.now || b.s == nil:
	case a.now || b.depth < a.depth || b.depth == a.depth && b.s.level < a.s.level:
		a = b
	}
	return a.now, a.s, a.depth
}

// noteRan records that d runs (program code, in its current strand) in
// this census interval.
func noteRan(d *dnode) {
	if d == nil || d.detached {
		return
	}
	if d.ranIn != mem.interval || len(mem.ran) == 0 {
		d.ranIn = mem.interval
		mem.ran = ownAppend(mem.ran, d)
	}
	d.ranEp = d.epoch
}

// barrier is the earliest charge point that follows every strand that
// ran since the last census: whichever of them dropped an object's last
// reference, its death can be charged there soundly. Censuses at the end
// of the tasks that hold much keep the interval inside one task, where
// the barrier is "now".
func barrier(c *dnode) charge {
	b := charge{now: true, census: -1}
	for _, r := range mem.ran {
		if r.detached || r.root != c.root || r.ranIn != mem.interval {
			continue // gone quiet (ended) since
		}
		now, s, depth := where(c, r, r.ranEp)
		if debugCensus && !now {
			fmt.Fprintf(os.Stderr, "  barrier: %p depth %d ranEp %d joined %v finished %v, parent %p; running %p depth %d\n", r, r.depth, r.ranEp, r.joined, r.finished, r.parent, c, c.depth)
		}
		b.now, b.s, b.depth = later(b, charge{now, s, depth, -1})
	}
	return b
}

// free charges a death of n bytes at site allocated by dn in epoch ep
// (recorded strand rs), last seen live at sn.
func free(c, dn *dnode, ep int64, sn seen, at int64, rs int32, site Site, n int64, b charge) {
	now, s, depth := where(c, dn, ep)
	if !now && s == nil {
		return // another root's
	}
	now, s, _ = later(charge{now, s, depth, -1}, b)
	switch {
	case now:
		c.add(site, -n)
		lateNow(c, sn, at, n)
	case s != nil:
		s.deferFree(c, site, n, b.census, rs)
		c.root.late += n
		if debugCensus {
			nw, _, _ := where(c, dn, ep)
			fmt.Fprintf(os.Stderr, "  deferred tracked %d at %s (alloc by %p depth %d ep %d joined %v, running %p depth %d epoch %d, where now %v, barrier now %v)\n", n, sitePos(site), dn, dn.depth, ep, dn.joined, c, c.depth, c.epoch, nw, b.now)
		}
	}
}

// lateNow counts a death of n bytes charged now in c, last seen live at
// sn, in c's root's late bytes when it may have happened in an earlier
// strand (not at a root's end: nothing runs after it).
func lateNow(c *dnode, sn seen, at, n int64) {
	if sn.dn != nil && sn.dn == mem.alias.dn && sn.st >= mem.alias.st && seenNow(c) == mem.aliasTo {
		inStrand(0, n)
		return // seen at the end census of the task that ran before c's strand
	}
	if sn == seenNow(c) || mem.final {
		inStrand(at, n)
		return
	}
	{
		c.root.late += n
		if debugCensus {
			fmt.Fprintf(os.Stderr, "  late now %d: last seen in %p strand %d, found in %p (depth %d) strand %d (alias %p/%d to %p/%d)\n", n, sn.dn, sn.st, c, c.depth, c.strand, mem.alias.dn, mem.alias.st, mem.aliasTo.dn, mem.aliasTo.st)
		}
	}
}

// carry moves what a census just saw live in d's running strand to the
// strand that starts now: the census ran right before the boundary, with
// no program code between.
func carry(d *dnode) {
	if mem.fresh != d {
		return
	}
	mem.fresh = nil
	old, next := seenNow(d), seen{d, d.strand + 1}
	for i := range mem.objs {
		if o := &mem.objs[i]; o.seen == old {
			o.seen = next
		}
	}
	for i := range mem.pool {
		if ch := &mem.pool[i]; ch.seen == old {
			ch.seen = next
		}
	}
	for _, x := range mem.framed {
		for i := range x.frame {
			if o := &x.frame[i]; o.seen == old {
				o.seen = next
			}
		}
	}
}

// deferFree defers a death of n bytes at site to s's join; census and rs
// are the trace's census and allocating strand.
func (s *scope) deferFree(c *dnode, site Site, n int64, census, rs int32) {
	s.pending = ownAppend(s.pending, mhwm.SiteBytes{Site: mhwm.Site(site), Bytes: n})
	if c.root == rec.root {
		s.pendRec = ownAppend(s.pendRec, recDeath{census, rs})
	}
}

// freePooled charges dead pooled bytes. A census knows how many pooled
// bytes died, not which, and takes them from the chunks it can charge
// now first, newest first, then from those charged at a join, inner
// joins first: the assumption (ACCOUNTING.md, "Small objects") is that
// a task's own recent small objects die before older ones and before
// other tasks'. Charging a join first, as rtlib once did, pushed every
// task's garbage to its parent's join whenever an ancestor held a
// long-lived small-object structure. What is charged at a join counts
// in the root's deferred bytes, which bound how much it can raise a
// figure.
func freePooled(c *dnode, dead int64, b charge) (freed int64) {
	cands := mem.cands[:0]
	for i, ch := range mem.pool {
		if ch.bytes <= 0 {
			continue
		}
		now, s, depth := where(c, ch.dn, ch.ep)
		if !now && s == nil {
			continue
		}
		now, s, depth = later(charge{now, s, depth, -1}, b)
		cands = ownAppend(cands, cand{i, now, s, depth})
	}
	defer func() { clear(cands); mem.cands = cands[:0] }()
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.now != b.now {
			if a.now {
				return -1
			}
			return 1
		}
		if a.now {
			return b.i - a.i // newest first
		}
		if a.depth != b.depth {
			return int(b.depth - a.depth)
		}
		return int(b.s.level - a.s.level)
	})
	// Which pooled bytes died is not known: a death in the running
	// strand may have been of any of its chunks, so its earliest point is
	// the earliest of theirs (bound).
	earliest := int64(math.MaxInt64)
	for _, k := range cands {
		if ch := &mem.pool[k.i]; k.now && ch.seen == seenNow(c) {
			earliest = min(earliest, ch.at)
		}
	}
	for _, k := range cands {
		if dead == 0 {
			break
		}
		ch := &mem.pool[k.i]
		n := min(dead, ch.bytes)
		ch.bytes -= n
		ch.dn.pooled -= n
		mem.poolLive -= n
		dead -= n
		freed += n
		if k.now {
			c.add(ch.site, -n)
			lateNow(c, ch.seen, min(ch.at, earliest), n)
		} else {
			k.s.deferFree(c, ch.site, n, b.census, ch.rs)
			c.root.late += n
			if debugCensus {
				fmt.Fprintf(os.Stderr, "  deferred pooled %d at %s (alloc by depth %d, running depth %d, barrier now %v)\n", n, sitePos(ch.site), ch.dn.depth, c.depth, b.now)
			}
		}
	}
	// Slots now point at other chunks: pool() checks the owner.
	mem.pool = slices.DeleteFunc(mem.pool, func(ch chunk) bool { return ch.bytes <= 0 })
	return freed
}

// orphanRoot moves the pooled bytes of root r, which ended, to the
// orphans.
func orphanRoot(r *proot) {
	keep := mem.pool[:0]
	for _, ch := range mem.pool {
		if ch.dn.root == r {
			mem.orphan += ch.bytes
			mem.poolLive -= ch.bytes
			ch.dn.pooled -= ch.bytes
			continue
		}
		keep = append(keep, ch)
	}
	clear(mem.pool[len(keep):])
	mem.pool = keep
}

// collect runs a collection for a census. The holder waits in the Go
// runtime meanwhile, which the watchdog must not take for a holder
// blocked in uninstrumented code (collecting).
func collect() {
	collecting.Store(true)
	ds := poolsDrain()
	runtime.GC()
	poolsRefill(ds)
	gcBackstop()
	collecting.Store(false)
}

// collecting is set while the holder collects (collect).
var collecting atomic.Bool

// debugCensus (SPGO_DEBUG_CENSUS) prints every census and the deaths it
// charges late. The printing allocates: figures of a run with it are off
// by a few hundred bytes a census.
var debugCensus = os.Getenv("SPGO_DEBUG_CENSUS") != ""
