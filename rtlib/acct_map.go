package rtlib

import (
	"cmp"
	"slices"
	"unsafe"
	"weak"
)

// Maps grow inside the runtime: an insert into a full table allocates
// a table of twice its capacity, or splits it into two, while the old
// one is live, and drops the old one; the directory of tables doubles
// as well. Those are small allocations by uninstrumented code as far as
// runtime/metrics can tell, read at censuses only: a map built and
// dropped was charged late and twice over (issue 36: 4.5 MiB for 2.3).
//
// The rewriter calls MapSeen after every statement that inserts into a
// map (m[k] = v, m[k] op= v, m[k]++). rtlib reads the map's tables (the
// layout of Go 1.24's maps, internal/runtime/maps, checked at start-up
// by mapLayoutOK): after a growth, the directory, tables and groups that
// are new are charged at the insert's line, objects of at least
// SPGO_TRACK bytes tracked (a weak pointer each), and those the map
// dropped are seen live at this point, so that a census finds them dead
// with the new ones charged (as a buffer's arrays, acct_buf.go). A map is
// read only when a growth is possible: after a reading, no table can
// grow before as many inserts as the fewest free slots of a table (the
// inserts are counted, since deletions hide them from the map's count).
// Maps still in their first group (8 entries) are not followed, nor are
// the keys and values of more than 128 bytes the runtime allocates one
// by one: their bytes are read at censuses, as before. When a reading
// (of small objects at a census, of large ones at a baton switch) ran
// since the last insert the hook saw, new parts may have been read
// already: they are not charged again (a map filled by uninstrumented
// code).

// mapHdr is internal/runtime/maps.Map.
type mapHdr struct {
	used              uint64
	seed              uintptr
	dirPtr            unsafe.Pointer
	dirLen            int
	globalDepth       uint8
	globalShift       uint8
	writing           uint8
	tombstonePossible bool
	clearSeq          uint64
}

// mapTable is internal/runtime/maps.table.
type mapTable struct {
	used       uint16
	capacity   uint16
	growthLeft uint16
	localDepth uint8
	index      int
	groups     unsafe.Pointer
	lengthMask uint64
}

// mapPart is an allocation of a map: its address and rounded size.
type mapPart struct {
	p uintptr
	n int64
}

// mapState is what rtlib knows of a map it follows.
type mapState struct {
	seed          uintptr // the map's hash seed: another map at the same address has another
	inserts, next int64   // inserts seen; a growth is possible from next on
	largeReads    int64   // mem.largeReads at the last insert seen
	censuses      int64   // mem.censuses likewise
	sum           uintptr // the parts' addresses, summed: a change shows a growth
	parts         []mapPart
	dirAt         uintptr            // its directory
	dir           weak.Pointer[byte] // the same: a census forgets the map once it died
	off           bool               // its groups are not as groupSize says: not followed

	// The last insert seen, in census interval iv: the map and its
	// parts were live there (a census finds the parts' deaths no earlier).
	seen seen
	at   int64
	iv   uint32
}

// mapStates holds the maps rtlib follows, by header address (the parts'
// records point to their map's state).
var mapStates = newTable[uintptr, *mapState](poolHash)

// mapsOff is set when the running Go's maps are not laid out as rtlib
// reads them: MapSeen does nothing.
var mapsOff = !mapLayoutOK()

