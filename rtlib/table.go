package rtlib

import "unsafe"

// table maps object addresses (and goroutine ids) to values, for the
// scheduler's and the DAG's per-object state (WaitGroups, groups, wait
// queues). It replaces a
// Go map for one reason: a map's memory grows when one of its inner
// tables fills, which depends on the hash seed, different in every run,
// so the runtime bytes a map allocates fell in different census
// intervals from run to run. A table's memory depends only on how many
// entries it holds: 2^k slots, doubled when an insertion would fill more
// than three quarters of them, never shrunk. Open addressing with linear
// probing; deletion shifts the following entries back (no tombstones).
//
// Keys are pointers or integers; an interface key must hold a pointer
// (ifaceHash hashes its data word). A pointer entry keeps its object
// alive, as a map's key would.
type table[K comparable, V any] struct {
	slots []tslot[K, V]
	shift uint // 64 − log2(len(slots))
	n     int
	hash  func(K) uintptr
}

type tslot[K comparable, V any] struct {
	used bool
	key  K
	val  V
}

// minSlots is a table's size at its first insertion.
const minSlots = 8

// ptrHash hashes a pointer key.
func ptrHash[E any](p *E) uintptr { return uintptr(unsafe.Pointer(p)) }

// addrHash hashes an unsafe.Pointer key.
func addrHash(p unsafe.Pointer) uintptr { return uintptr(p) }

// idHash hashes an integer key.
func idHash(k uint64) uintptr { return uintptr(k) }

// ifaceHash hashes an interface key that holds a pointer: its data word.
func ifaceHash[I any](k I) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&k))[1])
}

func newTable[K comparable, V any](hash func(K) uintptr) table[K, V] {
	return table[K, V]{hash: hash}
}

// home is k's first slot: the pointer's bits mixed (Fibonacci hashing),
// the top ones taken.
func (t *table[K, V]) home(k K) int {
	return int(uint64(t.hash(k)) * 0x9e3779b97f4a7c15 >> t.shift)
}

// find returns k's slot, or -1.
func (t *table[K, V]) find(k K) int {
	if t.n == 0 {
		return -1
	}
	mask := len(t.slots) - 1
	for i := t.home(k); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if !s.used {
			return -1
		}
		if s.key == k {
			return i
		}
	}
}

// get returns k's value and whether k is present.
func (t *table[K, V]) get(k K) (V, bool) {
	if i := t.find(k); i >= 0 {
		return t.slots[i].val, true
	}
	var zero V
	return zero, false
}

// at returns k's value, the zero value if k is absent.
func (t *table[K, V]) at(k K) V {
	v, _ := t.get(k)
	return v
}

// put sets k's value.
func (t *table[K, V]) put(k K, v V) {
	if i := t.find(k); i >= 0 {
		t.slots[i].val = v
		return
	}
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	t.insert(k, v)
	t.n++
}

func (t *table[K, V]) insert(k K, v V) {
	mask := len(t.slots) - 1
	i := t.home(k)
	for t.slots[i].used {
		i = (i + 1) & mask
	}
	t.slots[i] = tslot[K, V]{used: true, key: k, val: v}
}

func (t *table[K, V]) grow() {
	old := t.slots
	n := max(minSlots, 2*len(old))
	t.slots = make([]tslot[K, V], n)
	t.shift = 64
	for ; n > 1; n >>= 1 {
		t.shift--
	}
	for _, s := range old {
		if s.used {
			t.insert(s.key, s.val)
		}
	}
}

// del removes k, if present.
func (t *table[K, V]) del(k K) {
	i := t.find(k)
	if i < 0 {
		return
	}
	mask := len(t.slots) - 1
	// Backward shift: move later entries of the probe run into the hole
	// when their home is not between the hole and them.
	for j := (i + 1) & mask; t.slots[j].used; j = (j + 1) & mask {
		h := t.home(t.slots[j].key)
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = tslot[K, V]{}
	t.n--
}

// len is the number of entries.
func (t *table[K, V]) len() int { return t.n }
