package rtlib

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/spgo/spgo/rtlib/mhwm"
	"github.com/spgo/spgo/rtlib/profile"
)

// Census policies (SPGO_CENSUS).
const (
	censusBounded = iota // the bounded-error rule, and at the end of tasks that hold much
	censusStrand         // at every strand boundary: exact per strand, slow
	censusOff            // never: nothing dies before the end of its root
	censusOracle         // at every hook, marker and strand boundary, every object tracked: ground truth, slowest
)

// atBoundaries reports whether the policy takes a census at every strand
// boundary (spawn, task end, join).
func atBoundaries() bool { return cfg.census == censusStrand || cfg.census == censusOracle }

var censusNames = [...]string{censusBounded: "bounded", censusStrand: "strand", censusOff: "off", censusOracle: "oracle"}

// cfg is the run's configuration, from the environment.
var cfg struct {
	path      string  // SPGO_PROFILE
	pmax      int     // SPGO_PMAX
	threshold int64   // SPGO_THRESHOLD: threshold mode's M, 0 for exact
	census    int     // SPGO_CENSUS
	errBound  float64 // SPGO_CENSUS_ERROR: E of the bounded-error rule
	minBudget int64   // SPGO_CENSUS_MIN: fewest bytes between censuses
	track     int64   // SPGO_TRACK: objects this large are tracked one by one
	srcRoot   string  // SPGO_SOURCE_ROOT: files under it are named relative to it
	announce  bool    // SPGO_PROFILE unset: say on stderr where the profile went
	attribute int     // SPGO_ATTRIBUTE: most per-line attributions per root
	problems  []string
}

// lagExact is how many bytes of small uninstrumented allocations may be
// seen late (census_lag_bytes) before a root is marked inexact for it;
// rtlib's own bookkeeping is most of them.
const lagExact = 256 << 10

// Defaults.
const (
	defaultPMax      = 64
	defaultErrBound  = 0.03
	defaultMinBudget = 64 << 10
	defaultTrack     = 4 << 10
	defaultAttribute = 32
)

func init() { loadConfig() }

// loadConfig reads the SPGO_* variables; a bad value is reported on
// standard error and in the profile's warnings, and the default is used.
func loadConfig() {
	cfg.path = os.Getenv("SPGO_PROFILE")
	if cfg.path == "" {
		cfg.path = "spgo-profile.json"
		cfg.announce = true
	}
	cfg.pmax = int(envInt("SPGO_PMAX", defaultPMax, 1, mhwm.MaxP))
	cfg.threshold = envInt("SPGO_THRESHOLD", 0, 0, mhwm.MaxBytes)
	cfg.minBudget = envInt("SPGO_CENSUS_MIN", defaultMinBudget, 0, mhwm.MaxBytes)
	cfg.track = envInt("SPGO_TRACK", defaultTrack, 16, mhwm.MaxBytes)
	cfg.attribute = int(envInt("SPGO_ATTRIBUTE", defaultAttribute, 1, mhwm.MaxP+1))
	if root := os.Getenv("SPGO_SOURCE_ROOT"); root != "" {
		if filepath.IsAbs(root) {
			cfg.srcRoot = filepath.Clean(root)
		} else {
			envProblem(fmt.Sprintf("SPGO_SOURCE_ROOT=%q: not an absolute path; file names stay absolute", root))
		}
	}
	cfg.errBound = defaultErrBound
	if v := os.Getenv("SPGO_CENSUS_ERROR"); v != "" {
		e, err := strconv.ParseFloat(v, 64)
		if err != nil || !(e >= 0 && e <= 100) { // NaN fails both
			envProblem(fmt.Sprintf("SPGO_CENSUS_ERROR=%q: want a number from 0 to 100; using %g", v, defaultErrBound))
		} else {
			cfg.errBound = e
		}
	}
	cfg.census = censusBounded
	if v := os.Getenv("SPGO_CENSUS"); v != "" {
		i := slices.Index(censusNames[:], v)
		if i < 0 {
			envProblem(fmt.Sprintf("SPGO_CENSUS=%q: want bounded, strand, off or oracle; using bounded", v))
		} else {
			cfg.census = i
		}
	}
	if cfg.census == censusOracle {
		// Every hooked object is followed one by one (a weak pointer
		// each), whatever SPGO_TRACK says.
		cfg.track = 1
	}
	mem.budget = cfg.minBudget
}

func envInt(name string, def, lo, hi int64) int64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		envProblem(fmt.Sprintf("%s=%q: want an integer from %d to %d; using %d", name, v, lo, hi, def))
		return def
	}
	return n
}