// MapSeen is called after a statement that inserted into m at site.
func MapSeen[M ~map[K]V, K comparable, V any](site Site, m M) {
	if m == nil || mapsOff || inBubble() {
		return
	}
	h := *(**mapHdr)(unsafe.Pointer(&m))
	if h.dirLen == 0 {
		return // its first group only
	}
	held()
	key := uintptr(unsafe.Pointer(h))
	i := mapStates.find(key)
	if i >= 0 && mapStates.slots[i].val.seed == h.seed {
		st := mapStates.slots[i].val
		st.inserts++
		reads, cens := st.largeReads, st.censuses
		st.largeReads, st.censuses = mem.largeReads, mem.censuses
		if st.inserts >= st.next {
			mapRead(site, h, st, groupSize[K, V](), reads, cens)
		}
		if d := holderDnode(); d != nil {
			st.seen, st.at, st.iv = seenNow(d), mem.since, mem.interval
		}
		return
	}
	// First seen, or another map where a dead one was (a frame's): what
	// it holds was allocated where no hook saw it, and is read as such.
	st := &mapState{seed: h.seed, largeReads: mem.largeReads, censuses: mem.censuses}
	ownAlloc(int64(unsafe.Sizeof(*st)))
	if i >= 0 {
		st.parts = mapStates.slots[i].val.parts
	}
	gs := groupSize[K, V]()
	st.sum, st.next = mapParts(h, gs, &st.parts)
	st.dirAt, st.dir = uintptr(h.dirPtr), weak.Make((*byte)(h.dirPtr))
	mem.own += 16 // the weak handle, as allocp's
	st.off = !mapGroupsOK(h, gs)
	heldPut(&mapStates, key, st)
}

// groupSize is the size of a group of map[K]V: eight control bytes and
// eight slots of a key and a value (a pointer to one above 128 bytes).
func groupSize[K comparable, V any]() uintptr {
	var k K
	var v V
	ks, ka, vs, va := unsafe.Sizeof(k), unsafe.Alignof(k), unsafe.Sizeof(v), unsafe.Alignof(v)
	if ks > 128 {
		ks, ka = unsafe.Sizeof(uintptr(0)), unsafe.Alignof(uintptr(0))
	}
	if vs > 128 {
		vs, va = unsafe.Sizeof(uintptr(0)), unsafe.Alignof(uintptr(0))
	}
	slot := alignUp(ks, va) + vs
	if vs == 0 && slot > 0 {
		slot++ // a zero-size last field is padded
	}
	slot = alignUp(slot, max(ka, va))
	return 8 + 8*slot
}

func alignUp(n, a uintptr) uintptr { return (n + a - 1) &^ (a - 1) }

// mapParts lists h's directory, tables and groups in parts and returns
// their addresses summed and the inserts after which a table may grow
// (its fewest free slots, plus one).
func mapParts(h *mapHdr, gs uintptr, parts *[]mapPart) (sum uintptr, next int64) {
	ps := (*parts)[:0]
	ps = ownAppend(ps, mapPart{uintptr(h.dirPtr), roundSize(int64(h.dirLen) * 8)})
	sum = uintptr(h.dirPtr)
	dir := unsafe.Slice((**mapTable)(h.dirPtr), h.dirLen)
	least := int64(1 << 16)
	var last *mapTable
	for _, t := range dir {
		if t == last {
			continue
		}
		last = t
		ps = ownAppend(ps,
			mapPart{uintptr(unsafe.Pointer(t)), roundSize(int64(unsafe.Sizeof(*t)))},
			mapPart{uintptr(t.groups), roundSize(int64(t.lengthMask+1) * int64(gs))})
		sum += uintptr(unsafe.Pointer(t)) + uintptr(t.groups)
		least = min(least, int64(t.growthLeft))
	}
	*parts = ps
	return sum, least + 1
}

