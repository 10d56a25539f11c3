package rtlib

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/spgo/spgo/rtlib/profile"
)

// Call paths of allocations.
//
// An allocation hook charges its bytes to a key: the pair of the
// allocation's site and the call path that reached it, interned as a
// site of its own (a copy of the site's record, so that everything keyed
// by site, the engine's attribution first, splits by path without
// knowing). The per-line table merges the keys of a site again (they
// share its file and line); the per-path table (profile.Path) keeps them
// apart.
//
// A path is the stack of instrumented functions above the allocating one,
// innermost first: the return addresses of runtime.Callers (at most
// pathDepth), each expanded once into its frames (inlined calls
// included) and kept when its file lies in a directory of an
// instrumented file, so rtlib, the runtime and uninstrumented libraries
// drop out, and the //line directives of the overlay give the user's
// file and line. A run of frames of one function (recursion) keeps its
// innermost frame only, which bounds the paths of recursive programs by
// their call sites rather than their depth. Paths are interned by value,
// in the order they first occur, so a deterministic run numbers them
// identically. The stack of a spawned goroutine starts at its function,
// as in Go's own profiles. Bytes charged at an external call (At) have no
// path.

const (
	// pathDepth bounds the return addresses read at an allocation.
	pathDepth = 32
	// maxPaths bounds the distinct paths of a run; allocations on later
	// paths are charged to their site alone (pathsDropped counts them).
	maxPaths = 1 << 14
)

// pathFrame is one frame of a call path.
type pathFrame struct {
	fn, file string
	line     int32
	h        uint64 // hash of the three
}

// pcFrames are the instrumented frames of one return address, innermost
// first.
type pcFrames struct {
	lo, hi int32 // in paths.pcFr
	goexit bool  // pc is in runtime.goexit, the bottom of a goroutine
}

// rawEntry is a sequence of return addresses seen at a site, and its key.
type rawEntry struct {
	site   Site
	key    Site
	lo, hi int32 // in paths.rawPCs
}

// maxRaw bounds the sequences of return addresses remembered; past it,
// new ones are expanded at every allocation.
const maxRaw = 1 << 12

var paths struct {
	rawIx  table[uint64, int32] // hash of site and return addresses → index in raw
	raw    []rawEntry
	rawPCs []uintptr
	pcs    table[uintptr, int32] // return address → index in pcSpan
	pcSpan []pcFrames
	pcFr   []pathFrame
	byHash table[uint64, int32] // path hash (rehashed on collision) → path id
	seqs   [][]pathFrame        // by path id; 0 is the empty path
	keys   table[uint64, Site]  // site<<32 | path → key
	of     []int32              // by site: its path (0: none, a plain site)
	buf    [pathDepth]uintptr
	seq    []pathFrame
	// dropped counts the allocations whose path was past maxPaths.
	dropped int64
}

func init() {
	paths.rawIx = newTable[uint64, int32](idHash)
	paths.pcs = newTable[uintptr, int32](func(pc uintptr) uintptr { return pc })
	paths.byHash = newTable[uint64, int32](idHash)
	paths.keys = newTable[uint64, Site](idHash)
}

// pathKey returns the key of an allocation at site made by the caller of
// the caller of pathKey's caller (a hook called from user code), or site
// itself when its path is empty or past maxPaths.
func pathKey(site Site) Site {
	n := runtime.Callers(3, paths.buf[:])
	pcs := paths.buf[:n]
	// The return addresses seen before: their key, without expanding
	// them again.
	h := uint64(uint32(site)) * 0x9e3779b97f4a7c15
	for _, pc := range pcs {
		h = (h ^ uint64(pc)) * 1099511628211
	}
	for ; ; h++ { // h+1 on a collision
		i, ok := paths.rawIx.get(h)
		if !ok {
			break
		}
		if e := &paths.raw[i]; e.site == site && slices.Equal(paths.rawPCs[e.lo:e.hi], pcs) {
			return e.key
		}
	}
	key, ok := expandKey(site, pcs)
	if ok && len(paths.raw) < maxRaw {
		e := rawEntry{site: site, key: key, lo: int32(len(paths.rawPCs))}
		paths.rawPCs = ownAppend(paths.rawPCs, pcs...)
		e.hi = int32(len(paths.rawPCs))
		ownPut(&paths.rawIx, h, int32(len(paths.raw)))
		paths.raw = ownAppend(paths.raw, e)
	}
	return key
}

