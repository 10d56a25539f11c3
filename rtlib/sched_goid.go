package rtlib

import (
	"bytes"
	"math/bits"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"
)

// goid returns the id of the calling goroutine. rtlib calls it where the
// identity of the caller cannot be known otherwise: roots, adoption,
// Release, and every scheduling hook while identities are checked (see
// self), which in a test suite with parallel tests can be most hooks.
//
// The id is parsed from the header runtime.Stack writes ("goroutine 18
// [running]:"), which walks the whole stack: microseconds. Where getg
// reads the goroutine's descriptor (amd64 and arm64 on Linux and macOS),
// those first calls also learn where in the descriptor the id is (see
// goidLearn), and once that is certain goid is a load.
func goid() uint64 {
	if off := goidOff.Load(); off > 0 {
		return *(*uint64)(unsafe.Add(getg(), off-1))
	}
	return goidLearn()
}

// goidSlow is goid parsed from runtime.Stack.
func goidSlow() uint64 {
	id, _ := goidBubble()
	return id
}

// The offset of the id in the runtime's g struct, which is not an API
// and changes between Go releases, is learnt from the calls themselves
// rather than from goroutines started for the purpose: starting and
// ending goroutines, or blocking, at start-up would change what the
// runtime has cached per P (free g structs, sudogs) and so which of the
// program's later operations allocate, which the figures count.
var (
	// goidOff is the offset of the id in g plus 1, once certain: 0, its
	// zero value, is "not known", also to code that runs before rtlib's
	// init functions.
	goidOff     atomic.Int64
	goidGone    atomic.Bool         // no offset fits: runtime.Stack for good
	goidLearnMu sync.Mutex          // guards the rest
	goidCands   uint32              // bit i: offset 8i held the id in every g seen
	goidSeen    [goidCertain]uint64 // ids of the goroutines seen,
	goidNSeen   int                 // the first goidNSeen of them
)

const (
	// goidScan is how many bytes of g are searched, one bit of
	// goidCands per word: every supported release's g is larger (over
	// 400 bytes in Go 1.21 to 1.26).
	goidScan = 32 * 8
	// goidCertain is how many goroutines with distinct ids must agree
	// on one offset, and on no other, before it is used.
	goidCertain = 4
)

// goidLearn returns the caller's id from runtime.Stack and narrows the
// offsets of g that may hold it; when a single offset has held the id
// of goidCertain distinct goroutines, and no other offset did, goid uses
// it from then on. Distinct goroutines have distinct ids and no other
// field of g holds the goroutine's own id (parentGoid holds its
// creator's), so a wrong offset cannot survive. It allocates nothing,
// and never blocks: a caller that finds another learning skips it
// (blocking would take a sudog from the runtime's cache, which the
// figures see).
func goidLearn() uint64 {
	id := goidSlow()
	g := getg()
	if g == nil || goidGone.Load() || !goidLearnMu.TryLock() {
		return id
	}
	defer goidLearnMu.Unlock()
	if goidOff.Load() > 0 {
		return id
	}
	goidCands = goidNarrow(goidCands, goidNSeen == 0, g, id)
	if goidNSeen < goidCertain && !slices.Contains(goidSeen[:goidNSeen], id) {
		goidSeen[goidNSeen] = id
		goidNSeen++
	}
	switch {
	case goidCands == 0:
		goidGone.Store(true)
	case bits.OnesCount32(goidCands) == 1 && goidNSeen == goidCertain:
		goidOff.Store(int64(8*bits.TrailingZeros32(goidCands)) + 1)
	}
	return id
}

// goidNarrow returns the offsets among cands (every one below goidScan
// if first), as a bit set, at which g holds id.
func goidNarrow(cands uint32, first bool, g unsafe.Pointer, id uint64) uint32 {
	if first {
		cands = ^uint32(0)
	}
	for i := range 32 {
		if *(*uint64)(unsafe.Add(g, 8*i)) != id {
			cands &^= 1 << i
		}
	}
	return cands
}

// goidBubble returns the id of the calling goroutine and whether it
// belongs to a testing/synctest bubble, which the header says (Go 1.25:
// "goroutine 18 [running, synctest bubble 2]:").
func goidBubble() (uint64, bool) {
	goidMu.Lock()
	defer goidMu.Unlock()
	n := runtime.Stack(goidBuf[:], false)
	head := goidBuf[:n]
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	var id uint64
	const prefix = len("goroutine ")
	for _, c := range head[min(prefix, len(head)):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id, bytes.Contains(head, []byte("synctest bubble"))
}

var (
	goidMu  sync.Mutex
	goidBuf [160]byte // the header line, and a little of the next
)

// goroutineAlive reports whether a goroutine with id exists, from the
// headers of runtime.Stack for all goroutines. That stops the world and
// is proportional to the goroutines and their stacks: the watchdog
// calls it only for an adopted goroutine that kept the baton without a
// hook (see watch), which is usually one whose callback returned. A
// listing larger than aliveMax is not read: the goroutine is taken to
// be alive.
func goroutineAlive(id uint64) bool {
	aliveMu.Lock()
	defer aliveMu.Unlock()
	for {
		if aliveBuf == nil {
			aliveBuf = make([]byte, 64<<10)
		}
		n := runtime.Stack(aliveBuf, true)
		if n < len(aliveBuf) {
			return hasGoroutine(aliveBuf[:n], id)
		}
		if 2*len(aliveBuf) > aliveMax {
			return true
		}
		aliveBuf = make([]byte, 2*len(aliveBuf))
	}
}

// aliveMax bounds goroutineAlive's buffer, which is kept for the next
// call (rtlib's allocations are read as the program's uninstrumented
// bytes: one, not one per call).
const aliveMax = 16 << 20

var (
	aliveMu  sync.Mutex
	aliveBuf []byte
)

// hasGoroutine reports whether the runtime.Stack listing st has a
// goroutine with id.
func hasGoroutine(st []byte, id uint64) bool {
	var hdr [32]byte
	h := append(append(hdr[:0], "goroutine "...), strconv.FormatUint(id, 10)...)
	h = append(h, " ["...)
	for len(st) > 0 {
		if bytes.HasPrefix(st, h) {
			return true
		}
		i := bytes.Index(st, []byte("\n\ngoroutine "))
		if i < 0 {
			return false
		}
		st = st[i+2:]
	}
	return false
}
