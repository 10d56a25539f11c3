package rtlib

import (
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"unsafe"
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
// innermost first: the return addresses of the goroutine's frames (at
// most pathDepth; callers follows the frame pointers on amd64), each
// expanded once into its frames (inlined calls included) and kept when its file lies in a directory of an
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
	buf    [pathDepth + 2]uintptr
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
	// The first two return addresses are into pathKey and allocp (not
	// inlined: see its comment), rtlib's; the hook's, rtlib's too, drops
	// out with the frames of uninstrumented files.
	n := callers(paths.buf[:])
	pcs := paths.buf[min(n, 2):n]
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
		paths.rawPCs = heldAppend(paths.rawPCs, pcs...)
		e.hi = int32(len(paths.rawPCs))
		heldPut(&paths.rawIx, h, int32(len(paths.raw)))
		paths.raw = heldAppend(paths.raw, e)
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
				seq = heldAppend(seq, f)
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
	expandPC(pc, func(f runtime.Frame) {
		fs.goexit = fs.goexit || f.Function == "runtime.goexit"
		if f.File != "" && instrumentedDir(filepath.Dir(f.File)) {
			fn := funcName(f.Function)
			if f.Func != nil && isClosure(fn) {
				fn = closureName(fn, f.File, f.Func.Entry())
			}
			paths.pcFr = heldAppend(paths.pcFr, pathFrame{fn: fn, file: f.File, line: int32(f.Line), h: frameHash(fn, f.File, f.Line)})
		}
	})
	fs.hi = int32(len(paths.pcFr))
	heldPut(&paths.pcs, pc, int32(len(paths.pcSpan)))
	paths.pcSpan = heldAppend(paths.pcSpan, fs)
	return fs
}

// expandPC calls frame for each function of return address pc, innermost
// first: the calls inlined there, then the function itself. Compiler
// wrappers are left out, as runtime.Callers leaves them out.
func expandPC(pc uintptr, frame func(runtime.Frame)) {
	// The sentinel after pc makes CallersFrames expand the calls inlined
	// at pc (it does so only when more addresses follow), and marks
	// where they end.
	frames := runtime.CallersFrames([]uintptr{pc, sentinelPC})
	ownAlloc(int64(unsafe.Sizeof(*frames)))
	for {
		f, more := frames.Next()
		if f.Entry == sentinelPC {
			return
		}
		if !isWrapper(f.Function) {
			frame(f)
		}
		if !more {
			return
		}
	}
}

// sentinel ends the addresses expandPC expands; sentinelPC is its entry.
//
//go:noinline
func sentinel() {}

var sentinelPC = reflect.ValueOf(sentinel).Pointer()

// isWrapper reports whether fn is a wrapper the compiler made (a go or
// defer statement's, a method value's), which runtime.Callers leaves out
// of a stack and a walk of frame pointers does not.
func isWrapper(fn string) bool {
	i := strings.LastIndexByte(fn, '.')
	last := fn[i+1:]
	return strings.HasSuffix(fn, "-fm") || strings.HasPrefix(last, "gowrap") || strings.HasPrefix(last, "deferwrap")
}

// internPath returns the id of the path seq (hash h), adding it if new;
// 0 if it is new and maxPaths paths are known.
func internPath(seq []pathFrame, h uint64) int32 {
	if len(paths.seqs) == 0 {
		paths.seqs = heldAppend(paths.seqs, nil) // id 0: the empty path
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
	paths.seqs = heldAppend(paths.seqs, heldAppend([]pathFrame(nil), seq...))
	heldPut(&paths.byHash, h, id)
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
	sites.all = heldAppend(sites.all, sites.all[site])
	sites.mu.Unlock()
	n := int(key) + 1
	paths.of = heldGrow(paths.of, max(n, len(paths.of)))
	paths.of[key] = id
	heldPut(&paths.keys, k, key)
	if n > len(mem.slots) { // the slot tables cover the key
		mem.slots, mem.pslots = heldGrow(mem.slots, n), heldGrow(mem.pslots, n)
	}
	return key
}

// heldGrow returns s, one of rtlib's long-lived slices (see ownGrown),
// extended with zeros to length k ≥ len(s).
func heldGrow[E any](s []E, k int) []E {
	c := cap(s)
	s = slices.Grow(s, k-len(s))[:k]
	if cap(s) != c {
		var z E
		size := int64(unsafe.Sizeof(z))
		ownGrown(int64(cap(s))*size, int64(c)*size)
	}
	return s
}

// heldPut is t.put(k, v) for rtlib's long-lived tables (see ownGrown).
func heldPut[K comparable, V any](t *table[K, V], k K, v V) {
	n := len(t.slots)
	t.put(k, v)
	if len(t.slots) != n {
		var z tslot[K, V]
		size := int64(unsafe.Sizeof(z))
		ownGrown(int64(len(t.slots))*size, int64(n)*size)
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
