package rtlib

import (
	"math"
	"runtime/metrics"
	"unsafe"
)

// Goroutine stacks (issue 36). The engine's figures count heap objects;
// a program with 10^5 goroutines parked at once holds hundreds of
// megabytes of stacks besides. The runtime gives a goroutine a stack of
// its starting size when the go statement creates it (or reuses a dead
// goroutine's descriptor, which keeps a stack of that size), grows it by
// doubling when a function's frame would come within stackGuard bytes of
// its end, and frees the grown stack when the goroutine exits.
//
// The model: the starting size is charged at the fork and freed at the
// join, with the descriptor (dagFork, freeGoroutine); growth is charged
// in the strand where rtlib sees it and freed at the goroutine's end.
// Stack bytes go to stackSite, which only the root's second engine (the
// total, proot.tot) takes: the heap figures are unchanged.
//
// Growth is what the program's frames need, not what the instrumented
// goroutine's stack grew to: rtlib's own frames grow it where the
// original's would not (a runtime/metrics reading at a baton switch
// needs more than a fresh 2 KiB stack has left under a parked task's
// frames; every one of 10 000 parked goroutines grew to 4 KiB). So where
// the stack is larger than the model, rtlib paints the part of it the
// model's size would not have (below hi − (model − stackGuard)) when a
// hook whose frames went deep ends (beat, and a census's end, before the
// program's code runs again), and looks at the paint before rtlib's
// frames go deep again (a park, a yield, a spawn, a census, the end):
// the hooks in between are shallow, and a word no longer painted is
// the program's frames reaching below what the model allows, and the
// model grows to the size the deepest one needs. Where the stack itself
// grew in the program's code, the model takes its new size. The
// program's instrumented frames are its original frames and more, so
// the model is at least what the original needed at those points (a
// frame's deepest word is its deepest written word, which may lie a few
// words above its lowest address: ACCOUNTING.md).

// stackSite is the site of stack bytes in a dnode's segments. No
// registered site has it, and the heap engine never sees it (feedSeg).
const stackSite Site = math.MaxInt32

// stackPaint is the word paint is made of.
const stackPaint = 0x5350_474f_5354_4b21 // "SPGOSTK!"

// stackSample reads the runtime's starting stack size for new
// goroutines: 2 KiB unless GODEBUG=adaptivestackstart=1, which changes
// it at collections.
var stackSample = []metrics.Sample{{Name: "/gc/stack/starting-size:bytes"}}

// stackStart is the starting size as last read (beginRoot, census).
var stackStart int64 = 2048

// stackStartRead reads the starting size again.
func stackStartRead() {
	metrics.Read(stackSample)
	if v := stackSample[0].Value; v.Kind() == metrics.KindUint64 && v.Uint64() > 0 {
		stackStart = int64(v.Uint64())
	}
}

// stackFork charges the stack of a goroutine parent forks, at the go
// statement in the parent, before the spawn (what dagFork does for the
// descriptor); it returns the bytes charged, for stackForked.
func stackFork(parent *dnode) int64 {
	if !cfg.stacks {
		return 0 // SPGO_STACKS=off: no stack, nothing to look at
	}
	stackSeen(parent)
	parent.add(stackSite, stackStart)
	parent.root.stackN++
	return stackStart
}

// stackForked gives the forked child the stack stackFork charged.
func stackForked(child *dnode, n int64) { child.stack, child.model = n, n }

// stackStarted notes which goroutine runs d's task: the caller, which
// is starting it (dagStart). Only that goroutine's stack is d's.
func stackStarted(d *dnode) { d.gp = uintptr(getg()) }

// stackBounds returns the stack [lo, hi) of the goroutine whose g is g:
// the first two words of the runtime's g ("offset known to runtime/cgo").
func stackBounds(g unsafe.Pointer) (lo, hi uintptr) {
	return *(*uintptr)(g), *(*uintptr)(unsafe.Add(g, unsafe.Sizeof(uintptr(0))))
}

// stackOwn returns the caller's g if it runs d's task, which holds a
// modelled stack, else nil.
func stackOwn(d *dnode) unsafe.Pointer {
	if d == nil || d.stack == 0 || d.finished || d.detached {
		return nil // the root's own task, or no longer in the DAG
	}
	g := getg()
	if g == nil {
		d.root.stackBlind = true
		return nil
	}
	if uintptr(g) != d.gp {
		return nil // another goroutine (the watchdog) acts for d's task
	}
	return g
}

