package rtlib

import "unsafe"

// Objects that die with a frame and the goroutines it spawned
// (ACCOUNTING.md, "Frame-shared objects"). The compiler moves a variable
// to the heap when a goroutine's function literal captures it (a
// result the goroutine assigns, the WaitGroup it calls Done on), and
// puts an array on the heap when such a literal uses it. When nothing
// else can refer to the object (the rewriter's frameShared: no address
// taken, no copy of the slice made, the only literals that mention it
// are go statements' and wg.Go's of the function itself, deferred or
// called at once), it is dead once the function has returned and those
// goroutines have ended. The rewriter marks such a function with Mark and
// Drop and charges the object with FrameVar or FrameSlice; Drop charges
// its death with no census.
//
// At Drop, when no goroutine the function spawned is outstanding in its
// scope (or in the scopes of callees that returned leaving goroutines
// behind, which the engine keeps open above it), every such goroutine
// has ended: the object dies in the returning strand. Otherwise it stays
// live for as long as they run, which the DAG cannot place: its bytes
// stay charged to the root's end and count as late (the interval allows
// for them), and a census finds its death as an orphan's.
//
// Where in the function the object died is not known: its last use may
// come before the return. So the charge at Drop counts as late as a
// compiler-proven death's (frameFree), from where it was last seen live:
// its allocation, a census that watched it, the join of a Wait on it (a
// WaitGroup or errgroup is live until its Wait returns: frameSeenAt), or
// a FrameSeen the rewriter puts after a Wait before the next statement
// that uses it. A use after the join keeps it live there, so the death
// at the return is then late only within the strand after the join.

// Frame-shared kinds (frameObj.share).
const (
	shareLocal uint8 = 1 + iota // no goroutine refers to it: dead at the return
	shareGo                     // goroutines the function spawned may: dead when they have ended too
)

// frameShareCap is how many objects a task's frame list holds before new
// frame-shared objects are charged as other hooked objects (found dead by
// censuses): a loop that declares one per turn would grow it unbounded.
const frameShareCap = 4096

// FrameVar records a variable the compiler moved to the heap, declared at
// site in the function s marks, that nothing but the function and (when
// goes) the goroutines it spawns refers to.
func FrameVar[T any](s Scratch, site Site, p *T, goes bool) {
	frameShared(s, site, int64(unsafe.Sizeof(*p)), unsafe.Pointer(p), goes)
}

// FrameSlice records the backing array of x, made at site in the function
// s marks, which only the function's variable and (when goes) the
// goroutines it spawns refer to, and returns x.
func FrameSlice[S ~[]E, E any](s Scratch, site Site, x S, goes bool) S {
	if cap(x) > 0 {
		frameShared(s, site, arrayBytes[E](cap(x)), unsafe.Pointer(unsafe.SliceData(x)), goes)
	}
	return x
}

// frameShared charges n bytes at site, the object at p, on the frame list
// of the function s marks; with no frame to put it on (Mark found no
// task, or the list is long), as any hooked object.
func frameShared(s Scratch, site Site, n int64, p unsafe.Pointer, goes bool) {
	if n == 0 {
		return
	}
	if s.d == nil || len(s.d.frame) >= frameShareCap || s.d != holderDnode() {
		allocp(site, n, p)
		return
	}
	k := shareLocal
	if goes {
		k = shareGo
	}
	allocFrame(site, n, uintptr(p), 0, k, Scratch{})
}

// dropShared charges the death of d's frame-shared object o, whose
// function returned while c runs; lvl is the index of its scope.
func dropShared(c, d *dnode, o *frameObj, lvl int) {
	out := c != d || o.share == shareGo && spawnedOut(d, lvl)
	if !out {
		frameFree(c, d, o, false)
		return
	}
	n := o.bytes
	o.bytes = 0
	frameGone(d, o, n)
	switch {
	case c == nil || c.detached || d.detached || d.finished || !mem.on:
		// Not this root's any more: its bytes went with the root.
	default:
		// Goroutines that may refer to it still run: it dies when they
		// have ended, which no hook sees. Charged to the end of the root
		// and late; a census finds the death as an orphan's.
		mem.orphan += n
		d.root.late += n
	}
}

// spawnedOut reports whether goroutines spawned in d's scopes from lvl on
// are outstanding (not joined).
func spawnedOut(d *dnode, lvl int) bool {
	for _, s := range d.scopes[min(max(lvl, 0), len(d.scopes)):] {
		if len(s.kids) > 0 {
			return true
		}
	}
	return false
}

// FrameSeenVar: the variable at p, charged by FrameVar in the function s
// marks, is used by a statement that follows a Wait: it is live now.
func FrameSeenVar[T any](s Scratch, p *T) {
	if s.d != nil && !inBubble() {
		held()
		frameSeen(s, uintptr(unsafe.Pointer(p)))
	}
}

// FrameSeenSlice: the array x refers to, a frame object of the function s
// marks, is used by a statement that follows a Wait: it is live now.
func FrameSeenSlice[S ~[]E, E any](s Scratch, x S) {
	if s.d != nil && cap(x) > 0 && !inBubble() {
		held()
		frameSeen(s, uintptr(unsafe.Pointer(unsafe.SliceData(x))))
	}
}

// frameSeen sees live now the newest object of the frame s marks that
// holds address a.
func frameSeen(s Scratch, a uintptr) {
	if d := s.d; d == holderDnode() {
		frameSeenAt(d, int(s.n), a)
	}
}

// frameSeenAt sees live now the newest of d's frame objects from index
// from on that holds address a; only the newest frameSeenLook are looked
// at.
func frameSeenAt(d *dnode, from int, a uintptr) {
	for i := len(d.frame) - 1; i >= max(from, len(d.frame)-frameSeenLook); i-- {
		if o := &d.frame[i]; o.bytes > 0 && o.addr <= a && a < o.addr+uintptr(o.bytes) {
			o.seen, o.at, o.iv = seenNow(d), mem.since, mem.interval
			return
		}
	}
}

// frameSeenLook is how many of the newest frame objects frameSeenAt looks
// at.
const frameSeenLook = 16

// joinSeen: d's Wait on g joined; g, a WaitGroup or an errgroup that may
// be a frame object of d's, is live until the Wait returns.
func joinSeen(d *dnode, g any) {
	if d == nil || len(d.frame) == 0 {
		return
	}
	if p := ifacePointer(g); p != nil {
		frameSeenAt(d, 0, uintptr(p))
	}
}

// ifacePointer is the pointer an interface holding a pointer type holds.
func ifacePointer(g any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&g))[1]
}