// mapRead reads the map h again, after an insert that may have grown it
// (see above): reads and cens are the readings' counts at the insert
// before.
func mapRead(site Site, h *mapHdr, st *mapState, gs uintptr, reads, cens int64) {
	old := ownAppend(mapScratch[:0], st.parts...)
	defer func() { mapScratch = old[:0] }()
	sum, next := mapParts(h, gs, &st.parts)
	st.next = st.inserts + next
	if sum == st.sum || st.off {
		return
	}
	st.sum = sum
	if uintptr(h.dirPtr) != st.dirAt {
		st.dirAt, st.dir = uintptr(h.dirPtr), weak.Make((*byte)(h.dirPtr))
		mem.own += 16
	}
	d := holderDnode()
	if d == nil || d.detached || cfg.census == censusOff {
		return
	}
	stackSeen(d) // before the charges go deep
	defer stackBeat()
	// The parts added and dropped: both lists by address, walked
	// together.
	byAddr := func(a, b mapPart) int { return cmp.Compare(a.p, b.p) }
	slices.SortFunc(old, byAddr)
	slices.SortFunc(st.parts, byAddr)
	dropped := mapDrops[:0]
	i := 0
	for _, p := range st.parts {
		for i < len(old) && old[i].p < p.p {
			dropped = ownAppend(dropped, old[i])
			i++
		}
		if i < len(old) && old[i].p == p.p {
			i++
			continue
		}
		large := p.n > maxSmall
		if large && reads != mem.largeReads || !large && cens != mem.censuses {
			continue // a reading since the last insert may have counted it
		}
		chargeGrowth(d, site, p.n, p.p, st)
	}
	dropped = ownAppend(dropped, old[i:]...)
	mapDropped(d, dropped)
	mapDrops = dropped[:0]
	if grownDue() {
		census(d, 0) // the dropped parts' deaths, after the new ones are charged
	}
}

// mapDropped sees the parts a growth dropped live right after it, as
// grown does an append's old array, and takes them out of their map:
// its next inserts do not see them live.
func mapDropped(d *dnode, dropped []mapPart) {
	if len(dropped) == 0 {
		return
	}
	for i := range mem.objs {
		o := &mem.objs[i]
		if o.owner == nil {
			continue
		}
		if a := uintptr(unsafe.Pointer(o.wp.Value())); a != 0 && mapHas(dropped, a) {
			o.seen, o.at, o.owner = seenNow(d), mem.since, nil
			mem.grown += o.bytes
		}
	}
}

// mapDrops is mapRead's list of dropped parts, reused.
var mapDrops []mapPart

// mapScratch is mapRead's copy of a map's parts, reused.
var mapScratch []mapPart

// mapHas reports whether parts holds the allocation at p.
func mapHas(parts []mapPart, p uintptr) bool {
	for _, q := range parts {
		if q.p == p {
			return true
		}
	}
	return false
}

// mapsPrune is called by a census after its collection: it forgets the
// maps whose directory died.
func mapsPrune() {
	pruneDead(&mapStates, func(v *mapState) bool { return v.dir.Value() == nil }, nil)
}

// mapLayoutOK builds a map and checks that rtlib reads it as the
// runtime laid it out: the entries counted by control bytes, table by
// table, are the map's.
func mapLayoutOK() bool {
	m := make(map[int64]int64)
	for i := range int64(3000) {
		m[i] = i
	}
	h := *(**mapHdr)(unsafe.Pointer(&m))
	if h.used != 3000 || h.dirLen < 2 || h.dirLen > 1<<10 || h.dirLen&(h.dirLen-1) != 0 {
		return false
	}
	return mapGroupsOK(h, groupSize[int64, int64]())
}

// mapGroupsOK reports whether h's tables hold, by their control bytes
// read with groups of gs bytes, as many entries as the map says.
func mapGroupsOK(h *mapHdr, gs uintptr) bool {
	var n uint64
	var last *mapTable
	for _, t := range unsafe.Slice((**mapTable)(h.dirPtr), h.dirLen) {
		if t == last {
			continue
		}
		last = t
		if t == nil || t.capacity == 0 || t.capacity > 1024 || uint64(t.capacity) != 8*(t.lengthMask+1) {
			return false
		}
		full := 0
		for g := range t.lengthMask + 1 {
			ctrl := *(*uint64)(unsafe.Add(t.groups, uintptr(g)*gs))
			for j := range 8 {
				if ctrl>>(8*j)&0x80 == 0 {
					full++
				}
			}
		}
		if full != int(t.used) {
			return false
		}
		n += uint64(t.used)
	}
	return n == h.used
}