// expandKey returns the key of an allocation at site whose return
// addresses are pcs, expanding them into frames; ok is false when the
// path was past maxPaths.
func expandKey(site Site, pcs []uintptr) (key Site, ok bool) {
	n := len(pcs)
	seq := paths.seq[:0]
	var last string // the function of the frame before: the site's first
	leaf := true
	h := uint64(14695981039346656037)
	// A goroutine's entry function, the frame before runtime.goexit, is
	// the rewriter's wrapper of its go statement (the frame of the call
	// of the user's function): left out.
	wrapper := n >= 2 && n < pathDepth && framesOf(pcs[n-1]).goexit
	for i, pc := range pcs {
		fs := framesOf(pc)
		if wrapper && i == n-2 && fs.hi > fs.lo {
			fs.hi--
		}
		for _, f := range paths.pcFr[fs.lo:fs.hi] {
			switch {
			case leaf: // the allocating function: the site says where
				leaf = false
			case f.fn == last: // recursion: the innermost frame stands for the run
			default:
				seq = ownAppend(seq, f)
				h = (h ^ f.h) * 1099511628211
			}
			last = f.fn
		}
	}
	paths.seq = seq
	if len(seq) == 0 {
		return site, true
	}
	id := internPath(seq, h)
	if id == 0 {
		paths.dropped++
		return site, false
	}
	k := uint64(uint32(site))<<32 | uint64(id)
	if key, ok := paths.keys.get(k); ok {
		return key, true
	}
	return newKey(site, id, k), true
}

// framesOf returns the instrumented frames of return address pc,
// expanding it on its first use.
func framesOf(pc uintptr) pcFrames {
	if i, ok := paths.pcs.get(pc); ok {
		return paths.pcSpan[i]
	}
	fs := pcFrames{lo: int32(len(paths.pcFr))}
	frames := runtime.CallersFrames([]uintptr{pc})
	ownAlloc(int64(unsafe.Sizeof(*frames)))
	for {
		f, more := frames.Next()
		fs.goexit = fs.goexit || f.Function == "runtime.goexit"
		if f.File != "" && instrumentedDir(filepath.Dir(f.File)) {
			fn := funcName(f.Function)
			if f.Func != nil && isClosure(fn) {
				fn = closureName(fn, f.File, f.Func.Entry())
			}
			paths.pcFr = ownAppend(paths.pcFr, pathFrame{fn: fn, file: f.File, line: int32(f.Line), h: frameHash(fn, f.File, f.Line)})
		}
		if !more {
			break
		}
	}
	fs.hi = int32(len(paths.pcFr))
	ownPut(&paths.pcs, pc, int32(len(paths.pcSpan)))
	paths.pcSpan = ownAppend(paths.pcSpan, fs)
	return fs
}

// internPath returns the id of the path seq (hash h), adding it if new;
// 0 if it is new and maxPaths paths are known.
func internPath(seq []pathFrame, h uint64) int32 {
	if len(paths.seqs) == 0 {
		paths.seqs = ownAppend(paths.seqs, nil) // id 0: the empty path
	}
	for ; ; h++ { // h+1 on a collision: deterministic, and rare
		id, ok := paths.byHash.get(h)
		if !ok {
			break
		}
		if slices.EqualFunc(paths.seqs[id], seq, sameFrame) {
			return id
		}
	}
	if len(paths.seqs) > maxPaths {
		return 0
	}
	id := int32(len(paths.seqs))
	paths.seqs = ownAppend(paths.seqs, ownAppend([]pathFrame(nil), seq...))
	ownPut(&paths.byHash, h, id)
	return id
}

func sameFrame(a, b pathFrame) bool {
	return a.line == b.line && a.fn == b.fn && a.file == b.file
}

// newKey registers the key of (site, path id) (k packs the two).
func newKey(site Site, id int32, k uint64) Site {
	sites.mu.Lock()
	if site <= 0 || int(site) >= len(sites.all) {
		sites.mu.Unlock()
		return site
	}
	key := Site(len(sites.all))
	sites.all = ownAppend(sites.all, sites.all[site])
	sites.mu.Unlock()
	n := int(key) + 1
	paths.of = ownGrow(paths.of, max(n, len(paths.of)))
	paths.of[key] = id
	ownPut(&paths.keys, k, key)
	if n > len(mem.slots) { // the slot tables cover the key
		mem.slots, mem.pslots = ownGrow(mem.slots, n), ownGrow(mem.pslots, n)
	}
	return key
}

// ownGrow returns s extended with zeros to length k ≥ len(s), counting a
// new array as rtlib's own memory.
func ownGrow[E any](s []E, k int) []E {
	c := cap(s)
	s = slices.Grow(s, k-len(s))[:k]
	if cap(s) != c {
		var z E
		ownAlloc(int64(cap(s)) * int64(unsafe.Sizeof(z)))
	}
	return s
}

// ownPut is t.put(k, v), counting the table's growth as rtlib's own
// memory.
func ownPut[K comparable, V any](t *table[K, V], k K, v V) {
	n := len(t.slots)
	t.put(k, v)
	if len(t.slots) != n {
		var z tslot[K, V]
		ownAlloc(int64(len(t.slots)) * int64(unsafe.Sizeof(z)))
	}
}

// sitePath returns the frames of the path of key site s, innermost
// first; nil for a plain site.
func sitePath(s Site) []pathFrame {
	if int(s) >= len(paths.of) || paths.of[s] == 0 {
		return nil
	}
	return paths.seqs[paths.of[s]]
}

// instrumentedDir reports whether dir holds an instrumented file.
func instrumentedDir(dir string) bool {
	sites.mu.Lock()
	defer sites.mu.Unlock()
	_, ok := slices.BinarySearch(sites.dirs, dir)
	return ok
}