// proot is one root's profile under way.
type proot struct {
	site     Site
	name     string
	eng      *mhwm.Engine
	top      *dnode
	front    *dnode // the dnode whose events the engine takes next
	engErr   error
	commSeen bool

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

	done    bool
	partial bool
	res     *mhwm.Result
	out     *profile.Root
}

// roots counts the roots open now (begun, not finished); the baton
// holder's.
var roots struct{ open int }

// prof holds the roots of the run, in the order they began.
var prof struct {
	mu      sync.Mutex // Flush may come from any goroutine
	roots   []*proot
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
		r.allocB, r.allocN = ownGrow(r.allocB, k), ownGrow(r.allocN, k)
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
	mc := mhwm.Config{P: cfg.pmax, Threshold: cfg.threshold, Attribution: cfg.threshold == 0,
		Clock: func() int64 { return int64(time.Since(began)) }, Grown: engineGrown}
	eng, err := mhwm.New(mc)
	if err != nil {
		panic(err) // cfg ranges make this impossible
	}
	r := &proot{site: site, eng: eng, seen: map[string]bool{}, groups: newTable[any, membership](ifaceHash), limits: newTable[any, int](ifaceHash)}
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
	prof.roots = append(prof.roots, r)
	prof.mu.Unlock()
	t.dstack = append(t.dstack, t.dn)
	t.dn = d
	if !mem.on {
		// The first root: collect once, so that what the program did
		// before (package initialisation) is the baseline, flushed out
		// of the allocation caches and not charged to the root. From here
		// on only censuses collect (gc.go).
		gcOff()
		growTimerHeap()
		collect()
		mem.on = true
		mem.lastLarge, mem.lastSmall = readAllocs()
		mem.hookedLarge, mem.hookedSmall, mem.own, mem.ownLarge = 0, 0, 0, 0
		metrics.Read(mem.samples[2:])
		mem.baseline = max(0, int64(mem.samples[2].Value.Uint64())-ownLive())
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
	if cfg.census != censusOff {
		mem.final = true
		census(d, 0)
		mem.final = false
	} else {
		chargeUninstrumented(d)
	}
	finishRoot(r, partial)
	if n := len(t.dstack); n > 0 {
		t.dn, t.dstack = t.dstack[n-1], t.dstack[:n-1]
	} else {
		t.dn = nil
	}
	mem.holder = t.dn
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
	orphanRoot(r)
	d.detached = true
}

// build returns the profile's entry for r.
func (r *proot) build() profile.Root {
	out := profile.Root{Name: r.name, Exact: true, Censuses: r.censuses, CensusError: r.maxSince}
	res := r.res
	if res == nil {
		out.Exact = false
		out.Reasons = []string{"the root had not ended when the profile was written"}
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
	out.Exact = len(out.Reasons) == 0
	if res.Threshold != nil {
		out.Threshold = &profile.ThresholdAnswer{M: res.Threshold.M, P: res.Threshold.P, Value: res.Threshold.Value, AtLeastHalf: res.Threshold.AtLeastHalf}
	}
	r.lines(res, &out)
	return out
}

// lateReasons says why r's figures may be too high or too low because
// deaths or allocations were charged late: the deaths charged at a join
// or in a later strand after a census found them (each raises any
// figure by at most its bytes), and the small allocations by
// uninstrumented code charged to a strand that may not have made them.
func (r *proot) lateReasons(res *mhwm.Result) []string {
	var out []string
	top := res.SerialPeak
	if res.MHWM != nil {
		top = max(top, res.MHWM[res.PMax])
	}
	if r.late > slackOf(top) {
		out = append(out, fmt.Sprintf("%d bytes of deaths were found after the strand that may have dropped them had ended, and are charged later (in a later strand or at a join): that lateness can raise a figure by up to that much", r.late))
	}
	if r.lagged*100 > top && r.lagged > lagExact {
		out = append(out, fmt.Sprintf("%d bytes of small allocations by uninstrumented code (over 1%% of the figures and %d KiB) were seen only at a census and charged to the strand running then, possibly after the strand that made them", r.lagged, lagExact>>10))
	}
	return out
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
// allocations, and, for p strands at once, the p largest additions of
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
	low := func(v int64, p int64) int64 {
		l := r.liveLow
		if !structural {
			l = max(l, v-r.late-r.lagged-min(r.inSum, p*r.inMax))
		}
		return min(max(l, 0), v)
	}
	out.SerialLow, out.SerialHigh = low(res.SerialPeak, 1), res.SerialPeak+r.lagged
	var floor int64
	for i := range out.MHWM {
		pt := &out.MHWM[i]
		floor = max(floor, low(pt.Bytes, int64(pt.P)))
		pt.Low, pt.High = min(floor, pt.Bytes), pt.Bytes+r.lagged
		if wide == 0 && pt.High-pt.Low > slackOf(pt.High) {
			wide = pt.P
		}
	}
	return wide
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

type lineKey struct {
	file string
	line int
	fn   string
}

// lineTable builds a root's per-line rows, keyed by source line.
type lineTable struct {
	rows  map[lineKey]*profile.Line
	bySit map[Site]lineKey
	text  *sourceCache
}

func (lt *lineTable) row(site Site) *profile.Line {
	if k, ok := lt.bySit[site]; ok {
		return lt.rows[k]
	}
	k := lineKey{"(unknown)", 0, "(unknown)"}
	rec, known := Lookup(site)
	if known {
		k = lineKey{sourceName(rec.File), int(rec.Line), rec.Func}
	}
	lt.bySit[site] = k
	l := lt.rows[k]
	if l == nil {
		l = &profile.Line{File: k.file, Line: k.line, Func: k.fn, MHWMBytes: map[string]int64{}}
		if known {
			l.Text = lt.text.line(rec.File, int(rec.Line))
		}
		lt.rows[k] = l
	}
	return l
}

// lines builds the per-line table (allocation totals by site, each site's
// share of MHWM_q for the attributed q) and the serial heap series.
func (r *proot) lines(res *mhwm.Result, out *profile.Root) {
	lt := &lineTable{rows: map[lineKey]*profile.Line{}, bySit: map[Site]lineKey{}, text: &sourceCache{}}
	tt := newTypeTable(lt)
	pr := &pathRows{}
	for s, n := range r.allocB {
		if n != 0 || r.allocN[s] != 0 {
			l := lt.row(Site(s))
			l.AllocBytes += n
			l.Allocs += r.allocN[s]
			tt.alloc(Site(s), n, r.allocN[s])
			pr.alloc(lt, Site(s), n, r.allocN[s])
		}
	}
	if res.MHWM != nil {
		qs := attributedQs(res, cfg.attribute)
		for i, q := range qs {
			a, err := res.Attribute(q)
			if err != nil { // an internal error: say so where it is read
				out.Reasons = append(out.Reasons, "per-line attribution failed (an spgo bug; the per-line figures stop at p = "+strconv.Itoa(q-1)+"): "+err.Error())
				out.Exact = false
				qs = qs[:i]
				break
			}
			key := strconv.Itoa(q)
			for _, sh := range a.Sites {
				if sh.Total() == 0 {
					continue
				}
				l := lt.row(Site(sh.Site))
				l.MHWMBytes[key] += sh.Total()
				tt.share(Site(sh.Site), key, sh.Total())
				pr.share(lt, Site(sh.Site), key, sh.Total())
				if l.MHWMSplit == nil {
					l.MHWMSplit = map[string]profile.Split{}
				}
				sp := l.MHWMSplit[key]
				sp.Running += sh.Running
				sp.Completed += sh.Completed
				sp.Suspended += sh.Suspended
				l.MHWMSplit[key] = sp
			}
		}
		out.Attributed = qs
	}
	points, byteNs, haveHeap := res.SerialHeap(heapPoints)
	for _, pt := range points {
		for _, sb := range pt.Sites {
			lt.row(Site(sb.Site))
		}
	}
	tt.attach()
	rows := make([]profile.Line, 0, len(lt.rows))
	for _, l := range lt.rows {
		rows = append(rows, *l)
	}
	slices.SortFunc(rows, func(a, b profile.Line) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Func, b.Func)
	})
	out.Lines = rows
	out.Paths = pr.build(rows)
	if !haveHeap {
		return
	}
	index := map[lineKey]int{}
	for i, l := range rows {
		index[lineKey{l.File, l.Line, l.Func}] = i
	}
	h := &profile.Heap{WallByteSeconds: byteNs / 1e9, Samples: []profile.HeapSample{}}
	for _, pt := range points {
		hs := profile.HeapSample{Strand: pt.Strand, WallSeconds: float64(pt.Time) / 1e9, Bytes: pt.Bytes, Types: tt.sample(pt.Sites)}
		byLine := map[int]int64{}
		for _, sb := range pt.Sites {
			byLine[index[lt.bySit[Site(sb.Site)]]] += sb.Bytes
		}
		for _, i := range slices.Sorted(maps.Keys(byLine)) {
			if byLine[i] != 0 {
				hs.Lines = append(hs.Lines, profile.LineBytes{Index: i, Bytes: byLine[i]})
			}
		}
		h.Samples = append(h.Samples, hs)
	}
	out.Heap = h
}

// heapPoints bounds the samples of a root's heap series.
const heapPoints = 400

// sourceCache reads source lines for the per-line table, each file once.
type sourceCache struct {
	files map[string][]string
}

// line returns line n of file, trimmed, or "" if it cannot be read.
func (c *sourceCache) line(file string, n int) string {
	if c.files == nil {
		c.files = map[string][]string{}
	}
	lines, ok := c.files[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil && len(data) <= 16<<20 {
			lines = strings.Split(string(data), "\n")
		}
		c.files[file] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	t := strings.TrimSpace(lines[n-1])
	if len(t) > 200 {
		t = t[:200]
		for !utf8.ValidString(t) {
			t = t[:len(t)-1]
		}
	}
	return t
}

// antichain summarises the worst case for the largest q.
func antichain(res *mhwm.Result) *profile.Antichain {
	if res == nil || res.MHWM == nil {
		return nil
	}
	a, err := res.Attribute(res.PMax)
	if err != nil {
		return nil
	}
	ac := &profile.Antichain{P: res.PMax, Bytes: a.MHWM}
	for _, s := range a.Sites {
		ac.Running += s.Running
		ac.Completed += s.Completed
		ac.Suspended += s.Suspended
	}
	return ac
}

// writeProfile writes the profile of every root so far to cfg.path;
// final says the program is ending, and roots still open are closed
// first (partial).
func writeProfile(final bool) error {
	prof.mu.Lock()
	defer prof.mu.Unlock()
	if final {
		for _, r := range prof.roots {
			if !r.done {
				finishRoot(r, true)
			}
		}
	}
	p := &profile.Profile{
		Schema:     profile.Schema,
		Program:    filepath.Base(os.Args[0]),
		Args:       os.Args[1:],
		PMax:       cfg.pmax,
		Threshold:  cfg.threshold,
		Census:     profile.Census{Policy: "hooks+gc-census:" + censusNames[cfg.census], ErrorBound: cfg.errBound},
		SourceRoot: cfg.srcRoot,
	}
	for _, r := range prof.roots {
		if r.out == nil && r.done {
			b := r.build()
			b.Antichain = antichain(r.res)
			r.out = &b
		}
		p.Partial = p.Partial || r.partial || !r.done
		if r.out != nil {
			p.Roots = append(p.Roots, *r.out)
		} else {
			p.Roots = append(p.Roots, r.build())
		}
	}
	for _, s := range cfg.problems {
		p.Warnings = append(p.Warnings, profile.Warning{Message: s})
	}
	if s := pathsWarning(); s != "" {
		p.Warnings = append(p.Warnings, profile.Warning{Message: s})
	}
	p.Wall = &profile.Wall{Start: prof.start.UTC().Format(time.RFC3339), Seconds: time.Since(prof.start).Seconds()}
	if err := profile.WriteFile(cfg.path, p); err != nil {
		return err
	}
	if cfg.announce && !prof.written {
		// A binary of spbuild build run by hand: the file appeared in
		// the working directory without being asked for.
		where := cfg.path
		if abs, err := filepath.Abs(where); err == nil {
			where = abs
		}
		fmt.Fprintf(os.Stderr, "spgo: profile written to %s (spreport show %s; SPGO_PROFILE sets the path, off for none)\n", where, where)
	}
	prof.written = true
	return nil
}

// writeAtRootEnd writes the profile when a root ends: the last root of
// a test binary has no other moment.
func writeAtRootEnd() {
	if cfg.path == "off" {
		return
	}
	if err := writeProfile(false); err != nil {
		fmt.Fprintf(os.Stderr, "spgo: %v\n", err)
	}
}

// flushFinal writes the profile before the process ends abnormally.
func flushFinal() {
	if cfg.path == "off" {
		return
	}
	prof.mu.Lock()
	n := len(prof.roots)
	prof.mu.Unlock()
	if n == 0 {
		return
	}
	if err := writeProfile(true); err != nil {
		fmt.Fprintf(os.Stderr, "spgo: %v\n", err)
	}
}

// sourceName is file relative to SPGO_SOURCE_ROOT (slash-separated) when
// it lies under it, so that profiles of two checkouts compare line by
// line; else file unchanged.
func sourceName(file string) string {
	if cfg.srcRoot == "" {
		return file
	}
	rel, err := filepath.Rel(cfg.srcRoot, file)
	if err != nil || !filepath.IsLocal(rel) {
		return file
	}
	return filepath.ToSlash(rel)
}

// panicking reports whether the calling goroutine is running deferred
// calls of a panic that has not been recovered (EndRoot is deferred by
// the root's function and cannot recover without changing what the
// program prints): its stack then holds the runtime's panic frame.
func panicking() bool {
	var buf [8 << 10]byte
	st := buf[:runtime.Stack(buf[:], false)]
	return bytes.Contains(st, []byte("\npanic(")) || bytes.HasPrefix(st, []byte("panic("))
}