// stackSeen is called where rtlib's frames are about to go deep on the
// goroutine of d's task: it looks at what the program's code did since
// the last paint. Paint below this point is rtlib's from here until the
// next beat or a census's end paints again.
func stackSeen(d *dnode) {
	if g := stackOwn(d); g != nil {
		stackLook(d, g)
		d.pFresh = false
	}
}

// stackBeat is beat's part: at the end of a hook, where the program's
// code runs next, paint again if rtlib's frames went deep since the
// last paint (a look at that point saw what the program did before).
// A paint still fresh stays: the hooks in between are shallow, and the
// next look sees through them what the program's frames did.
func stackBeat() {
	t := cur.Load()
	if t == nil || t.gp.Load() != uintptr(getg()) {
		return // not the holder's goroutine: mem is not the caller's to read
	}
	if d := t.dn; d != nil && !d.pFresh {
		if g := stackOwn(d); g != nil {
			stackRepaint(d, g)
		}
	}
}

// stackCensusEnd paints again after a census, whose collection and
// readings went deep below the allocation hook that called it.
func stackCensusEnd(d *dnode) {
	if g := stackOwn(d); g != nil {
		stackRepaint(d, g)
	}
}

// stackLook raises d's model to what the program's frames needed since
// the last paint, if it is fresh: the stack's new size where it moved
// (grew) meanwhile, else the size the deepest word no longer painted
// needs.
//
//go:noinline
func stackLook(d *dnode, g unsafe.Pointer) {
	lo, hi := stackBounds(g)
	if !d.pFresh {
		d.pLo, d.pHi = lo, hi
		return
	}
	if lo != d.pLo || hi != d.pHi {
		d.pLo, d.pHi, d.pTop = lo, hi, 0
		if hi-lo > d.pSize {
			stackGrow(d, int64(hi-lo)) // the program's code grew it
		}
		return
	}
	// The paint lies below this frame: addresses from here (no call in
	// the loop, so the stack cannot move under it).
	var here byte
	p := unsafe.Pointer(&here)
	deepest := uintptr(0)
	for a := lo; a < d.pTop; a += 8 {
		if *(*uint64)(unsafe.Add(p, -int(uintptr(p)-a))) != stackPaint {
			deepest = a
			break
		}
	}
	if deepest != 0 {
		stackGrow(d, stackNeed(hi-deepest))
	}
}

// stackRepaint paints d's stack below what its model allows, where the
// stack is larger than the model, and marks the paint fresh. The frames
// above the paint need no look: the program's among them were written
// since the last paint, in its range or below the model's bound, where
// the last look saw them, or else the stack moved when they were made.
//
//go:noinline
func stackRepaint(d *dnode, g unsafe.Pointer) {
	var here byte
	p := unsafe.Pointer(&here)
	lo, hi := stackBounds(g)
	d.pLo, d.pHi, d.pSize, d.pTop, d.pFresh = lo, hi, hi-lo, 0, true
	if !stackPainting || uintptr(d.model) >= hi-lo {
		return // no room: growth shows as a move
	}
	top := min(hi-(uintptr(d.model)-stackGuard), uintptr(p)-256) &^ 7 // clear of this frame
	for a := lo; a < top; a += 8 {
		*(*uint64)(unsafe.Add(p, -int(uintptr(p)-a))) = stackPaint
	}
	d.pTop = top
}

// stackNeed returns the stack a goroutine whose frames reach used bytes
// below the top needs: the starting size doubled until the runtime's
// guard fits below them.
func stackNeed(used uintptr) int64 {
	n := stackStart
	for uintptr(n) < used+stackGuard {
		n *= 2
	}
	return n
}

// stackGrow raises d's model to n, charging the growth in the running
// strand.
func stackGrow(d *dnode, n int64) {
	if n <= d.model {
		return
	}
	if d.model == d.stack {
		d.root.stackGrown++
	}
	d.add(stackSite, n-d.model)
	d.root.stackExtra += n - d.model
	d.root.stackMaxGrow = max(d.root.stackMaxGrow, n-d.stack)
	d.model = n
}

// stackFree frees d's stack where freeGoroutine frees its descriptor:
// now or at the join of the parent's scope. What it grew by is freed
// now, in the goroutine's last strand: the runtime keeps a dead
// goroutine's stack for the next one only at the starting size.
func stackFree(d *dnode, now bool) {
	if d.stack == 0 {
		return
	}
	d.add(stackSite, -(d.model - d.stack))
	if now {
		d.add(stackSite, -d.stack)
	} else {
		d.pscope.deferFree(d, stackSite, d.stack, -1, -1)
	}
	d.stack, d.model = 0, 0
}