// addDir records the directory of an instrumented file; sites.mu held.
func addDir(file string) {
	dir := filepath.Dir(file)
	if i, ok := slices.BinarySearch(sites.dirs, dir); !ok {
		sites.dirs = slices.Insert(sites.dirs, i, dir)
	}
}

// funcName is the runtime's name of a function as the site tables name
// it: both qualify it by the package's path ("example.com/m/pkg.F", and
// "main.F" in a main package), but a generic function goes without its
// type arguments.
func funcName(fn string) string {
	return strings.TrimSuffix(fn, "[...]")
}

// isClosure reports whether fn is the runtime's name of a function
// literal: "main.F.func1", "main.F.func1.2" (one inlined or nested in
// another).
func isClosure(fn string) bool {
	for {
		i := strings.LastIndexByte(fn, '.')
		if i < 0 {
			return false
		}
		last := fn[i+1:]
		if strings.HasPrefix(last, "func") && allDigits(last[len("func"):]) {
			return true
		}
		if !allDigits(last) {
			return false
		}
		fn = fn[:i]
	}
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// closureName is the site tables' name ("main.F.func@12:7") of the
// function literal the runtime calls fn, whose code starts at entry in
// file: the one name of a site of file that ends in func@LINE:COL with
// the literal's line. A literal without sites (or two on its line) keeps
// the runtime's name; the name matters where the literal allocates,
// whose sites then carry the name its frames get.
func closureName(fn, file string, entry uintptr) string {
	f := runtime.FuncForPC(entry)
	if f == nil {
		return fn
	}
	_, line := f.FileLine(entry)
	want := ".func@" + strconv.Itoa(line) + ":"
	sites.mu.Lock()
	defer sites.mu.Unlock()
	name := ""
	for i := range sites.all {
		rec := &sites.all[i]
		if rec.File != file || rec.Func == name {
			continue
		}
		j := strings.LastIndex(rec.Func, ".func@")
		if j < 0 || !strings.HasPrefix(rec.Func[j:], want) || !allDigits(rec.Func[j+len(want):]) {
			continue
		}
		if name != "" {
			return fn // two literals on the line
		}
		name = rec.Func
	}
	if name == "" {
		return fn
	}
	return name
}

// frameHash hashes a frame (FNV-1a).
func frameHash(fn, file string, line int) uint64 {
	h := uint64(14695981039346656037)
	for _, s := range [...]string{fn, file} {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		h = (h ^ 0xff) * 1099511628211
	}
	return (h ^ uint64(line)) * 1099511628211
}

// pathRows builds a root's per-path table beside its per-line table.
type pathRows struct {
	rows map[pathRowKey]*profile.Path
	keep bool // some row has callers
}

type pathRowKey struct {
	line lineKey
	path int32
}

// row returns the row of key site s, whose line lt knows.
func (pr *pathRows) row(lt *lineTable, s Site) *profile.Path {
	lt.row(s)
	var id int32
	if int(s) < len(paths.of) {
		id = paths.of[s]
	}
	k := pathRowKey{lt.bySit[s], id}
	if pa := pr.rows[k]; pa != nil {
		return pa
	}
	pa := &profile.Path{Callers: []profile.Frame{}}
	for _, f := range sitePath(s) {
		pa.Callers = append(pa.Callers, profile.Frame{Func: f.fn, File: sourceName(f.file), Line: int(f.line)})
		pr.keep = true
	}
	if pr.rows == nil {
		pr.rows = map[pathRowKey]*profile.Path{}
	}
	pr.rows[k] = pa
	return pa
}

// alloc adds allocation totals of key site s.
func (pr *pathRows) alloc(lt *lineTable, s Site, bytes, n int64) {
	pa := pr.row(lt, s)
	pa.AllocBytes += bytes
	pa.Allocs += n
}

// share adds key site s's share of the worst case at the processor count
// key.
func (pr *pathRows) share(lt *lineTable, s Site, key string, bytes int64) {
	pa := pr.row(lt, s)
	if pa.MHWMBytes == nil {
		pa.MHWMBytes = map[string]int64{}
	}
	pa.MHWMBytes[key] += bytes
}

// build returns the rows, on the sorted lines rows, in profile order;
// nil if no row has a call path.
func (pr *pathRows) build(rows []profile.Line) []profile.Path {
	if !pr.keep {
		return nil
	}
	index := make(map[lineKey]int, len(rows))
	for i, l := range rows {
		index[lineKey{l.File, l.Line, l.Func}] = i
	}
	out := make([]profile.Path, 0, len(pr.rows))
	for k, pa := range pr.rows {
		pa.Line = index[k.line]
		out = append(out, *pa)
	}
	slices.SortFunc(out, func(a, b profile.Path) int { return profile.ComparePaths(&a, &b) })
	return out
}

// pathsWarning says how many allocations were charged without their path
// because the run had more than maxPaths; "" if none.
func pathsWarning() string {
	if paths.dropped == 0 {
		return ""
	}
	return fmt.Sprintf("%d allocations came after the first %d call paths and are listed by line only", paths.dropped, maxPaths)
}
