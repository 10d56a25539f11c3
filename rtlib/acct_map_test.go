package rtlib

import (
	"testing"
	"unsafe"
)

// TestMapLayout: rtlib reads the running Go's maps as the runtime lays
// them out (mapLayoutOK), and groupSize gives the group of every shape
// of key and value: the control bytes, read with its stride, count the
// map's entries, table by table.
func TestMapLayout(t *testing.T) {
	if mapsOff {
		t.Fatal("mapLayoutOK: this Go's maps are not laid out as rtlib reads them")
	}
	check := func(name string, h *mapHdr, gs uintptr) {
		t.Helper()
		if h.dirLen == 0 {
			t.Fatalf("%s: still in its first group", name)
		}
		if !mapGroupsOK(h, gs) {
			t.Errorf("%s: groups of %d bytes do not hold its %d entries", name, gs, h.used)
		}
	}
	hdr := func(m any) *mapHdr { return *(**mapHdr)((*[2]unsafe.Pointer)(unsafe.Pointer(&m))[1]) }
	{
		m := map[int64]int64{}
		for i := range 500 {
			m[int64(i)] = 1
		}
		check("map[int64]int64", hdr(&m), groupSize[int64, int64]())
	}
	{
		m := map[string]int{}
		for i := range 500 {
			m[string(rune('a'+i%26))+string(rune(i))] = i
		}
		check("map[string]int", hdr(&m), groupSize[string, int]())
	}
	{
		m := map[int32]struct{}{}
		for i := range 500 {
			m[int32(i)] = struct{}{}
		}
		check("map[int32]struct{}", hdr(&m), groupSize[int32, struct{}]())
	}
	{
		m := map[int8]int8{}
		for i := range 200 {
			m[int8(i)] = 1
		}
		check("map[int8]int8", hdr(&m), groupSize[int8, int8]())
	}
	{
		m := map[[200]byte]int16{}
		for i := range 300 {
			m[[200]byte{byte(i), byte(i >> 8)}] = 1
		}
		check("map[[200]byte]int16 (keys out of line)", hdr(&m), groupSize[[200]byte, int16]())
	}
	{
		m := map[uint16][3]int64{}
		for i := range 500 {
			m[uint16(i)] = [3]int64{}
		}
		check("map[uint16][3]int64", hdr(&m), groupSize[uint16, [3]int64]())
	}
}
