package rtlib

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestTable runs random insertions, updates and deletions against a Go
// map, with pointer, interface and integer keys, and checks that the
// table's size depends only on the number of entries (two tables fed
// the same operations on different objects stay the same size).
func TestTable(t *testing.T) {
	type obj struct{ _ [24]byte }
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		nkeys := 1 + rng.IntN(300)
		a, b := make([]*obj, nkeys), make([]*obj, nkeys)
		for i := range a {
			a[i], b[i] = new(obj), new(obj)
		}
		ta := newTable[*obj, int](ptrHash)
		tb := newTable[any, int](ifaceHash)
		ti := newTable[uint64, int](idHash)
		ref := map[*obj]int{}
		for op := range 4000 {
			i := rng.IntN(nkeys)
			switch rng.IntN(3) {
			case 0, 1:
				ta.put(a[i], op)
				tb.put(any(b[i]), op)
				ti.put(uint64(i)*4096, op)
				ref[a[i]] = op
			case 2:
				ta.del(a[i])
				tb.del(any(b[i]))
				ti.del(uint64(i) * 4096)
				delete(ref, a[i])
			}
			if ta.len() != len(ref) || tb.len() != len(ref) || ti.len() != len(ref) {
				t.Fatalf("seed %d op %d: len %d, %d, %d, want %d", seed, op, ta.len(), tb.len(), ti.len(), len(ref))
			}
			if len(ta.slots) != len(tb.slots) || len(ta.slots) != len(ti.slots) {
				t.Fatalf("seed %d op %d: %d, %d and %d slots for the same operations", seed, op, len(ta.slots), len(tb.slots), len(ti.slots))
			}
		}
		for i := range nkeys {
			want, in := ref[a[i]]
			for name, tab := range map[string]func() (int, bool){
				"pointer":   func() (int, bool) { return ta.get(a[i]) },
				"interface": func() (int, bool) { return tb.get(any(b[i])) },
				"integer":   func() (int, bool) { return ti.get(uint64(i) * 4096) },
			} {
				if got, ok := tab(); ok != in || got != want {
					t.Fatalf("seed %d key %d (%s): %d %v, want %d %v", seed, i, name, got, ok, want, in)
				}
			}
		}
		if got := ta.at(new(obj)); got != 0 {
			t.Fatalf("absent key: %d", got)
		}
	}
}

// TestTableGrowth checks the size rule: 8 slots at the first entry,
// doubled when more than three quarters would be used, never shrunk.
func TestTableGrowth(t *testing.T) {
	tab := newTable[unsafe.Pointer, bool](addrHash)
	keys := make([][8]byte, 100)
	for i := range keys {
		tab.put(unsafe.Pointer(&keys[i]), true)
		n := i + 1
		want := minSlots
		for 4*n > 3*want {
			want *= 2
		}
		if len(tab.slots) != want {
			t.Fatalf("%d entries: %d slots, want %d", n, len(tab.slots), want)
		}
	}
	for i := range keys {
		tab.del(unsafe.Pointer(&keys[i]))
	}
	if tab.len() != 0 || len(tab.slots) != 256 {
		t.Fatalf("after deleting all: %d entries, %d slots", tab.len(), len(tab.slots))
	}
}
